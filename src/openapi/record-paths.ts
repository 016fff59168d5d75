// The five operations of a record type (docs/api.md §4-§6), from its registry entry alone:
// paths, parameters, permissions, schemas and errors all follow from the RecordType, so a type
// dropped into record-types/ is described with no code, as it is served with none.
import { lookupTable } from "../registry/dictionary.js";
import type { RecordOperation } from "../registry/manifest.js";
import type { RecordType } from "../registry/registry.js";
import { sortableFields } from "../records/operations/list.js";
import { DEFAULT_PAGE_SIZE, MAX_ID_SET, MAX_PAGE_SIZE } from "../records/types.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE } from "../records/operations/update.js";
import {
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  booleanParameter,
  openApiPath,
  pathParameterNames,
  resolveParameter,
  responseRef,
  type DocumentContext,
  type Operation,
  type Parameter,
  type Paths,
  type Response,
  type Reference,
  type Schema,
  type Tag,
} from "../http/api-description.js";

export type RecordOperationName = "list" | "create" | "read" | "update" | "delete";

/** The five operations of one type. */
export type RecordOperationSet = Record<RecordOperationName, Operation>;

/** Which registry permission each operation needs. */
const PERMISSION_OF: Readonly<Record<RecordOperationName, RecordOperation>> = lookupTable({
  list: "read",
  create: "create",
  read: "read",
  update: "update",
  delete: "delete",
});

/** What a read answers, in words. */
const RECORD_READ = "The record with its server-maintained fields; fields with no value are omitted.";

function listParameters(type: RecordType): Parameter[] {
  const ids = { type: "array", items: { type: "integer", minimum: 1 }, maxItems: MAX_ID_SET };
  return [
    {
      name: "page",
      in: "query",
      description: "Page mode: the 1-based page to answer. A page past the end answers `results: []`.",
      schema: { type: "integer", minimum: 1 },
    },
    {
      name: "page_size",
      in: "query",
      description: `Page mode: records per page (default ${DEFAULT_PAGE_SIZE}); values over ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE}, not refused.`,
      schema: { type: "integer", minimum: 1, default: DEFAULT_PAGE_SIZE },
    },
    {
      name: "id_set[]",
      in: "query",
      description: `Id-set mode: the ids to answer (at most ${MAX_ID_SET}, counted over \`id_set[]\` and \`id_set\` together).`,
      schema: ids,
      style: "form",
      explode: true,
    },
    {
      name: "id_set",
      in: "query",
      description: "Id-set mode, comma-separated form: `id_set=1,2,3`.",
      schema: ids,
      style: "form",
      explode: false,
    },
    booleanParameter("all_ids", "All-ids mode when true."),
    {
      name: "modified_since",
      in: "query",
      description: "Epoch seconds: only records whose `system_mtime` is at or after it.",
      schema: { type: "integer", minimum: 0 },
    },
    {
      name: "sort_field",
      in: "query",
      description:
        "Sort by this field (only fields an index orders, so no page sorts a whole collection); default `id`.",
      schema: { type: "string", enum: sortableFields(type) },
    },
    {
      name: "sort_direction",
      in: "query",
      description: "Sort direction; default `asc`.",
      schema: { type: "string", enum: ["asc", "desc"] },
    },
    resolveParameter,
    ...type.listFilters.map((field): Parameter => ({
      name: field,
      in: "query",
      description: `Only records whose \`${field}\` is this text.`,
      schema: { type: "string" },
    })),
  ];
}

/** The type's write parameters (x-write-parameters) a create or an update takes; undefined for none. */
function writeParameters(type: RecordType, write: "create" | "update"): Parameter[] | undefined {
  const taken = type.writeParameters.filter((parameter) => parameter[write] !== undefined);
  if (taken.length === 0) return undefined;
  return taken.map((parameter): Parameter => ({
    name: parameter.array === true ? `${parameter.name}[]` : parameter.name,
    in: "query",
    required: parameter[write] === "required",
    description: `${parameter.description} From the query string or a form body (the body being the record).`,
    schema: (parameter.array === true
      ? { type: "array", items: { type: "string", minLength: 1 } }
      : { type: "string", minLength: 1 }) satisfies Schema,
    ...(parameter.array === true ? { style: "form" as const, explode: true } : {}),
  }));
}

/** The list answer: an envelope (page), records (id_set) or ids (all_ids). */
export function listResponseSchema(ctx: DocumentContext, type: RecordType): Schema {
  const record = ctx.recordRef(type.name);
  return {
    oneOf: [
      {
        title: "Page",
        description: "page mode",
        allOf: [
          ctx.fixedRef("PageEnvelope"),
          { type: "object", properties: { results: { type: "array", items: record } } },
        ],
      },
      {
        title: "Records",
        description: "id_set mode: the records that exist, in id order",
        type: "array",
        items: record,
      },
      {
        title: "Ids",
        description:
          "all_ids mode: every id, ascending (an empty collection answers `[]`, which reads as the Records form)",
        type: "array",
        items: { type: "integer", minimum: 1 },
        minItems: 1,
      },
    ],
  };
}

/** What the description says of records the API never serves (x-hidden-ids), if the type has any. */
function hiddenNote(type: RecordType): string {
  if (type.hiddenIds.length === 0) return "";
  const ids = type.hiddenIds.join(", ");
  return ` The ${type.title} records ${ids} exist for the server's own use: never listed, and 404 to every item route.`;
}

/** Whether anyone may perform `operation` on `type` without a session (x-public-read). */
export function isPublic(type: RecordType, operation: RecordOperation): boolean {
  return operation === "read" && type.publicRead;
}

/** What an operation needs, in words, for its description. */
export function accessNote(type: RecordType, operation: RecordOperation): string {
  if (isPublic(type, operation)) return "Needs no session.";
  const code = type.permissions[operation];
  if (code === null) return "Needs a session; any user may.";
  return type.scope === "repository"
    ? `Needs a session whose user holds \`${code}\` in the repository (or globally).`
    : `Needs a session whose user holds \`${code}\` globally.`;
}

/** The body of a create or update: the record, as JSON whatever the Content-Type says. */
export function recordBody(ctx: DocumentContext, type: RecordType, update: boolean): Operation["requestBody"] {
  const record = ctx.recordRef(type.name);
  return {
    required: true,
    description:
      (update
        ? "The full record, with the `lock_version` it was read at: the client-editable fields are replaced as a whole. "
        : "The new record. ") +
      "Parsed as JSON whatever the Content-Type says, or when there is none. Read-only fields (`uri`, the server-maintained ones, " +
      "any marked `readOnly`) are ignored; a `null` field counts as absent; unknown fields are refused (400).",
    content: jsonContent(update ? { allOf: [record, { required: ["lock_version"] }] } : record),
  };
}

export function writeResultSchema(ctx: DocumentContext, status: "Created" | "Updated"): Schema {
  return { allOf: [ctx.fixedRef("WriteResult"), { properties: { status: { const: status } } }] };
}

function secured(
  ctx: DocumentContext,
  type: RecordType,
  name: RecordOperationName,
  operation: Omit<Operation, "security">,
): Operation {
  const permission = PERMISSION_OF[name];
  if (isPublic(type, permission)) return operation;
  const code = type.permissions[permission];
  return {
    ...operation,
    responses: { ...operation.responses, "403": responseRef("AccessDenied") },
    security: ctx.security(code),
  };
}

function sortResponses(responses: Record<string, Response | Reference>): Record<string, Response | Reference> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

const withParameters = (parameters: Parameter[] | undefined) => (parameters === undefined ? {} : { parameters });

/** The five operations of a type, as its generic routes serve them. */
export function recordOperations(ctx: DocumentContext, type: RecordType): RecordOperationSet {
  const repositoryTitle = ctx.registry.scopeHolder?.title ?? "Repository";
  const inRepository = type.scope === "repository";
  const containerNotFound = inRepository ? [notFoundResponse(ctx, [repositoryTitle])] : [];
  const itemNotFound = notFoundResponse(ctx, inRepository ? [type.title, repositoryTitle] : [type.title]);
  const record = ctx.recordRef(type.name);
  const tags = [type.name];
  const onlyHere = inRepository ? " Only records of the repository are listed." : "";
  const a = (title: string) => (/^[aeiou]/i.test(title) ? `an ${title}` : `a ${title}`);
  const restricting = ctx.registry.linksTo(type.name).filter((link) => link.refPath.onTargetDelete === "restrict");

  const operations: Record<RecordOperationName, Omit<Operation, "security">> = {
    list: {
      operationId: `list_${type.name}`,
      summary: `List ${type.title} records`,
      description:
        `${accessNote(type, "read")} Exactly one of three modes: \`page\` (a page envelope), \`id_set\` (a bare array of records) or ` +
        "`all_ids=true` (a bare array of ids); when several are given, `page` wins, then `id_set`. " +
        (type.listUnpaged
          ? "With none, every record as a bare array, in id order (as ArchivesSpace lists this type)."
          : "With none, 400 naming all three.") +
        hiddenNote(type) +
        `${onlyHere} Parameters may also come from a form body (urlencoded or multipart).`,
      tags,
      parameters: listParameters(type),
      responses: {
        "200": jsonResponse("The page envelope, the records of the id set, or all ids.", listResponseSchema(ctx, type)),
        "400": responseRef("BadRequest"),
        ...(containerNotFound[0] && { "404": containerNotFound[0] }),
      },
    },
    create: {
      operationId: `create_${type.name}`,
      summary: `Create ${a(type.title)} record`,
      description: `${accessNote(type, "create")} Answers 200 (never 201) with the new record's id, uri and lock_version 0.`,
      tags,
      ...withParameters(writeParameters(type, "create")),
      requestBody: recordBody(ctx, type, false),
      responses: {
        "200": jsonResponse("Created.", writeResultSchema(ctx, "Created")),
        "400": responseRef("BadRequest"),
        ...(containerNotFound[0] && { "404": containerNotFound[0] }),
        "413": responseRef("TooLarge"),
      },
    },
    read: {
      operationId: `read_${type.name}`,
      summary: `Read ${a(type.title)} record`,
      description:
        `${accessNote(type, "read")} ${RECORD_READ} ` +
        'With `resolve[]`, refs carry `_resolved` and, past the resolve bound, the record has `"_resolve_truncated": true`.',
      tags,
      parameters: [resolveParameter],
      responses: {
        "200": jsonResponse("The record.", record),
        "400": responseRef("BadRequest"),
        "404": itemNotFound,
      },
    },
    update: {
      operationId: `update_${type.name}`,
      summary: `Update ${a(type.title)} record`,
      description: `${accessNote(type, "update")} A full replacement of the client-editable fields; \`lock_version\` must be the stored one.`,
      tags,
      ...withParameters(writeParameters(type, "update")),
      requestBody: recordBody(ctx, type, true),
      responses: {
        "200": jsonResponse("Updated: lock_version is the new one.", writeResultSchema(ctx, "Updated")),
        "400": responseRef("BadRequest"),
        "404": itemNotFound,
        "409": conflictResponse(
          ctx,
          `\`lock_version\` missing ("${LOCK_VERSION_MISSING}") or not the stored one ("${LOCK_VERSION_STALE}").`,
          LOCK_VERSION_STALE,
        ),
        "413": responseRef("TooLarge"),
      },
    },
    delete: {
      operationId: `delete_${type.name}`,
      summary: `Delete ${a(type.title)} record`,
      description:
        `${accessNote(type, "delete")} Links to the record are removed from other records, and records that depend on it are deleted with it` +
        (restricting.length > 0
          ? `; refused (409) while ${restricting.map((link) => `a ${link.type} links to it (${link.refPath.path})`).join(" or ")}.`
          : "."),
      tags,
      responses: {
        "200": jsonResponse("Deleted.", ctx.fixedRef("DeleteResult")),
        "404": itemNotFound,
        ...(restricting.length > 0 && {
          "409": conflictResponse(
            ctx,
            "Another record links to this one and its link forbids the delete.",
            "Cannot delete <uri>: <uri of the linking record> refers to it",
          ),
        }),
      },
    },
  };

  const result = {} as RecordOperationSet;
  for (const name of Object.keys(operations) as RecordOperationName[]) {
    const operation = operations[name];
    operation.responses = { ...operation.responses, ...commonResponses() };
    const withSecurity = secured(ctx, type, name, operation);
    withSecurity.responses = sortResponses(withSecurity.responses);
    result[name] = withSecurity;
  }
  return result;
}

/** Path-level parameters of a route template: `:repo_id`, `:id`. */
function pathParameters(ctx: DocumentContext, type: RecordType, expressPath: string): Parameter[] {
  const repositoryTitle = ctx.registry.scopeHolder?.title ?? "Repository";
  return pathParameterNames(expressPath).map((name) => {
    if (name === "id") return idPathParameter(name, `The ${type.title} record's id.`);
    if (name === "repo_id") return idPathParameter(name, `The ${repositoryTitle}'s id.`);
    return { name, in: "path", required: true, schema: { type: "string" } };
  });
}

/** The tag a type's operations are listed under. */
export function recordTag(type: RecordType): Tag {
  return { name: type.name, description: `${type.title} records, at \`${openApiPath(type.collectionPath)}\`.` };
}

/** The type's collection and item paths with their operations. */
export function recordPaths(ctx: DocumentContext, type: RecordType, operations: RecordOperationSet): Paths {
  const withParameters = (expressPath: string): { parameters?: Parameter[] } => {
    const parameters = pathParameters(ctx, type, expressPath);
    return parameters.length > 0 ? { parameters } : {};
  };
  return {
    [openApiPath(type.collectionPath)]: {
      ...withParameters(type.collectionPath),
      get: operations.list,
      post: operations.create,
    },
    [openApiPath(type.itemPath)]: {
      ...withParameters(type.itemPath),
      get: operations.read,
      post: operations.update,
      delete: operations.delete,
    },
  };
}
