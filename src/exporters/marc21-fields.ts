// MARC data fields as the MARC21 export builds them before writing: a tag, two indicators and
// subfields in order. A subfield without text is left out, and a field left with none is not
// made (MARC21slim wants at least one subfield, and an empty one says nothing). Text is the
// stored text with its inline EAD markup reduced to its words (MARC has no markup), without the
// characters XML cannot carry.
import { markupAsText } from "./mixed-content.js";
import { xmlChars } from "./xml-writer.js";

export interface MarcSubfield {
  readonly code: string;
  readonly value: string;
}

export interface MarcField {
  readonly tag: string;
  readonly ind1: string;
  readonly ind2: string;
  readonly subfields: readonly MarcSubfield[];
}

/** A subfield to be: its code and text (none or blank: left out). */
export type SubfieldSpec = readonly [code: string, value: string | undefined];

/**
 * Stored text as MARC text: markup dropped, characters XML cannot carry dropped, surrounding whitespace trimmed;
 * undefined when nothing is left.
 */
export function marcText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = markupAsText(xmlChars(value)).trim();
  return text === "" ? undefined : text;
}

/** The subfields of `specs` that have text, in order. */
export function subfieldsOf(specs: readonly SubfieldSpec[]): MarcSubfield[] {
  return specs.flatMap(([code, value]) => {
    const text = marcText(value);
    return text === undefined ? [] : [{ code, value: text }];
  });
}

/** A data field of the subfields that have text; undefined when none has. */
export function dataField(
  tag: string,
  ind1: string,
  ind2: string,
  specs: readonly SubfieldSpec[],
): MarcField | undefined {
  const subfields = subfieldsOf(specs);
  return subfields.length === 0 ? undefined : { tag, ind1, ind2, subfields };
}

/**
 * ISBD punctuation MARC name headings carry: the subfield before each of `codes` ends with a comma. Importers take
 * a closing comma off a heading's parts, so this costs the name nothing on the way back in.
 */
export function commaBefore(subfields: readonly MarcSubfield[], codes: readonly string[]): MarcSubfield[] {
  return subfields.map((subfield, index) => {
    const next = subfields[index + 1];
    return next !== undefined && codes.includes(next.code) && !subfield.value.endsWith(",")
      ? { code: subfield.code, value: `${subfield.value},` }
      : subfield;
  });
}

/** `(text)`, as MARC writes a qualifier or fuller form; undefined without text. */
export function parenthesized(value: string | undefined): string | undefined {
  const text = marcText(value);
  return text === undefined ? undefined : `(${text})`;
}
