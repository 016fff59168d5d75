// MARC 21 XML as an export format (GET …/resources/marc21/:id.xml, ArchivesSpace's
// backend/app/controllers/exports.rb): the resource as one bibliographic record in a MARCXML
// <collection> (marc21-record.ts says what goes where), with ArchivesSpace's parameter
//   include_unpublished_marc  also unpublished notes, agents and subjects
// A MARC record is one resource's description, never its tree: it is built whole and written at
// once, its size that of the resource.
import type { Repository, Resource } from "../../generated/types/index.js";
import type { JsonObject } from "../registry/index.js";
import { asRecord } from "./export-records.js";
import type { ExportFormat } from "./export-format.js";
import { LinkedRecords } from "./linked-records.js";
import { marcRecord, type MarcRecord } from "./marc21-record.js";
import type { Shown } from "./marc21-notes.js";
import { XmlWriter, type XmlSink } from "./xml-writer.js";

const INCLUDE_UNPUBLISHED = "include_unpublished_marc";

const COLLECTION = {
  xmlns: "http://www.loc.gov/MARC21/slim",
  "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
  "xsi:schemaLocation": "http://www.loc.gov/MARC21/slim http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd",
};

async function writeRecord(record: MarcRecord, sink: XmlSink): Promise<void> {
  const xml = new XmlWriter(sink);
  xml.declaration();
  xml.open("collection", COLLECTION);
  xml.open("record");
  xml.element("leader", {}, record.leader);
  for (const [tag, value] of record.control) xml.element("controlfield", { tag }, value);
  for (const field of record.fields) {
    xml.open("datafield", { tag: field.tag, ind1: field.ind1, ind2: field.ind2 });
    for (const subfield of field.subfields) xml.element("subfield", { code: subfield.code }, subfield.value);
    xml.close("datafield");
  }
  xml.close("record");
  xml.close("collection");
  await xml.finish();
}

export const MARC21_FORMAT: ExportFormat = {
  name: "marc21",
  extension: "xml",
  mediaType: "application/xml",
  fileSuffix: "marc21",
  summary: "MARC 21 XML",
  description:
    "The resource as one MARC 21 bibliographic record, the one record of a MARCXML `<collection>` (`http://www.loc.gov/MARC21/slim`), valid against MARC21slim.xsd, mapped as ArchivesSpace's MARC exporter maps it: " +
    "leader (07 `c`, or `m` for an item), 008, 040 (repository code, finding aid language, description rules), 041 languages, 049, 099 identifier (id_0..id_3 joined by `.`), 1xx main creator, 245 title with its inclusive (`$f`) and bulk (`$g`) dates, 264 further publication and copyright dates, 300 extents, 351 and 5xx notes, 546 language notes, 600/610/611 agents linked as subjects (with their terms), 630-657 subjects, 700/710/711 other creators and sources, 852 repository, 856 the finding aid's location (`ead_location`). " +
    "Unpublished notes, agents and subjects are left out unless `include_unpublished_marc` (unset `publish` counts as published); suppressed ones always. " +
    "Inline markup in titles and notes is reduced to its text. The archival objects below the resource are not part of a MARC record. " +
    "Written to be read back by Arca's MARCXML import as the same resource (see docs/api.md for what MARC cannot carry).",
  parameters: [{ name: INCLUDE_UNPUBLISHED, description: "Also export unpublished notes, agents and subjects." }],
  async prepare(operations, { scope, repoId, repository: shownRepository, id, options, actor }) {
    const resourceScope = { repoId: scope.repoId ?? repoId };
    const resource: Resource = asRecord("resource", await operations.read("resource", resourceScope, id, actor));
    const repository: Repository = asRecord("repository", shownRepository);
    const includeUnpublished = options.has(INCLUDE_UNPUBLISHED);
    const shown: Shown = <T extends { publish?: boolean; suppressed?: boolean }>(item: T | undefined): item is T =>
      item !== undefined && item.suppressed !== true && (item.publish !== false || includeUnpublished);
    const linked = new LinkedRecords(operations.deps, actor);
    // Only agents and subjects are named in MARC: the instances' containers are not loaded.
    await linked.load([{ ...resource, instances: [] }]);
    return {
      record: resource as unknown as JsonObject,
      writeTo: (sink) => writeRecord(marcRecord({ resource, repository, linked, shown }), sink),
    };
  },
};
