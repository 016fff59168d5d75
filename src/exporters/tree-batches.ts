// The children of a tree node, read for an export a batch at a time: through the tree index
// ({repo_id, tree_parent, position}), keyed on position (so a batch's cost does not grow with the
// tree), each record shaped as `viewer` may see it, with one query per batch telling which of
// them have children of their own (leaves cost no query). An export walks a tree depth first by
// asking again for each parent it meets, so memory holds one batch per level of depth.
//
// Reads are without a snapshot (a long export would outlive a transaction): a node moved while the
// export runs may be missed or shown twice.
import type { OperationDeps } from "../records/deps.js";
import type { Actor, Scope } from "../records/operations/index.js";
import { shapeRecord } from "../records/operations/shape.js";
import { childrenFilter, type TreeNodeType } from "../records/trees/tree-links.js";
import { TREE_PARENT_FIELD, type JsonObject } from "../registry/index.js";

/** Children read per query. */
export const EXPORT_BATCH_SIZE = 200;

export interface ChildBatch {
  /** The children, in position order, as the API shows them to the viewer. */
  readonly records: JsonObject[];
  /** Whether the child with this uri has children of its own. */
  hasChildren(uri: unknown): boolean;
}

export interface TreeReader {
  readonly deps: OperationDeps;
  /** The tree's node type (a resource's archival objects, a digital object's components). */
  readonly nodes: TreeNodeType;
  readonly scope: Scope;
  readonly viewer: Actor;
}

/** The children of `holder` (a node's uri, or the root record's), a batch at a time. */
export async function* childBatches(tree: TreeReader, holder: string): AsyncGenerator<ChildBatch, void, undefined> {
  const { deps, nodes, scope, viewer } = tree;
  const position = nodes.tree.position;
  const collection = deps.store.collection(nodes.name);
  let after = -1;
  for (;;) {
    const stored = await collection
      .find(
        { ...childrenFilter(nodes, scope, holder), [position]: { $gt: after } },
        { batchSize: EXPORT_BATCH_SIZE + 1 },
      )
      .sort({ [position]: 1 })
      .limit(EXPORT_BATCH_SIZE)
      .toArray();
    if (stored.length === 0) return;
    after = stored.at(-1)?.[position] as number;
    const records = stored.map((doc) => shapeRecord(deps.registry, nodes, doc, viewer));
    const parents = await parentsAmong(
      tree,
      records.map((record) => String(record.uri)),
    );
    yield { records, hasChildren: (uri) => typeof uri === "string" && parents.has(uri) };
    if (stored.length < EXPORT_BATCH_SIZE) return;
  }
}

/** Which of `uris` have children: one query for a whole batch. */
async function parentsAmong({ deps, nodes, scope }: TreeReader, uris: readonly string[]): Promise<Set<string>> {
  if (uris.length === 0) return new Set();
  const rows = await deps.store
    .collection(nodes.name)
    .aggregate<{ _id: string }>([
      { $match: childrenFilter(nodes, scope, uris) },
      { $group: { _id: `$${TREE_PARENT_FIELD}` } },
    ])
    .toArray();
  return new Set(rows.map((row) => row._id));
}
