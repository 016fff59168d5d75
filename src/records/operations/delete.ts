// Delete (docs/api.md §4): what links to the record follows its link's rule. "restrict" refuses
// with 409 naming the blocker (checked before anything changes, so a refused delete changes
// nothing); "remove" takes the link out of the referring record; "cascade" deletes the
// referring record (a resource's archival objects, say). A tree node's later siblings move up
// one, unless its parent is being deleted in the same cascade. All of it is one transaction.
import type { ClientSession } from "mongodb";
import { conflict } from "../../errors/api-error.js";
import { TREE_PARENT_FIELD, type JsonObject } from "../../registry/index.js";
import { deleteNode } from "../trees/node-writes.js";
import { isTreeNodeType } from "../trees/tree-links.js";
import type { OperationDeps } from "../deps.js";
import { removeLinksTo } from "./links.js";
import { findStored, permittedType, recordFilter, recordType } from "./locate.js";
import { shapeRecord } from "./shape.js";
import { NO_PARAMETERS, onBehalfOf, type Actor, type DeleteResult, type Scope } from "../types.js";

/**
 * Deletes a record and whatever its links cascade to, in one transaction: a failure anywhere in
 * the cascade (a store error, a hook's refusal) leaves every record as it was. The driver retries
 * the whole of it on a transient conflict, so each attempt starts from a fresh `going` set.
 */
export async function deleteRecord(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  actor: Actor,
): Promise<DeleteResult> {
  // The records the cascade reaches go with the one asked for: only that one is checked, by the
  // type's permissions and its own rules.
  await checkDeletable(deps, typeName, scope, id, actor);
  return deps.store.transaction((session) =>
    deleteWithin(deps, { session, actor, now: deps.now(), going: new Set() }, typeName, scope, id),
  );
}

/** What a delete asks before its transaction: the actor's permission and the type's own rules (its beforeWrite). */
export async function checkDeletable(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  actor: Actor,
): Promise<void> {
  const type = permittedType(deps, typeName, scope, actor, "delete");
  const beforeWrite = deps.hooks.of(type.name)?.beforeWrite;
  if (beforeWrite !== undefined) {
    const existing = shapeRecord(deps.registry, type, await findStored(deps, type, id, scope), onBehalfOf(actor));
    await beforeWrite({
      type: type.name,
      operation: "delete",
      scope,
      actor,
      existing,
      input: undefined,
      parameters: NO_PARAMETERS,
    });
  }
}

/** One delete's state within its transaction (several deletes of a batch share one). */
export interface Cascade {
  session: ClientSession;
  actor: Actor;
  now: Date;
  /** Uris of the records this cascade has set out to delete. */
  going: Set<string>;
}

/** Deletes a record and its cascade within `cascade`'s transaction; the caller has checked it (checkDeletable). */
export async function deleteWithin(
  deps: OperationDeps,
  cascade: Cascade,
  typeName: string,
  scope: Scope,
  id: number,
): Promise<DeleteResult> {
  const { session, actor, now, going } = cascade;
  const type = recordType(deps, typeName, scope);
  const existing = await findStored(deps, type, id, scope, session);
  const uri = deps.registry.uriFor(type.name, id, scope.repoId);
  going.add(uri);
  const links = deps.registry.linksTo(type.name);

  for (const { type: referrer, refPath } of links) {
    if (refPath.onTargetDelete !== "restrict") continue;
    const blocker = await deps.store
      .collection(referrer)
      .findOne({ [refPath.mongoPath]: uri }, { projection: { id: 1, repo_id: 1 }, session });
    if (blocker)
      throw conflict(
        `Cannot delete ${uri}: ${deps.registry.uriFor(referrer, blocker.id, blocker.repo_id)} refers to it`,
      );
  }
  await deps.hooks.of(type.name)?.beforeDelete?.({
    type: type.name,
    id,
    scope,
    record: shapeRecord(deps.registry, type, existing, onBehalfOf(actor)),
    actor: onBehalfOf(actor),
    session,
  });

  for (const { type: referrer, refPath } of links) {
    if (refPath.onTargetDelete === "restrict") continue;
    const collection = deps.store.collection(referrer);
    const docs = await collection.find({ [refPath.mongoPath]: uri }, { session }).toArray();
    if (refPath.onTargetDelete === "cascade") {
      // All of them are going before any is deleted: a tree node whose parent is among them
      // need not close its gap (a resource's whole tree goes without reshuffling positions).
      for (const doc of docs) going.add(deps.registry.uriFor(referrer, doc.id, doc.repo_id));
      for (const doc of docs) {
        // A record may be reached along two cascading links (a nested component: through its
        // digital object and through its parent); the first visit deletes it, later ones skip it.
        if (await collection.findOne({ _id: doc._id }, { projection: { _id: 1 }, session }))
          await deleteWithin(deps, cascade, referrer, { repoId: doc.repo_id }, doc.id);
      }
      continue;
    }
    for (const doc of docs) {
      const { _id, ...fields } = doc;
      if (!removeLinksTo(fields as JsonObject, refPath, uri)) continue;
      await collection.replaceOne(
        { _id },
        {
          ...fields,
          lock_version: (doc.lock_version as number) + 1,
          system_mtime: now,
          last_modified_by: actor.username,
        },
        { session },
      );
      await deps.changes.written(
        {
          type: referrer,
          operation: "update",
          id: doc.id as number,
          scope: { repoId: doc.repo_id as number | undefined },
        },
        session,
      );
    }
  }
  if (isTreeNodeType(type)) {
    const parentGoing = going.has(existing[TREE_PARENT_FIELD] as string);
    await deleteNode(deps, type, scope, { now, username: actor.username }, existing, parentGoing, session);
  } else {
    await deps.store.collection(type.name).deleteOne(recordFilter(type, id, scope), { session });
  }
  await deps.changes.written({ type: type.name, operation: "delete", id, scope }, session);
  return { status: "Deleted", id };
}
