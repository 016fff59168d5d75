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
import { Get } from "@tsed/schema";
import type { Response } from "express";
import { callerWith } from "../auth/caller.js";
import { booleanParam, idParam, type ParamRequest } from "../records/http/request-params.js";
import type { AccessControl } from "../auth/access-control.js";
import { badRequest } from "../errors/api-error.js";
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
    @Get(EAD_EXPORT_PATH)
    async export(@Context() ctx: PlatformContext): Promise<void> {
      const req = ctx.getRequest<ParamRequest>();
      const res = ctx.getResponse<Response>();
      const repoId = idParam(req, "repo_id");
      const id = idParam(req, "id");
      await callerWith(access, res, readPermission, repoId);
      const options = optionsOf(req);
      const prepared = await exporter.prepare(repoId, id, options);
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
