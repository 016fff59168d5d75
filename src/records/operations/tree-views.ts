// The tree reads of ArchivesSpace's "large tree" API (backend/app/model/large_tree.rb): a tree
// is paged in waypoints of WAYPOINT_SIZE children, fetched one at a time. Positions are dense,
// so waypoint k of a parent is the index range of positions [k*size, (k+1)*size): its cost
// does not depend on how many children the parent has or which waypoint is asked for.
// Each read runs in one snapshot (a read-only transaction): the counts and the children it
// shows are of one moment, whatever moves run beside it.
import type { ClientSession } from "mongodb";
import { badRequest, notFound } from "../../errors/api-error.js";
import { TREE_PARENT_FIELD, type JsonObject, type JsonValue } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { readWithin } from "./bounded-read.js";
import { findStored, recordType } from "./locate.js";
import { addLinkedFields } from "../computed/linked-fields.js";
import { shapeRecord } from "./shape.js";
import { hiddenFilter } from "./suppression.js";
import { trusted, type Actor, type Scope } from "../types.js";
import {
  childCount,
  childrenFilter,
  isTreeNodeType,
  nodeLinks,
  scopeFilter,
  type TreeNodeType,
} from "../trees/tree-links.js";

export const WAYPOINT_SIZE = 200;

/** What a path entry adds besides its titles and uris (keys, offset, type, punctuation). */
const PATH_ENTRY_OVERHEAD_BYTES = 128;

/** A tree read's context: the node type, the root record and the snapshot. */
interface TreeRead {
  deps: OperationDeps;
  nodes: TreeNodeType;
  scope: Scope;
  root: StoredRecord;
  rootUri: string;
  session: ClientSession;
  /**
   * published_only's condition, or empty. With it, waypoints are pages of the matching children in position order and
   * counts count them, as ArchivesSpace's large tree does; without it, a waypoint is an index range of positions.
   */
  only: Record<string, unknown>;
  /**
   * What the viewer may not see (suppressed nodes): left out of what is shown, but not of the counts and position
   * ranges, so that a waypoint stays one index range for everyone (such a node leaves a gap in its waypoint).
   */
  hidden: Record<string, unknown>;
}

/** How a tree read is asked for: by whom, and whether unpublished nodes are left out (published_only). */
export interface TreeViewer {
  actor: Actor;
  publishedOnly?: boolean;
}

/** Server code's reads (an export, an import's check): it decides itself what it passes on. */
const SERVER_VIEW: TreeViewer = { actor: trusted("server") };

/** published_only: ArchivesSpace's "restrict to published/unsuppressed items". */
const PUBLISHED_ONLY = { publish: true, suppressed: { $ne: true } };

function filtered(read: TreeRead): boolean {
  return Object.keys(read.only).length > 0;
}

/** The fields a tree view shows of a record: its label and the x-tree summary fields. */
function described(nodes: TreeNodeType, record: StoredRecord): JsonObject {
  const label = nodes.tree.label
    .map((field) => record[field])
    .find((value) => typeof value === "string" && value !== "");
  const title = typeof label === "string" ? label : "";
  const out: Record<string, JsonValue> = { title, parsed_title: title };
  for (const field of nodes.tree.summary) {
    const value = record[field] as JsonValue | undefined;
    if (value !== undefined && value !== null) out[field] = value;
  }
  return out;
}

function waypointCounts(childCount: number): JsonObject {
  return { child_count: childCount, waypoints: Math.ceil(childCount / WAYPOINT_SIZE), waypoint_size: WAYPOINT_SIZE };
}

/**
 * How many children each of `holders` has, in one query (a waypoint's nodes). The embedded
 * engine answers it with an index count per holder; a MongoDB server walks the children's
 * index keys, as ArchivesSpace's own grouped count walks its rows.
 */
async function childCounts(read: TreeRead, holders: readonly string[]): Promise<Map<string, number>> {
  if (holders.length === 0) return new Map();
  const filter = childrenFilter(read.nodes, read.scope, holders);
  const rows = await read.deps.store
    .collection(read.nodes.name)
    .aggregate<{ _id: string; count: number }>(
      [{ $match: { ...filter, ...read.only } }, { $group: { _id: `$${TREE_PARENT_FIELD}`, count: { $sum: 1 } } }],
      { session: read.session },
    )
    .toArray();
  return new Map(rows.map((row) => [row._id, row.count]));
}

/** One holder's child count: the last position plus one (an index seek; see childCount). */
function childCountOf(read: TreeRead, holder: string): Promise<number> {
  if (filtered(read))
    return read.deps.store
      .collection(read.nodes.name)
      .countDocuments({ ...childrenFilter(read.nodes, read.scope, holder), ...read.only }, { session: read.session });
  return childCount(read.deps, read.nodes, read.scope, holder, read.session);
}

function uriOf(read: TreeRead, record: StoredRecord): string {
  return read.deps.registry.uriFor(read.nodes.name, record.id, record.repo_id);
}

/** Waypoint `offset` of `holder`'s children (the root uri for the top level). */
async function waypointOf(read: TreeRead, holder: string, offset: number): Promise<JsonObject[]> {
  const position = read.nodes.tree.position;
  const projection = Object.fromEntries(
    [...read.nodes.tree.label, ...read.nodes.tree.summary, "id", "repo_id", position].map((field) => [field, 1]),
  );
  // Filtered, the matching children are paged (a skip over the index, as ArchivesSpace's offset query).
  const children = filtered(read)
    ? await read.deps.store
        .collection(read.nodes.name)
        .find(
          { ...childrenFilter(read.nodes, read.scope, holder), ...read.only },
          { session: read.session, projection, batchSize: WAYPOINT_SIZE + 1 },
        )
        .sort({ [position]: 1 })
        .skip(offset * WAYPOINT_SIZE)
        .limit(WAYPOINT_SIZE)
        .toArray()
    : await read.deps.store
        .collection(read.nodes.name)
        .find(
          {
            ...childrenFilter(read.nodes, read.scope, holder),
            ...read.hidden,
            [position]: { $gte: offset * WAYPOINT_SIZE, $lt: (offset + 1) * WAYPOINT_SIZE },
          },
          { session: read.session, projection, batchSize: WAYPOINT_SIZE + 1 },
        )
        .sort({ [position]: 1 })
        .toArray();
  const counts = await childCounts(
    read,
    children.map((child) => uriOf(read, child)),
  );
  const parent = holder === read.rootUri ? null : (read.deps.registry.parseUri(holder)?.id ?? null);
  return children.map((child) => ({
    ...waypointCounts(counts.get(uriOf(read, child)) ?? 0),
    ...described(read.nodes, child),
    uri: uriOf(read, child),
    position: child[position] as number,
    parent_id: parent,
    jsonmodel_type: read.nodes.name,
  }));
}

/** `precomputed_waypoints`: the first waypoint, which a client always asks for next. */
async function precomputed(read: TreeRead, holder: string, key: string, childCount: number): Promise<JsonObject> {
  return childCount === 0 ? {} : { [key]: { "0": await waypointOf(read, holder, 0) } };
}

export class TreeViews {
  constructor(private readonly deps: OperationDeps) {}

  /** The node type whose trees hang from records of `rootTypeName`. */
  nodeTypeOf(rootTypeName: string): TreeNodeType {
    const nodes = this.deps.registry.treeNodeTypeOf(rootTypeName);
    if (nodes === undefined || !isTreeNodeType(nodes)) throw new Error(`${rootTypeName} records have no trees`);
    return nodes;
  }

  private async within<T>(
    rootTypeName: string,
    scope: Scope,
    rootId: number,
    viewer: TreeViewer,
    work: (read: TreeRead) => Promise<T>,
  ): Promise<T> {
    const rootType = recordType(this.deps, rootTypeName, scope);
    const nodes = this.nodeTypeOf(rootType.name);
    const hidden = hiddenFilter(nodes, viewer.actor, scope.repoId);
    const only = viewer.publishedOnly === true ? { ...hidden, ...PUBLISHED_ONLY } : {};
    return this.deps.store.transaction(async (session) => {
      const root = await findStored(this.deps, rootType, rootId, scope, undefined, viewer.actor);
      const rootUri = this.deps.registry.uriFor(rootType.name, rootId, scope.repoId);
      return work({ deps: this.deps, nodes, scope, root, rootUri, session, only, hidden });
    });
  }

  /** GET .../tree/root */
  root(rootTypeName: string, scope: Scope, rootId: number, viewer: TreeViewer = SERVER_VIEW): Promise<JsonObject> {
    return this.within(rootTypeName, scope, rootId, viewer, async (read) => {
      const childCount = await childCountOf(read, read.rootUri);
      return {
        ...waypointCounts(childCount),
        ...described(read.nodes, read.root),
        uri: read.rootUri,
        jsonmodel_type: rootTypeName,
        precomputed_waypoints: await precomputed(read, read.rootUri, "", childCount),
      };
    });
  }

  /** GET .../tree/waypoint?offset=&parent_node= (no parent_node: the top level). */
  waypoint(
    rootTypeName: string,
    scope: Scope,
    rootId: number,
    offset: number,
    parentNode: string | undefined,
    viewer: TreeViewer = SERVER_VIEW,
  ): Promise<JsonObject[]> {
    return this.within(rootTypeName, scope, rootId, viewer, async (read) => {
      const holder =
        parentNode === undefined ? read.rootUri : uriOf(read, await this.nodeIn(read, parentNode, "parent_node"));
      return waypointOf(read, holder, offset);
    });
  }

  /** GET .../tree/node?node_uri= */
  node(rootTypeName: string, scope: Scope, rootId: number, nodeUri: string, viewer = SERVER_VIEW): Promise<JsonObject> {
    return this.within(rootTypeName, scope, rootId, viewer, async (read) => {
      const node = await this.nodeIn(read, nodeUri, "node_uri");
      const uri = uriOf(read, node);
      const childCount = await childCountOf(read, uri);
      return {
        ...waypointCounts(childCount),
        ...described(read.nodes, node),
        uri,
        // ArchivesSpace counts this one from 1 (large_tree.rb#node), unlike waypoint positions.
        position: (node[read.nodes.tree.position] as number) + 1,
        jsonmodel_type: read.nodes.name,
        precomputed_waypoints: await precomputed(read, uri, uri, childCount),
      };
    });
  }

  /**
   * GET .../tree/node_from_root?node_ids[]=: for each node, the path of waypoints from the root
   * down to it: the root's entry (node null) then each ancestor's, each saying which waypoint
   * of its children holds the next step. Ancestors are fetched a level at a time for all nodes.
   */
  nodeFromRoot(
    rootTypeName: string,
    scope: Scope,
    rootId: number,
    nodeIds: readonly number[],
    viewer: TreeViewer = SERVER_VIEW,
  ): Promise<JsonObject> {
    // Paths name the waypoints of positions, so only what the viewer may not see (suppression) is left out here.
    return this.within(rootTypeName, scope, rootId, { actor: viewer.actor }, async (read) => {
      const known = new Map<number, StoredRecord>();
      let wanted = [...new Set(nodeIds)];
      const position = read.nodes.tree.position;
      const projection = Object.fromEntries(
        [
          ...read.nodes.tree.label,
          "id",
          "repo_id",
          position,
          TREE_PARENT_FIELD,
          read.nodes.tree.root,
          read.nodes.tree.parent,
        ].map((field) => [field, 1]),
      );
      while (wanted.length > 0) {
        const found = await read.deps.store
          .collection(read.nodes.name)
          .find(
            { ...scopeFilter(read.nodes, read.scope), ...read.hidden, id: { $in: wanted } },
            { session: read.session, projection },
          )
          .toArray();
        for (const node of found) known.set(node.id, node);
        wanted = found
          .map((node) => this.parentIdOf(read, node))
          .filter((id): id is number => id !== undefined && !known.has(id));
      }
      const rootEntry = (offset: number): JsonObject => ({
        node: null,
        root_record_uri: read.rootUri,
        offset,
        jsonmodel_type: rootTypeName,
        ...titles(described(read.nodes, read.root)),
      });
      const result: Record<string, JsonValue> = {}; // keys: node ids
      let bytes = 0;
      const counted = (entry: JsonObject): JsonObject => {
        bytes +=
          PATH_ENTRY_OVERHEAD_BYTES +
          Buffer.byteLength(String(entry.title)) * 2 +
          Buffer.byteLength(String(entry.node)) +
          Buffer.byteLength(read.rootUri);
        // The paths' size is the number of nodes asked for times their depth, which nothing else
        // bounds (trees can be thousands of levels deep), so it is counted as they are built.
        if (bytes > this.deps.responseMaxBytes) {
          throw badRequest({
            node_ids: [
              `The paths to these nodes would take more than ${this.deps.responseMaxBytes} bytes (RESPONSE_MAX_BYTES); ask for fewer nodes at a time`,
            ],
          });
        }
        return entry;
      };
      for (const id of nodeIds) {
        let node = known.get(id);
        if (node === undefined || nodeLinks(read.nodes, node).rootUri !== read.rootUri)
          throw notFound(read.nodes.title);
        const path: JsonObject[] = [];
        for (;;) {
          const offset = Math.floor((node[position] as number) / WAYPOINT_SIZE);
          const parentId: number | undefined = this.parentIdOf(read, node);
          const parent: StoredRecord | undefined = parentId === undefined ? undefined : known.get(parentId);
          if (parent === undefined) {
            path.push(counted(rootEntry(offset)));
            break;
          }
          path.push(
            counted({
              node: uriOf(read, parent),
              root_record_uri: read.rootUri,
              offset,
              jsonmodel_type: read.nodes.name,
              ...titles(described(read.nodes, parent)),
            }),
          );
          node = parent;
        }
        result[String(id)] = path.reverse();
      }
      return result;
    });
  }

  /** GET <node>/children: the node's children, whole, in position order. */
  async children(
    nodeTypeName: string,
    scope: Scope,
    nodeId: number,
    viewer: TreeViewer = SERVER_VIEW,
  ): Promise<JsonObject[]> {
    const type = recordType(this.deps, nodeTypeName, scope);
    if (!isTreeNodeType(type)) throw new Error(`${type.name} records form no trees`);
    await findStored(this.deps, type, nodeId, scope, undefined, viewer.actor);
    const hidden = hiddenFilter(type, viewer.actor, scope.repoId);
    const only = { ...hidden, ...(viewer.publishedOnly === true ? PUBLISHED_ONLY : {}) };
    const uri = this.deps.registry.uriFor(type.name, nodeId, scope.repoId);
    const position = type.tree.position;
    const tooLarge = (maxBytes: number) =>
      badRequest(
        `This node's children are more than ${maxBytes} bytes together (RESPONSE_MAX_BYTES); read them a waypoint at a time through tree/node and tree/waypoint`,
      );
    const children = await readWithin(
      this.deps.store
        .collection(type.name)
        .find({ ...childrenFilter(type, scope, uri), ...only })
        .sort({ [position]: 1 }),
      this.deps.responseMaxBytes,
      tooLarge,
    );
    const records = children.map((child) => shapeRecord(this.deps.registry, type, child, viewer.actor));
    // Each child whole, as its own GET shows it (ArchivesSpace answers each with to_jsonmodel).
    await addLinkedFields(this.deps, type, children, records);
    return records;
  }

  private parentIdOf(read: TreeRead, node: StoredRecord): number | undefined {
    const parentUri = nodeLinks(read.nodes, node).parentUri;
    return parentUri === undefined ? undefined : read.deps.registry.parseUri(parentUri)?.id;
  }

  /** A node of this tree named by a uri parameter: 400 when it cannot be one, 404 when it is not there. */
  private async nodeIn(read: TreeRead, uri: string, param: string): Promise<StoredRecord> {
    const parsed = read.deps.registry.parseUri(uri);
    if (parsed?.type !== read.nodes.name)
      throw badRequest({ [param]: [`Must be a uri of: ${read.nodes.name} (${read.nodes.itemPath})`] });
    const node =
      parsed.repoId === read.scope.repoId
        ? await read.deps.store
            .collection(read.nodes.name)
            .findOne(
              { ...scopeFilter(read.nodes, read.scope), ...read.hidden, ...read.only, id: parsed.id },
              { session: read.session },
            )
        : null;
    if (!node || nodeLinks(read.nodes, node).rootUri !== read.rootUri) throw notFound(read.nodes.title);
    return node;
  }
}

function titles(view: JsonObject): JsonObject {
  return { title: view.title ?? "", parsed_title: view.parsed_title ?? "" };
}
