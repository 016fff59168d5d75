// A MARCXML `record` element read into its leader, control fields and data fields, each data
// field with the place it has in the file. Subfield values are kept as written, trimmed; the
// mappings decide how to clean them.
import type { SourceLocation } from "../pending.js";
import { childElements, rawText } from "../xml/xml-element.js";
import type { XmlElement } from "../xml/xml-reader.js";

export interface Subfield {
  code: string;
  value: string;
}

export interface DataField {
  tag: string;
  ind1: string;
  ind2: string;
  subfields: Subfield[];
  source: SourceLocation;
}

export interface MarcRecord {
  leader: string;
  /** Control field values by tag (001, 003, 005, 008). */
  control: Map<string, string>;
  fields: DataField[];
  source: SourceLocation;
}

const located = (element: XmlElement): SourceLocation => ({
  line: element.line,
  column: element.column,
  path: element.path,
});

export function readMarcRecord(element: XmlElement): MarcRecord {
  const leaderElement = childElements(element, "leader")[0];
  const control = new Map<string, string>();
  for (const field of childElements(element, "controlfield")) {
    const tag = field.attributes.tag?.trim();
    if (tag !== undefined && !control.has(tag)) control.set(tag, rawText(field));
  }
  const fields = childElements(element, "datafield").map((field) => ({
    tag: (field.attributes.tag ?? "").trim(),
    ind1: field.attributes.ind1 ?? " ",
    ind2: field.attributes.ind2 ?? " ",
    subfields: childElements(field, "subfield")
      .map((subfield) => ({ code: subfield.attributes.code ?? "", value: rawText(subfield).trim() }))
      .filter((subfield) => subfield.value !== ""),
    source: located(field),
  }));
  return {
    leader: leaderElement === undefined ? "" : rawText(leaderElement),
    control,
    fields,
    source: located(element),
  };
}

/** The values of the field's subfields with these codes, in order. */
export const values = (field: DataField, ...codes: string[]): string[] =>
  field.subfields.filter((subfield) => codes.includes(subfield.code)).map((subfield) => subfield.value);

/** The first value of a subfield code. */
export const value = (field: DataField, code: string): string | undefined =>
  field.subfields.find((subfield) => subfield.code === code)?.value;

/** The record's data fields with these tags, in order. */
export const fieldsOf = (record: MarcRecord, ...tags: string[]): DataField[] =>
  record.fields.filter((field) => tags.includes(field.tag));

/**
 * ISBD punctuation closing a heading or term ("Roosevelt, Anna,", "Photography.", "Title /")
 * taken off; a period closing an initial or abbreviation ("Morse, Edward L.", "Jr.") kept.
 * Composed (NFC), so that a heading written with combining marks matches the same heading
 * written without.
 */
export function withoutEndPunctuation(text: string): string {
  let result = text
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\s*[,;:/=]+$/, "")
    .trim();
  const lastWord = /(\S+)\.$/.exec(result)?.[1];
  if (lastWord !== undefined && !/^(?:[A-Z]|[A-Z][a-z]{1,2}|etc|Inc|Ltd|Bros|U\.S|.*\.[A-Za-z])$/.test(lastWord))
    result = result.slice(0, -1);
  return result;
}

/** Text for a note: line breaks kept, runs of blank lines and trailing spaces trimmed. */
export const noteText = (text: string): string =>
  text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
