// How the enumeration routes (controller.ts) are described in /openapi.json: the editable value
// lists of enumerated record fields, at /config/enumerations as in ArchivesSpace.
import {
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Reference,
  type Response,
  type Schema,
  type Tag,
} from "../../http/api-description.js";
import type { RouteOperation } from "../../http/described-route.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE } from "../operations/update.js";
import { enumerationInputSchema } from "./input.js";
import { UPDATE_ENUMERATION } from "./operations.js";

const ENUMERATION: Tag = {
  name: "enumeration",
  description: "The editable value lists of enumerated record fields, at `/config/enumerations`.",
};
const READ_NOTE = "Needs a session (any logged-in user).";
const WRITE_NOTE = `Needs \`${UPDATE_ENUMERATION}\`, held globally or in any repository.`;
const BAD_ID = "A path id that is not a positive whole number answers 400 naming it.";

/** `{$ref}`s to the Enumeration and EnumerationValue components. */
function enumerationRefs(ctx: DocumentContext): { enumeration: Schema; value: Schema } {
  const strings = { type: "array", items: { type: "string" } };
  const value: Schema = {
    type: "object",
    description: "One value of an enumeration.",
    required: ["jsonmodel_type", "uri", "value", "position", "suppressed", "readonly"],
    properties: {
      jsonmodel_type: { const: "enumeration_value" },
      uri: { type: "string", pattern: "^/config/enumeration_values/[1-9][0-9]*$" },
      value: { type: "string" },
      position: { type: "integer", minimum: 0, description: "Its place in the list, from 0." },
      suppressed: { type: "boolean", description: "Always false: suppression is not supported yet." },
      readonly: {
        type: "boolean",
        description:
          "The record types rely on it (a schema default, or a value schema rules test): it cannot be removed.",
      },
      enumeration: {
        type: "object",
        required: ["ref"],
        properties: { ref: { type: "string" } },
        description: "Only from `GET /config/enumeration_values/{id}`.",
      },
    },
  };
  const valueRef = ctx.component("EnumerationValue", value);
  const enumeration: Schema = {
    type: "object",
    description:
      "An enumeration: a named list of values that enumerated record fields (`x-enumeration` in their schemas) must take.",
    required: [
      "jsonmodel_type",
      "uri",
      "name",
      "editable",
      "relationships",
      "enumeration_values",
      "values",
      "readonly_values",
      "lock_version",
    ],
    properties: {
      jsonmodel_type: { const: "enumeration" },
      uri: { type: "string", pattern: "^/config/enumerations/[1-9][0-9]*$" },
      name: { type: "string" },
      editable: { type: "boolean" },
      default_value: { type: "string" },
      relationships: {
        ...strings,
        description: "The record fields holding its values, as `<type>/<path>` (`*` for any list item).",
      },
      enumeration_values: { type: "array", items: valueRef },
      values: { ...strings, description: "The values, in order." },
      readonly_values: strings,
      lock_version: { type: "integer", minimum: 0 },
      created_by: { type: "string" },
      last_modified_by: { type: "string" },
      create_time: { type: "string" },
      system_mtime: { type: "string" },
      user_mtime: { type: "string" },
    },
  };
  return { enumeration: ctx.component("Enumeration", enumeration), value: valueRef };
}

function reading(
  ctx: DocumentContext,
  responses: Record<string, Response | Reference>,
): Pick<RouteOperation, "tag" | "security" | "responses"> {
  return {
    tag: ENUMERATION,
    security: ctx.security(null),
    responses: { ...responses, "403": responseRef("AccessDenied"), ...commonResponses() },
  };
}

function writing(
  ctx: DocumentContext,
  responses: Record<string, Response | Reference>,
): Omit<RouteOperation, "operationId" | "summary"> {
  return {
    tag: ENUMERATION,
    security: ctx.security(UPDATE_ENUMERATION),
    requestBody: { required: true, content: jsonContent(enumerationInputSchema) },
    responses: {
      ...responses,
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "413": responseRef("TooLarge"),
      ...commonResponses(),
    },
  };
}

const idParameter = (what: string) => [idPathParameter("id", `The ${what}'s id.`)];

export const describeEnumerationRoute = {
  list: (ctx: DocumentContext): RouteOperation => ({
    operationId: "list_enumerations",
    summary: "Every enumeration",
    description: `${READ_NOTE} A bare array of every enumeration, in id order; no paging.`,
    ...reading(ctx, {
      "200": jsonResponse("The enumerations.", { type: "array", items: enumerationRefs(ctx).enumeration }),
    }),
  }),

  create: (ctx: DocumentContext): RouteOperation => ({
    operationId: "create_enumeration",
    summary: "Create an enumeration",
    description: `${WRITE_NOTE} \`name\` must be unused (400 otherwise); values must be distinct; \`default_value\` must be one of them.`,
    ...writing(ctx, { "200": jsonResponse("Created.", ctx.fixedRef("WriteResult")) }),
  }),

  readByName: (ctx: DocumentContext): RouteOperation => ({
    operationId: "read_enumeration_by_name",
    summary: "One enumeration, by name",
    description: READ_NOTE,
    pathParameters: [
      {
        name: "name",
        in: "path",
        required: true,
        description: "The enumeration's name, e.g. `extent_extent_type`.",
        schema: { type: "string" },
      },
    ],
    ...reading(ctx, {
      "200": jsonResponse("The enumeration.", enumerationRefs(ctx).enumeration),
      "404": notFoundResponse(ctx, ["Enumeration"]),
    }),
  }),

  read: (ctx: DocumentContext): RouteOperation => ({
    operationId: "read_enumeration",
    summary: "One enumeration",
    description: `${READ_NOTE} ${BAD_ID}`,
    pathParameters: idParameter("enumeration"),
    ...reading(ctx, {
      "200": jsonResponse("The enumeration.", enumerationRefs(ctx).enumeration),
      "400": responseRef("BadRequest"),
      "404": notFoundResponse(ctx, ["Enumeration"]),
    }),
  }),

  update: (ctx: DocumentContext): RouteOperation => ({
    operationId: "update_enumeration",
    summary: "Add, reorder and remove values",
    description:
      `${WRITE_NOTE} The body is the enumeration as read, with \`values\` edited: the new list, in its new order. Values it lacks are removed, ` +
      "new ones added, the rest moved; record fields holding its values accept the new list at once. `lock_version` is required and `name` cannot change. " +
      `A value still held by a record, or a read-only one, cannot be removed (409 naming the value, and a record using it). ${BAD_ID}`,
    pathParameters: idParameter("enumeration"),
    ...writing(ctx, {
      "200": jsonResponse("Updated.", ctx.fixedRef("WriteResult")),
      "404": notFoundResponse(ctx, ["Enumeration"]),
      "409": conflictResponse(
        ctx,
        `A value in use or read-only, \`lock_version\` missing (\`${LOCK_VERSION_MISSING}\`) or stale (\`${LOCK_VERSION_STALE}\`).`,
        "Can't remove the value 'cubic_feet' of extent_extent_type: it is in use by /repositories/2/accessions/1 (extents/*/extent_type)",
      ),
    }),
  }),

  readValue: (ctx: DocumentContext): RouteOperation => ({
    operationId: "read_enumeration_value",
    summary: "One enumeration value",
    description: `${READ_NOTE} With \`enumeration\`, the enumeration it belongs to. ${BAD_ID}`,
    pathParameters: idParameter("value"),
    ...reading(ctx, {
      "200": jsonResponse("The value.", enumerationRefs(ctx).value),
      "400": responseRef("BadRequest"),
      "404": notFoundResponse(ctx, ["Enumeration value"]),
    }),
  }),
};
