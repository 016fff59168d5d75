// EAD 2002 / EAD3 as an export format (GET …/resource_descriptions/:id.xml, ArchivesSpace's
// backend/app/controllers/exports.rb), with its optional parameters:
//   ead3                 EAD3 instead of EAD 2002
//   include_unpublished  also unpublished records, notes and links, marked audience="internal"
//   include_daos         digital object instances as <dao>/<daogrp> (off, as in ArchivesSpace)
//   include_uris         a <unitid type="aspace_uri"> per record
//   numbered_cs          <c01>..<c12> instead of <c>
//   print_pdf            ArchivesSpace's PDF rendering: not supported; true answers 400
import { badRequest } from "../errors/api-error.js";
import type { JsonObject } from "../registry/index.js";
import { DEFAULT_EXPORT_OPTIONS, EadExporter, type EadExportOptions } from "./ead-export.js";
import type { ExportFormat, ExportParameter } from "./export-format.js";

/** The boolean parameters the format reads, with the option each sets. */
export const EAD_EXPORT_PARAMETERS: ReadonlyArray<ExportParameter & { option: keyof EadExportOptions }> = [
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

const PRINT_PDF = "print_pdf";

export const EAD_FORMAT: ExportFormat = {
  name: "ead",
  extension: "xml",
  mediaType: "application/xml",
  fileSuffix: "ead",
  summary: "EAD",
  description:
    "A resource and its whole tree of archival objects as EAD 2002 (`urn:isbn:1-931666-22-9`), or EAD3 with `ead3=true`, as ArchivesSpace's endpoint answers. " +
    "The document is streamed (chunked) as the tree is read, depth first in position order, so any size of tree can be exported. " +
    "Components are `<c>` (or `<c01>`..`<c12>` with `numbered_cs`) with `@id` from `ref_id` (prefixed `aspace_` when it is not a valid XML ID) and `@level`. " +
    "Unpublished records, notes and links are left out unless `include_unpublished`; digital objects only with `include_daos` (both as in ArchivesSpace). " +
    "ArchivesSpace's `print_pdf` is not supported: `print_pdf=true` answers 400.",
  parameters: [...EAD_EXPORT_PARAMETERS, { name: PRINT_PDF, description: "Not supported: `true` answers 400." }],
  async prepare(operations, { scope, repoId, repository, id, options, actor }) {
    if (options.has(PRINT_PDF))
      throw badRequest({ [PRINT_PDF]: ["PDF output is not supported; the export is XML only"] });
    const eadOptions: EadExportOptions = { ...DEFAULT_EXPORT_OPTIONS };
    for (const parameter of EAD_EXPORT_PARAMETERS) eadOptions[parameter.option] = options.has(parameter.name);
    const prepared = await new EadExporter(operations).prepare(
      scope.repoId ?? repoId,
      id,
      eadOptions,
      actor,
      repository,
    );
    return { record: prepared.resource as unknown as JsonObject, writeTo: prepared.writeTo };
  },
};
