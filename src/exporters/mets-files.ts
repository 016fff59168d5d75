// The METS export's identifiers and its <fileSec>. ArchivesSpace groups the file versions of the
// digital object and of all its components by use statement, one <fileGrp USE="…"> each
// (backend/app/exporters/models/mets.rb with_file_groups), which METS itself suggests (thumbnails,
// service copies, masters). Grouping a whole tree's files would hold them all in memory; here the
// groups are found first (the object's own use statements in their order, then the components',
// one query), and each group is then written from one query per batch of components holding such
// a file. A file's ID is made from its record's and its place in the record's file_versions, so
// the structMap (written from a separate walk of the tree) points at it without a lookup table.
//
// Each <file> has @GROUPID (its record's dmdSec ID, as ArchivesSpace groups a record's files),
// @MIMETYPE (from file_format_name), @SIZE, @CHECKSUM/@CHECKSUMTYPE, and an <FLocat LOCTYPE="URL">
// whose xlink:href is the file_uri (ArchivesSpace leaves out the required LOCTYPE). Unpublished
// file versions are written, as ArchivesSpace writes them.
import type { FileVersion } from "../../generated/types/index.js";
import { str } from "./ead-terms.js";
import { isDigitalObject, text, uriReference, type DigitalRecord } from "./digital-object-text.js";
import type { DigitalObjectExport } from "./digital-object-export.js";
import type { XmlWriter } from "./xml-writer.js";

/** The dmdSec ID (an xs:ID) of the digital object or a component: their ids alone could clash. */
export function dmdId(record: DigitalRecord): string {
  const id = String(record.uri).split("/").at(-1) ?? "";
  return isDigitalObject(record) ? `digital_object_${id}` : `digital_object_component_${id}`;
}

/** The ID of the record's `index`th file version (0-based). */
export function fileId(record: DigitalRecord, index: number): string {
  return `${dmdId(record)}_file_${index + 1}`;
}

const MEDIA_TYPES: ReadonlyMap<string, string> = new Map([
  ["aiff", "audio/aiff"],
  ["avi", "video/x-msvideo"],
  ["gif", "image/gif"],
  ["jpeg", "image/jpeg"],
  ["mp3", "audio/mpeg"],
  ["pdf", "application/pdf"],
  ["tiff", "image/tiff"],
  ["txt", "text/plain"],
]);

/** METS's CHECKSUMTYPE for ArchivesSpace's checksum methods. */
const CHECKSUM_TYPES: ReadonlyMap<string, string> = new Map([
  ["md5", "MD5"],
  ["sha-1", "SHA-1"],
  ["sha-256", "SHA-256"],
  ["sha-384", "SHA-384"],
  ["sha-512", "SHA-512"],
]);

function writeFile(xml: XmlWriter, record: DigitalRecord, version: FileVersion, index: number): void {
  const checksum = str(version.checksum);
  const checksumType = CHECKSUM_TYPES.get(str(version.checksum_method) ?? "");
  const withChecksum = checksum !== undefined && checksumType !== undefined;
  xml.open("file", {
    ID: fileId(record, index),
    GROUPID: dmdId(record),
    MIMETYPE: MEDIA_TYPES.get(str(version.file_format_name) ?? ""),
    SIZE: version.file_size_bytes,
    CHECKSUM: withChecksum ? checksum : undefined,
    CHECKSUMTYPE: withChecksum ? checksumType : undefined,
  });
  xml.element("FLocat", {
    LOCTYPE: "URL",
    "xlink:type": "simple",
    "xlink:href": uriReference(version.file_uri),
    "xlink:title": text(version.caption),
  });
  xml.close("file");
}

/** The record's file versions of the group (`undefined`: those without a use statement). */
function writeFilesOf(xml: XmlWriter, record: DigitalRecord, useStatement: string | undefined): void {
  (record.file_versions ?? []).forEach((version, index) => {
    if (str(version.use_statement) === useStatement) writeFile(xml, record, version, index);
  });
}

/** <fileSec>, or nothing when neither the object nor a component has a file version (it may not be empty). */
export async function writeFileSec(xml: XmlWriter, source: DigitalObjectExport): Promise<void> {
  const own = (source.object.file_versions ?? []).map((version) => str(version.use_statement));
  const components = await source.components.useStatements();
  const groups: Array<string | undefined> = [];
  for (const use of [...own.filter((use) => use !== undefined), ...components.named])
    if (!groups.includes(use)) groups.push(use);
  if (own.includes(undefined) || components.unnamed) groups.push(undefined);
  if (groups.length === 0) return;
  xml.open("fileSec");
  for (const use of groups) {
    xml.open("fileGrp", { USE: use });
    writeFilesOf(xml, source.object, use);
    await source.components.eachWithFiles(use, async (component) => {
      writeFilesOf(xml, component, use);
      await xml.yieldIfFull();
    });
    xml.close("fileGrp");
  }
  xml.close("fileSec");
}
