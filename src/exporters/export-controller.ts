// The export routes, as ArchivesSpace's backend/app/controllers/exports.rb has them, one pair per
// export a schema declares (x-exports) in a format of formats.ts:
//   GET /repositories/:repo_id/<path>/:id.<extension>      the record as a file, streamed
//   GET /repositories/:repo_id/<path>/:id.:fmt/metadata    {filename, mimetype} of that file
// e.g. resources/marc21/:id.xml, archival_contexts/people/:id.xml, digital_objects/mods/:id.xml,
// resource_labels/:id.tsv. Reading needs the type's read permission (agents: a session). The
// repository in the path must exist, for global records (agents) too, as ArchivesSpace checks
// it. A missing record or repository is the contract's 404 JSON; so is every error found before
// the first byte of the file leaves. An error after that cannot change the status: the
// connection is cut, so the client sees an incomplete body rather than a file that looks whole.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { AccessControl } from "../auth/access-control.js";
import {
  booleanParameter,
  commonResponses,
  idPathParameter,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Tag,
} from "../http/api-description.js";
import { Route, type DescribedRoute } from "../http/described-route.js";
import { notFound } from "../errors/api-error.js";
import { positiveId, RecordEndpoints } from "../records/http/record-endpoints.js";
import { booleanParam } from "../records/http/request-params.js";
import { onBehalfOf, type Actor, type RecordOperations, type Scope } from "../records/operations/index.js";
import { SchemaDefinitionError, type ExportSettings, type JsonObject, type RecordType } from "../registry/index.js";
import type { ExportFormat } from "./export-format.js";
import { exportFileName } from "./export-file-name.js";
import { EXPORT_FORMATS } from "./formats.js";
import { SinkClosedError } from "./xml-writer.js";

const EXPORT: Tag = {
  name: "export",
  description:
    "Records as files in the archival standards: EAD 2002 and EAD3 (resources), MARC21 XML (resources), container labels (TSV), EAC-CPF (agents), MODS, METS and Dublin Core (digital objects).",
};

export interface ExportControllerDeps {
  operations: RecordOperations;
  access: AccessControl;
}

/** One export route pair: a type exported in a format at a path. */
interface ExportRoute {
  type: RecordType;
  format: ExportFormat;
  settings: ExportSettings;
  endpoints: RecordEndpoints;
}

function routesOf(deps: ExportControllerDeps): ExportRoute[] {
  const registry = deps.operations.deps.registry;
  const repositoryTitle = registry.scopeHolderType().title;
  return registry.types.flatMap((type) =>
    type.exports.map((settings) => {
      const format = EXPORT_FORMATS.get(settings.format);
      if (format === undefined)
        throw new SchemaDefinitionError(type.name, `x-exports: no export format is named "${settings.format}"`);
      const endpoints = new RecordEndpoints(
        type,
        { operations: deps.operations, accessControl: deps.access },
        repositoryTitle,
      );
      return { type, format, settings, endpoints };
    }),
  );
}

const basePath = (route: ExportRoute): string => `/repositories/:repo_id/${route.settings.path}/:id`;

function pathParameters(route: ExportRoute) {
  return [
    idPathParameter("repo_id", "The repository's id."),
    idPathParameter("id", `The ${route.type.title.toLowerCase()}'s id.`),
  ];
}

function security(ctx: DocumentContext, route: ExportRoute) {
  const permission = ctx.registry.permission(route.type.name, "read");
  return { permission, security: ctx.security(permission) };
}

function describeFile(route: ExportRoute): DescribedRoute["describe"] {
  return (ctx) => {
    const { permission, security: requirement } = security(ctx, route);
    const notFound = notFoundResponse(ctx, [route.type.title, ctx.registry.scopeHolderType().title]);
    return {
      operationId: `export_${route.type.name}_${route.format.name}`,
      summary: `Export a ${route.type.title.toLowerCase()} as ${route.format.summary}`,
      description: `Needs \`${permission ?? "a session"}\`. ${route.format.description} Every error found before the file starts is the usual JSON; should the store fail mid-file, the connection is cut (the body is then incomplete, never a false whole).`,
      tag: EXPORT,
      security: requirement,
      pathParameters: pathParameters(route),
      parameters: route.format.parameters.map((parameter) =>
        booleanParameter(parameter.name, `${parameter.description} Default false.`),
      ),
      responses: {
        "200": {
          description: `The ${route.format.summary} file (UTF-8).`,
          content: { [route.format.mediaType]: { schema: { type: "string" } } },
        },
        "400": responseRef("BadRequest"),
        "403": responseRef("AccessDenied"),
        "404": notFound,
        ...commonResponses(),
      },
    };
  };
}

function describeMetadata(route: ExportRoute): DescribedRoute["describe"] {
  return (ctx) => {
    const { permission, security: requirement } = security(ctx, route);
    const { fields, separator } = route.settings.filename;
    return {
      operationId: `export_${route.type.name}_${route.format.name}_metadata`,
      summary: `The file name and media type of a ${route.type.title.toLowerCase()}'s ${route.format.summary} export`,
      description: `Needs \`${permission ?? "a session"}\`. The name is the record's ${fields.map((field) => `\`${field}\``).join(", ")} (those present, joined by \`${separator}\`) followed by \`_${route.format.fileSuffix}.${route.format.extension}\`, whitespace turned into \`_\`, as ArchivesSpace names it. \`:fmt\` is not read.`,
      tag: EXPORT,
      security: requirement,
      pathParameters: [
        ...pathParameters(route),
        { name: "fmt", in: "path", required: true, schema: { type: "string" } },
      ],
      responses: {
        "200": jsonResponse(
          "The export's metadata.",
          {
            type: "object",
            properties: { filename: { type: "string" }, mimetype: { type: "string" } },
            required: ["filename", "mimetype"],
          },
          {
            filename: `MSS.060_${route.format.fileSuffix}.${route.format.extension}`,
            mimetype: route.format.mediaType,
          },
        ),
        "403": responseRef("AccessDenied"),
        "404": notFoundResponse(ctx, [route.type.title, ctx.registry.scopeHolderType().title]),
        ...commonResponses(),
      },
    };
  };
}

/**
 * The caller, the record's scope and ids, once they may read the type, the repository in the path exists and the ids
 * are whole numbers.
 */
async function enter(
  route: ExportRoute,
  operations: RecordOperations,
  req: Request,
  res: Response,
): Promise<{ scope: Scope; repoId: number; repository: JsonObject; id: number; actor: Actor }> {
  const { scope, actor } = await route.endpoints.enter("read", req, res);
  const holder = operations.deps.registry.scopeHolderType();
  const repoId = scope.repoId ?? positiveId(req.params.repo_id);
  if (repoId === undefined) throw notFound(holder.title);
  const id = route.endpoints.recordId(req);
  // Whoever may read the record may learn that its repository exists, and name it.
  const repository = await operations.read(holder.name, {}, repoId, onBehalfOf(actor));
  return { scope, repoId, repository, id, actor };
}

async function sendFile(route: ExportRoute, operations: RecordOperations, req: Request, res: Response): Promise<void> {
  const { scope, repoId, repository, id, actor } = await enter(route, operations, req, res);
  const options = new Set(
    route.format.parameters.filter((parameter) => booleanParam(req, parameter.name, false)).map(({ name }) => name),
  );
  const request = { type: route.type, scope, repoId, repository, id, options, actor };
  const prepared = await route.format.prepare(operations, request);
  res.status(200);
  res.setHeader("Content-Type", route.format.mediaType);
  try {
    await prepared.writeTo(res);
    res.end();
  } catch (error) {
    if (error instanceof SinkClosedError) return; // the client went away
    if (!res.headersSent) {
      res.removeHeader("Content-Type");
      throw error;
    }
    const detail = error instanceof Error ? error.stack : String(error);
    process.stderr.write(
      `${JSON.stringify({ event: "export_failed", format: route.format.name, record: prepared.record.uri, error: detail })}\n`,
    );
    res.destroy();
  }
}

async function sendMetadata(
  route: ExportRoute,
  operations: RecordOperations,
  req: Request,
  res: Response,
): Promise<void> {
  const { scope, id, actor } = await enter(route, operations, req, res);
  const record: JsonObject = await operations.read(route.type.name, scope, id, actor);
  res
    .status(200)
    .json({ filename: exportFileName(record, route.settings, route.format), mimetype: route.format.mediaType });
}

/** The Ts.ED controller of every type's export routes, to mount at "/" beside the record controllers. */
export function exportController(deps: ExportControllerDeps): new () => unknown {
  class ExportController {}
  const prototype = ExportController.prototype as unknown as Record<string, unknown>;
  let count = 0;
  // The file and its metadata are written straight to the response (Ts.ED sends nothing more once headers are out),
  // so a large tree never sits whole in memory.
  const add = (
    path: string,
    describe: DescribedRoute["describe"],
    handle: (req: Request, res: Response) => Promise<void>,
  ) => {
    const key = `route${count++}`;
    prototype[key] = function (ctx: PlatformContext): Promise<void> {
      return handle(ctx.getRequest<Request>(), ctx.getResponse<Response>());
    };
    Context()(prototype, key, 0);
    Route("get", path, describe)(prototype, key, Object.getOwnPropertyDescriptor(prototype, key) as PropertyDescriptor);
  };
  for (const route of routesOf(deps)) {
    add(`${basePath(route)}.${route.format.extension}`, describeFile(route), (req, res) =>
      sendFile(route, deps.operations, req, res),
    );
    add(`${basePath(route)}.:fmt/metadata`, describeMetadata(route), (req, res) =>
      sendMetadata(route, deps.operations, req, res),
    );
  }
  Controller("/")(ExportController);
  return ExportController;
}
