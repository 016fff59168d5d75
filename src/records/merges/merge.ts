// A merge (ArchivesSpace's `assimilate`, backend/app/model/mixins/relationships.rb and trees.rb), for any record
// type: every link to a merged record (a victim), in every record of every type whose schema may link to it (the
// registry's ref paths), is re-pointed to the record it merges into (the target), list items that then say the same
// thing twice collapse to one, the victims' reciprocal links (an agent's related_agents) become the target's, a
// tree root's top-level nodes move under the target after its own, and the victims are deleted. Every record changed
// gets a new lock_version. All of it is one transaction: a failure anywhere leaves every record as it was.
import type { AnyBulkWriteOperation, ClientSession, ObjectId } from "mongodb";
import {
  linksAt,
  TREE_PARENT_FIELD,
  type JsonObject,
  type JsonValue,
  type RecordType,
  type RefPath,
} from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { findStored, recordFilter } from "../operations/locate.js";
import { shapeRecord } from "../operations/shape.js";
import { treeKeys } from "../trees/placement.js";
import { childCount, scopeFilter, type TreeNodeType } from "../trees/tree-links.js";
import { onBehalfOf, type Actor, type Scope } from "../types.js";
import { collapseMoved, relink } from "./relink.js";

/** A record named by a merge request, found by its uri. */
export interface MergeParty {
  type: RecordType;
  id: number;
  scope: Scope;
  uri: string;
}

/** Rewrites the target's fields once its links are merged (the agent detail merge's selections); may throw a 400. */
export type TargetAdjustment = (
  target: StoredRecord,
  victims: readonly StoredRecord[],
  session: ClientSession,
) => JsonObject | Promise<JsonObject>;

/** Referring records read and rewritten at a time: what the merge holds in memory however many records link. */
const CHUNK = 500;

interface Writer {
  session: ClientSession;
  actor: Actor;
  now: Date;
}

interface MergeContext extends Writer {
  target: MergeParty;
  /** Every victim's uri. */
  victims: ReadonlySet<string>;
  /** Where each adopted tree node goes, by node type, then by the node's _id (hex). */
  adoptions: Map<string, Map<string, number>>;
  /** The message of a merge ArchivesSpace would refuse (its `merge_request` field). */
  refuse: (message: string) => never;
  registry: OperationDeps["registry"];
}

/** The uri each ref path's link names, where it names a victim: what a cross-type merge must check. */
function victimLinks(doc: JsonObject, refPath: RefPath, victims: ReadonlySet<string>) {
  return linksAt(doc, refPath).filter((link) => victims.has(link.uri));
}

/**
 * Refuses a merge that would leave a link the schema does not allow: a victim of another type than the target
 * (a person merged into a corporate entity) named where only its own type may be (an assessment's surveyor, a
 * relationship kind only people have). ArchivesSpace refuses these too ("... to be merged has data for relationship
 * ..., but target record doesn't support it").
 */
function checkTargetAllowed(ctx: MergeContext, referrer: RecordType, refPath: RefPath, doc: JsonObject): void {
  const targetType = ctx.target.type.name;
  const links = victimLinks(doc, refPath, ctx.victims);
  if (links.length === 0) return;
  const uri = ctx.target.uri;
  if (!refPath.targets.includes(targetType))
    ctx.refuse(`${referrer.name} records link to a merged record at ${refPath.path}, which cannot link to ${uri}`);
  const [property, star] = refPath.segments;
  const declarations = referrer.reciprocalLinks.filter((link) => link.property === property && star === "*");
  if (declarations.length === 0) return;
  for (const link of links) {
    const item = (doc[property as string] as JsonValue[])[Number(link.path.split("/")[1])] as JsonObject;
    const declaration = declarations.find(
      (candidate) => candidate.variant === undefined || item[candidate.variant.field] === candidate.variant.value,
    );
    if (declaration !== undefined && !declaration.targets.includes(targetType))
      ctx.refuse(`A ${String(declaration.variant?.value ?? property)} of ${referrer.name} cannot link to ${uri}`);
  }
}

/** The fields a changed record is stored with: its new lock_version and audit fields. */
function bumped(doc: StoredRecord, { actor, now }: Writer): StoredRecord {
  return {
    ...doc,
    lock_version: (doc.lock_version as number) + 1,
    system_mtime: now,
    last_modified_by: actor.username,
  };
}

/**
 * The top-level nodes of the victims' trees, given their places under the target after its own top-level nodes
 * (each victim's in their order, the victims in the request's), for every node type whose root is the target's type.
 * Serialized with every other change to those trees.
 */
async function adoptTopLevelNodes(
  deps: OperationDeps,
  target: MergeParty,
  victims: readonly MergeParty[],
  session: ClientSession,
): Promise<Map<string, Map<string, number>>> {
  const adoptions = new Map<string, Map<string, number>>();
  const nodeTypes = deps.registry.types.filter(
    (type): type is TreeNodeType => type.tree !== null && type.tree.rootType === target.type.name,
  );
  if (nodeTypes.length === 0) return adoptions;
  await deps.store.lockWithin(session, treeKeys(target.uri, ...victims.map((victim) => victim.uri)));
  for (const type of nodeTypes) {
    const places = new Map<string, number>();
    let next = await childCount(deps, type, target.scope, target.uri, session);
    for (const victim of victims) {
      const nodes = await deps.store
        .collection(type.name)
        .find(
          { ...scopeFilter(type, victim.scope), [TREE_PARENT_FIELD]: victim.uri },
          { projection: { _id: 1 }, sort: { [type.tree.position]: 1 }, session },
        )
        .toArray();
      for (const node of nodes) places.set(String(node._id), next++);
    }
    adoptions.set(type.name, places);
  }
  return adoptions;
}

/** Every ref path that may name a victim, grouped by the type holding it. */
function pathsByReferrer(deps: OperationDeps, victimTypes: ReadonlySet<string>): Map<string, RefPath[]> {
  const byType = new Map<string, RefPath[]>();
  for (const victimType of victimTypes) {
    for (const { type, refPath } of deps.registry.linksTo(victimType)) {
      const paths = byType.get(type) ?? [];
      if (!paths.includes(refPath)) paths.push(refPath);
      byType.set(type, paths);
    }
  }
  return byType;
}

/**
 * Re-points the links of every record of `referrer` that names a victim (the target and the victims aside: they are
 * written by the caller), a chunk at a time. @returns how many records were rewritten
 */
async function relinkReferrers(
  deps: OperationDeps,
  ctx: MergeContext,
  referrer: RecordType,
  paths: readonly RefPath[],
): Promise<number> {
  const collection = deps.store.collection(referrer.name);
  const { session } = ctx;
  const victimUris = [...ctx.victims];
  // Only the _ids first: the records themselves are read a chunk at a time.
  const ids = new Map<string, ObjectId>();
  for (const refPath of paths) {
    const found = await collection
      .find({ [refPath.mongoPath]: { $in: victimUris } }, { projection: { _id: 1 }, session })
      .toArray();
    for (const { _id } of found) ids.set(String(_id), _id as ObjectId);
  }
  const adoptions = ctx.adoptions.get(referrer.name);
  const crossType = [...ctx.victims].some((uri) => deps.registry.parseUri(uri)?.type !== ctx.target.type.name);
  const all = [...ids.values()];
  let rewritten = 0;
  for (let start = 0; start < all.length; start += CHUNK) {
    const docs = await collection.find({ _id: { $in: all.slice(start, start + CHUNK) } }, { session }).toArray();
    const writes: AnyBulkWriteOperation<StoredRecord>[] = [];
    const changed: StoredRecord[] = [];
    for (const doc of docs) {
      const uri = deps.registry.uriFor(referrer.name, doc.id, doc.repo_id);
      if (uri === ctx.target.uri || ctx.victims.has(uri)) continue;
      let touched = false;
      for (const refPath of paths) {
        if (crossType) checkTargetAllowed(ctx, referrer, refPath, doc as JsonObject);
        if (relink(doc as JsonObject, refPath, ctx.victims, ctx.target.uri).repointed > 0) touched = true;
      }
      const place = adoptions?.get(String(doc._id));
      if (place !== undefined && referrer.tree !== null) {
        doc[TREE_PARENT_FIELD] = ctx.target.uri;
        doc[referrer.tree.position] = place;
        touched = true;
      }
      if (!touched) continue;
      const { _id, ...fields } = bumped(doc, ctx);
      writes.push({ replaceOne: { filter: { _id }, replacement: fields } });
      changed.push(doc);
    }
    if (writes.length > 0) await collection.bulkWrite(writes, { session, ordered: true });
    for (const doc of changed) {
      await deps.changes.written(
        { type: referrer.name, operation: "update", id: doc.id, scope: { repoId: doc.repo_id } },
        session,
      );
    }
    rewritten += changed.length;
  }
  return rewritten;
}

/**
 * The target with its own links re-pointed (it may name a victim: a relationship between two duplicates, a note's
 * reference) and the victims' reciprocal link items added; an item that would name the target itself is dropped
 * (two merged records' relationship to each other has no other side left).
 */
function mergedTarget(
  ctx: MergeContext,
  target: StoredRecord,
  victims: readonly StoredRecord[],
  ownPaths: readonly RefPath[],
): StoredRecord {
  // structuredClone would turn the ObjectId into a plain object that matches nothing: it is kept as it is.
  const { _id, ...fields } = target;
  const doc = { ...structuredClone(fields), _id } as StoredRecord & JsonObject;
  for (const refPath of ownPaths) relink(doc, refPath, ctx.victims, ctx.target.uri);
  const type = ctx.target.type;
  const properties = new Set(type.reciprocalLinks.map((link) => link.property));
  const isOther = (item: JsonValue) => {
    const ref = (item as JsonObject | null)?.ref;
    return typeof ref === "string" && ref !== ctx.target.uri && !ctx.victims.has(ref);
  };
  for (const property of properties) {
    const own = Array.isArray(doc[property]) ? (doc[property] as JsonValue[]) : [];
    const kept = own.filter(isOther);
    const moved: JsonValue[] = [];
    for (const victim of victims) {
      const items = victim[property];
      if (!Array.isArray(items)) continue;
      for (const item of items as JsonValue[]) {
        if (!isOther(item)) continue;
        const variant = type.reciprocalLinks.find(
          (link) =>
            link.property === property &&
            (link.variant === undefined || (item as JsonObject)[link.variant.field] === link.variant.value),
        );
        const other = ctx.registry.parseUri((item as JsonObject).ref as string)?.type;
        if (variant === undefined || other === undefined || !variant.targets.includes(other))
          ctx.refuse(
            `A ${String((item as JsonObject).jsonmodel_type)} in ${property} cannot be merged into ${type.name}`,
          );
        moved.push(structuredClone(item));
      }
    }
    const list = [...kept, ...moved];
    collapseMoved(list, new Set(moved.map((_item, index) => kept.length + index)));
    if (list.length > 0 || own.length > 0) doc[property] = list;
  }
  return doc;
}

/** Deletes the victims, each as a delete of its type (its hooks asked first), once nothing links to them. */
async function deleteVictims(
  deps: OperationDeps,
  ctx: MergeContext,
  victims: readonly MergeParty[],
  docs: readonly StoredRecord[],
): Promise<void> {
  for (const [index, victim] of victims.entries()) {
    const hooks = deps.hooks.of(victim.type.name);
    if (hooks?.beforeDelete !== undefined) {
      const record = shapeRecord(deps.registry, victim.type, docs[index] as StoredRecord, onBehalfOf(ctx.actor));
      await hooks.beforeDelete({
        type: victim.type.name,
        id: victim.id,
        scope: victim.scope,
        record,
        actor: onBehalfOf(ctx.actor),
        session: ctx.session,
      });
    }
    await deps.store
      .collection(victim.type.name)
      .deleteOne(recordFilter(victim.type, victim.id, victim.scope), { session: ctx.session });
    await deps.changes.written(
      { type: victim.type.name, operation: "delete", id: victim.id, scope: victim.scope },
      ctx.session,
    );
  }
}

export interface MergeOutcome {
  /** Records other than the target whose links were re-pointed. */
  relinked: number;
  /** The target as stored after the merge. */
  target: StoredRecord;
}

/**
 * Merges `victims` into `target` in one transaction (retried whole on a transient conflict, so everything is read
 * inside it). `refuse` throws the route's 400 for a merge the schemas do not allow; `adjust` rewrites the target's
 * fields last (the agent detail merge).
 * @throws ApiError 404 when a record is missing, 400 from `refuse`, whatever `adjust` throws
 */
export function mergeRecords(
  deps: OperationDeps,
  target: MergeParty,
  victims: readonly MergeParty[],
  actor: Actor,
  refuse: (message: string) => never,
  adjust?: TargetAdjustment,
): Promise<MergeOutcome> {
  return deps.store.transaction(async (session) => {
    const now = deps.now();
    const targetDoc = await findStored(deps, target.type, target.id, target.scope, session);
    const victimDocs: StoredRecord[] = [];
    for (const victim of victims)
      victimDocs.push(await findStored(deps, victim.type, victim.id, victim.scope, session));
    const adoptions = await adoptTopLevelNodes(deps, target, victims, session);
    const ctx: MergeContext = {
      session,
      actor,
      now,
      target,
      victims: new Set(victims.map((victim) => victim.uri)),
      adoptions,
      refuse,
      registry: deps.registry,
    };
    const byReferrer = pathsByReferrer(deps, new Set(victims.map((victim) => victim.type.name)));
    let relinked = 0;
    for (const [referrer, paths] of byReferrer)
      relinked += await relinkReferrers(deps, ctx, deps.registry.get(referrer), paths);
    let merged = mergedTarget(ctx, targetDoc, victimDocs, byReferrer.get(target.type.name) ?? []);
    if (adjust !== undefined) {
      const fields = await adjust(merged, victimDocs, session);
      merged = { ...fields, ...storageOf(targetDoc), _id: targetDoc._id, id: targetDoc.id };
    }
    const written = bumped(merged, ctx);
    const { _id, ...fields } = written;
    await deps.store.collection(target.type.name).replaceOne({ _id }, fields, { session });
    await deps.changes.written(
      { type: target.type.name, operation: "update", id: target.id, scope: target.scope },
      session,
    );
    await deleteVictims(deps, ctx, victims, victimDocs);
    return { relinked, target: written };
  });
}

/** What the store keeps of a record beside its fields, which an adjusted target keeps as it was. */
function storageOf(doc: StoredRecord): JsonObject {
  const fields = ["id", "repo_id", "lock_version", "created_by", "create_time", TREE_PARENT_FIELD];
  return Object.fromEntries(fields.filter((field) => doc[field] !== undefined).map((field) => [field, doc[field]]));
}
