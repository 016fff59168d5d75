// How the enumeration routes (controller.ts) are described in /openapi.json: the editable value
// lists of enumerated record fields, at /config/enumerations as in ArchivesSpace.
import {
  booleanParameter,
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Reference,
  type Response,
  type Schema,
  type Tag,
} from "../../http/api-description.js";
import type { RouteOperation } from "../../http/described-route.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE } from "../operations/update.js";
import { enumerationInputSchema, enumerationValueInputSchema, migrationInputSchema } from "./input.js";
import { UPDATE_ENUMERATION } from "./operations.js";

const ENUMERATION: Tag = {
  name: "enumeration",
  description: "The editable value lists of enumerated record fields, at `/config/enumerations`.",
};
const READ_NOTE = "Needs a session (any logged-in user).";
const WRITE_NOTE = `Needs \`${UPDATE_ENUMERATION}\`, held globally or in any repository.`;
const BAD_ID = "A path id that is not a positive whole number answers 400 naming it.";
const STOCK_IDS =
  "Enumerations and values a stock ArchivesSpace install has keep its ids (`/config/enumerations/32` is `archival_record_level`); others are numbered after them.";

/** `{$ref}`s to the Enumeration and EnumerationValue components. */
function enumerationRefs(ctx: DocumentContext): { enumeration: Schema; value: Schema } {
  const strings = { type: "array", items: { type: "string" } };
  const value: Schema = {
    type: "object",
    description: "One value of an enumeration.",
    required: ["jsonmodel_type", "uri", "value", "position", "suppressed", "readonly", "lock_version"],
    properties: {
      jsonmodel_type: { const: "enumeration_value" },
      uri: { type: "string", pattern: "^/config/enumeration_values/[1-9][0-9]*$" },
      value: { type: "string" },
      position: {
        type: "integer",
        minimum: 0,
        description: "Its place in the list, from 0; a stock list may skip a number, as ArchivesSpace's does.",
      },
      suppressed: {
        type: "boolean",
        description: "Hidden from the enumeration's `values` (what editors offer); records may still hold it.",
      },
      readonly: {
        type: "boolean",
        description:
          "Stock ArchivesSpace's read-only values, and those the record types rely on (a schema default, or a value schema rules test): it cannot be removed or renamed.",
      },
      lock_version: { type: "integer", minimum: 0, description: "Required to update the value." },
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
      values: { ...strings, description: "The values, in order, suppressed ones left out." },
      readonly_values: { ...strings, description: "The read-only values, suppressed ones left out." },
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
  body: Schema | null = enumerationInputSchema,
): Omit<RouteOperation, "operationId" | "summary"> {
  return {
    tag: ENUMERATION,
    security: ctx.security(UPDATE_ENUMERATION),
    ...(body === null ? {} : { requestBody: { required: true, content: jsonContent(body) } }),
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

const positionParameter: Parameter = {
  name: "position",
  in: "query",
  required: true,
  description: "The target position, from 0.",
  schema: { type: "integer", minimum: 0 },
};

const suppressedParameter: Parameter = {
  ...booleanParameter("suppressed", "Suppress (`true`) or restore (`false`) the value."),
  required: true,
};

const VALUE_CONFLICT =
  `\`lock_version\` missing (\`${LOCK_VERSION_MISSING}\`) or stale (\`${LOCK_VERSION_STALE}\`), or a read-only value, ` +
  "or one of an enumeration that is not editable, renamed.";

export const describeEnumerationRoute = {
  list: (ctx: DocumentContext): RouteOperation => ({
    operationId: "list_enumerations",
    summary: "Every enumeration",
    description: `${READ_NOTE} A bare array of every enumeration, in id order; no paging. ${STOCK_IDS}`,
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
    description: `${READ_NOTE} ${STOCK_IDS} ${BAD_ID}`,
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
      `${WRITE_NOTE} The body is the enumeration as read, with \`values\` edited: the new list, in its new order. Values it lacks are removed ` +
      "(a suppressed value, which `values` leaves out, is kept), new ones added, the rest moved, positions renumbered from 0; " +
      "record fields holding its values accept the new list at once. `lock_version` is required and `name` cannot change. " +
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

  migrate: (ctx: DocumentContext): RouteOperation => ({
    operationId: "migrate_enumeration_value",
    summary: "Move every use of one value to another",
    description:
      `${WRITE_NOTE} Every record of every type holding \`from\` in a field of the enumeration \`enum_uri\` is given \`to\` ` +
      "(its lock_version bumped), and `from` leaves the enumeration, in one transaction. Answers the enumeration as it now is. " +
      "An enumeration that is not editable, a read-only `from`, or `from` equal to `to` is a 400; an unknown enumeration, " +
      "`from` or `to` a 404.",
    ...writing(
      ctx,
      {
        "200": jsonResponse("The enumeration, `from` gone.", enumerationRefs(ctx).enumeration),
        "404": notFoundResponse(ctx, ["Enumeration", "Value 'sir' of agent_contact_salutation"]),
      },
      migrationInputSchema,
    ),
  }),

  updateValue: (ctx: DocumentContext): RouteOperation => ({
    operationId: "update_enumeration_value",
    summary: "Update one value: its text, position or suppressed flag",
    description:
      `${WRITE_NOTE} The body is the value as read, edited. A new \`value\` renames it: every record holding the old text ` +
      "is given the new one, in the same transaction (not for a read-only value, nor in an enumeration that is not editable: 409; " +
      "a text already in the list is a 400). A new `position` swaps places with the value there. `lock_version` (the value's) " +
      `is required. ${BAD_ID}`,
    pathParameters: idParameter("value"),
    ...writing(
      ctx,
      {
        "200": jsonResponse("Updated: the value's id, uri and new lock_version.", ctx.fixedRef("WriteResult")),
        "404": notFoundResponse(ctx, ["Enumeration value"]),
        "409": conflictResponse(ctx, VALUE_CONFLICT, LOCK_VERSION_STALE),
      },
      enumerationValueInputSchema,
    ),
  }),

  position: (ctx: DocumentContext): RouteOperation => ({
    operationId: "position_enumeration_value",
    summary: "Move one value",
    description:
      `${WRITE_NOTE} The value takes \`position\`, swapping places with the value there, if any (ArchivesSpace's way: ` +
      `a position no value has leaves a gap). No body. ${BAD_ID}`,
    pathParameters: idParameter("value"),
    parameters: [positionParameter],
    ...writing(
      ctx,
      {
        "200": jsonResponse("Updated: the value's id and uri.", ctx.fixedRef("WriteResult")),
        "404": notFoundResponse(ctx, ["Enumeration value"]),
      },
      null,
    ),
  }),

  suppressed: (ctx: DocumentContext): RouteOperation => ({
    operationId: "suppress_enumeration_value",
    summary: "Suppress or restore one value",
    description:
      `${WRITE_NOTE} A suppressed value leaves the enumeration's \`values\` (what editors offer) but stays in ` +
      "`enumeration_values`, and records may still hold it and be saved with it, as in ArchivesSpace. No body. " +
      BAD_ID,
    pathParameters: idParameter("value"),
    parameters: [suppressedParameter],
    ...writing(
      ctx,
      {
        "200": jsonResponse(
          "Done.",
          ctx.component("SuppressedResult", {
            type: "object",
            required: ["status", "id", "suppressed_state"],
            properties: {
              status: { const: "Suppressed" },
              id: { type: "integer", minimum: 1 },
              suppressed_state: { type: "boolean" },
            },
          }),
        ),
        "404": notFoundResponse(ctx, ["Enumeration value"]),
      },
      null,
    ),
  }),
};
