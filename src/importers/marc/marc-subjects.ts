// MARC subject added entries (630 uniform titles, 648 chronological, 650 topical, 651
// geographic, 653/654/69x uncontrolled or local, 655 genre/form, 656 occupation, 657 function)
// as subjects: the heading's first element with the field's term type, then its subdivisions
// ($v form, $x general, $y chronological, $z geographic) as further terms. Subdivisions some
// catalogues write inline in $a ("Art |x Study and teaching.") are read as subdivisions too.
import { lookupTable } from "../../registry/dictionary.js";
import type { EnumeratedValues } from "../csv/enumerated-values.js";
import type { SubjectFields, SubjectTerm } from "../csv/subject-records.js";
import { values, withoutEndPunctuation, type DataField } from "./marc-record.js";

/** The term type of a subject field's main heading. */
export const SUBJECT_TAGS: Readonly<Record<string, string>> = lookupTable({
  "630": "uniform_title",
  "648": "temporal",
  "650": "topical",
  "651": "geographic",
  "653": "topical",
  "654": "topical",
  "655": "genre_form",
  "656": "occupation",
  "657": "function",
  "690": "topical",
  "691": "geographic",
  "695": "topical",
});

const SUBDIVISIONS: Readonly<Record<string, string>> = lookupTable({
  v: "genre_form",
  x: "topical",
  y: "temporal",
  z: "geographic",
});

/** Parts of a heading's first element besides $a (a uniform title's parts, a topical term's qualifiers). */
const HEADING_PARTS = ["b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "o", "p", "r", "s", "t"];

/** Second indicator -> source (the thesaurus the heading comes from). */
const SOURCE_BY_INDICATOR: Readonly<Record<string, string>> = lookupTable({
  "0": "lcsh",
  "2": "mesh",
  "4": "local",
  " ": "local",
});

/** Source names ($2) as catalogues write them -> subject_source values. */
const SOURCE_NAMES: Readonly<Record<string, string>> = lookupTable({
  "art & architecture thesaurus": "aat",
  "art and architecture thesaurus": "aat",
  "library of congress subject headings": "lcsh",
  "getty thesaurus of geographic names": "tgn",
  "medical subject headings": "mesh",
  "thesaurus for graphic materials": "gmgpc",
  tgm: "gmgpc",
  "local sources": "local",
  "local source": "local",
});

export interface MarcSubject {
  subject: SubjectFields;
  /** A source the field names that is not in subject_source (the subject is filed as local). */
  unknownSource?: string;
}

/** Inline subfield marks written into the text: "Education |x Study and Teaching |z United States." */
function inlineTerms(text: string, termType: string): SubjectTerm[] {
  return text
    .split(/\s*\|(?=[vxyz]\s)/)
    .map((part, i) =>
      i === 0
        ? { term: part, term_type: termType }
        : { term: part.slice(1).trim(), term_type: SUBDIVISIONS[part[0] as string] as string },
    )
    .map((term) => ({ ...term, term: withoutEndPunctuation(term.term) }))
    .filter((term) => term.term !== "");
}

export function marcSubject(field: DataField, enumerations: EnumeratedValues): MarcSubject | undefined {
  const termType = SUBJECT_TAGS[field.tag];
  if (termType === undefined) return undefined;
  const heading = [...values(field, "a"), ...values(field, ...HEADING_PARTS)].join(" ");
  const terms: SubjectTerm[] = heading.trim() === "" ? [] : inlineTerms(heading, termType);
  for (const subfield of field.subfields) {
    const subdivision = SUBDIVISIONS[subfield.code];
    if (subdivision !== undefined) terms.push(...inlineTerms(subfield.value, subdivision));
  }
  const [first, ...more] = terms;
  if (first === undefined) return undefined;

  // $2 names the thesaurus (MARC wants it with second indicator 7; exports write it with others too).
  let source: string | undefined;
  let unknownSource: string | undefined;
  const declared = values(field, "2")[0];
  if (declared !== undefined) {
    source = enumerations.match("subject_source", SOURCE_NAMES[declared.trim().toLowerCase()] ?? declared);
    if (source === undefined) unknownSource = declared;
  } else {
    const byIndicator = SOURCE_BY_INDICATOR[field.ind2];
    source = byIndicator === undefined ? undefined : enumerations.match("subject_source", byIndicator);
    if (source === undefined)
      unknownSource = field.ind2 === "7" ? "second indicator 7 without $2" : `second indicator ${field.ind2}`;
  }
  const authorityId = values(field, "0")[0];
  const subject: SubjectFields = {
    terms: [first, ...more],
    source: source ?? "local",
    ...(authorityId !== undefined && { authority_id: authorityId }),
  };
  return { subject, ...(unknownSource !== undefined && { unknownSource }) };
}
