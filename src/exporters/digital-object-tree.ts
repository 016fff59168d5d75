// The components of a digital object, walked depth first in position order, the way the EAD
// export walks a resource's tree (ead-export.ts): a node's children are read through the tree
// index ({repo_id, tree_parent, position}) a batch at a time, keyed on position; one query per
// batch says which of its nodes have children of their own (leaves cost no query); and, when the
// walk is given a LinkedRecords, what a batch links to is loaded in one query per target type.
// Memory holds one batch per level of depth, so a tree of any size streams.
//
// Suppressed components, with their subtrees, are left out, as in every export. The walk reads
// without a snapshot: a node moved while an export runs may be missed or shown twice.
import type { DigitalObjectComponent } from "../../generated/types/index.js";
import { TREE_PARENT_FIELD } from "../registry/index.js";
import type { Actor, RecordOperations, Scope } from "../records/operations/index.js";
import { shapeRecord } from "../records/operations/shape.js";
import { childrenFilter, scopeFilter, type TreeNodeType } from "../records/trees/tree-links.js";
import { asRecord } from "./export-records.js";
import type { LinkedRecords } from "./linked-records.js";

/** Children read per query. */
export const COMPONENT_BATCH_SIZE = 200;

const DIGITAL_OBJECT = "digital_object";
const COMPONENT = "digital_object_component";

export interface ComponentVisitor {
  /** A component, before its children (`depth` 1 at the top level). */
  enter(component: DigitalObjectComponent, depth: number): Promise<void> | void;
  /** The same component, after its children. */
  leave?(component: DigitalObjectComponent, depth: number): void;
}

export class ComponentTree {
  private readonly nodes: TreeNodeType;

  constructor(
    private readonly operations: RecordOperations,
    private readonly scope: Scope,
    /** The digital object's uri: the holder of the top-level components. */
    private readonly rootUri: string,
    /** Whom the export is for: components are shaped as they may see them. */
    private readonly viewer: Actor,
  ) {
    this.nodes = operations.treeViews.nodeTypeOf(DIGITAL_OBJECT);
  }

  /** Visits every component, depth first; with `linked`, each batch's links are loaded before it is visited. */
  walk(visitor: ComponentVisitor, linked?: LinkedRecords): Promise<void> {
    return this.walkChildren(this.rootUri, 1, visitor, linked);
  }

  private async walkChildren(
    holder: string,
    depth: number,
    visitor: ComponentVisitor,
    linked: LinkedRecords | undefined,
  ): Promise<void> {
    const position = this.nodes.tree.position;
    const collection = this.operations.deps.store.collection(this.nodes.name);
    const { registry } = this.operations.deps;
    let after = -1;
    for (;;) {
      const stored = await collection
        .find(
          { ...childrenFilter(this.nodes, this.scope, holder), [position]: { $gt: after } },
          { batchSize: COMPONENT_BATCH_SIZE + 1 },
        )
        .sort({ [position]: 1 })
        .limit(COMPONENT_BATCH_SIZE)
        .toArray();
      if (stored.length === 0) return;
      after = stored.at(-1)?.[position] as number;
      const batch = stored
        .map((doc) => asRecord(COMPONENT, shapeRecord(registry, this.nodes, doc, this.viewer)))
        .filter((component) => component.suppressed !== true);
      const holders = await this.parentsAmong(batch.map((component) => String(component.uri)));
      await linked?.load(batch);
      let generation = linked?.generation;
      for (const [index, component] of batch.entries()) {
        // A deep subtree may have emptied the cache since this batch was loaded.
        if (linked !== undefined && linked.generation !== generation) {
          await linked.load(batch.slice(index));
          generation = linked.generation;
        }
        await visitor.enter(component, depth);
        if (holders.has(String(component.uri)))
          await this.walkChildren(String(component.uri), depth + 1, visitor, linked);
        visitor.leave?.(component, depth);
      }
      if (stored.length < COMPONENT_BATCH_SIZE) return;
    }
  }

  /**
   * The use statements of the components' file versions (sorted), and whether any file version has
   * none: one query each, however large the tree.
   */
  async useStatements(): Promise<{ named: string[]; unnamed: boolean }> {
    const collection = this.operations.deps.store.collection(this.nodes.name);
    const filter = this.ownFilter();
    const named = (await collection.distinct("file_versions.use_statement", filter)).filter(
      (value): value is string => typeof value === "string",
    );
    const unnamed = await collection.findOne(
      { ...filter, file_versions: { $elemMatch: { use_statement: { $exists: false } } } },
      { projection: { _id: 1 } },
    );
    return { named: named.sort(), unnamed: unnamed !== null };
  }

  /**
   * Each component holding a file version of `useStatement` (undefined: one without a use
   * statement), in id order, a batch per query. Suppressed components are left out (suppression
   * is set on a whole subtree, so no ancestor needs looking at).
   */
  async eachWithFiles(
    useStatement: string | undefined,
    visit: (component: DigitalObjectComponent) => Promise<void> | void,
  ): Promise<void> {
    const collection = this.operations.deps.store.collection(this.nodes.name);
    const files =
      useStatement === undefined
        ? { file_versions: { $elemMatch: { use_statement: { $exists: false } } } }
        : { "file_versions.use_statement": useStatement };
    const { registry } = this.operations.deps;
    let after = 0;
    for (;;) {
      const stored = await collection
        .find({ ...this.ownFilter(), ...files, id: { $gt: after } }, { batchSize: COMPONENT_BATCH_SIZE + 1 })
        .sort({ id: 1 })
        .limit(COMPONENT_BATCH_SIZE)
        .toArray();
      if (stored.length === 0) return;
      after = stored.at(-1)?.id as number;
      for (const doc of stored) {
        const component = asRecord(COMPONENT, shapeRecord(registry, this.nodes, doc, this.viewer));
        if (component.suppressed !== true) await visit(component);
      }
      if (stored.length < COMPONENT_BATCH_SIZE) return;
    }
  }

  /** Every component of this digital object, at any depth. */
  private ownFilter(): Record<string, unknown> {
    return { ...scopeFilter(this.nodes, this.scope), [`${this.nodes.tree.root}.ref`]: this.rootUri };
  }

  /** Which of `uris` have children: one query for a whole batch. */
  private async parentsAmong(uris: readonly string[]): Promise<Set<string>> {
    if (uris.length === 0) return new Set();
    const rows = await this.operations.deps.store
      .collection(this.nodes.name)
      .aggregate<{ _id: string }>([
        { $match: childrenFilter(this.nodes, this.scope, uris) },
        { $group: { _id: `$${TREE_PARENT_FIELD}` } },
      ])
      .toArray();
    return new Set(rows.map((row) => row._id));
  }
}
