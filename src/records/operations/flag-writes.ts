// A flag set on a record and on everything below it in its tree, in one transaction: what ArchivesSpace's publish!
// and set_suppressed do over a record's object graph (ASModel_scoping.rb). The tree is walked a level at a time by
// the tree-parent index, so the cost is one query per level and batch of holders, whatever the tree's shape.
import type { ClientSession } from "mongodb";
import type { JsonObject, RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { childrenFilter, isTreeNodeType } from "../trees/tree-links.js";
import type { Actor, Scope } from "../types.js";
import { updateStamp } from "./stamps.js";

/** How many holders one query asks the children of. */
const HOLDERS_PER_QUERY = 500;

/** The fields a record's change sets (top-level, whole), or undefined when the record is left as it is. */
export type FlagChange = (type: RecordType, record: StoredRecord) => JsonObject | undefined;

/** The type whose records hang below records of `type` in a tree: its own (a node), its nodes' (a root), or none. */
function nodesBelow(deps: OperationDeps, type: RecordType): RecordType | undefined {
  if (isTreeNodeType(type)) return type;
  return deps.registry.treeNodeTypeOf(type.name);
}

/**
 * Applies `change` to `record` and to every tree node below it, inside `session`. Each changed record gets the
 * fields, its lock_version moved on and the actor's update stamp; the change is told to the listeners once the
 * transaction commits. Answers the record's own lock_version afterwards.
 */
export async function changeWithDescendants(
  deps: OperationDeps,
  type: RecordType,
  scope: Scope,
  record: StoredRecord,
  actor: Actor,
  session: ClientSession,
  change: FlagChange,
): Promise<number> {
  const stamp = updateStamp(actor, deps.now());
  const apply = async (of: RecordType, stored: StoredRecord): Promise<number> => {
    const fields = change(of, stored);
    const lockVersion = typeof stored.lock_version === "number" ? stored.lock_version : 0;
    if (fields === undefined) return lockVersion;
    // Ids are counted per type, so the id alone names the record.
    await deps.store
      .collection(of.name)
      .updateOne({ id: stored.id }, { $set: { ...fields, ...stamp, lock_version: lockVersion + 1 } }, { session });
    await deps.changes.written({ type: of.name, operation: "update", id: stored.id, scope }, session);
    return lockVersion + 1;
  };
  const lockVersion = await apply(type, record);
  const nodes = nodesBelow(deps, type);
  if (nodes === undefined) return lockVersion;
  let holders = [deps.registry.uriFor(type.name, record.id, scope.repoId)];
  while (holders.length > 0) {
    const next: string[] = [];
    for (let start = 0; start < holders.length; start += HOLDERS_PER_QUERY) {
      const batch = holders.slice(start, start + HOLDERS_PER_QUERY);
      // Read whole before writing: no cursor stays open over the records it changes.
      const children = await deps.store
        .collection(nodes.name)
        .find(childrenFilter(nodes, scope, batch), { session })
        .toArray();
      for (const child of children) {
        await apply(nodes, child);
        next.push(deps.registry.uriFor(nodes.name, child.id, child.repo_id));
      }
    }
    holders = next;
  }
  return lockVersion;
}
