// A resource's notes as MARC note fields, as ArchivesSpace's MARC exporter maps them: 351
// arrangement, 506 access, 520 scope (ind1 2) and abstract (ind1 3), 524 citation, 535 originals
// (ind1 1) and copies (ind1 2), 540 use and legal status, 541 acquisition, 544 related material,
// 545 biography, 546 language, 555 other finding aids, 561 custodial history, 581 bibliography,
// 583 appraisal, 584 accruals; the physical and processing notes as 500s that start with their
// label ("Dimensions: ..."). A general note (odd) whose label is the one Arca's MARCXML importer
// gives a 5xx field (504 "Bibliography", 505 "Contents", ..., "MARC 590") goes back to that field;
// any other is a 500. Notes keep the record's order (MARC wants the 5xx in the cataloguer's
// order, not by tag), arrangement first (it is a 3xx).
//
// Differences from ArchivesSpace, each for the way back in through Arca's importer: no period is
// added to a note's end; the paragraphs (content items, text subnotes) are joined by a blank line
// rather than a space; "Physical Description Note:" has the capital N the importer reads. A
// note's label, its structured subnotes (lists, chronologies) and index notes have no place.
import type { LangMaterial, Note, NoteMultipart } from "../../generated/types/index.js";
import { lookupTable } from "../registry/dictionary.js";
import { str } from "./ead-terms.js";
import { dataField, type MarcField } from "./marc21-fields.js";

/** Anything a note export may leave out. */
export interface Shown {
  <T extends { publish?: boolean; suppressed?: boolean }>(item: T | undefined): item is T;
}

interface NoteField {
  tag: string;
  ind1?: string;
  code?: string;
  /** Text before the note's own ("Dimensions: "). */
  prefix?: string;
}

const BY_TYPE: Readonly<Record<string, NoteField>> = lookupTable({
  arrangement: { tag: "351" },
  fileplan: { tag: "351" },
  odd: { tag: "500" },
  dimensions: { tag: "500", prefix: "Dimensions" },
  physdesc: { tag: "500", prefix: "Physical Description Note" },
  materialspec: { tag: "500", prefix: "Material Specific Details" },
  physloc: { tag: "500", prefix: "Location of resource" },
  phystech: { tag: "500", prefix: "Physical Characteristics / Technical Requirements" },
  physfacet: { tag: "500", prefix: "Physical Facet" },
  processinfo: { tag: "500", prefix: "Processing Information" },
  separatedmaterial: { tag: "500", prefix: "Materials Separated from the Resource" },
  accessrestrict: { tag: "506" },
  scopecontent: { tag: "520", ind1: "2" },
  abstract: { tag: "520", ind1: "3" },
  prefercite: { tag: "524" },
  relatedmaterial: { tag: "544", code: "d" },
  bioghist: { tag: "545" },
  accruals: { tag: "584" },
  altformavail: { tag: "535", ind1: "2" },
  originalsloc: { tag: "535", ind1: "1" },
  userestrict: { tag: "540" },
  legalstatus: { tag: "540" },
  langmaterial: { tag: "546" },
  otherfindaid: { tag: "555", ind1: "0" },
});

/** Notes whose first indicator says whether they may be shown to the public (1) or not (0). */
const PRIVACY_NOTES: Readonly<Record<string, string>> = lookupTable({
  acqinfo: "541",
  custodhist: "561",
  appraisal: "583",
});

/** The labels Arca's MARCXML importer gives the general notes it reads from these fields. */
const ODD_LABELS: ReadonlyMap<string, string> = new Map([
  ["With", "501"],
  ["Dissertation", "502"],
  ["Bibliography", "504"],
  ["Contents", "505"],
  ["Scale", "507"],
  ["Credits", "508"],
  ["Citation", "510"],
  ["Participants", "511"],
  ["Date and place of event", "518"],
  ["Audience", "521"],
  ["Funding", "536"],
  ["Issuing body", "550"],
  ["Copy and version", "562"],
  ["Exhibitions", "585"],
  ["Awards", "586"],
  ["Source of description", "588"],
]);

/** Tags of the notes mapped to a type of their own: a "MARC nnn" label naming one of them is not a field to restore. */
const TYPED_TAGS = new Set([
  ...Object.values(BY_TYPE).map((field) => field.tag),
  ...Object.values(PRIVACY_NOTES),
  ...ODD_LABELS.values(),
  "530",
  "533",
  "534",
  "538",
  "542",
  "547",
  "563",
  "580",
]);

/** The field a general note goes to, by its label. */
function oddTag(label: string | undefined): string {
  if (label === undefined) return "500";
  const named = ODD_LABELS.get(label);
  if (named !== undefined) return named;
  const tag = /^MARC (5\d\d)$/.exec(label)?.[1];
  return tag !== undefined && !TYPED_TAGS.has(tag) ? tag : "500";
}

type Subnote = NonNullable<NoteMultipart["subnotes"]>[number];

/** A note's paragraphs: a singlepart note's content items, a multipart note's shown text subnotes. */
function paragraphs(note: Note, shown: Shown): string[] {
  const texts =
    note.jsonmodel_type === "note_multipart"
      ? (note.subnotes ?? []).flatMap((subnote: Subnote) =>
          subnote.jsonmodel_type === "note_text" && shown(subnote) ? [subnote.content] : [],
        )
      : note.content;
  return texts.map((text) => text.trim()).filter((text) => text !== "");
}

function noteField(note: Note, shown: Shown): MarcField[] {
  if (note.jsonmodel_type === "note_bibliography") {
    // One 581 per paragraph and per citation, as ArchivesSpace writes them.
    return [...note.content, ...(note.items ?? [])].flatMap((text) => dataField("581", " ", " ", [["a", text]]) ?? []);
  }
  if (note.jsonmodel_type === "note_index") return [];
  const type = str(note.type) ?? "";
  const privacy = PRIVACY_NOTES[type];
  const mapped: NoteField | undefined =
    privacy !== undefined
      ? { tag: privacy, ind1: note.publish === false ? "0" : "1" }
      : type === "odd"
        ? { tag: oddTag(str(note.label)) }
        : BY_TYPE[type];
  if (mapped === undefined) return [];
  const text = paragraphs(note, shown).join("\n\n");
  if (text === "") return [];
  const field = dataField(mapped.tag, mapped.ind1 ?? " ", " ", [
    [mapped.code ?? "a", mapped.prefix === undefined ? text : `${mapped.prefix}: ${text}`],
  ]);
  return field === undefined ? [] : [field];
}

/** The note fields of `notes` that are shown: arrangement (351) first, then the rest in order. */
export function noteFields(notes: readonly Note[] | undefined, shown: Shown): MarcField[] {
  const fields = (notes ?? []).filter((note) => shown(note)).flatMap((note) => noteField(note, shown));
  return [...fields.filter((field) => field.tag < "500"), ...fields.filter((field) => field.tag >= "500")];
}

/** The language notes (546) of a record's language subrecords. */
export function languageNoteFields(materials: readonly LangMaterial[] | undefined, shown: Shown): MarcField[] {
  return (materials ?? [])
    .flatMap((material) => material.notes ?? [])
    .filter((note) => shown(note))
    .flatMap((note) => dataField("546", " ", " ", [["a", note.content.join("\n\n")]]) ?? []);
}
