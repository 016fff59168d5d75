// The tree routes (records/http/tree-endpoints.ts) of every type that takes part in a tree,
// from the registry alone: a root type's large-tree reads and accept_children, a node type's
// children, parent and accept_children; both take POST children.
import type { RecordType } from "../registry/registry.js";
import { WAYPOINT_SIZE } from "../records/operations/tree-views.js";
import {
  booleanParameter,
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  openApiPath,
  responseRef,
  type DocumentContext,
  type Operation,
  type Parameter,
  type Paths,
  type Schema,
} from "../http/api-description.js";
import { accessNote, isPublic, writeResultSchema } from "./record-paths.js";

/** ArchivesSpace's published_only (docs/api.md §14). */
const PUBLISHED_ONLY: Parameter = booleanParameter(
  "published_only",
  "Only nodes with `publish: true` that are not suppressed are shown and counted (default false).",
);

function waypointCounts(): Record<string, Schema> {
  return {
    child_count: { type: "integer", minimum: 0 },
    waypoints: { type: "integer", minimum: 0, description: `ceil(child_count / waypoint_size)` },
    waypoint_size: { const: WAYPOINT_SIZE },
  };
}

function waypointNodeSchema(nodes: RecordType): Schema {
  return {
    type: "object",
    description:
      "A node as a waypoint lists it (ArchivesSpace's large-tree shape), with the x-tree summary fields of the record when present.",
    properties: {
      ...waypointCounts(),
      title: { type: "string" },
      parsed_title: { type: "string" },
      uri: { type: "string" },
      position: { type: "integer", minimum: 0, description: "0-based place among its siblings" },
      parent_id: { type: ["integer", "null"], description: "the parent node's id; null at the top level" },
      jsonmodel_type: { const: nodes.name },
    },
    required: ["child_count", "waypoints", "waypoint_size", "title", "uri", "position", "parent_id", "jsonmodel_type"],
  };
}

function precomputedSchema(nodes: RecordType): Schema {
  return {
    type: "object",
    description:
      'The first waypoint, keyed by the parent (`""` for the root, else the node uri) and then by `"0"`; empty without children.',
    additionalProperties: { type: "object", additionalProperties: { type: "array", items: waypointNodeSchema(nodes) } },
  };
}

function query(name: string, description: string, schema: Schema, required = false): Parameter {
  return { name, in: "query", description, schema, ...(required && { required }) };
}

function arrayQuery(name: string, description: string, items: Schema, required = false): Parameter {
  return {
    name: `${name}[]`,
    in: "query",
    description,
    schema: { type: "array", items },
    style: "form",
    explode: true,
    ...(required && { required }),
  };
}

/** Path sets joined, the operations of one path (GET and POST children) kept together. */
function combined(...sets: Paths[]): Paths {
  const paths: Paths = {};
  for (const set of sets) for (const [path, item] of Object.entries(set)) paths[path] = { ...paths[path], ...item };
  return paths;
}

interface TreeRoute {
  method: "get" | "post";
  suffix: string;
  operation: Omit<Operation, "responses" | "tags" | "security"> & { responses: Operation["responses"] };
}

export class TreePaths {
  constructor(private readonly ctx: DocumentContext) {}

  private get repositoryTitle(): string {
    return this.ctx.registry.scopeHolder?.title ?? "Repository";
  }

  private place(type: RecordType, permission: "read" | "update", routes: readonly TreeRoute[]): Paths {
    const paths: Paths = {};
    const code = type.permissions[permission];
    const open = isPublic(type, permission);
    const pathParameters = [
      ...(type.scope === "repository" ? [idPathParameter("repo_id", `The ${this.repositoryTitle}'s id.`)] : []),
      idPathParameter("id", `The ${type.title} record's id.`),
    ];
    for (const route of routes) {
      const operation: Operation = {
        ...route.operation,
        description: `${accessNote(type, permission)} ${route.operation.description ?? ""}`.trim(),
        tags: [type.name],
        responses: {
          ...route.operation.responses,
          ...commonResponses(),
          ...(!open && { "403": responseRef("AccessDenied") }),
        },
        ...(!open && { security: this.ctx.security(code) }),
      };
      operation.responses = Object.fromEntries(
        Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)),
      );
      paths[openApiPath(`${type.itemPath}/${route.suffix}`)] = {
        parameters: pathParameters,
        [route.method]: operation,
      };
    }
    return paths;
  }

  /** The routes of a root type (resource): tree reads and accept_children. */
  root(type: RecordType, nodes: RecordType): Paths {
    const ctx = this.ctx;
    const notFound = notFoundResponse(ctx, [type.title, this.repositoryTitle]);
    const nodeNotFound = notFoundResponse(
      ctx,
      [nodes.title, type.title, this.repositoryTitle],
      `A node that is not in this ${type.title}'s tree is not found.`,
    );
    const rootView: Schema = {
      type: "object",
      properties: {
        ...waypointCounts(),
        title: { type: "string" },
        parsed_title: { type: "string" },
        uri: { type: "string" },
        jsonmodel_type: { const: type.name },
        precomputed_waypoints: precomputedSchema(nodes),
      },
      required: [
        "child_count",
        "waypoints",
        "waypoint_size",
        "title",
        "uri",
        "jsonmodel_type",
        "precomputed_waypoints",
      ],
    };
    const nodeView: Schema = {
      type: "object",
      properties: {
        ...waypointCounts(),
        title: { type: "string" },
        uri: { type: "string" },
        position: { type: "integer", minimum: 1, description: "1-based, as ArchivesSpace counts it here" },
        jsonmodel_type: { const: nodes.name },
        precomputed_waypoints: precomputedSchema(nodes),
      },
      required: [
        "child_count",
        "waypoints",
        "waypoint_size",
        "title",
        "uri",
        "position",
        "jsonmodel_type",
        "precomputed_waypoints",
      ],
    };
    const pathStep: Schema = {
      type: "object",
      properties: {
        node: { type: ["string", "null"] },
        root_record_uri: { type: "string" },
        offset: { type: "integer", minimum: 0 },
        jsonmodel_type: { type: "string" },
        title: { type: "string" },
        parsed_title: { type: "string" },
      },
      required: ["node", "root_record_uri", "offset", "jsonmodel_type", "title"],
    };
    const reads = this.place(type, "read", [
      {
        method: "get",
        suffix: "tree/root",
        operation: {
          operationId: `tree_root_${type.name}`,
          summary: `The top of ${type.title}'s tree`,
          description: `Its child count, waypoint count (waypoints of ${WAYPOINT_SIZE} children) and the first waypoint precomputed.`,
          parameters: [PUBLISHED_ONLY],
          responses: {
            "200": jsonResponse("The root node.", rootView),
            "400": responseRef("BadRequest"),
            "404": notFound,
          },
        },
      },
      {
        method: "get",
        suffix: "tree/waypoint",
        operation: {
          operationId: `tree_waypoint_${type.name}`,
          summary: `One waypoint of a parent's children in ${type.title}'s tree`,
          description: `Children at positions [offset*${WAYPOINT_SIZE}, (offset+1)*${WAYPOINT_SIZE}); past the end, [].`,
          parameters: [
            query("offset", "The waypoint number, from 0.", { type: "integer", minimum: 0 }, true),
            query("parent_node", `The parent node's uri; absent or empty for the top level.`, { type: "string" }),
            PUBLISHED_ONLY,
          ],
          responses: {
            "200": jsonResponse("The nodes, in position order.", { type: "array", items: waypointNodeSchema(nodes) }),
            "400": responseRef("BadRequest"),
            "404": nodeNotFound,
          },
        },
      },
      {
        method: "get",
        suffix: "tree/node",
        operation: {
          operationId: `tree_node_${type.name}`,
          summary: `One node of ${type.title}'s tree`,
          description: "Its counts and the first waypoint of its children precomputed.",
          parameters: [query("node_uri", "The node's uri.", { type: "string" }, true), PUBLISHED_ONLY],
          responses: {
            "200": jsonResponse("The node.", nodeView),
            "400": responseRef("BadRequest"),
            "404": nodeNotFound,
          },
        },
      },
      {
        method: "get",
        suffix: "tree/node_from_root",
        operation: {
          operationId: `tree_node_from_root_${type.name}`,
          summary: `The waypoint path from the root of ${type.title}'s tree to nodes`,
          description:
            "Per node id: the root's step (node null), then each ancestor's, each naming the waypoint of its children that holds the next step.",
          parameters: [
            arrayQuery("node_ids", "The nodes' ids.", { type: "integer", minimum: 1 }, true),
            PUBLISHED_ONLY,
          ],
          responses: {
            "200": jsonResponse("The paths by node id.", {
              type: "object",
              additionalProperties: { type: "array", items: pathStep },
            }),
            "400": responseRef("BadRequest"),
            "404": nodeNotFound,
          },
        },
      },
    ]);
    return combined(reads, this.accepting(type, nodes));
  }

  private accepting(type: RecordType, nodes: RecordType): Paths {
    return this.place(type, "update", [
      {
        method: "post",
        suffix: "accept_children",
        operation: {
          operationId: `accept_children_${type.name}`,
          summary: `Move ${nodes.title} records under this ${type.title}`,
          description:
            "The listed nodes (from any tree of the repository, each with its subtree) become children here, in the order given, the first at `position` " +
            "(last when absent). All or nothing; sibling positions stay dense.",
          parameters: [
            arrayQuery("children", "The nodes' uris.", { type: "string" }, true),
            query("position", "Where the first one goes (0-based); clamped to the end.", {
              type: "integer",
              minimum: 0,
            }),
          ],
          responses: {
            "200": jsonResponse("Moved: the answer names this record.", writeResultSchema(this.ctx, "Updated")),
            "400": responseRef("BadRequest"),
            "404": notFoundResponse(this.ctx, [type.title, this.repositoryTitle]),
            "409": conflictResponse(
              this.ctx,
              "A node would end up under itself.",
              "Cannot move <uri> under itself or one of its descendants (<uri>)",
            ),
          },
        },
      },
      {
        method: "post",
        suffix: "children",
        operation: {
          operationId: `add_children_${type.name}`,
          summary: `Create ${nodes.title} records under this ${type.title}`,
          description:
            `Also needs the ${nodes.title} create permission. ArchivesSpace's \`{"children": [...]}\` body: each child is ` +
            "created under this record, in order, after its present children (unless a child names its `position`); its " +
            "root and parent links are this record's. All or none: the first bad child is a 400 with its fields under " +
            "`children/<index>/`. Answers this record (`Updated`), with the children's warnings.",
          requestBody: {
            required: true,
            content: jsonContent({
              type: "object",
              required: ["children"],
              properties: { children: { type: "array", items: this.ctx.recordRef(nodes.name) } },
            }),
          },
          responses: {
            "200": jsonResponse("Created: the answer names this record.", writeResultSchema(this.ctx, "Updated")),
            "400": responseRef("BadRequest"),
            "404": notFoundResponse(this.ctx, [type.title, this.repositoryTitle]),
            "413": responseRef("TooLarge"),
          },
        },
      },
    ]);
  }

  /** The routes of a node type (archival_object): children, parent and accept_children. */
  node(type: RecordType): Paths {
    const ctx = this.ctx;
    const notFound = notFoundResponse(ctx, [type.title, this.repositoryTitle]);
    return combined(
      this.place(type, "read", [
        {
          method: "get",
          suffix: "children",
          operation: {
            operationId: `children_${type.name}`,
            summary: `The children of a ${type.title}`,
            description: "Whole records, in position order.",
            parameters: [PUBLISHED_ONLY],
            responses: {
              "200": jsonResponse("The children.", { type: "array", items: ctx.recordRef(type.name) }),
              "400": responseRef("BadRequest"),
              "404": notFound,
            },
          },
        },
      ]),
      this.place(type, "update", [
        {
          method: "post",
          suffix: "parent",
          operation: {
            operationId: `parent_${type.name}`,
            summary: `Move or reorder a ${type.title}`,
            description:
              "Under the node `parent` (any tree of the repository; its subtree follows), or at the top of its own tree without one, at `position` (last when absent). Sibling positions stay dense.",
            parameters: [
              query("parent", "The new parent node's id.", { type: "integer", minimum: 1 }),
              query("position", "The new place among its siblings (0-based); clamped to the end.", {
                type: "integer",
                minimum: 0,
              }),
            ],
            responses: {
              "200": jsonResponse("Moved.", writeResultSchema(ctx, "Updated")),
              "400": responseRef("BadRequest"),
              "404": notFound,
              "409": conflictResponse(
                ctx,
                "The node would end up under itself.",
                "Cannot move <uri> under itself or one of its descendants (<uri>)",
              ),
            },
          },
        },
      ]),
      this.accepting(type, type),
    );
  }
}
