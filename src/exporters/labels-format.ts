// Container labels as an export format (GET …/resource_labels/:id.tsv, ArchivesSpace's
// backend/app/controllers/exports.rb): a resource's top containers, one TSV row each, streamed as
// its tree is read (labels-export.ts says which rows and columns).
import type { Repository, Resource } from "../../generated/types/index.js";
import type { JsonObject } from "../registry/index.js";
import { asRecord } from "./export-records.js";
import type { ExportFormat } from "./export-format.js";
import { LabelsExport } from "./labels-export.js";

export const LABELS_FORMAT: ExportFormat = {
  name: "labels",
  extension: "tsv",
  mediaType: "text/tab-separated-values",
  fileSuffix: "labels",
  summary: "container labels (TSV)",
  description:
    "One row per top container the resource and its whole tree of archival objects use, each container once (on the row of the first record using it, in tree order: the resource, then depth first), after a header row, with ArchivesSpace's columns: " +
    "Repository Name, Resource Title, Resource Identifier (id_0..id_3 joined by `-`), Series Archival Object Title (the record's series ancestor, or itself), Archival Object Title (empty for the resource's own containers), Container Profile, Top Container (`type: indicator`), Top Container Barcode, SubContainer 1 and SubContainer 2 (`type:indicator`), Current Location. " +
    "Rows end in CRLF and are streamed as the tree is read. Tabs and line breaks inside a value become a space, and a cell that starts with `=`, `+`, `-` or `@` is prefixed with `'` so that no spreadsheet runs it as a formula. " +
    "Unpublished records are labelled too; suppressed records, and what is under them, are not.",
  parameters: [],
  async prepare(operations, { scope, repoId, repository: shownRepository, id, actor }) {
    const resourceScope = { repoId: scope.repoId ?? repoId };
    const resource: Resource = asRecord("resource", await operations.read("resource", resourceScope, id, actor));
    const repository: Repository = asRecord("repository", shownRepository);
    return {
      record: resource as unknown as JsonObject,
      writeTo: (sink) => new LabelsExport(operations, resourceScope, resource, repository, actor, sink).write(),
    };
  },
};
