// Create (contract §4): validate, check links, allocate the id, store with the server
// fields (a tree node placed in its tree), run the type's afterCreate hook.
import type { StoredRecord } from "../../storage/record-store.js";
import { insertNode } from "../trees/node-writes.js";
import { isTreeNodeType } from "../trees/tree-links.js";
import type { OperationDeps } from "./deps.js";
import { recordType, requireRepository } from "./locate.js";
import { prepareRecord } from "./prepare.js";
import type { Actor, Scope, WriteResult } from "./types.js";
import { asDuplicateIdentifier } from "./write-errors.js";

export async function createRecord(deps: OperationDeps, typeName: string, scope: Scope, input: unknown, actor: Actor): Promise<WriteResult> {
  const type = recordType(deps, typeName, scope);
  await requireRepository(deps, type, scope);
  const { fields, stale } = await prepareRecord(deps, type, scope, input);
  // Ids are allocated outside any transaction: a counter written inside one would make every
  // concurrent create of the type conflict.
  const id = await deps.store.nextId(type.name);
  const now = deps.now();
  const stored: StoredRecord = {
    ...fields,
    id,
    ...(type.scope === "repository" ? { repo_id: scope.repoId } : {}),
    lock_version: 0,
    created_by: actor.username,
    last_modified_by: actor.username,
    create_time: now,
    system_mtime: now,
    user_mtime: now,
  };
  let moved = false;
  try {
    if (isTreeNodeType(type)) {
      const position = await insertNode(deps, type, scope, { now, username: actor.username }, stored);
      moved = position !== fields[type.tree.position];
    } else {
      await deps.store.collection(type.name).insertOne(stored);
    }
  } catch (error) {
    throw asDuplicateIdentifier(deps, type.name, error);
  }
  await deps.hooks[type.name]?.afterCreate?.({ type: type.name, id, scope, record: fields, actor });
  return { status: "Created", id, lock_version: 0, stale: stale || moved ? true : null, uri: deps.registry.uriFor(type.name, id, scope.repoId), warnings: [] };
}
