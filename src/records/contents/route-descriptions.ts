// How the collection contents routes (controller.ts) are described in /openapi.json, per record type, from the
// registry: each under its type's tag, with the type's permission as its security.
import {
  commonResponses,
  idPathParameter,
  notFoundResponse,
  jsonResponse,
  openApiPath,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Reference,
  type Response,
  type Schema,
  type Tag,
} from "../../http/api-description.js";
import type { RouteOperation } from "../../http/described-route.js";
import type { RecordOperation, RecordType } from "../../registry/index.js";

type Describe = (ctx: DocumentContext) => RouteOperation;

// As the registry's routes say them (src/openapi/record-paths.ts, which records/ may not import: openapi/ imports
// records/): the same tag (its description is the first one met) and the same words for who may call.
function recordTag(type: RecordType): Tag {
  return { name: type.name, description: `${type.title} records, at \`${openApiPath(type.collectionPath)}\`.` };
}

function isPublic(type: RecordType, operation: RecordOperation): boolean {
  return operation === "read" && type.publicRead;
}

function accessNote(type: RecordType, operation: RecordOperation): string {
  if (isPublic(type, operation)) return "Needs no session.";
  const code = type.permissions[operation];
  if (code === null) return "Needs a session; any user may.";
  return type.scope === "repository"
    ? `Needs a session whose user holds \`${code}\` in the repository (or globally).`
    : `Needs a session whose user holds \`${code}\` globally.`;
}

const TOO_LARGE =
  "A tree with more nodes than WHOLE_TREE_MAX_NODES (20,000 unless set) is a 400 saying so, before it is read: " +
  "read such a tree through tree/root, tree/waypoint and tree/node, which page it.";

function pathParameters(type: RecordType, repositoryTitle: string): Parameter[] {
  return [
    ...(type.scope === "repository" ? [idPathParameter("repo_id", `The ${repositoryTitle}'s id.`)] : []),
    idPathParameter("id", `The ${type.title} record's id.`),
  ];
}

/** An operation on records of `type`, needing `permission` on it. */
function operation(
  ctx: DocumentContext,
  type: RecordType,
  permission: RecordOperation,
  route: Omit<RouteOperation, "tag" | "pathParameters" | "responses"> & {
    responses: Record<string, Response | Reference>;
  },
  notFoundNote = "",
): RouteOperation {
  const repositoryTitle = ctx.registry.scopeHolder?.title ?? "Repository";
  const open = isPublic(type, permission);
  return {
    ...route,
    description: `${accessNote(type, permission)} ${route.description ?? ""}`.trim(),
    tag: recordTag(type),
    pathParameters: pathParameters(type, repositoryTitle),
    responses: {
      ...route.responses,
      "404": notFoundResponse(ctx, [type.title, repositoryTitle], notFoundNote),
      ...(!open && { "403": responseRef("AccessDenied") }),
      ...commonResponses(),
    },
    ...(!open && { security: ctx.security(type.permissions[permission]) }),
  };
}

const refItem: Schema = { type: "object", required: ["ref"], properties: { ref: { type: "string" } } };

export function describeOrderedRecords(type: RecordType, nodes: RecordType): Describe {
  return (ctx) =>
    operation(ctx, type, "read", {
      operationId: `ordered_records_${type.name}`,
      summary: `A ${type.title} and its ${nodes.title} records in tree order`,
      description:
        "Depth first, each node before its children, as ArchivesSpace's `ordered_records`: the record at depth 0, then its " +
        "nodes. As there, only what a published view shows: nothing when the record is unpublished or suppressed, and no " +
        `unpublished or suppressed node nor anything under one. ${TOO_LARGE}`,
      responses: {
        "200": jsonResponse("The records in order.", {
          type: "object",
          required: ["uris"],
          properties: {
            uris: {
              type: "array",
              items: {
                type: "object",
                required: ["ref", "depth"],
                properties: {
                  ref: { type: "string" },
                  display_string: { type: "string" },
                  depth: { type: "integer", minimum: 0 },
                  level: { type: "string" },
                },
              },
            },
          },
        }),
        "400": responseRef("BadRequest"),
      },
    });
}

export function describeLegacyTree(type: RecordType, nodes: RecordType): Describe {
  const node: Schema = {
    type: "object",
    description: "A node of the tree (the record itself at the top), its children nested.",
    required: ["title", "id", "record_uri", "node_type", "publish", "suppressed", "has_children", "children"],
    properties: {
      title: { type: "string" },
      id: { type: "integer" },
      record_uri: { type: "string" },
      node_type: { enum: [type.name, nodes.name] },
      publish: { type: "boolean" },
      suppressed: { type: "boolean" },
      instance_types: { type: "array", items: { type: "string" } },
      containers: { type: "array", items: { type: "object" } },
      has_children: { type: "boolean" },
      children: { type: "array", items: { type: "object", description: "A node, as this one." } },
    },
  };
  return (ctx) =>
    operation(ctx, type, "read", {
      operationId: `legacy_tree_${type.name}`,
      summary: `The whole tree of a ${type.title} (ArchivesSpace 2.x's)`,
      description:
        "Removed from ArchivesSpace in 3.3 but still read by Archivematica's client and ArchivesSnake: the record and " +
        `every ${nodes.title} under it, nested. ${TOO_LARGE}`,
      responses: { "200": jsonResponse("The tree.", node), "400": responseRef("BadRequest") },
    });
}

export function describeTopContainers(type: RecordType, withTree: boolean): Describe {
  return (ctx) =>
    operation(ctx, type, "read", {
      operationId: `top_containers_${type.name}`,
      summary: `The top containers a ${type.title} uses`,
      description:
        "`[{ref}]` of the top containers its instances link to, each once, in order" +
        (withTree
          ? `; with those of the records of its tree a published view shows (as \`ordered_records\`). ${TOO_LARGE}`
          : "."),
      responses: {
        "200": jsonResponse("The top containers.", { type: "array", items: refItem }),
        ...(withTree && { "400": responseRef("BadRequest") }),
      },
    });
}

export function describePrevious(type: RecordType): Describe {
  return (ctx) =>
    operation(
      ctx,
      type,
      "read",
      {
        operationId: `previous_${type.name}`,
        summary: `The record before a ${type.title} in tree order`,
        description:
          "The last descendant of its previous sibling, else its parent, whole (as its GET shows it). The first node " +
          'of a tree has none: 404 `{"error":"No previous node"}`.',
        responses: { "200": jsonResponse("The previous record.", ctx.recordRef(type.name)) },
      },
      'The first node of a tree has no previous record: `{"error":"No previous node"}`.',
    );
}
