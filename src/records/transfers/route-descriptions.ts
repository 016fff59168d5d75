// How the transfer and batch delete routes (controller.ts) are described in /openapi.json.
import {
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Schema,
  type Tag,
} from "../../http/api-description.js";
import type { RouteOperation } from "../../http/described-route.js";
import { MAX_BATCH_DELETE } from "../operations/batch-delete.js";
import { TRANSFER_PERMISSION } from "../operations/transfer.js";

const TRANSFERS: Tag = {
  name: "transfer",
  description: "Moving records to another repository or another tree, and deleting several records at once.",
};

const REPO_ID = idPathParameter("repo_id", "The repository's id.");
const ID = idPathParameter("id", "The record's id.");

function uriParameter(name: string, description: string, array = false): Parameter {
  return array
    ? {
        name: `${name}[]`,
        in: "query",
        required: true,
        description,
        schema: { type: "array", items: { type: "string" } },
      }
    : { name, in: "query", required: true, description, schema: { type: "string" } };
}

const movedSchema: Schema = {
  type: "object",
  required: ["status", "id", "target"],
  properties: {
    status: { const: "Moved" },
    id: { type: "integer", description: "The record's id: it keeps it; its uri now names the target repository." },
    target: { type: "integer", description: "The target repository's id." },
  },
};

/** `POST <collection>/:id/transfer` for a type titled `title` served at `collection`. */
export function describeTransfer(title: string, collection: string): (ctx: DocumentContext) => RouteOperation {
  return (ctx) => ({
    operationId: `transfer_${collection}`,
    summary: `Transfer a ${title} to another repository`,
    description:
      `Needs the type's update permission in both repositories and \`${TRANSFER_PERMISSION}\` in this one. The ` +
      "record moves with its dependants (a resource's archival objects, a digital object's components), the " +
      "digital objects and top containers only it uses, and the events and assessments only about moving records " +
      "(the others are copied into the target with the moving links); links from records left behind are removed, " +
      "and top containers they share are copied. One transaction: on any failure nothing changes.",
    tag: TRANSFERS,
    pathParameters: [REPO_ID, ID],
    parameters: [uriParameter("target_repo", "The target repository's uri, `/repositories/N`.")],
    security: ctx.security(TRANSFER_PERMISSION),
    responses: {
      "200": jsonResponse("Moved.", ctx.component("TransferResult", movedSchema), {
        status: "Moved",
        id: 1,
        target: 3,
      }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, [title, "Repository"]),
      "409": conflictResponse(
        ctx,
        "A digital object the record uses is used by records left behind (each named, `DIGITAL_OBJECT_IN_USE`), " +
          "or a record with the same identifier or barcode is in the target repository.",
        "A record with the same id_0 is already in the target repository",
      ),
      ...commonResponses(),
    },
  });
}

export function describeComponentTransfer(ctx: DocumentContext): RouteOperation {
  return {
    operationId: "transfer_component",
    summary: "Move an archival object and its descendants to another resource",
    description:
      "Needs the resource type's update permission. The component goes last at the top level of the target " +
      "resource, its descendants with it; one transaction.",
    tag: TRANSFERS,
    pathParameters: [REPO_ID],
    parameters: [
      uriParameter("target_resource", "The uri of the resource to move into."),
      uriParameter("component", "The uri of the archival object to move."),
    ],
    security: ctx.security(null),
    responses: {
      "200": jsonResponse(
        "Moved.",
        ctx.component("ComponentTransferResult", {
          type: "object",
          required: ["component", "resource"],
          properties: { component: { type: "string" }, resource: { type: "string" } },
        }),
      ),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["Archival Object", "Resource", "Repository"]),
      ...commonResponses(),
    },
  };
}

/** `POST /batch_delete`, or its repository-scoped form (`scoped`). */
export function describeBatchDelete(scoped: boolean): (ctx: DocumentContext) => RouteOperation {
  return (ctx) => ({
    operationId: scoped ? "batch_delete_in_repository" : "batch_delete",
    summary: scoped ? "Delete several records of this repository" : "Delete several records",
    description:
      "Each record is deleted as its own DELETE would be (the same permission, rules and cascade), all in one " +
      `transaction: when any cannot be, none is, and the answer is 403 listing every failure with its status (as ` +
      `ArchivesSpace answers). At most ${MAX_BATCH_DELETE} uris.` +
      (scoped ? " Only records of this repository: another's uri fails as not found." : ""),
    tag: TRANSFERS,
    ...(scoped ? { pathParameters: [REPO_ID] } : {}),
    parameters: [uriParameter("record_uris", "The uris of the records to delete.", true)],
    security: ctx.security(null),
    responses: {
      "200": jsonResponse(
        "Every record deleted.",
        ctx.component("BatchDeleteResult", {
          type: "object",
          required: ["status", "results"],
          properties: {
            status: { const: "OK" },
            results: {
              type: "array",
              items: {
                type: "object",
                required: ["status", "id", "uri"],
                properties: { status: { const: "Deleted" }, id: { type: "integer" }, uri: { type: "string" } },
              },
            },
          },
        }),
      ),
      "400": responseRef("BadRequest"),
      "403": jsonResponse("No session, or some record could not be deleted (`failures`).", ctx.fixedRef("Error"), {
        error: { failures: ["/repositories/2/accessions/9 (404): Accession not found"] },
      }),
      ...commonResponses(),
    },
  });
}
