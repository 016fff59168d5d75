// The components of a digital object, walked depth first in position order, the way the EAD
// export walks a resource's tree: children a batch at a time (tree-batches.ts) and, when the walk
// is given a LinkedRecords, what a batch links to loaded in one query per target type.
//
// Suppressed components, with their subtrees, are left out, as in every export.
import type { DigitalObjectComponent } from "../../generated/types/index.js";
import type { Actor, RecordOperations, Scope } from "../records/operations/index.js";
import { shapeRecord } from "../records/operations/shape.js";
import { scopeFilter, type TreeNodeType } from "../records/trees/tree-links.js";
import { asRecord } from "./export-records.js";
import type { LinkedRecords } from "./linked-records.js";
import { childBatches, EXPORT_BATCH_SIZE, type TreeReader } from "./tree-batches.js";

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
  private readonly reader: TreeReader;

  constructor(
    private readonly operations: RecordOperations,
    private readonly scope: Scope,
    /** The digital object's uri: the holder of the top-level components. */
    private readonly rootUri: string,
    /** Whom the export is for: components are shaped as they may see them. */
    private readonly viewer: Actor,
  ) {
    this.nodes = operations.treeViews.nodeTypeOf(DIGITAL_OBJECT);
    this.reader = { deps: operations.deps, nodes: this.nodes, scope, viewer };
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
    for await (const { records, hasChildren } of childBatches(this.reader, holder)) {
      const batch = records
        .map((record) => asRecord(COMPONENT, record))
        .filter((component) => component.suppressed !== true);
      for await (const component of linked === undefined ? batch : linked.withLinks(batch)) {
        await visitor.enter(component, depth);
        if (hasChildren(component.uri)) await this.walkChildren(String(component.uri), depth + 1, visitor, linked);
        visitor.leave?.(component, depth);
      }
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
        .find({ ...this.ownFilter(), ...files, id: { $gt: after } }, { batchSize: EXPORT_BATCH_SIZE + 1 })
        .sort({ id: 1 })
        .limit(EXPORT_BATCH_SIZE)
        .toArray();
      if (stored.length === 0) return;
      after = stored.at(-1)?.id as number;
      for (const doc of stored) {
        const component = asRecord(COMPONENT, shapeRecord(registry, this.nodes, doc, this.viewer));
        if (component.suppressed !== true) await visit(component);
      }
      if (stored.length < EXPORT_BATCH_SIZE) return;
    }
  }

  /** Every component of this digital object, at any depth. */
  private ownFilter(): Record<string, unknown> {
    return { ...scopeFilter(this.nodes, this.scope), [`${this.nodes.tree.root}.ref`]: this.rootUri };
  }
}
