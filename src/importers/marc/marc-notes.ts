// MARC notes (351 and 5xx) as a resource's notes: each field to the note type ArchivesSpace
// gives it, and 500s that ArchivesSpace's own MARC export wrote with a label ("Location of
// resource: ...") back to the note type that label names. A note field with no counterpart is
// kept as a general note (odd), and said.
import { lookupTable } from "../../registry/dictionary.js";
import type { NoteMultipart, NoteSinglepart } from "../../../generated/types/index.js";
import { noteText, type DataField } from "./marc-record.js";

interface NoteKind {
  type: string;
  /** Singlepart types (abstract, physloc, ...) hold content; the rest are multipart with a text subnote. */
  singlepart?: boolean;
  label?: string;
}

const multipart = (type: string, label?: string): NoteKind => ({ type, ...(label !== undefined && { label }) });
const singlepart = (type: string): NoteKind => ({ type, singlepart: true });

/** Tag -> note (520 and 535 also look at the first indicator). */
const NOTE_TAGS: Readonly<Record<string, NoteKind>> = lookupTable({
  "351": multipart("arrangement"),
  "500": multipart("odd"),
  "501": multipart("odd", "With"),
  "502": multipart("odd", "Dissertation"),
  "504": multipart("odd", "Bibliography"),
  "505": multipart("odd", "Contents"),
  "506": multipart("accessrestrict"),
  "507": multipart("odd", "Scale"),
  "508": multipart("odd", "Credits"),
  "510": multipart("odd", "Citation"),
  "511": multipart("odd", "Participants"),
  "518": multipart("odd", "Date and place of event"),
  "520": multipart("scopecontent"),
  "521": multipart("odd", "Audience"),
  "524": multipart("prefercite"),
  "530": multipart("altformavail"),
  "533": multipart("altformavail"),
  "534": multipart("originalsloc"),
  "535": multipart("originalsloc"),
  "536": multipart("odd", "Funding"),
  "538": multipart("phystech"),
  "540": multipart("userestrict"),
  "541": multipart("acqinfo"),
  "542": multipart("userestrict"),
  "544": multipart("relatedmaterial"),
  "545": multipart("bioghist"),
  "547": multipart("odd"),
  "550": multipart("odd", "Issuing body"),
  "555": multipart("otherfindaid"),
  "561": multipart("custodhist"),
  "562": multipart("odd", "Copy and version"),
  "563": multipart("phystech"),
  "580": multipart("relatedmaterial"),
  "581": multipart("relatedmaterial"),
  "583": multipart("processinfo"),
  "584": multipart("accruals"),
  "585": multipart("odd", "Exhibitions"),
  "586": multipart("odd", "Awards"),
  "588": multipart("odd", "Source of description"),
});

/** Labels ArchivesSpace's MARC export puts before notes it writes as 500. */
const LABELLED_500: ReadonlyArray<[label: string, kind: NoteKind]> = [
  ["Location of resource:", singlepart("physloc")],
  ["Dimensions:", multipart("dimensions")],
  ["Physical Description Note:", singlepart("physdesc")],
  ["Material Specific Details:", singlepart("materialspec")],
  ["Physical Characteristics / Technical Requirements:", multipart("phystech")],
  ["Physical Facet:", singlepart("physfacet")],
  ["Processing Information:", multipart("processinfo")],
  ["Materials Separated from the Resource:", multipart("separatedmaterial")],
];

/** Linkage subfields, not text. */
const LINKAGE = new Set(["6", "8"]);

/** Whether a field is one of the notes mapped here (546, the language note, goes with the languages). */
export const isNoteField = (field: DataField): boolean =>
  field.tag === "351" || (field.tag.startsWith("5") && field.tag !== "546");

export interface MarcNote {
  note: NoteSinglepart | NoteMultipart;
  /** The field had no note type of its own and became a general note. */
  general: boolean;
}

export function marcNote(field: DataField): MarcNote | undefined {
  let text = noteText(
    field.subfields
      .filter((subfield) => !LINKAGE.has(subfield.code))
      .map((subfield) => subfield.value)
      .join(field.tag === "583" ? "; " : " "),
  );
  if (text === "") return undefined;
  let kind = NOTE_TAGS[field.tag];
  if (field.tag === "520" && field.ind1 === "3") kind = singlepart("abstract");
  if (field.tag === "535" && field.ind1 === "2") kind = multipart("altformavail");
  if (field.tag === "500") {
    const labelled = LABELLED_500.find(([label]) => text.startsWith(label));
    if (labelled !== undefined) {
      kind = labelled[1];
      text = text.slice(labelled[0].length).trim();
    }
  }
  const general = kind === undefined;
  kind ??= multipart("odd", `MARC ${field.tag}`);
  const note: NoteSinglepart | NoteMultipart = kind.singlepart
    ? { jsonmodel_type: "note_singlepart", type: kind.type, content: [text] }
    : { jsonmodel_type: "note_multipart", type: kind.type, subnotes: [{ jsonmodel_type: "note_text", content: text }] };
  if (kind.label !== undefined) note.label = kind.label;
  return { note, general };
}
