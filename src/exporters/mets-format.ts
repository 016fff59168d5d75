// METS as an export format (GET …/digital_objects/mets/:id.xml, ArchivesSpace's
// backend/app/controllers/exports.rb and exporters/models/mets.rb, serializers/mets.rb):
//   <metsHdr>     CREATEDATE, the repository as the CREATOR organisation (name, url, a note
//                 naming Arca);
//   <dmdSec>      one for the digital object, then one per component in tree order, each wrapping
//                 the record's MODS (mods-format.ts, the same writer as the MODS export, without
//                 relatedItems: the structMap carries the tree);
//   <fileSec>     the file versions of the object and its components by use statement
//                 (mets-files.ts);
//   <structMap TYPE="logical">  the object as a <div> holding an <fptr> per file version and a
//                 nested <div> per component (ORDER in document order, LABEL its title, DMDID its
//                 dmdSec).
// The tree is read three times (dmdSecs, files, structMap), each streamed a batch at a time, so
// no part of the document is held whole. ArchivesSpace's dmdSec IDs are bare record ids (not
// valid xs:IDs, and a component's may equal the object's): here `digital_object_<id>` and
// `digital_object_component_<id>`. ArchivesSpace's second, "physical" structMap (the same tree
// without the components that hold no file) is not written: for an object whose own record has no
// file it has several top-level <div>s, or none, which METS does not allow.
import type { DigitalObjectComponent } from "../../generated/types/index.js";
import type { JsonObject } from "../registry/index.js";
import { readDigitalObject, type DigitalObjectExport } from "./digital-object-export.js";
import { titleOf, type DigitalRecord } from "./digital-object-text.js";
import type { ExportFormat } from "./export-format.js";
import { dmdId, fileId, writeFileSec } from "./mets-files.js";
import { writeModsDescription } from "./mods-description.js";
import { modsRootAttributes, writeModsRecord } from "./mods-format.js";
import { XmlWriter, type XmlSink } from "./xml-writer.js";

const METS_ROOT = {
  xmlns: "http://www.loc.gov/METS/",
  "xmlns:xlink": "http://www.w3.org/1999/xlink",
  "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
  "xsi:schemaLocation": "http://www.loc.gov/METS/ https://www.loc.gov/standards/mets/mets.xsd",
};

/** One export in progress. */
class MetsDocument {
  private readonly xml: XmlWriter;
  /** The structMap's next div ORDER. */
  private order = 0;

  constructor(
    private readonly source: DigitalObjectExport,
    private readonly now: Date,
    sink: XmlSink,
  ) {
    this.xml = new XmlWriter(sink);
  }

  async write(): Promise<void> {
    const { xml, source } = this;
    xml.declaration();
    xml.open("mets", { ...METS_ROOT, OBJID: source.object.digital_object_id, LABEL: titleOf(source.object) });
    this.writeHeader();
    await this.writeDmdSections();
    await writeFileSec(xml, source);
    xml.open("structMap", { TYPE: "logical" });
    this.openDiv(source.object);
    await source.components.walk({
      enter: async (component) => {
        this.openDiv(component);
        await xml.yieldIfFull();
      },
      leave: () => xml.close("div"),
    });
    xml.close("div");
    xml.close("structMap");
    xml.close("mets");
    await xml.finish();
  }

  private writeHeader(): void {
    const { xml, source } = this;
    xml.open("metsHdr", { CREATEDATE: this.now.toISOString().replace(/\.\d+Z$/, "Z") });
    xml.open("agent", { ROLE: "CREATOR", TYPE: "ORGANIZATION" });
    xml.element("name", {}, source.repository.name);
    xml.optional("note", source.repository.url);
    xml.element("note", {}, "Produced by Arca");
    xml.close("agent");
    xml.close("metsHdr");
  }

  private async writeDmdSections(): Promise<void> {
    const { xml, source } = this;
    this.openDmdSection(source.object);
    await writeModsRecord(xml, source, { standalone: false, withComponents: false });
    this.closeDmdSection();
    await source.components.walk(
      {
        enter: async (component: DigitalObjectComponent) => {
          this.openDmdSection(component);
          xml.open("mods", modsRootAttributes(false));
          writeModsDescription(xml, source.linked, component);
          xml.close("mods");
          this.closeDmdSection();
          await xml.yieldIfFull();
        },
      },
      source.linked,
    );
  }

  private openDmdSection(record: DigitalRecord): void {
    this.xml.open("dmdSec", { ID: dmdId(record) });
    this.xml.open("mdWrap", { MDTYPE: "MODS" });
    this.xml.open("xmlData");
  }

  private closeDmdSection(): void {
    this.xml.close("xmlData");
    this.xml.close("mdWrap");
    this.xml.close("dmdSec");
  }

  /** A structMap <div> for the record, with a pointer to each of its files; closed by the caller. */
  private openDiv(record: DigitalRecord): void {
    this.order += 1;
    this.xml.open("div", { ORDER: this.order, LABEL: titleOf(record), TYPE: "item", DMDID: dmdId(record) });
    (record.file_versions ?? []).forEach((_version, index) =>
      this.xml.element("fptr", { FILEID: fileId(record, index) }),
    );
  }
}

export const METS_FORMAT: ExportFormat = {
  name: "mets",
  extension: "xml",
  mediaType: "application/xml",
  fileSuffix: "mets",
  summary: "METS",
  description:
    "A digital object and its components as a METS document (namespace `http://www.loc.gov/METS/`), as " +
    "ArchivesSpace's endpoint answers: a header naming the repository, a `<dmdSec>` wrapping the MODS record (as " +
    "the MODS export writes it, without relatedItems) of the object and then of each component in tree order, a " +
    "`<fileSec>` with one `<fileGrp USE>` per use statement holding every file version of the object and its " +
    'components (`<FLocat LOCTYPE="URL" xlink:href>` from file_uri, with MIMETYPE, SIZE and CHECKSUM where ' +
    "known), and a logical `<structMap>` nesting a `<div>` per component under the object's, each pointing at its " +
    "dmdSec and its files. " +
    "Streamed (chunked) as the tree is read. dmdSec IDs are `digital_object_<id>` and " +
    "`digital_object_component_<id>` (ArchivesSpace's bare ids are not valid XML IDs); ArchivesSpace's second, " +
    "physical structMap is not written. " +
    "Unpublished components, notes and file versions are exported, as ArchivesSpace's METS export does (except " +
    "unpublished physdesc and dimensions notes in the MODS); suppressed components are left out with their " +
    "subtrees.",
  parameters: [],
  async prepare(operations, request) {
    const source = await readDigitalObject(operations, request);
    return {
      record: source.object as unknown as JsonObject,
      writeTo: (sink: XmlSink) => new MetsDocument(source, operations.deps.now(), sink).write(),
    };
  },
};
