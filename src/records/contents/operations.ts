// What a collection holds, as ArchivesSpace's routes answer it (docs/api.md §17): a root record's tree in order
// (ordered_records) and whole (the legacy tree), the top containers a record or its tree uses and the node before
// one in tree order (previous). Transport-free: the routes (controller.ts) guard, read parameters and call these.
import { ApiError } from "../../errors/api-error.js";
import { TREE_PARENT_FIELD, type JsonObject, type RecordType } from "../../registry/index.js";
import type { OperationDeps } from "../deps.js";
import { valuesAt } from "../computed/paths.js";
import type { RecordOperations } from "../operations/index.js";
import { findStored, recordType } from "../operations/locate.js";
import { trusted, type Actor, type Scope } from "../types.js";
import { childCount, childrenFilter, isTreeNodeType, nodeLinks, type TreeNodeType } from "../trees/tree-links.js";
import { fillContainers, legacyNode, nest, type LegacyNode } from "./legacy-tree.js";
import { inTreeOrder, nodeTypeOf, readWholeTree, type WholeTreeOptions } from "./whole-tree.js";

export interface ContentsLimits {
  /** The most nodes a whole-tree read answers (WHOLE_TREE_MAX_NODES). */
  wholeTreeMaxNodes: number;
}

/** The answer of GET <root>/ordered_records. */
export interface OrderedRecords {
  uris: JsonObject[];
}

/** Whom top_containers reads a record for: it answers only refs, never a guarded field. */
const SERVER_CODE = trusted("server");

const PAGED_READS = "read it through tree/root, tree/waypoint and tree/node, which page it";

/** Whether a record is out of a published view: unpublished (unset counts as unpublished) or suppressed. */
function hidden(record: JsonObject): boolean {
  return record.publish !== true || record.suppressed === true;
}

export class CollectionContents {
  constructor(
    private readonly deps: OperationDeps,
    private readonly operations: RecordOperations,
    private readonly limits: ContentsLimits,
  ) {}

  private wholeTree(instead: string): WholeTreeOptions {
    return { maxNodes: this.limits.wholeTreeMaxNodes, instead };
  }

  /**
   * GET <root>/ordered_records: the root and its nodes in tree order, each `{ref, display_string, depth, level?}`.
   * As in ArchivesSpace, only what a published view shows: nothing at all when the root is unpublished or
   * suppressed, and no unpublished or suppressed node, nor anything under one.
   */
  async orderedRecords(rootTypeName: string, scope: Scope, rootId: number): Promise<OrderedRecords> {
    const entry = (shown: JsonObject) => ({
      hidden: hidden(shown),
      display: typeof shown.display_string === "string" ? shown.display_string : shown.title,
      level: shown.level,
    });
    const tree = await readWholeTree(this.deps, rootTypeName, scope, rootId, entry, this.wholeTree(PAGED_READS));
    if (tree.root.hidden) return { uris: [] };
    const shown = (ref: string, item: ReturnType<typeof entry>, depth: number): JsonObject => ({
      ref,
      ...(typeof item.display === "string" && { display_string: item.display }),
      depth,
      ...(typeof item.level === "string" && { level: item.level }),
    });
    const uris: JsonObject[] = [shown(tree.rootUri, tree.root, 0)];
    // A hidden node hides its subtree: the depth at which hiding began, while below it.
    let hiddenFrom: number | undefined;
    inTreeOrder(tree, (node, depth) => {
      if (hiddenFrom !== undefined && depth > hiddenFrom) return;
      hiddenFrom = node.item.hidden ? depth : undefined;
      if (hiddenFrom === undefined) uris.push(shown(node.uri, node.item, depth));
    });
    return { uris };
  }

  /** GET <root>/tree: ArchivesSpace 2.x's whole tree (legacy-tree.ts). */
  async legacyTree(rootTypeName: string, scope: Scope, rootId: number): Promise<JsonObject> {
    const nodes = this.nodesOf(rootTypeName);
    const all: LegacyNode[] = [];
    const tree = await readWholeTree(
      this.deps,
      rootTypeName,
      scope,
      rootId,
      (shown, stored) => {
        const root = shown.jsonmodel_type !== nodes.name;
        const titles = root ? ["title", ...nodes.tree.label] : ["display_string", ...nodes.tree.label];
        const node = legacyNode(nodes, shown, stored.id, root ? rootTypeName : nodes.name, titles);
        all.push(node);
        return node;
      },
      this.wholeTree(PAGED_READS),
    );
    await fillContainers(this.deps, all);
    return nest(tree);
  }

  /**
   * GET <record>/top_containers: `[{ref}]` of the top containers the record links to (through its instances), in
   * order, each once. `withTree`: the record is a tree's root, and, as ArchivesSpace answers for a resource, the
   * top containers of the nodes a published view shows (ordered_records) count too.
   */
  async topContainers(typeName: string, scope: Scope, id: number, withTree: boolean): Promise<JsonObject[]> {
    const containerTypes = new Set(
      this.deps.registry.types.filter((type) => type.collection === "top_containers").map((type) => type.name),
    );
    const refsOf = (type: RecordType) => (shown: JsonObject) =>
      type.refPaths
        .filter((refPath) => refPath.targets.some((target) => containerTypes.has(target)))
        .flatMap((refPath) => valuesAt(shown, refPath.segments))
        .filter((uri): uri is string => typeof uri === "string");
    const seen = new Set<string>();
    const add = (uris: readonly string[]) => uris.forEach((uri) => seen.add(uri));
    if (!withTree) {
      const record = await this.operations.read(typeName, scope, id, SERVER_CODE);
      add(refsOf(this.deps.registry.get(typeName))(record));
    } else {
      const nodes = this.nodesOf(typeName);
      const rootRefs = refsOf(this.deps.registry.get(typeName));
      const nodeRefs = refsOf(nodes);
      const tree = await readWholeTree(
        this.deps,
        typeName,
        scope,
        id,
        (shown) => ({
          hidden: hidden(shown),
          refs: shown.jsonmodel_type === nodes.name ? nodeRefs(shown) : rootRefs(shown),
        }),
        this.wholeTree(PAGED_READS),
      );
      if (!tree.root.hidden) {
        add(tree.root.refs);
        let hiddenFrom: number | undefined;
        inTreeOrder(tree, (node, depth) => {
          if (hiddenFrom !== undefined && depth > hiddenFrom) return;
          hiddenFrom = node.item.hidden ? depth : undefined;
          if (hiddenFrom === undefined) add(node.item.refs);
        });
      }
    }
    return [...seen].map((ref) => ({ ref }));
  }

  /**
   * GET <node>/previous: the record before this node in tree order, whole: the last descendant of its previous
   * sibling, else its parent. The first node of a tree has none: 404, as in ArchivesSpace.
   */
  async previous(typeName: string, scope: Scope, id: number, actor: Actor): Promise<JsonObject> {
    const type = recordType(this.deps, typeName, scope);
    if (!isTreeNodeType(type)) throw new Error(`${type.name} records form no trees`);
    const node = await findStored(this.deps, type, id, scope);
    const position = node[type.tree.position] as number;
    const holder = node[TREE_PARENT_FIELD];
    const collection = this.deps.store.collection(type.name);
    let previous =
      position > 0 && typeof holder === "string"
        ? await collection.findOne({ ...childrenFilter(type, scope, holder), [type.tree.position]: position - 1 })
        : null;
    if (previous === null) {
      const parentUri = nodeLinks(type, node).parentUri;
      if (parentUri === undefined) throw new ApiError(404, "No previous node");
      const parentId = this.deps.registry.parseUri(parentUri)?.id;
      if (parentId === undefined) throw new ApiError(404, "No previous node");
      return this.operations.read(type.name, scope, parentId, actor);
    }
    // Down to the previous sibling's last descendant: one index seek a level.
    for (;;) {
      const uri = this.deps.registry.uriFor(type.name, previous.id, previous.repo_id);
      const last = (await childCount(this.deps, type, scope, uri)) - 1;
      if (last < 0) break;
      const child = await collection.findOne({ ...childrenFilter(type, scope, uri), [type.tree.position]: last });
      if (child === null) break;
      previous = child;
    }
    return this.operations.read(type.name, scope, previous.id, actor);
  }

  private nodesOf(rootTypeName: string): TreeNodeType {
    const nodes = nodeTypeOf(this.deps, rootTypeName);
    if (nodes === undefined) throw new Error(`${rootTypeName} records have no trees`);
    return nodes;
  }
}
