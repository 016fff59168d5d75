// What a repository transfer moves (docs/api.md, Transfers), worked out from the schemas' links alone:
// - the record, and every record whose `cascade` link names a moving one (a resource's archival objects, a digital
//   object's components): what cannot exist without it goes with it;
// - targets of `x-on-transfer` links held by moving records: "move" (a digital object named by an instance) goes
//   along when only moving records link to it that way, else the transfer is refused (409, ArchivesSpace's
//   DIGITAL_OBJECT_IN_USE); "move-or-copy" (a top container) goes along, else the moving records get a copy;
// - holders of `x-on-target-transfer: "split"` links (events, assessments): a holder whose links there all name
//   moving records goes along; the others are split (transfer.ts).
// Every query is by link path with `$in` over the uris found so far, so the plan costs a few queries per level of
// links, not one per record.
import type { ClientSession } from "mongodb";
import { ApiError } from "../../errors/api-error.js";
import { linksAt, type RecordType, type RefPath } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";

/** A record the transfer moves, as it is stored now. */
export interface Moving {
  type: RecordType;
  doc: StoredRecord;
}

export interface TransferPlan {
  source: number;
  target: number;
  /** Every moving record by its current uri. */
  moving: Map<string, Moving>;
  /** Targets of "move-or-copy" links that records left behind also use: the moving records get a copy of each. */
  copied: Map<string, Moving>;
  /** Records left behind whose "split" links name moving records among others. */
  split: Array<{ moving: Moving; refPath: RefPath }>;
}

interface Context {
  deps: OperationDeps;
  session: ClientSession;
  plan: TransferPlan;
}

/** The uris of `records`, grouped by type name. */
function byType(records: Iterable<[string, Moving]>): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const [uri, { type }] of records) {
    const list = grouped.get(type.name);
    if (list === undefined) grouped.set(type.name, [uri]);
    else list.push(uri);
  }
  return grouped;
}

/**
 * The most uris one `$in` names. The engine matches `$in` against a list by comparing with each item, so `$in` over
 * the 10,000 uris of a large tree, on a path no index serves, costs 10,000 x the records scanned; past this bound
 * the query asks for the records holding the path at all, and they are matched against a Set here.
 */
const MAX_IN = 100;

/** The records of `referrer` in `repoId` (anywhere, for a global type) linking to any of `uris` along `refPath`. */
export async function linkingRecords(
  deps: OperationDeps,
  session: ClientSession,
  referrer: RecordType,
  refPath: RefPath,
  uris: readonly string[],
  repoId: number,
): Promise<StoredRecord[]> {
  const filter: Record<string, unknown> = {
    [refPath.mongoPath]: uris.length <= MAX_IN ? { $in: [...uris] } : { $exists: true },
  };
  if (referrer.scope === "repository") filter.repo_id = repoId;
  const docs = await deps.store.collection(referrer.name).find(filter, { session }).toArray();
  if (uris.length <= MAX_IN) return docs;
  const wanted = new Set(uris);
  return docs.filter((doc) => linksAt(doc, refPath).some(({ uri }) => wanted.has(uri)));
}

/** Records of `referrer` in the source repository (anywhere, for a global type) linking to `uris` along `refPath`. */
function referrersOf(
  { deps, session, plan }: Context,
  referrer: RecordType,
  refPath: RefPath,
  uris: readonly string[],
): Promise<StoredRecord[]> {
  return linkingRecords(deps, session, referrer, refPath, uris, plan.source);
}

/** Adds the records that link to `frontier` by a cascading link, and theirs, to the plan; returns all added. */
async function addDependants(ctx: Context, frontier: Map<string, Moving>): Promise<Map<string, Moving>> {
  const { deps, plan } = ctx;
  const added = new Map<string, Moving>();
  let level = frontier;
  while (level.size > 0) {
    const next = new Map<string, Moving>();
    for (const [typeName, uris] of byType(level)) {
      for (const { type: referrerName, refPath } of deps.registry.linksTo(typeName)) {
        if (refPath.onTargetDelete !== "cascade") continue;
        const referrer = deps.registry.get(referrerName);
        for (const doc of await referrersOf(ctx, referrer, refPath, uris)) {
          const uri = deps.registry.uriFor(referrer.name, doc.id, doc.repo_id);
          if (plan.moving.has(uri)) continue;
          const entry = { type: referrer, doc };
          plan.moving.set(uri, entry);
          next.set(uri, entry);
          added.set(uri, entry);
        }
      }
    }
    level = next;
  }
  return added;
}

/** The targets in the source repository of the `x-on-transfer` links `records` hold, with the rule of each. */
function transferTargets(ctx: Context, records: Map<string, Moving>): Map<string, RefPath> {
  const { deps, plan } = ctx;
  const targets = new Map<string, RefPath>();
  for (const { type, doc } of records.values()) {
    for (const refPath of type.refPaths) {
      if (refPath.onTransfer === undefined) continue;
      for (const { uri } of linksAt(doc, refPath)) {
        if (plan.moving.has(uri) || deps.registry.parseUri(uri)?.repoId !== plan.source) continue;
        targets.set(uri, refPath);
      }
    }
  }
  return targets;
}

/**
 * Decides each `x-on-transfer` target of `records`: it moves when only moving records link to it by a link with a
 * transfer rule (how ArchivesSpace counts: instances for a digital object, sub-containers for a top container);
 * otherwise "move-or-copy" copies it and "move" refuses the transfer. Returns the targets that move.
 */
async function addFollowers(ctx: Context, records: Map<string, Moving>): Promise<Map<string, Moving>> {
  const { deps, session, plan } = ctx;
  const targets = transferTargets(ctx, records);
  const added = new Map<string, Moving>();
  if (targets.size === 0) return added;
  // uri of a target -> the records left behind that use it
  const usedOutside = new Map<string, Set<string>>();
  const inUse = new Map<string, string[]>(); // keys: uris of records left behind; values: their messages
  for (const [typeName, uris] of byTypeOfUris(ctx, targets.keys())) {
    for (const { type: referrerName, refPath } of deps.registry.linksTo(typeName)) {
      if (refPath.onTransfer === undefined) continue;
      const referrer = deps.registry.get(referrerName);
      const wanted = new Set(uris);
      for (const doc of await referrersOf(ctx, referrer, refPath, uris)) {
        const holder = deps.registry.uriFor(referrer.name, doc.id, doc.repo_id);
        if (plan.moving.has(holder)) continue;
        for (const { uri } of linksAt(doc, refPath)) {
          if (!wanted.has(uri)) continue;
          const users = usedOutside.get(uri) ?? new Set<string>();
          usedOutside.set(uri, users.add(holder));
          if (refPath.onTransfer === "move")
            inUse.set(holder, [`${refPath.segments[0] ?? ""}: ${typeName.toUpperCase()}_IN_USE`]);
        }
      }
    }
    const found = await deps.store
      .collection(typeName)
      .find(
        { repo_id: plan.source, id: { $in: uris.flatMap((uri) => deps.registry.parseUri(uri)?.id ?? []) } },
        {
          session,
        },
      )
      .toArray();
    for (const doc of found) {
      const uri = deps.registry.uriFor(typeName, doc.id, doc.repo_id);
      const entry = { type: deps.registry.get(typeName), doc };
      if (!usedOutside.has(uri)) {
        plan.moving.set(uri, entry);
        added.set(uri, entry);
      } else if (targets.get(uri)?.onTransfer === "move-or-copy") plan.copied.set(uri, entry);
    }
  }
  if (inUse.size > 0) throw transferConflict(inUse);
  return added;
}

/** ArchivesSpace's TransferConstraintError: 409 naming each record in the way and why. */
export function transferConflict(problems: Map<string, string[]>): ApiError {
  // Keys: uris the server built.
  return new ApiError(409, Object.fromEntries(problems));
}

function byTypeOfUris(ctx: Context, uris: Iterable<string>): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const uri of uris) {
    const parsed = ctx.deps.registry.parseUri(uri);
    if (parsed === undefined) continue;
    grouped.set(parsed.type, [...(grouped.get(parsed.type) ?? []), uri]);
  }
  return grouped;
}

/**
 * The holders of "split" links to moving records: each whose links there all name moving records moves too (with its
 * own dependants); the others are split. Runs once the rest of the plan is settled.
 */
async function settleSplits(ctx: Context): Promise<void> {
  const { deps, plan } = ctx;
  const seen = new Set<string>();
  const joining = new Map<string, Moving>();
  for (const [typeName, uris] of byType(plan.moving)) {
    for (const { type: referrerName, refPath } of deps.registry.linksTo(typeName)) {
      if (refPath.onTargetTransfer !== "split") continue;
      const referrer = deps.registry.get(referrerName);
      for (const doc of await referrersOf(ctx, referrer, refPath, uris)) {
        const uri = deps.registry.uriFor(referrer.name, doc.id, doc.repo_id);
        if (plan.moving.has(uri) || seen.has(`${uri} ${refPath.path}`)) continue;
        seen.add(`${uri} ${refPath.path}`);
        const entry = { type: referrer, doc };
        if (linksAt(doc, refPath).every(({ uri: linked }) => plan.moving.has(linked))) joining.set(uri, entry);
        else plan.split.push({ moving: entry, refPath });
      }
    }
  }
  // A holder split along one path but wholly moving along another moves whole: its links stay together.
  plan.split = plan.split.filter(
    ({ moving }) => !joining.has(deps.registry.uriFor(moving.type.name, moving.doc.id, moving.doc.repo_id)),
  );
  for (const [uri, entry] of joining) plan.moving.set(uri, entry);
  if (joining.size > 0) await addDependants(ctx, joining);
}

/** The plan of moving `root` (stored, of `type`) from repository `source` to `target`. */
export async function planTransfer(
  deps: OperationDeps,
  session: ClientSession,
  root: Moving,
  source: number,
  target: number,
): Promise<TransferPlan> {
  const rootUri = deps.registry.uriFor(root.type.name, root.doc.id, source);
  const plan: TransferPlan = { source, target, moving: new Map([[rootUri, root]]), copied: new Map(), split: [] };
  const ctx: Context = { deps, session, plan };
  let frontier = new Map([[rootUri, root]]);
  while (frontier.size > 0) {
    const dependants = await addDependants(ctx, frontier);
    const followers = await addFollowers(ctx, new Map([...frontier, ...dependants]));
    frontier = followers;
  }
  await settleSplits(ctx);
  return plan;
}
