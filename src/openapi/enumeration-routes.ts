// The enumeration routes (src/records/enumerations/controller.ts): the editable value lists of enumerated
// record fields, at /config/enumerations as in ArchivesSpace.
import { UPDATE_ENUMERATION } from "../records/enumerations/controller.js";
import { enumerationInputSchema } from "../records/enumerations/input.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE } from "../records/operations/update.js";
import {
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Paths,
  type Schema,
} from "./model.js";

const TAGS = ["enumeration"];
const READ_NOTE = "Needs a session (any logged-in user).";
const WRITE_NOTE = `Needs \`${UPDATE_ENUMERATION}\`, held globally or in any repository.`;

export const ENUMERATION_TAG = {
  name: "enumeration",
  description: "The editable value lists of enumerated record fields, at `/config/enumerations`.",
};

/** The Enumeration and EnumerationValue components. */
export function enumerationSchemas(ctx: DocumentContext): { Enumeration: Schema; EnumerationValue: Schema } {
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
      enumeration_values: { type: "array", items: ctx.fixedRef("EnumerationValue") },
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
  return { Enumeration: enumeration, EnumerationValue: value };
}

export function enumerationPaths(ctx: DocumentContext): Paths {
  const refs = { enumeration: ctx.fixedRef("Enumeration"), value: ctx.fixedRef("EnumerationValue") };
  const body = { required: true, content: jsonContent(enumerationInputSchema) };
  const notFound = notFoundResponse(ctx, ["Enumeration"]);
  const badId = "A path id that is not a positive whole number answers 400 naming it.";
  const reading = { tags: TAGS, security: ctx.security(null) };
  const writing = { tags: TAGS, security: ctx.security(UPDATE_ENUMERATION) };
  const writeErrors = {
    "400": responseRef("BadRequest"),
    "403": responseRef("AccessDenied"),
    "413": responseRef("TooLarge"),
    ...commonResponses(),
  };
  return {
    "/config/enumerations": {
      get: {
        operationId: "list_enumerations",
        summary: "Every enumeration",
        description: `${READ_NOTE} A bare array of every enumeration, in id order; no paging.`,
        ...reading,
        responses: {
          "200": jsonResponse("The enumerations.", { type: "array", items: refs.enumeration }),
          "403": responseRef("AccessDenied"),
          ...commonResponses(),
        },
      },
      post: {
        operationId: "create_enumeration",
        summary: "Create an enumeration",
        description: `${WRITE_NOTE} \`name\` must be unused (400 otherwise); values must be distinct; \`default_value\` must be one of them.`,
        ...writing,
        requestBody: body,
        responses: { "200": jsonResponse("Created.", ctx.fixedRef("WriteResult")), ...writeErrors },
      },
    },
    "/config/enumerations/names/{name}": {
      parameters: [
        {
          name: "name",
          in: "path",
          required: true,
          description: "The enumeration's name, e.g. `extent_extent_type`.",
          schema: { type: "string" },
        },
      ],
      get: {
        operationId: "read_enumeration_by_name",
        summary: "One enumeration, by name",
        description: READ_NOTE,
        ...reading,
        responses: {
          "200": jsonResponse("The enumeration.", refs.enumeration),
          "403": responseRef("AccessDenied"),
          "404": notFound,
          ...commonResponses(),
        },
      },
    },
    "/config/enumerations/{id}": {
      parameters: [idPathParameter("id", "The enumeration's id.")],
      get: {
        operationId: "read_enumeration",
        summary: "One enumeration",
        description: `${READ_NOTE} ${badId}`,
        ...reading,
        responses: {
          "200": jsonResponse("The enumeration.", refs.enumeration),
          "400": responseRef("BadRequest"),
          "403": responseRef("AccessDenied"),
          "404": notFound,
          ...commonResponses(),
        },
      },
      post: {
        operationId: "update_enumeration",
        summary: "Add, reorder and remove values",
        description:
          `${WRITE_NOTE} The body is the enumeration as read, with \`values\` edited: the new list, in its new order. Values it lacks are removed, ` +
          "new ones added, the rest moved; record fields holding its values accept the new list at once. `lock_version` is required and `name` cannot change. " +
          `A value still held by a record, or a read-only one, cannot be removed (409 naming the value, and a record using it). ${badId}`,
        ...writing,
        requestBody: body,
        responses: {
          "200": jsonResponse("Updated.", ctx.fixedRef("WriteResult")),
          "404": notFound,
          "409": conflictResponse(
            ctx,
            `A value in use or read-only, \`lock_version\` missing (\`${LOCK_VERSION_MISSING}\`) or stale (\`${LOCK_VERSION_STALE}\`).`,
            "Can't remove the value 'cubic_feet' of extent_extent_type: it is in use by /repositories/2/accessions/1 (extents/*/extent_type)",
          ),
          ...writeErrors,
        },
      },
    },
    "/config/enumeration_values/{id}": {
      parameters: [idPathParameter("id", "The value's id.")],
      get: {
        operationId: "read_enumeration_value",
        summary: "One enumeration value",
        description: `${READ_NOTE} With \`enumeration\`, the enumeration it belongs to. ${badId}`,
        ...reading,
        responses: {
          "200": jsonResponse("The value.", refs.value),
          "400": responseRef("BadRequest"),
          "403": responseRef("AccessDenied"),
          "404": notFoundResponse(ctx, ["Enumeration value"]),
          ...commonResponses(),
        },
      },
    },
  };
}
