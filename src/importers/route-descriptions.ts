// How the import routes (routes.ts) are described in /openapi.json, with the import summary
// they answer. The summary's schema is checked against its TypeScript type (pending.ts) by the
// compiler: a field added to one and not the other fails `tsc`.
import {
  booleanParameter,
  commonResponses,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DescribesFields,
  type DocumentContext,
  type Operation,
  type Parameter,
  type Schema,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import { FIDELITY_CATEGORIES } from "./fidelity.js";
import { IMPORT_FORMATS, type ImportMessage, type ImportSummary } from "./pending.js";

export const IMPORT_PERMISSION = "import_records";

const IMPORT: Tag = {
  name: "import",
  description: "Bringing existing data in: ArchivesSpace JSON, EAD 2002, EAD3, MARCXML, EAC-CPF and CSV.",
};

const message = {
  type: "object",
  required: ["message", "file"],
  properties: {
    message: { type: "string" },
    file: { type: "string" },
    line: { type: "integer" },
    column: { type: "integer" },
    path: { type: "string" },
  },
} as const satisfies Schema;

const counts = {
  type: "object",
  additionalProperties: { type: "integer", minimum: 0 },
  description: "Records per record type.",
} as const satisfies Schema;

const fidelityLine = {
  type: "object",
  required: ["source", "imported"],
  properties: {
    source: { type: "integer", minimum: 0, description: "Found in the source." },
    imported: { type: "integer", minimum: 0, description: "Created or reused by the import." },
  },
} as const satisfies Schema;

const fidelity = {
  type: "object",
  description:
    "Per category of description, what the source held and what was created or reused (EAD and EAD3). " +
    "Absent for a failed or skipped file.",
  properties: Object.fromEntries(FIDELITY_CATEGORIES.map((category) => [category, fidelityLine])),
} as const satisfies Schema;

const summary = {
  type: "object",
  description: "What the import did (or, dry, would do) with the file.",
  required: ["file", "format", "dryRun", "outcome", "created", "reused", "uris", "warnings", "errors"],
  properties: {
    file: { type: "string" },
    format: { enum: [...IMPORT_FORMATS] },
    dryRun: { type: "boolean" },
    outcome: {
      enum: ["imported", "skipped", "failed"],
      description: "`skipped`: imported before, nothing written; `failed`: nothing written.",
    },
    created: counts,
    reused: { ...counts, description: "Existing records linked instead of created, per type." },
    uris: {
      type: "array",
      items: { type: "string" },
      description: "The file's records other than tree nodes (resources, agents, subjects...).",
    },
    warnings: { type: "array", items: message },
    errors: { type: "array", items: message },
    fidelity,
    saved: {
      type: "object",
      description:
        "A written batch import only (not with `skip_results=true`), in ArchivesSpace's shape: each record's " +
        "temporary uri (`import:[i]` for one without) -> `[real uri, id]`, whether created or reused.",
      additionalProperties: {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "integer", minimum: 1 }],
        minItems: 2,
        maxItems: 2,
      },
    },
  },
} as const satisfies Schema;

// Compiled, never run: `tsc` fails when a schema and its type part.
const schemasDescribeTypes: [
  DescribesFields<typeof summary, ImportSummary>,
  DescribesFields<typeof message, ImportMessage>,
] = [true, true];
void schemasDescribeTypes;

function importOperation(
  ctx: DocumentContext,
  fields: Pick<Operation, "operationId" | "summary" | "requestBody"> & { description: string },
  extra: Parameter[] = [],
): RouteOperation {
  const summaryRef = ctx.component("ImportSummary", summary);
  return {
    ...fields,
    description: `Needs \`${IMPORT_PERMISSION}\` in the repository. ${fields.description} All or nothing: a file that fails writes nothing.`,
    tag: IMPORT,
    pathParameters: [idPathParameter("repo_id", "The repository's id.")],
    parameters: [booleanParameter("dry_run", "Check and report, writing nothing."), ...extra],
    responses: {
      "200": jsonResponse("Imported, or skipped as imported before.", summaryRef),
      "400": jsonResponse("A bad parameter, or the file failed (the summary locates the errors).", {
        type: "object",
        required: ["error"],
        properties: { error: {}, summary: summaryRef },
      }),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["Repository"]),
      "413": responseRef("TooLarge"),
      ...commonResponses(),
    },
    security: ctx.security(IMPORT_PERMISSION),
  };
}

export function describeBatchImport(ctx: DocumentContext): RouteOperation {
  return importOperation(
    ctx,
    {
      operationId: "batch_import",
      summary: "Import an ArchivesSpace JSON batch",
      description:
        "Records linking each other by temporary uris (`/subjects/import_1`), written in dependency order. The " +
        "summary's `saved` maps each temporary uri to `[real uri, id]`, as ArchivesSpace's answer ends.",
      requestBody: { required: true, content: jsonContent({ type: "array", items: { type: "object" } }) },
    },
    [booleanParameter("skip_results", "Leave `saved` out of the summary (ArchivesSpace's parameter).")],
  );
}

export function describeFileImport(ctx: DocumentContext): RouteOperation {
  return importOperation(
    ctx,
    {
      operationId: "file_import",
      summary: "Import a file",
      description:
        "The raw body is the file (any Content-Type), streamed to disk; its format is detected when `format` is absent.",
      requestBody: {
        required: true,
        content: {
          "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
        },
      },
    },
    [
      {
        name: "format",
        in: "query",
        description: "The file's format; detected from its first bytes (and `filename`) when absent.",
        schema: { enum: [...IMPORT_FORMATS] },
      },
      {
        name: "filename",
        in: "query",
        description: "The file's name, for messages and format detection.",
        schema: { type: "string" },
      },
    ],
  );
}
