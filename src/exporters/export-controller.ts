// GET /repositories/:repo_id/resource_descriptions/:id.xml, ArchivesSpace's EAD export
// endpoint (backend/app/controllers/exports.rb), with its optional parameters:
//   ead3                 EAD3 instead of EAD 2002 (default false)
//   include_unpublished  also unpublished records, notes and links, marked audience="internal" (default false)
//   include_daos         digital object instances as <dao>/<daogrp> (default false, as in ArchivesSpace)
//   include_uris         a <unitid type="aspace_uri"> per record (default false)
//   numbered_cs          <c01>..<c12> instead of <c> (default false)
//   print_pdf            ArchivesSpace's PDF rendering: not supported; true answers 400
// It needs the permission to read the repository's resources (view_repository). A missing
// resource or repository is the contract's 404 JSON; so is every error found before the
// first byte of XML leaves. An error after that cannot change the status: the connection is
// cut, so the client sees an incomplete body rather than a document that looks whole.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Response } from "express";
import { callerWith } from "../auth/caller.js";
import { booleanParam, idParam, type ParamRequest } from "../records/http/request-params.js";
import type { AccessControl } from "../auth/access-control.js";
import { badRequest } from "../errors/api-error.js";
import {
  booleanParameter,
  commonResponses,
  idPathParameter,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Tag,
} from "../http/api-description.js";
import { Route, type RouteOperation } from "../http/described-route.js";
import type { RecordOperations } from "../records/operations/index.js";
import { EadExporter, type EadExportOptions } from "./ead-export.js";
import { SinkClosedError } from "./xml-writer.js";

export const EAD_EXPORT_PATH = "/repositories/:repo_id/resource_descriptions/:id.xml";
export const EAD_CONTENT_TYPE = "application/xml";

/** The boolean parameters the route reads, with their defaults. */
export const EAD_EXPORT_PARAMETERS: ReadonlyArray<{
  name: string;
  option: keyof EadExportOptions;
  description: string;
}> = [
  {
    name: "ead3",
    option: "ead3",
    description: "Export EAD3 (namespace `http://ead3.archivists.org/schema/`) instead of EAD 2002.",
  },
  {
    name: "include_unpublished",
    option: "includeUnpublished",
    description:
      'Also export unpublished components (with their subtrees), notes, agents and digital objects, marked `audience="internal"`.',
  },
  {
    name: "include_daos",
    option: "includeDaos",
    description: "Export digital object instances as `<dao>` (`<daogrp>`/`<daoset>` for several file versions).",
  },
  {
    name: "include_uris",
    option: "includeUris",
    description: 'Add a `<unitid type="aspace_uri">` holding each record\'s uri.',
  },
  {
    name: "numbered_cs",
    option: "numberedCs",
    description: "Write components as `<c01>`..`<c12>` (by depth) instead of `<c>`.",
  },
];

const EXPORT: Tag = { name: "export", description: "Resources and their trees as EAD 2002 or EAD3 XML." };

const DESCRIPTION =
  "A resource and its whole tree of archival objects as EAD 2002 (`urn:isbn:1-931666-22-9`), or EAD3 with `ead3=true`, as ArchivesSpace's endpoint answers. " +
  "The document is streamed (chunked) as the tree is read, depth first in position order, so any size of tree can be exported. " +
  "Components are `<c>` (or `<c01>`..`<c12>` with `numbered_cs`) with `@id` from `ref_id` (prefixed `aspace_` when it is not a valid XML ID) and `@level`. " +
  "Unpublished records, notes and links are left out unless `include_unpublished`; digital objects only with `include_daos` (both as in ArchivesSpace). " +
  "ArchivesSpace's `print_pdf` is not supported: `print_pdf=true` answers 400. " +
  "Every error found before the document starts is the usual JSON; should the store fail mid-document, the connection is cut (the body is then incomplete, never a false whole).";

function describeExport(ctx: DocumentContext): RouteOperation {
  const permission = ctx.registry.permission("resource", "read");
  return {
    operationId: "export_resource_ead",
    summary: "Export a resource as EAD",
    description: `Needs \`${permission ?? "a session"}\` in the repository. ${DESCRIPTION}`,
    tag: EXPORT,
    security: ctx.security(permission),
    pathParameters: [idPathParameter("repo_id", "The repository's id."), idPathParameter("id", "The resource's id.")],
    parameters: [
      ...EAD_EXPORT_PARAMETERS.map((parameter) =>
        booleanParameter(parameter.name, `${parameter.description} Default false.`),
      ),
      booleanParameter("print_pdf", "Not supported: `true` answers 400."),
    ],
    responses: {
      "200": {
        description: "The EAD document (UTF-8).",
        content: { [EAD_CONTENT_TYPE]: { schema: { type: "string" } } },
      },
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["Resource", "Repository"]),
      ...commonResponses(),
    },
  };
}

export interface ExportControllerDeps {
  operations: RecordOperations;
  access: AccessControl;
}

function optionsOf(req: ParamRequest): EadExportOptions {
  const options: Record<string, boolean> = {}; // keys: the fixed EAD_EXPORT_PARAMETERS options
  for (const parameter of EAD_EXPORT_PARAMETERS) options[parameter.option] = booleanParam(req, parameter.name, false);
  if (booleanParam(req, "print_pdf", false))
    throw badRequest({ print_pdf: ["PDF output is not supported; the export is XML only"] });
  return options as unknown as EadExportOptions;
}

/** The Ts.ED controller of the export route, to mount at "/" beside the record controllers. */
export function exportController({ operations, access }: ExportControllerDeps): new () => unknown {
  const exporter = new EadExporter(operations);
  const readPermission = operations.deps.registry.permission("resource", "read");

  @Controller("/")
  class EadExportController {
    // The XML is written straight to the response as it is made (Ts.ED sends nothing more once
    // headers are out), so a large tree never sits whole in memory.
    @Route("get", EAD_EXPORT_PATH, describeExport)
    async export(@Context() ctx: PlatformContext): Promise<void> {
      const req = ctx.getRequest<ParamRequest>();
      const res = ctx.getResponse<Response>();
      const repoId = idParam(req, "repo_id");
      const id = idParam(req, "id");
      const caller = await callerWith(access, res, readPermission, repoId);
      const options = optionsOf(req);
      const prepared = await exporter.prepare(repoId, id, options, caller);
      res.status(200);
      res.setHeader("Content-Type", EAD_CONTENT_TYPE);
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
          `${JSON.stringify({ event: "ead_export_failed", resource: prepared.resource.uri, error: detail })}\n`,
        );
        res.destroy();
      }
    }
  }
  return EadExportController;
}
