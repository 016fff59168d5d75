// Keeping trees in shape on every write. Positions among siblings stay dense (0..n-1): a new
// node goes where it asks (or last), a move closes the gap it leaves and opens one where it
// lands, a delete closes its gap, and no node ends up under itself. Every function here runs
// inside the caller's transaction, serialized per tree (treeKeys), so a reader sees a tree
// before or after a change, never two children at one position or a child under two parents.
//
// A sibling whose position shifts is a changed record: its lock_version and system_mtime move
// on, so a client holding its old position cannot write it back unnoticed (409), and
// modified_since readers pick it up.
import type { ClientSession, ObjectId } from "mongodb";
import { ApiError, badRequest, conflict } from "../../errors/api-error.js";
import { TREE_PARENT_FIELD, type JsonObject } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import type { Scope } from "../types.js";
import {
  childCount,
  childrenFilter,
  holderOf,
  linkPath,
  nodeLinks,
  scopeFilter,
  type NodeLinks,
  type TreeNodeType,
} from "./tree-links.js";

/** Where a node is stored in its tree. */
export interface Placement {
  /** The parent node's uri, or the root record's at the top level. */
  holder: string;
  position: number;
}

/** Who changes a tree, and when (for the audit fields of shifted siblings). */
export interface TreeChange {
  session: ClientSession;
  now: Date;
  username: string;
}

/** The RecordStore.serialized keys of writes to these trees. */
export function treeKeys(...rootUris: string[]): string[] {
  return rootUris.map((uri) => `tree:${uri}`);
}

/** Moves the positions of `holder`'s children from `from` on (past `from` when closing) by `delta`. */
async function shift(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  change: TreeChange,
  holder: string,
  from: number,
  delta: 1 | -1,
  except?: ObjectId,
): Promise<void> {
  const position = type.tree.position;
  const filter: Record<string, unknown> = {
    ...childrenFilter(type, scope, holder),
    [position]: delta > 0 ? { $gte: from } : { $gt: from },
  };
  if (except !== undefined) filter._id = { $ne: except };
  await deps.store.collection(type.name).updateMany(
    filter,
    {
      $inc: { [position]: delta, lock_version: 1 },
      $set: { system_mtime: change.now, last_modified_by: change.username },
    },
    { session: change.session },
  );
}

/** A node by uri, from the store inside the transaction (or from a batch not yet stored). */
type NodeLookup = (uri: string) => Promise<StoredRecord | null>;

function storedNode(deps: OperationDeps, type: TreeNodeType, scope: Scope, change: TreeChange): NodeLookup {
  return async (uri) => {
    const parsed = deps.registry.parseUri(uri);
    if (parsed?.type !== type.name) return null;
    return deps.store
      .collection(type.name)
      .findOne({ ...scopeFilter(type, scope), id: parsed.id }, { session: change.session });
  };
}

/** The parent a node is placed under: it must exist now (inside the transaction) and be in the same tree. */
async function checkParent(
  deps: OperationDeps,
  type: TreeNodeType,
  links: NodeLinks,
  lookup: NodeLookup,
): Promise<void> {
  if (links.parentUri === undefined) return;
  const path = linkPath(type, type.tree.parent).path;
  const parent = await lookup(links.parentUri);
  if (!parent) throw badRequest({ [path]: [`Reference to ${links.parentUri} does not exist`] });
  const parentRoot = nodeLinks(type, parent).rootUri;
  if (parentRoot !== links.rootUri) {
    throw badRequest({
      [path]: [
        `Must be in the same ${deps.registry.get(type.tree.rootType).title.toLowerCase()} (${links.rootUri}); ${links.parentUri} is in ${parentRoot}`,
      ],
    });
  }
}

/** 409 when `parentUri` is the node itself or below it. */
async function refuseCycle(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  change: TreeChange,
  nodeUri: string,
  parentUri: string,
): Promise<void> {
  let uri: string | undefined = parentUri;
  while (uri !== undefined) {
    if (uri === nodeUri) throw conflict(`Cannot move ${nodeUri} under itself or one of its descendants (${parentUri})`);
    const parsed = deps.registry.parseUri(uri);
    if (parsed?.type !== type.name) return; // reached the root record
    const above: StoredRecord | null = await deps.store
      .collection(type.name)
      .findOne(
        { ...scopeFilter(type, scope), id: parsed.id },
        { session: change.session, projection: { [TREE_PARENT_FIELD]: 1 } },
      );
    uri = above?.tree_parent;
  }
}

/** A position asked for, clamped to the places that exist (ArchivesSpace appends past the end). */
function clamp(requested: number | undefined, places: number): number {
  return requested === undefined ? places : Math.min(requested, places);
}

/** The position a record asks for: its position field, if any. */
export function requestedPosition(type: TreeNodeType, record: JsonObject | StoredRecord): number | undefined {
  const value = record[type.tree.position];
  return typeof value === "number" ? value : undefined;
}

/**
 * Places new nodes one after another, within one transaction: each goes where its position
 * asks (or last) among the stored siblings and those placed before it, which may be its
 * parent. Placement is written into each node (its storage field and position); the caller
 * inserts them all once placed.
 */
export class NewNodePlacement {
  /** Children per holder: stored plus placed so far. */
  private readonly counts = new Map<string, number>();
  private readonly placedIn = new Map<string, StoredRecord[]>();
  private readonly placedByUri = new Map<string, StoredRecord>();
  private readonly lookup: NodeLookup;

  constructor(
    private readonly deps: OperationDeps,
    private readonly type: TreeNodeType,
    private readonly scope: Scope,
    private readonly change: TreeChange,
  ) {
    const stored = storedNode(deps, type, scope, change);
    // Parents asked about once: a batch of siblings shares one parent (an import's window of
    // files under a series placed in an earlier batch).
    const seen = new Map<string, StoredRecord | null>();
    this.lookup = async (uri) => {
      const placed = this.placedByUri.get(uri);
      if (placed !== undefined) return placed;
      if (!seen.has(uri)) seen.set(uri, await stored(uri));
      return seen.get(uri) ?? null;
    };
  }

  async place(node: StoredRecord): Promise<Placement> {
    const { deps, type, scope, change } = this;
    const links = nodeLinks(type, node);
    await checkParent(deps, type, links, this.lookup);
    const holder = holderOf(links);
    const count = this.counts.get(holder) ?? (await childCount(deps, type, scope, holder, change.session));
    const position = clamp(requestedPosition(type, node), count);
    if (position < count) {
      await shift(deps, type, scope, change, holder, position, 1);
      for (const sibling of this.placedIn.get(holder) ?? []) {
        if ((sibling[type.tree.position] as number) >= position)
          sibling[type.tree.position] = (sibling[type.tree.position] as number) + 1;
      }
    }
    node[TREE_PARENT_FIELD] = holder;
    node[type.tree.position] = position;
    this.counts.set(holder, count + 1);
    const siblings = this.placedIn.get(holder);
    if (siblings === undefined) this.placedIn.set(holder, [node]);
    else siblings.push(node);
    this.placedByUri.set(deps.registry.uriFor(type.name, node.id, node.repo_id), node);
    return { holder, position };
  }
}

/**
 * Moves a stored node to `target` (same or another parent, same or another tree of the
 * repository) at `requested` (last when undefined; its own place when it stays under the same
 * parent). The caller writes the node's own fields from the returned placement.
 */
export async function moveNode(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  change: TreeChange,
  node: StoredRecord,
  target: NodeLinks,
  requested: number | undefined,
): Promise<Placement> {
  const position = type.tree.position;
  const current = nodeLinks(type, node);
  const from = node.tree_parent ?? holderOf(current);
  const fromPosition = node[position] as number;
  const to = holderOf(target);
  if (to === from && (requested === undefined || requested === fromPosition))
    return { holder: from, position: fromPosition };
  const nodeUri = deps.registry.uriFor(type.name, node.id, node.repo_id);
  await checkParent(deps, type, target, storedNode(deps, type, scope, change));
  if (target.parentUri !== undefined) await refuseCycle(deps, type, scope, change, nodeUri, target.parentUri);

  const fromCount = await childCount(deps, type, scope, from, change.session);
  await shift(deps, type, scope, change, from, fromPosition, -1);
  const places = to === from ? fromCount - 1 : await childCount(deps, type, scope, to, change.session);
  const landing = clamp(requested, places);
  await shift(deps, type, scope, change, to, landing, 1, node._id as ObjectId);
  if (target.rootUri !== current.rootUri) await reroot(deps, type, scope, change, nodeUri, target.rootUri);
  return { holder: to, position: landing };
}

/** The node's descendants follow it into another tree: their root link changes, level by level. */
async function reroot(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  change: TreeChange,
  nodeUri: string,
  rootUri: string,
): Promise<void> {
  const collection = deps.store.collection(type.name);
  const rootPath = linkPath(type, type.tree.root).mongoPath;
  let frontier = [nodeUri];
  while (frontier.length > 0) {
    const below = await collection
      .find(childrenFilter(type, scope, frontier), { session: change.session, projection: { id: 1, repo_id: 1 } })
      .toArray();
    if (below.length === 0) return;
    await collection.updateMany(
      { _id: { $in: below.map((doc) => doc._id) } },
      {
        $set: { [rootPath]: rootUri, system_mtime: change.now, last_modified_by: change.username },
        $inc: { lock_version: 1 },
      },
      { session: change.session },
    );
    frontier = below.map((doc) => deps.registry.uriFor(type.name, doc.id, doc.repo_id));
  }
}

/** The node is going: its later siblings move up one. */
export async function closeGap(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  change: TreeChange,
  node: StoredRecord,
): Promise<void> {
  const holder = node.tree_parent;
  if (holder === undefined) throw new ApiError(500, `${type.name} ${node.id} has no place in a tree`);
  await shift(deps, type, scope, change, holder, node[type.tree.position] as number, -1);
}
