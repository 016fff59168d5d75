// ArchivesSpace 2.x's whole-tree answer (`GET <root>/tree`, deprecated there in 2.x and removed in 3.3; its
// backend/app/model/mixins/trees.rb and resource_trees.rb), which Archivematica's client and ArchivesSnake still
// read: every node nested under its parent as
//   {title, id, record_uri, node_type, publish, suppressed, <summary fields>, instance_types?, containers?,
//    has_children, children: [...]}
// Its fields are read from the records through the node type's x-tree settings (the label, the summary fields) and
// the records' ArchivesSpace fields (publish, suppressed, instances), never a type name. Built without recursion:
// the tree may be deep.
import type { JsonObject, JsonValue } from "../../registry/index.js";
import type { OperationDeps } from "../deps.js";
import { valuesAt } from "../computed/paths.js";
import type { TreeNodeType } from "../trees/tree-links.js";
import type { WholeTree } from "./whole-tree.js";

/** A node of the legacy tree before its children are attached. */
export type LegacyNode = Record<string, JsonValue>;

const TOP_CONTAINER_REF = ["sub_container", "top_container", "ref"];

function firstText(record: JsonObject, fields: readonly string[]): string {
  for (const field of fields) {
    const value = record[field];
    if (typeof value === "string" && value !== "") return value;
  }
  return "";
}

/**
 * One record as a legacy tree node. `titleFields`: where its title is read (a node's display string, as
 * ArchivesSpace's tree shows, then the x-tree label; the root's own title).
 */
export function legacyNode(
  nodes: TreeNodeType,
  shown: JsonObject,
  id: number,
  nodeType: string,
  titleFields: string[],
): LegacyNode {
  const out: LegacyNode = {
    title: firstText(shown, titleFields),
    id,
    record_uri: shown.uri as string,
    node_type: nodeType,
    // Unset is unpublished, as a record ArchivesSpace stores without publish is.
    publish: shown.publish === true,
    suppressed: shown.suppressed === true,
  };
  for (const field of nodes.tree.summary) {
    const value = shown[field];
    if (value !== undefined && value !== null) out[field] = value;
  }
  const instances = shown.instances;
  if (Array.isArray(instances) && instances.length > 0) {
    out.instance_types = valuesAt(instances, ["*", "instance_type"]);
    // Filled in once every node is read: the top containers are fetched together (containersOf).
    out.containers = valuesAt(instances, ["*", "sub_container"]);
  }
  return out;
}

/**
 * Each node's `containers` as ArchivesSpace 2.x showed them: per instance's sub container, the top container's type
 * and indicator as `type_1`/`indicator_1`, the sub container's levels as `type_2`..`indicator_3`. One query per 1,000
 * top containers, for the whole tree.
 */
export async function fillContainers(deps: OperationDeps, all: readonly LegacyNode[]): Promise<void> {
  const uris = new Set<string>();
  for (const node of all)
    if (Array.isArray(node.containers))
      for (const uri of valuesAt(node.containers, ["*", ...TOP_CONTAINER_REF.slice(1)]))
        if (typeof uri === "string") uris.add(uri);
  const topContainers = new Map<string, JsonObject>();
  const byType = new Map<string, Array<{ id: number; repoId?: number }>>();
  for (const uri of uris) {
    const parsed = deps.registry.parseUri(uri);
    if (parsed === undefined) continue;
    const ids = byType.get(parsed.type) ?? [];
    ids.push({ id: parsed.id, repoId: parsed.repoId });
    byType.set(parsed.type, ids);
  }
  for (const [typeName, ids] of byType) {
    for (let start = 0; start < ids.length; start += 1000) {
      const chunk = ids.slice(start, start + 1000);
      const found = await deps.store
        .collection(typeName)
        .find(
          {
            id: { $in: chunk.map((one) => one.id) },
            ...(chunk[0]?.repoId !== undefined && { repo_id: chunk[0].repoId }),
          },
          { projection: { id: 1, repo_id: 1, type: 1, indicator: 1 } },
        )
        .toArray();
      for (const doc of found)
        topContainers.set(deps.registry.uriFor(typeName, doc.id, doc.repo_id), {
          ...(typeof doc.type === "string" && { type_1: doc.type }),
          ...(typeof doc.indicator === "string" && { indicator_1: doc.indicator }),
        });
    }
  }
  for (const node of all) {
    if (!Array.isArray(node.containers)) continue;
    node.containers = node.containers.map((sub) => {
      const container = sub as JsonObject;
      const ref = valuesAt(container, TOP_CONTAINER_REF.slice(1))[0];
      const out: Record<string, JsonValue> = { ...(typeof ref === "string" ? topContainers.get(ref) : {}) };
      for (const field of ["type_2", "indicator_2", "type_3", "indicator_3"]) {
        const value = container[field];
        if (typeof value === "string") out[field] = value;
      }
      return out;
    });
  }
}

/** The tree nested, the root first: each node with `has_children` and `children`, built from the leaves up. */
export function nest(tree: WholeTree<LegacyNode>): LegacyNode {
  const attach = (node: LegacyNode, uri: string) => {
    const children = (tree.children.get(uri) ?? []).map((child) => child.item);
    node.has_children = children.length > 0;
    node.children = children;
  };
  attach(tree.root, tree.rootUri);
  for (const [, siblings] of tree.children) for (const child of siblings) attach(child.item, child.uri);
  return tree.root;
}
