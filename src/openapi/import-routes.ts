// The import routes (src/importers/routes.ts): ArchivesSpace JSON batches and file uploads,
// answered with the import summary.
import { IMPORT_FORMATS } from "../importers/pending.js";
import { IMPORT_PERMISSION } from "../importers/routes.js";
import {
  commonResponses,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Operation,
  type Paths,
  type Schema,
} from "./model.js";
import { booleanParameter } from "./record-paths.js";

const messages: Schema = {
  type: "array",
  items: {
    type: "object",
    required: ["message", "file"],
    properties: {
      message: { type: "string" },
      file: { type: "string" },
      line: { type: "integer" },
      column: { type: "integer" },
      path: { type: "string" },
    },
  },
};

const counts: Schema = {
  type: "object",
  additionalProperties: { type: "integer", minimum: 0 },
  description: "Records per record type.",
};

const summary: Schema = {
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
    warnings: messages,
    errors: messages,
  },
};

function importOperation(
  ctx: DocumentContext,
  id: string,
  summaryText: string,
  description: string,
  body: Operation["requestBody"],
  extra: Operation["parameters"] = [],
): Operation {
  return {
    operationId: id,
    summary: summaryText,
    description: `Needs \`${IMPORT_PERMISSION}\` in the repository. ${description} All or nothing: a file that fails writes nothing.`,
    tags: ["import"],
    parameters: [booleanParameter("dry_run", "Check and report, writing nothing."), ...(extra ?? [])],
    requestBody: body,
    responses: {
      "200": jsonResponse("Imported, or skipped as imported before.", summary),
      "400": jsonResponse("A bad parameter, or the file failed (the summary locates the errors).", {
        type: "object",
        required: ["error"],
        properties: { error: {}, summary },
      }),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["Repository"]),
      "413": responseRef("TooLarge"),
      ...commonResponses(),
    },
    security: ctx.security(IMPORT_PERMISSION),
  };
}

export const IMPORT_TAG = {
  name: "import",
  description: "Bringing existing data in: ArchivesSpace JSON, EAD 2002, EAD3, MARCXML, EAC-CPF and CSV.",
};

export function importPaths(ctx: DocumentContext): Paths {
  const repository = [idPathParameter("repo_id", "The repository's id.")];
  return {
    "/repositories/{repo_id}/batch_imports": {
      parameters: repository,
      post: importOperation(
        ctx,
        "batch_import",
        "Import an ArchivesSpace JSON batch",
        "Records linking each other by temporary uris (`/subjects/import_1`), written in dependency order.",
        { required: true, content: jsonContent({ type: "array", items: { type: "object" } }) },
      ),
    },
    "/repositories/{repo_id}/imports": {
      parameters: repository,
      post: importOperation(
        ctx,
        "file_import",
        "Import a file",
        "The raw body is the file (any Content-Type), streamed to disk; its format is detected when `format` is absent.",
        {
          required: true,
          content: {
            "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
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
      ),
    },
  };
}
