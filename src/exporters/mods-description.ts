// One digital object's (or component's) description as MODS elements, the content of a <mods>
// or of a <relatedItem>, mapped as ArchivesSpace's MODS exporter maps it
// (backend/app/exporters/models/mods.rb, serializers/mods.rb), written so that the result is
// valid against mods.xsd where ArchivesSpace's is not:
//   titleInfo/title            title (a component without one: its display string or label)
//   identifier                 digital_object_id (a component's component_id)
//   typeOfResource             digital_object_type, as MODS's own term (`still_image` -> `still image`;
//                              ArchivesSpace writes its display label, which MODS 3.4 rejects)
//   language                   each language and script code (iso639-2b, iso15924); language notes as
//                              <note type="language">
//   originInfo                 the dates, by label: dateCreated, dateCaptured (digitized),
//                              copyrightDate, dateModified, dateIssued (broadcast, issued, publication),
//                              dateOther; the expression, else begin/end with @point (ArchivesSpace writes
//                              them outside <originInfo>, which the schema does not allow)
//   physicalDescription        `number extent_type` per extent; the extents' physical details and
//                              dimensions, and the published physdesc and dimensions notes, as its notes
//   abstract                   summary notes
//   accessCondition            accessrestrict, userestrict and legalstatus notes
//   note                       every other note (@type its type, @displayLabel its label); the object's
//                              "Digital object made available by" note
//   subject, name              mods-names.ts
//   location/url               each file version's file_uri (ArchivesSpace writes none)
// Text only: inline EAD markup in titles and notes is dropped, its text kept.
import type { ArchivalDate, NoteDigital } from "../../generated/types/index.js";
import { enumerationWords, str } from "./ead-terms.js";
import {
  extentText,
  isDigitalObject,
  noteText,
  text,
  titleOf,
  uriReference,
  type DigitalRecord,
} from "./digital-object-text.js";
import type { LinkedRecords } from "./linked-records.js";
import { writeNamesAndSubjects } from "./mods-names.js";
import type { XmlWriter } from "./xml-writer.js";

/** MODS's own typeOfResource term for each digital_object_type (MODS before 3.7 allows no other). */
const RESOURCE_TYPES: ReadonlyMap<string, string> = new Map([
  ["cartographic", "cartographic"],
  ["mixed_materials", "mixed material"],
  ["moving_image", "moving image"],
  ["notated_music", "notated music"],
  ["software_multimedia", "software, multimedia"],
  ["sound_recording", "sound recording"],
  ["sound_recording_musical", "sound recording-musical"],
  ["sound_recording_nonmusical", "sound recording-nonmusical"],
  ["still_image", "still image"],
  ["text", "text"],
  ["three_dimensional_object", "three dimensional object"],
]);

/** The originInfo date element of a date label. */
function dateElement(label: string | undefined): string {
  switch (label) {
    case "creation":
      return "dateCreated";
    case "digitized":
      return "dateCaptured";
    case "copyright":
      return "copyrightDate";
    case "modified":
      return "dateModified";
    case "broadcast":
    case "issued":
    case "publication":
      return "dateIssued";
    default:
      return "dateOther";
  }
}

const W3CDTF = /^\d{4}(-\d{2}(-\d{2})?)?$/;

/** Notes written inside <physicalDescription> (when published, as ArchivesSpace has it). */
const PHYSICAL_NOTE_TYPES: ReadonlyMap<string, { type: string; label: string }> = new Map([
  ["physdesc", { type: "physical_description", label: "Physical Details" }],
  ["dimensions", { type: "dimensions", label: "Dimensions" }],
]);

/** accessCondition @type of the access notes. */
const ACCESS_CONDITION_TYPES: ReadonlyMap<string, string> = new Map([
  ["accessrestrict", "restrictionOnAccess"],
  ["userestrict", "useAndReproduction"],
  ["legalstatus", "legalstatus"],
]);

export interface ModsDescriptionOptions {
  /** The "Digital object made available by" note of a digital object (none for a component). */
  madeAvailableBy?: string;
}

/** A note's type; a bibliography's is set by the server (and not stored here). */
function noteType(note: NoteDigital): string | undefined {
  return note.jsonmodel_type === "note_bibliography" ? "bibliography" : str(note.type);
}

function writeLanguages(xml: XmlWriter, record: DigitalRecord): void {
  for (const material of record.lang_materials ?? []) {
    const language = str(material.language_and_script?.language);
    if (language === undefined) continue;
    xml.open("language");
    xml.element("languageTerm", { type: "code", authority: "iso639-2b" }, language);
    xml.optional("scriptTerm", str(material.language_and_script?.script), { type: "code", authority: "iso15924" });
    xml.close("language");
  }
  for (const note of (record.lang_materials ?? []).flatMap((material) => material.notes ?? []))
    xml.optional("note", noteText(note), { type: "language", displayLabel: str(note.label) });
}

function writeDate(xml: XmlWriter, date: ArchivalDate, keyDate: boolean): boolean {
  const element = dateElement(str(date.label));
  const qualifier = str(date.certainty);
  const expression = str(date.expression);
  if (expression !== undefined) {
    xml.element(element, { qualifier }, expression);
    return false;
  }
  const begin = str(date.begin);
  const end = str(date.end);
  const single = str(date.date_type) === "single" || end === undefined || end === begin;
  const points = single
    ? [{ value: begin ?? end }]
    : [
        { value: begin, point: "start" },
        { value: end, point: "end" },
      ];
  let keyed = false;
  for (const { value, point } of points as Array<{ value: string | undefined; point?: string }>) {
    if (value === undefined) continue;
    xml.element(
      element,
      {
        encoding: W3CDTF.test(value) ? "w3cdtf" : undefined,
        // MODS wants one key date per record: the first structured one.
        keyDate: keyDate && !keyed ? "yes" : undefined,
        point,
        qualifier,
      },
      value,
    );
    keyed = true;
  }
  return keyed;
}

function writeDates(xml: XmlWriter, record: DigitalRecord): void {
  const dates = record.dates ?? [];
  if (dates.length === 0) return;
  xml.open("originInfo");
  let keyDate = true;
  for (const date of dates) if (writeDate(xml, date, keyDate)) keyDate = false;
  xml.close("originInfo");
}

function writePhysicalDescription(xml: XmlWriter, record: DigitalRecord): void {
  const entries: Array<{ element: "extent" | "note"; value: string; type?: string; label?: string }> = [];
  for (const extent of record.extents ?? []) {
    entries.push({ element: "extent", value: extentText(extent) });
    const details = text(extent.physical_details);
    if (details !== undefined)
      entries.push({ element: "note", value: details, type: "physical_description", label: "Physical Details" });
    const dimensions = text(extent.dimensions);
    if (dimensions !== undefined)
      entries.push({ element: "note", value: dimensions, type: "dimensions", label: "Dimensions" });
  }
  for (const note of record.notes ?? []) {
    const physical = PHYSICAL_NOTE_TYPES.get(noteType(note) ?? "");
    if (physical === undefined || note.publish !== true) continue;
    entries.push({ element: "note", value: noteText(note), ...physical });
  }
  const written = entries.filter((entry) => entry.value.trim() !== "");
  // <physicalDescription> must hold something: none at all without entries.
  if (written.length === 0) return;
  xml.open("physicalDescription");
  for (const entry of written)
    xml.element(
      entry.element,
      entry.element === "note" ? { type: entry.type, displayLabel: entry.label } : {},
      entry.value,
    );
  xml.close("physicalDescription");
}

function writeNotes(xml: XmlWriter, record: DigitalRecord): void {
  for (const note of record.notes ?? []) {
    const type = noteType(note);
    if (type !== undefined && PHYSICAL_NOTE_TYPES.has(type)) continue;
    const content = noteText(note);
    const displayLabel = str(note.label);
    const accessCondition = type === undefined ? undefined : ACCESS_CONDITION_TYPES.get(type);
    if (type === "summary") xml.optional("abstract", content, { displayLabel });
    else if (accessCondition !== undefined)
      xml.optional("accessCondition", content, { type: accessCondition, displayLabel });
    else xml.optional("note", content, { type, displayLabel });
  }
}

function writeLocation(xml: XmlWriter, record: DigitalRecord): void {
  const versions = (record.file_versions ?? []).filter((version) => str(version.file_uri) !== undefined);
  if (versions.length === 0) return;
  xml.open("location");
  for (const version of versions) {
    xml.element(
      "url",
      {
        displayLabel: text(version.caption),
        note: str(version.use_statement),
        usage: version.is_representative === true ? "primary" : undefined,
      },
      uriReference(version.file_uri),
    );
  }
  xml.close("location");
}

/** The MODS elements describing `record` (the caller writes the enclosing element and any relatedItem). */
export function writeModsDescription(
  xml: XmlWriter,
  linked: LinkedRecords,
  record: DigitalRecord,
  options: ModsDescriptionOptions = {},
): void {
  xml.open("titleInfo");
  xml.element("title", {}, titleOf(record));
  xml.close("titleInfo");
  if (isDigitalObject(record)) {
    xml.element("identifier", {}, record.digital_object_id);
    const type = str(record.digital_object_type);
    xml.optional(
      "typeOfResource",
      type === undefined ? undefined : (RESOURCE_TYPES.get(type) ?? enumerationWords(type)),
    );
  } else xml.optional("identifier", str(record.component_id));
  writeLanguages(xml, record);
  writeDates(xml, record);
  writePhysicalDescription(xml, record);
  writeNotes(xml, record);
  xml.optional("note", options.madeAvailableBy, { displayLabel: "Digital object made available by" });
  writeNamesAndSubjects(xml, linked, record);
  writeLocation(xml, record);
}
