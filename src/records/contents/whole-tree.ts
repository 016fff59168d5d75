// A whole tree read at once, for the reads ArchivesSpace answers in one piece (the legacy
// `<root>/tree`, `ordered_records`, a resource's `top_containers`): the root record and every
// node under it, in one snapshot, each node reduced by the caller to what it shows. Bounded by
// a node count (WHOLE_TREE_MAX_NODES): a larger tree is refused with a 400 pointing at the
// large-tree routes, which page it, before more than the bound is read.
import { badRequest } from "../../errors/api-error.js";
import { TREE_PARENT_FIELD, type JsonObject } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { findStored, recordType } from "../operations/locate.js";
import { shapeRecord } from "../operations/shape.js";
import { trusted, type Scope } from "../types.js";
import { isTreeNodeType, linkPath, scopeFilter, type TreeNodeType } from "../trees/tree-links.js";

/** Whom these reads shape records for: they pick fields themselves, none of them guarded. */
const SERVER_CODE = trusted("server");

/** One node as the caller reduced it, with its uri. */
export interface TreeItem<T> {
  uri: string;
  item: T;
}

export interface WholeTree<T> {
  rootUri: string;
  root: T;
  nodes: TreeNodeType;
  /** Each holder's children (a node uri, or the root's for the top level), in position order. */
  children: ReadonlyMap<string, ReadonlyArray<TreeItem<T>>>;
}

/** What a caller keeps of a record: it sees the record as a read shows it (computed fields included). */
export type NodePick<T> = (shown: JsonObject, stored: StoredRecord) => T;

export interface WholeTreeOptions {
  /** The most nodes read; a tree with more is a 400. */
  maxNodes: number;
  /** What the refusal tells the client to use instead. */
  instead: string;
}

/** The node type hanging from records of `rootTypeName`, or undefined when they have no trees. */
export function nodeTypeOf(deps: OperationDeps, rootTypeName: string): TreeNodeType | undefined {
  const nodes = deps.registry.treeNodeTypeOf(rootTypeName);
  return nodes !== undefined && isTreeNodeType(nodes) ? nodes : undefined;
}

/** The tree under one root record (404 when there is none), each record reduced by `pick`. */
export async function readWholeTree<T>(
  deps: OperationDeps,
  rootTypeName: string,
  scope: Scope,
  rootId: number,
  pick: NodePick<T>,
  { maxNodes, instead }: WholeTreeOptions,
): Promise<WholeTree<T>> {
  const rootType = recordType(deps, rootTypeName, scope);
  const nodes = nodeTypeOf(deps, rootType.name);
  if (nodes === undefined) throw new Error(`${rootType.name} records have no trees`);
  const rootUri = deps.registry.uriFor(rootType.name, rootId, scope.repoId);
  return deps.store.transaction(async (session) => {
    const rootRecord = await findStored(deps, rootType, rootId, scope, session);
    const root = pick(shapeRecord(deps.registry, rootType, rootRecord, SERVER_CODE), rootRecord);
    const positioned = new Map<string, Array<TreeItem<T> & { position: number }>>();
    const cursor = deps.store
      .collection(nodes.name)
      .find({ ...scopeFilter(nodes, scope), [linkPath(nodes, nodes.tree.root).mongoPath]: rootUri }, { session })
      .limit(maxNodes + 1);
    let count = 0;
    for await (const stored of cursor) {
      if (++count > maxNodes) {
        await cursor.close();
        throw badRequest(
          `This ${rootType.title} has more than ${maxNodes} ${nodes.title} records (WHOLE_TREE_MAX_NODES), ` +
            `too many to answer at once; ${instead}`,
        );
      }
      const holder = stored[TREE_PARENT_FIELD];
      if (typeof holder !== "string") continue; // not placed: cannot happen to a node written through the service
      const uri = deps.registry.uriFor(nodes.name, stored.id, stored.repo_id);
      const item = pick(shapeRecord(deps.registry, nodes, stored, SERVER_CODE), stored);
      const siblings = positioned.get(holder) ?? [];
      siblings.push({ uri, item, position: stored[nodes.tree.position] as number });
      positioned.set(holder, siblings);
    }
    const children = new Map<string, Array<TreeItem<T>>>();
    for (const [holder, siblings] of positioned)
      children.set(
        holder,
        siblings.sort((a, b) => a.position - b.position).map(({ uri, item }) => ({ uri, item })),
      );
    return { rootUri, root, nodes, children };
  });
}

/**
 * Visits the nodes in tree order (depth first, each node before its children, siblings by position), with their
 * depth (1 for the top level). Iterative: a tree may be thousands of levels deep.
 */
export function inTreeOrder<T>(tree: WholeTree<T>, visit: (node: TreeItem<T>, depth: number) => void): void {
  const stack: Array<{ node: TreeItem<T>; depth: number }> = [];
  const push = (holder: string, depth: number) => {
    const siblings = tree.children.get(holder) ?? [];
    for (let i = siblings.length - 1; i >= 0; i--) stack.push({ node: siblings[i] as TreeItem<T>, depth });
  };
  push(tree.rootUri, 1);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    visit(next.node, next.depth);
    push(next.node.uri, next.depth + 1);
  }
}
