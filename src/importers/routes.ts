// The import routes, one Ts.ED controller, both needing `import_records` in the repository, as
// ArchivesSpace's batch import does:
//   POST /repositories/:repo_id/batch_imports    an ArchivesSpace JSON batch (a JSON array) as the body
//   POST /repositories/:repo_id/imports?format=  a file of any supported format as the raw body
// Both take `dry_run=true` (and the file route `format` and `filename`) in the query string, and answer the import
// summary: 200 when the file was imported (or
// skipped as imported before), 400 with the summary when it failed (nothing kept). A file
// body is streamed to a file in the upload directory (uploads.ts), never held in memory, and
// read from there once its format is known (the import reads it once: committer.ts).
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { Readable } from "node:stream";
import { callerWith } from "../auth/caller.js";
import { assertRepositoryTakesRecords } from "../auth/hidden-repository.js";
import { idParam, type ParamRequest } from "../records/http/request-params.js";
import type { AccessControl } from "../auth/access-control.js";
import { ApiError, badRequest } from "../errors/api-error.js";
import { Route } from "../http/described-route.js";
import { onBehalfOf, type RecordOperations } from "../records/operations/index.js";
import { ParamReader, parameterValues, throwIfAny, type ParameterValues } from "../records/http/list-params.js";
import { importFile } from "./committer.js";
import { detectFileFormat, isImportFormat, parserFor, supportedFormats } from "./formats.js";
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from "./limits.js";
import type { ImportFormat, ImportInput, ImportSummary } from "./pending.js";
import { describeBatchImport, describeFileImport, IMPORT_PERMISSION } from "./route-descriptions.js";
import { newUploadPath, removeUpload, UPLOAD_DIR } from "./uploads.js";
export const FILE_IMPORT_PATH = "/repositories/:repo_id/imports";
export const BATCH_IMPORT_PATH = "/repositories/:repo_id/batch_imports";

/** Whether a request is a file upload to the import route, whose body the body parsers must leave alone. */
export function isFileImport(req: { method: string; path: string }): boolean {
  return req.method === "POST" && /^\/repositories\/[^/]+\/imports\/?$/.test(req.path);
}

export interface ImportControllerDeps {
  operations: RecordOperations;
  access: AccessControl;
  /** The largest file body accepted (413 beyond). */
  maxFileBytes: number;
  /** The config's import settings (default their defaults). */
  limits?: ImportLimits;
  /** Where uploads wait while imported (default UPLOAD_DIR). */
  uploadDir?: string;
}

function options(values: ParameterValues): { dryRun: boolean; format: string | undefined; skipResults: boolean } {
  const reader = new ParamReader(values);
  const dryRun = reader.boolean("dry_run");
  const format = reader.scalar("format");
  const skipResults = reader.boolean("skip_results");
  throwIfAny(reader.errors);
  return { dryRun: dryRun === true, format, skipResults: skipResults === true };
}

/**
 * The body, streamed into a file; 413 past the limit. What comes past the limit is read and
 * dropped rather than the connection cut, so the client gets the 413 instead of a reset.
 */
async function saveBody(body: Readable, path: string, limit: number): Promise<void> {
  const file = createWriteStream(path, { mode: 0o600 });
  try {
    await new Promise<void>((done, fail) => {
      let bytes = 0;
      const onData = (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > limit) {
          // Listeners off, the rest drained into nothing (an async iterator would destroy the socket).
          body.off("data", onData);
          body.resume();
          fail(
            new ApiError(
              413,
              `Request body too large (over ${limit} bytes, IMPORT_LIMIT_BYTES): send a file this large as a job, ` +
                "POST /repositories/:repo_id/jobs_with_files",
            ),
          );
          return;
        }
        if (!file.write(chunk)) {
          body.pause();
          file.once("drain", () => body.resume());
        }
      };
      body.on("data", onData);
      body.once("end", done);
      body.once("error", fail);
      file.once("error", fail);
    });
  } finally {
    file.end();
    await once(file, "close");
  }
}

function answer(summary: ImportSummary): { status: number; body: unknown } {
  if (summary.outcome !== "failed") return { status: 200, body: summary };
  const first = summary.errors[0];
  const where =
    first === undefined
      ? ""
      : [
          first.line !== undefined ? `line ${first.line}` : "",
          first.column !== undefined ? `column ${first.column}` : "",
          first.path ?? "",
        ]
          .filter(Boolean)
          .join(", ");
  return {
    status: 400,
    body: {
      error: `Import failed${where === "" ? "" : ` at ${where}`}: ${first?.message ?? "unknown error"}`,
      summary,
    },
  };
}

/** The Ts.ED controller of the two import routes, to mount at "/" beside the record controllers. */
export function importController({
  operations,
  access,
  maxFileBytes,
  limits = DEFAULT_IMPORT_LIMITS,
  uploadDir = UPLOAD_DIR,
}: ImportControllerDeps): new () => unknown {
  const formats = supportedFormats();

  /** The caller, once allowed to import into an existing repository (404 otherwise, as record routes answer). */
  const importer = async (req: ParamRequest, res: Parameters<typeof callerWith>[1]) => {
    const repoId = idParam(req, "repo_id");
    const caller = await callerWith(access, res, IMPORT_PERMISSION, repoId);
    assertRepositoryTakesRecords(repoId);
    await operations.read(operations.deps.registry.scopeHolderType().name, {}, repoId, onBehalfOf(caller));
    return { repoId, caller };
  };

  const importBatch = async (req: ParamRequest, res: Response): Promise<void> => {
    const { repoId, caller } = await importer(req, res);
    const { dryRun, skipResults } = options(parameterValues(req.query));
    if (req.body === undefined || req.body === null || typeof req.body !== "object")
      throw badRequest({ body: ["An ArchivesSpace JSON batch (an array of records) is required"] });
    const text = JSON.stringify(req.body);
    const input: ImportInput = { name: "batch", open: () => Readable.from([Buffer.from(text)]) };
    const summary = await importFile(operations, parserFor("aspace-json", operations.deps, limits), input, {
      repoId,
      actor: onBehalfOf(caller),
      dryRun,
      limits,
      // ArchivesSpace's answer beside Arca's summary: where each temporary uri went (docs/api.md §16).
      saved: !skipResults,
    });
    const { status, body } = answer(summary);
    res.status(status).json(body);
  };

  const importUpload = async (req: Request, res: Response): Promise<void> => {
    const { repoId, caller } = await importer(req, res);
    const { dryRun, format: asked } = options(parameterValues(req.query));
    if (asked !== undefined && !(isImportFormat(asked) && formats.includes(asked)))
      throw badRequest({ format: [`Must be one of: ${formats.join(", ")}`] });
    const file = await newUploadPath(uploadDir);
    try {
      await saveBody(req, file, maxFileBytes);
      const format: ImportFormat | undefined =
        asked ?? (await detectFileFormat(file, String(req.query.filename ?? "")));
      if (format === undefined || !formats.includes(format))
        throw badRequest({ format: [`Could not tell the file's format; say it: ${formats.join(", ")}`] });
      const input: ImportInput = {
        name: typeof req.query.filename === "string" ? req.query.filename : "upload",
        open: () => createReadStream(file),
      };
      const summary = await importFile(operations, parserFor(format, operations.deps, limits), input, {
        repoId,
        actor: onBehalfOf(caller),
        dryRun,
        limits,
      });
      const { status, body } = answer(summary);
      res.status(status).json(body);
    } finally {
      await removeUpload(file);
    }
  };

  // Each answer (the summary, 200 or 400) is written to express by the handler itself.
  @Controller("/")
  class ImportController {
    @Route("post", BATCH_IMPORT_PATH, describeBatchImport)
    async batch(@Context() ctx: PlatformContext): Promise<void> {
      await importBatch(ctx.getRequest<ParamRequest>(), ctx.getResponse<Response>());
    }

    @Route("post", FILE_IMPORT_PATH, describeFileImport)
    async file(@Context() ctx: PlatformContext): Promise<void> {
      await importUpload(ctx.getRequest<Request>(), ctx.getResponse<Response>());
    }
  }
  return ImportController;
}
