// Repository transfer (ArchivesSpace's POST <record>/transfer?target_repo=): the record and what moves with it
// (transfer-plan.ts) go to another repository in one transaction. Records keep their ids (ids are per type, not per
// repository), so only the repository part of each uri changes, and every link follows ArchivesSpace's rules:
// - links between moving records, and from global records (agents), are rewritten to the new uris;
// - a link between a moving record and a record left behind is removed from whichever holds it (ArchivesSpace
//   clears such relationships), except where the plan copies the target ("move-or-copy": the moving records link
//   to the copy) or splits the holder ("split": the copy in the new repository keeps the links to moving records);
// - every record changed gets a new lock_version; copies start at 0.
// A failure anywhere (a duplicate identifier in the target repository: 409) leaves every record as it was.
import { isDeepStrictEqual } from "node:util";
import type { ClientSession, UpdateFilter } from "mongodb";
import { assertMay } from "../../auth/operation-access.js";
import { hasPermission } from "../../auth/permissions.js";
import { accessDenied, badRequest, conflict } from "../../errors/api-error.js";
import { TREE_PARENT_FIELD, linksAt, type JsonObject, type JsonValue, type RecordType } from "../../registry/index.js";
import { duplicateKeyPattern, type StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { treeKeys } from "../trees/placement.js";
import type { Actor, Scope } from "../types.js";
import { removeLinksTo } from "./links.js";
import { findStored, permittedType } from "./locate.js";
import { createStamp, updateStamp } from "./stamps.js";
import { linkingRecords, planTransfer, type Moving, type TransferPlan } from "./transfer-plan.js";

/** What ArchivesSpace's staff interface asks of whoever transfers a record, in the record's repository. */
export const TRANSFER_PERMISSION = "transfer_archival_record";

/** ArchivesSpace's `moved_response`. */
export interface TransferResult {
  status: "Moved";
  id: number;
  target: number;
}

/** The target repository's id, once it is a repository records may go to; else 400 naming `target_repo`. */
async function targetRepository(deps: OperationDeps, targetRepoId: number | undefined): Promise<number> {
  const holder = deps.registry.scopeHolderType();
  const found =
    targetRepoId !== undefined &&
    !holder.hiddenIds.includes(targetRepoId) &&
    (await deps.store.collection(holder.name).findOne({ id: targetRepoId }, { projection: { _id: 1 } })) !== null;
  if (!found || targetRepoId === undefined) throw badRequest({ target_repo: ["Repository not found"] });
  return targetRepoId;
}

/**
 * Moves record `id` of `typeName` from `scope` to repository `targetRepoId` (undefined: a `target_repo` that names no
 * repository). Needs the type's update permission in both repositories, as ArchivesSpace's endpoint does, and
 * transfer_archival_record in the source, as its staff interface does.
 */
export async function transferRecord(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  targetRepoId: number | undefined,
  actor: Actor,
): Promise<TransferResult> {
  const type = permittedType(deps, typeName, scope, actor, "update");
  if (actor.kind === "user" && !hasPermission(actor.permissions, TRANSFER_PERMISSION, scope.repoId))
    throw accessDenied();
  await findStored(deps, type, id, scope);
  const target = await targetRepository(deps, targetRepoId);
  assertMay(actor, type, "update", target);
  const source = scope.repoId as number;
  if (target === source) throw badRequest({ target_repo: ["The record is already in that repository"] });
  try {
    return await deps.store.transaction(async (session) => {
      const doc = await findStored(deps, type, id, scope, session);
      const plan = await planTransfer(deps, session, { type, doc }, source, target);
      // Tree writers serialize on their root: none may add a node under a root while it moves.
      const roots = [...plan.moving].filter(([, { type: moving }]) => deps.registry.treeNodeTypeOf(moving.name));
      await deps.store.lockWithin(session, treeKeys(...roots.map(([uri]) => uri)));
      await new TransferWrites(deps, session, plan, actor).apply();
      return { status: "Moved" as const, id, target };
    });
  } catch (error) {
    const pattern = duplicateKeyPattern(error);
    if (pattern === undefined) throw error;
    const fields = Object.keys(pattern).filter((field) => field !== "repo_id" && field !== "id");
    throw conflict(`A record with the same ${fields.join(", ")} is already in the target repository`);
  }
}

/** Sets the string at a slash path of `record` (list positions as numbers), as linksAt spelled it. */
function setAt(record: JsonObject, path: string, value: string): void {
  const segments = path.split("/");
  let at: JsonValue | undefined = record;
  for (const segment of segments.slice(0, -1)) {
    if (at === null || typeof at !== "object") return;
    at = Array.isArray(at) ? at[Number(segment)] : (at as JsonObject)[segment];
  }
  const last = segments[segments.length - 1] as string;
  if (Array.isArray(at)) at[Number(last)] = value;
  else if (at !== null && typeof at === "object") (at as Record<string, JsonValue>)[last] = value;
}

type Doc = StoredRecord & JsonObject;

class TransferWrites {
  /** Old uri -> new uri of every moving record. */
  private readonly renamed = new Map<string, string>();
  /** What links held by records in the new repository follow: the moves, and the copies of shared targets. */
  private readonly inTarget = new Map<string, string>();
  /** Updates by type and change, each with the records it applies to (see `change`). */
  private readonly updates = new Map<
    string,
    { type: string; update: UpdateFilter<StoredRecord>; docs: StoredRecord[] }
  >();
  private readonly inserted = new Map<string, StoredRecord[]>();
  private readonly now: Date;

  constructor(
    private readonly deps: OperationDeps,
    private readonly session: ClientSession,
    private readonly plan: TransferPlan,
    private readonly actor: Actor,
  ) {
    this.now = deps.now();
  }

  async apply(): Promise<void> {
    const { registry } = this.deps;
    for (const [uri, { type, doc }] of this.plan.moving)
      this.renamed.set(uri, registry.uriFor(type.name, doc.id, this.plan.target));
    for (const [uri, target] of this.renamed) this.inTarget.set(uri, target);
    for (const [uri, entry] of this.plan.copied) this.inTarget.set(uri, await this.copyOf(entry));
    for (const { type, doc } of this.plan.moving.values()) {
      const moved = structuredClone(doc) as Doc;
      this.relink(type, moved);
      moved.repo_id = this.plan.target;
      this.change(type, doc, moved);
    }
    for (const { moving, refPath } of this.plan.split) {
      const { _id, ...fields } = structuredClone(moving.doc);
      const copy = fields as Doc;
      for (const { uri } of linksAt(copy, refPath)) if (!this.plan.moving.has(uri)) removeLinksTo(copy, refPath, uri);
      this.relink(moving.type, copy);
      await this.insert(moving.type, copy);
    }
    await this.unlinkLeftBehind();
    await this.write();
  }

  /**
   * Points the links of a record bound for the target repository there: a moving record's or a copy's uri where it
   * has one; a link to any other record of the source repository is removed.
   */
  private relink(type: RecordType, record: Doc): void {
    const { registry } = this.deps;
    for (const refPath of type.refPaths) {
      const removed: string[] = [];
      for (const link of linksAt(record, refPath)) {
        const to = this.inTarget.get(link.uri);
        if (to !== undefined) setAt(record, link.path, to);
        else if (registry.parseUri(link.uri)?.repoId === this.plan.source) removed.push(link.uri);
      }
      for (const uri of removed) removeLinksTo(record, refPath, uri);
    }
    const parent = record[TREE_PARENT_FIELD];
    if (typeof parent === "string") record[TREE_PARENT_FIELD] = this.inTarget.get(parent) ?? parent;
  }

  /**
   * The uri the moving records' links to a shared "move-or-copy" target take: a record of the target repository
   * with the same repository-unique values (a top container's barcode), as ArchivesSpace looks one up, else a copy.
   */
  private async copyOf({ type, doc }: Moving): Promise<string> {
    for (const rule of type.unique) {
      if (rule.scope !== "repository" || rule.within.length > 0) continue;
      if (!rule.fields.every((field) => doc[field] !== undefined && doc[field] !== null)) continue;
      const same = Object.fromEntries(rule.fields.map((field) => [field, doc[field] as unknown]));
      const found = await this.deps.store
        .collection(type.name)
        .findOne({ ...same, repo_id: this.plan.target }, { projection: { id: 1 }, session: this.session });
      if (found) return this.deps.registry.uriFor(type.name, found.id, this.plan.target);
    }
    const { _id, ...fields } = structuredClone(doc);
    const copy = fields as Doc;
    this.relink(type, copy);
    return this.insert(type, copy);
  }

  /** A new record of `type` in the target repository holding `fields`; returns its uri. */
  private async insert(type: RecordType, fields: Doc): Promise<string> {
    const id = await this.deps.store.nextId(type.name);
    const record = {
      ...fields,
      id,
      repo_id: this.plan.target,
      lock_version: 0,
      ...createStamp(this.actor, this.now),
    } as StoredRecord;
    const list = this.inserted.get(type.name) ?? [];
    this.inserted.set(type.name, [...list, record]);
    return this.deps.registry.uriFor(type.name, id, this.plan.target);
  }

  /**
   * Records the change of `before` into `after` as the top-level fields that differ: records whose changes are the
   * same (a tree's siblings: the same new root and parent) are written by one updateMany, which the engine applies
   * in a transaction at a fraction of the cost of one replace per record.
   */
  private change(type: RecordType, before: StoredRecord, after: Doc): void {
    const $set: Record<string, unknown> = {}; // keys: the record's own top-level field names
    const $unset: Record<string, ""> = {};
    for (const [field, value] of Object.entries(after))
      if (field !== "_id" && !isDeepStrictEqual(value, before[field])) $set[field] = value;
    for (const field of Object.keys(before)) if (!Object.hasOwn(after, field)) $unset[field] = "";
    const update: UpdateFilter<StoredRecord> = {
      $set: { ...$set, ...updateStamp(this.actor, this.now) },
      ...(Object.keys($unset).length > 0 ? { $unset } : {}),
      $inc: { lock_version: 1 },
    };
    const key = `${type.name} ${JSON.stringify([$set, $unset])}`;
    const group = this.updates.get(key) ?? { type: type.name, update, docs: [] as StoredRecord[] };
    group.docs.push(before);
    this.updates.set(key, group);
  }

  /**
   * The records that stay where they are but link to moving ones: a global record's links are rewritten, a
   * repository record's removed (split holders included: their copies took those links along).
   */
  private async unlinkLeftBehind(): Promise<void> {
    const { registry } = this.deps;
    const changed = new Map<string, { type: RecordType; doc: Doc }>();
    const original = new Map<Doc, StoredRecord>();
    const grouped = new Map<string, string[]>();
    for (const [uri, { type }] of this.plan.moving) grouped.set(type.name, [...(grouped.get(type.name) ?? []), uri]);
    for (const [typeName, uris] of grouped) {
      for (const { type: referrerName, refPath } of registry.linksTo(typeName)) {
        // Whatever links to a moving record by a cascading link moves with it (transfer-plan.ts).
        if (refPath.onTargetDelete === "cascade") continue;
        const referrer = registry.get(referrerName);
        const docs = await linkingRecords(this.deps, this.session, referrer, refPath, uris, this.plan.source);
        for (const found of docs) {
          const uri = registry.uriFor(referrer.name, found.id, found.repo_id);
          if (this.plan.moving.has(uri)) continue;
          let entry = changed.get(uri);
          if (entry === undefined) {
            entry = { type: referrer, doc: structuredClone(found) as Doc };
            original.set(entry.doc, found);
            changed.set(uri, entry);
          }
          const removed: string[] = [];
          for (const link of linksAt(entry.doc, refPath)) {
            const to = this.renamed.get(link.uri);
            if (to === undefined) continue;
            if (referrer.scope === "global") setAt(entry.doc, link.path, to);
            else removed.push(link.uri);
          }
          for (const gone of removed) removeLinksTo(entry.doc, refPath, gone);
        }
      }
    }
    for (const { type, doc } of changed.values()) this.change(type, original.get(doc) as StoredRecord, doc);
  }

  private async write(): Promise<void> {
    const { store, changes } = this.deps;
    for (const { type: typeName, update, docs } of this.updates.values()) {
      // By the id index ({repo_id, id}): the records of one update are all in one repository.
      const first = docs[0] as StoredRecord;
      const filter = {
        ...(first.repo_id === undefined ? {} : { repo_id: first.repo_id }),
        id: { $in: docs.map((doc) => doc.id) },
      };
      await store.collection(typeName).updateMany(filter, update, { session: this.session });
      for (const doc of docs) {
        const uri = this.deps.registry.uriFor(typeName, doc.id, doc.repo_id);
        if (this.plan.moving.has(uri)) {
          // Its old uri is gone (ArchivesSpace leaves a tombstone there) and a new one is there.
          const gone = {
            type: typeName,
            operation: "delete" as const,
            id: doc.id,
            scope: { repoId: this.plan.source },
          };
          await changes.written(gone, this.session);
          const scope = { repoId: this.plan.target };
          await changes.written({ type: typeName, operation: "create", id: doc.id, scope }, this.session);
        } else
          await changes.written(
            { type: typeName, operation: "update", id: doc.id, scope: { repoId: doc.repo_id } },
            this.session,
          );
      }
    }
    for (const [typeName, docs] of this.inserted) {
      await store.collection(typeName).insertMany(docs, { session: this.session });
      for (const doc of docs)
        await changes.written(
          { type: typeName, operation: "create", id: doc.id, scope: { repoId: doc.repo_id } },
          this.session,
        );
    }
  }
}
