// How the lookup routes (routes.ts) are described in /openapi.json.
import {
  commonResponses,
  idPathParameter,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Tag,
  resolveParameter,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import { FIND_BY_IDENTIFIER, type RecordType } from "../registry/index.js";
import { EXTERNAL_ID_MAX_URIS, FIND_BY_ID_MAX_REFS } from "../records/operations/lookups.js";
import { MAX_ID_SET } from "../records/operations/index.js";

export const EXTERNAL_ID_PERMISSION = "view_all_records";

const LOOKUP: Tag = {
  name: "lookup",
  description: "Finding records by the identifiers people and other systems give them, as ArchivesSpace does.",
};

const STRINGS = { type: "array", items: { type: "string" } };

function arrayParameter(name: string, description: string): Parameter {
  return { name: `${name}[]`, in: "query", description, schema: STRINGS, style: "form", explode: true };
}

function criterionParameter(type: RecordType, name: string): Parameter {
  if (name === FIND_BY_IDENTIFIER) {
    const parts = (type.identifiers?.fields ?? []).join(", ");
    return arrayParameter(
      name,
      `A 4-part identifier as a JSON array of 1 to 4 parts (${parts}), e.g. \`["MS","42"]\`; missing parts are absent ` +
        "ones. Repeatable.",
    );
  }
  return arrayParameter(name, `The record's \`${name}\` equals one of these. Repeatable.`);
}

export function describeFindById(ctx: DocumentContext, type: RecordType): RouteOperation {
  const code = type.permissions.read;
  const refs = {
    type: "array",
    items: {
      type: "object",
      required: ["ref"],
      properties: { ref: { type: "string" }, _resolved: ctx.recordRef(type.name) },
    },
  };
  return {
    operationId: `find_${type.name}_by_id`,
    summary: `Find ${type.title} records by ${type.findById.join(" or ")}`,
    description:
      `ArchivesSpace's find_by_id. A record matches when, for every parameter given, its field holds one of the ` +
      `values; no parameter gives none. In id order; \`resolve[]=${type.collection}\` embeds each record. At most ` +
      `${MAX_ID_SET} values in all, and ${FIND_BY_ID_MAX_REFS} records (past it, a 400 naming the parameters). ` +
      (code === null
        ? "Needs a session."
        : `Needs a session whose user holds \`${code}\` in the repository (or globally).`),
    tag: LOOKUP,
    pathParameters: [idPathParameter("repo_id", "The repository's id.")],
    parameters: [...type.findById.map((name) => criterionParameter(type, name)), resolveParameter],
    responses: {
      "200": jsonResponse("The matching records' refs.", {
        type: "object",
        required: [type.collection],
        properties: { [type.collection]: refs, _resolve_truncated: { const: true } },
      }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["Repository"]),
      ...commonResponses(),
    },
    security: ctx.security(code),
  };
}

export function describeByExternalId(ctx: DocumentContext, types: readonly RecordType[]): RouteOperation {
  const names = types.map((type) => type.name);
  return {
    operationId: "find_by_external_id",
    summary: "Find records by an external id",
    description:
      "ArchivesSpace's `/by-external-id`: the records of every repository whose `external_ids` include `eid` " +
      `(exactly). One: a 303 to its uri; several: a 300 with their uris (at most ${EXTERNAL_ID_MAX_URIS}, type by ` +
      `type, by id); none: a 404. Needs \`${EXTERNAL_ID_PERMISSION}\` (held globally), as there.`,
    tag: LOOKUP,
    parameters: [
      { name: "eid", in: "query", required: true, description: "The external id.", schema: { type: "string" } },
      {
        ...arrayParameter("type", "Only records of these types. Repeatable."),
        schema: { type: "array", items: { type: "string", enum: names } },
      },
    ],
    responses: {
      "300": jsonResponse("Several records have it: their uris.", { type: "array", items: { type: "string" } }),
      "303": {
        description: "One record has it: `Location` is its uri (a client following redirects reads the record).",
      },
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": jsonResponse("No record has it.", ctx.fixedRef("Error"), { error: "No record has that external id" }),
      ...commonResponses(),
    },
    security: ctx.security(EXTERNAL_ID_PERMISSION),
  };
}
