// The export route (src/exporters/export-controller.ts): a resource and its tree as EAD, streamed XML.
import { EAD_CONTENT_TYPE, EAD_EXPORT_PARAMETERS, EAD_EXPORT_PATH } from "../exporters/export-controller.js";
import { booleanParameter } from "./record-paths.js";
import {
  commonResponses,
  idPathParameter,
  notFoundResponse,
  openApiPath,
  responseRef,
  type DocumentContext,
  type Paths,
} from "./model.js";

export const EXPORT_TAG = { name: "export", description: "Resources and their trees as EAD 2002 or EAD3 XML." };

const DESCRIPTION =
  "A resource and its whole tree of archival objects as EAD 2002 (`urn:isbn:1-931666-22-9`), or EAD3 with `ead3=true`, as ArchivesSpace's endpoint answers. " +
  "The document is streamed (chunked) as the tree is read, depth first in position order, so any size of tree can be exported. " +
  "Components are `<c>` (or `<c01>`..`<c12>` with `numbered_cs`) with `@id` from `ref_id` (prefixed `aspace_` when it is not a valid XML ID) and `@level`. " +
  "Unpublished records, notes and links are left out unless `include_unpublished`; digital objects only with `include_daos` (both as in ArchivesSpace). " +
  "ArchivesSpace's `print_pdf` is not supported: `print_pdf=true` answers 400. " +
  "Every error found before the document starts is the usual JSON; should the store fail mid-document, the connection is cut (the body is then incomplete, never a false whole).";

export function exportPaths(ctx: DocumentContext): Paths {
  // A registry without resources (a drop-in test registry) has nothing to export.
  if (!ctx.registry.types.some((type) => type.name === "resource")) return {};
  const permission = ctx.registry.permission("resource", "read");
  return {
    [openApiPath(EAD_EXPORT_PATH)]: {
      parameters: [idPathParameter("repo_id", "The repository's id."), idPathParameter("id", "The resource's id.")],
      get: {
        operationId: "export_resource_ead",
        summary: "Export a resource as EAD",
        description: `Needs \`${permission ?? "a session"}\` in the repository. ${DESCRIPTION}`,
        tags: [EXPORT_TAG.name],
        security: ctx.security(permission),
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
      },
    },
  };
}
