// MODS as an export format (GET …/digital_objects/mods/:id.xml, ArchivesSpace's
// backend/app/controllers/exports.rb): a digital object as a MODS 3.7 record, its components as
// nested <relatedItem type="constituent"> (each holding its own children), streamed as the tree
// is read. ArchivesSpace lists the components flat and writes deeper ones a second time inside
// their parents; here each component appears once, where it sits in the tree.
import type { DigitalObjectComponent } from "../../generated/types/index.js";
import { readDigitalObject, xmlDocument, type DigitalObjectExport } from "./digital-object-export.js";
import type { ExportFormat } from "./export-format.js";
import { writeModsDescription } from "./mods-description.js";
import type { XmlWriter } from "./xml-writer.js";

export const MODS_NAMESPACE = "http://www.loc.gov/mods/v3";
export const MODS_VERSION = "3.7";

/** The root's attributes: alone, it names its schema; inside METS, the namespace alone. */
export function modsRootAttributes(standalone: boolean): Record<string, string | undefined> {
  return {
    xmlns: MODS_NAMESPACE,
    "xmlns:xsi": standalone ? "http://www.w3.org/2001/XMLSchema-instance" : undefined,
    "xsi:schemaLocation": standalone
      ? `${MODS_NAMESPACE} https://www.loc.gov/standards/mods/v3/mods-3-7.xsd`
      : undefined,
    version: MODS_VERSION,
  };
}

/** The digital object's <mods> record: its description and, when `withComponents`, its tree as relatedItems. */
export async function writeModsRecord(
  xml: XmlWriter,
  source: DigitalObjectExport,
  options: { standalone: boolean; withComponents: boolean },
): Promise<void> {
  xml.open("mods", modsRootAttributes(options.standalone));
  await source.linked.load([source.object]);
  writeModsDescription(xml, source.linked, source.object, { madeAvailableBy: source.madeAvailableBy });
  await xml.yieldIfFull();
  if (options.withComponents) {
    await source.components.walk(
      {
        enter: async (component: DigitalObjectComponent) => {
          xml.open("relatedItem", { type: "constituent" });
          writeModsDescription(xml, source.linked, component);
          await xml.yieldIfFull();
        },
        leave: () => xml.close("relatedItem"),
      },
      source.linked,
    );
  }
  xml.close("mods");
}

export const MODS_FORMAT: ExportFormat = {
  name: "mods",
  extension: "xml",
  mediaType: "application/xml",
  fileSuffix: "mods",
  summary: "MODS",
  description:
    "A digital object as a MODS 3.7 record (namespace `http://www.loc.gov/mods/v3`), as ArchivesSpace's endpoint " +
    "answers: titleInfo, identifier (digital_object_id), typeOfResource (digital_object_type), language and script " +
    "codes, originInfo dates (by date label), physicalDescription (extents, physical details, dimensions), " +
    "abstract (summary notes), accessCondition (access, use and legal status notes), other notes by type, the " +
    "repository's \"Digital object made available by\" note, subjects (by their first term's type), agents as " +
    "`<name>` with marcrelator role terms (subject agents inside `<subject>`), and each file version's file_uri as " +
    "`<location><url>`. " +
    'Its components follow as nested `<relatedItem type="constituent">` records, in tree order, streamed (chunked) ' +
    "as the tree is read. " +
    "Text elements hold text only: inline EAD markup in titles and notes is dropped, its text kept. " +
    "Unpublished components, notes, agents and file versions are exported, as ArchivesSpace's MODS export does, " +
    "except unpublished physdesc and dimensions notes (left out there too); suppressed components are left out " +
    "with their subtrees.",
  parameters: [],
  async prepare(operations, request) {
    const source = await readDigitalObject(operations, request);
    return xmlDocument(source, (xml) => writeModsRecord(xml, source, { standalone: true, withComponents: true }));
  },
};
