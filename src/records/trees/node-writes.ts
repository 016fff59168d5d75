// The three writes of a tree node, each one serialized transaction with its tree upkeep:
// insert (placed where it asks), replace (moved when its parent, tree or position changed)
// and delete (its gap closed). The record operations call these for types with x-tree.
import type { ClientSession } from "mongodb";
import { TREE_PARENT_FIELD } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import type { Scope } from "../types.js";
import {
  closeGap,
  moveNode,
  NewNodePlacement,
  requestedPosition,
  treeKeys,
  type Placement,
  type TreeChange,
} from "./placement.js";
import { nodeLinks, type NodeLinks, type TreeNodeType } from "./tree-links.js";

/** Audit values of a write. */
export interface WriteStamp {
  now: Date;
  username: string;
}

function placed(type: TreeNodeType, doc: StoredRecord, placement: Placement): StoredRecord {
  return { ...doc, [TREE_PARENT_FIELD]: placement.holder, [type.tree.position]: placement.position };
}

/** The position each new node document asked for, before it was placed (see insertNodes). */
const requestedPositions = new WeakMap<StoredRecord, unknown>();

/**
 * Inserts new nodes, in order (a node may sit under one inserted before it), in one transaction
 * over every tree they join: `within`, the caller's, or one of its own. Each document gets its
 * place written into it.
 */
export async function insertNodes(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  stamp: WriteStamp,
  docs: StoredRecord[],
  within?: ClientSession,
): Promise<void> {
  const keys = treeKeys(...docs.map((doc) => nodeLinks(type, doc).rootUri));
  const position = type.tree.position;
  /**
   * The place each node asks for, before placing writes the one it gets into it: remembered per document, so that
   * when a caller's transaction is run again (and calls this again with the same, placed, documents), each node
   * asks again for what it first asked for.
   */
  const requested = docs.map((doc) => {
    if (!requestedPositions.has(doc)) requestedPositions.set(doc, doc[position]);
    return requestedPositions.get(doc);
  });
  const insert = async (session: ClientSession) => {
    // A retried transaction starts again from the stored state: each node asks again for the place it asked for
    // (the documents are placed in place, not copied: an import inserts thousands a batch; the _ids the driver gave
    // them in an attempt that was undone are free to use again).
    docs.forEach((doc, i) => (doc[position] = requested[i]));
    const placement = new NewNodePlacement(deps, type, scope, { session, ...stamp });
    for (const doc of docs) await placement.place(doc);
    await deps.store.collection(type.name).insertMany(docs, { session });
  };
  if (within === undefined) return deps.store.serialized(keys, insert);
  await deps.store.lockWithin(within, keys);
  await insert(within);
}

/**
 * Replaces a stored node when its lock_version is still `lockVersion`, moving it if the replacement
 * names another parent, tree or position. Returns the position it ends at, or undefined when
 * the lock_version had moved on (nothing written).
 */
export async function replaceNode(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  stamp: WriteStamp,
  existing: StoredRecord,
  lockVersion: number,
  replacement: StoredRecord,
  /** Run in the same transaction once the node is replaced (the type's afterUpdate hook). */
  after?: (session: ClientSession) => Promise<void>,
): Promise<number | undefined> {
  const target = nodeLinks(type, replacement);
  const collection = deps.store.collection(type.name);
  return deps.store.serialized(treeKeys(nodeLinks(type, existing).rootUri, target.rootUri), async (session) => {
    const current = await collection.findOne({ _id: existing._id, lock_version: lockVersion }, { session });
    if (!current) return undefined;
    const change: TreeChange = { session, ...stamp };
    const placement = await moveNode(
      deps,
      type,
      scope,
      change,
      current,
      target,
      requestedPosition(type, replacement) ?? keptPosition(type, current, target),
    );
    await collection.replaceOne({ _id: current._id }, placed(type, replacement, placement), { session });
    await after?.(session);
    return placement.position;
  });
}

/** A replacement without a position keeps the node's place when it stays under the same parent. */
function keptPosition(type: TreeNodeType, current: StoredRecord, target: NodeLinks): number | undefined {
  const stays = (target.parentUri ?? target.rootUri) === current.tree_parent;
  return stays ? (current[type.tree.position] as number) : undefined;
}

/**
 * Deletes a node, inside the caller's transaction (a delete cascade is one); unless its parent is
 * going too, its later siblings move up one, serialized with every other change to its tree.
 */
export async function deleteNode(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  stamp: WriteStamp,
  node: StoredRecord,
  parentGoing: boolean,
  session: ClientSession,
): Promise<void> {
  const collection = deps.store.collection(type.name);
  if (parentGoing) {
    await collection.deleteOne({ _id: node._id }, { session });
    return;
  }
  await deps.store.lockWithin(session, treeKeys(nodeLinks(type, node).rootUri));
  const current = await collection.findOne({ _id: node._id }, { session });
  if (!current) return;
  await closeGap(deps, type, scope, { session, ...stamp }, current);
  await collection.deleteOne({ _id: node._id }, { session });
}
