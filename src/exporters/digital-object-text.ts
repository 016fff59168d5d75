// How a digital object's fields read as text in MODS, METS and Dublin Core, whose elements hold
// text only: notes and titles without their inline EAD markup, dates and extents as
// ArchivesSpace's exporters spell them (backend/app/exporters/lib/export_helpers.rb), and links
// made fit for the standards' xs:anyURI attributes.
import type { ArchivalDate, DigitalObject, DigitalObjectComponent, Extent } from "../../generated/types/index.js";
import { str } from "./ead-terms.js";
import { markupAsText } from "./mixed-content.js";

/** A digital object or one of its components. */
export type DigitalRecord = DigitalObject | DigitalObjectComponent;

export function isDigitalObject(record: DigitalRecord): record is DigitalObject {
  return "digital_object_id" in record;
}

/** Text without inline markup, or undefined when there is none. */
export function text(value: string | undefined): string | undefined {
  const plain = value === undefined ? undefined : markupAsText(value).trim();
  return plain === undefined || plain === "" ? undefined : plain;
}

/** The record's title; a component without one goes by its display string or label. */
export function titleOf(record: DigitalRecord): string {
  if (isDigitalObject(record)) return text(record.title) ?? "";
  return text(record.title) ?? text(record.display_string) ?? text(record.label) ?? "";
}

/** A note's text: its paragraphs (and a bibliography's citations), separated by blank lines. */
export function noteText(note: { content: readonly string[]; items?: readonly string[] }): string {
  return [...note.content, ...(note.items ?? [])]
    .map(text)
    .filter((part): part is string => part !== undefined)
    .join("\n\n");
}

/** `expression`, else `begin`, else `begin - end` (ArchivesSpace's extract_date_string). */
export function dateText(date: ArchivalDate): string | undefined {
  const begin = str(date.begin);
  const end = str(date.end);
  return str(date.expression) ?? (end === undefined || end === begin ? begin : `${begin ?? ""} - ${end}`.trimStart());
}

/** `number extent_type`, as ArchivesSpace's MODS and Dublin Core write an extent. */
export function extentText(extent: Extent): string {
  return `${extent.number} ${extent.extent_type}`;
}

// What RFC 3986 lets a URI reference hold as it is; `%` only before two hex digits.
const URI_CHARACTERS = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2}/y;

/**
 * `value` as a URI reference (xs:anyURI attributes and elements): any character a URI cannot
 * hold as it is (a space, a non-ASCII letter, a lone `%`) is percent-encoded, so a file_uri
 * typed with spaces still gives a valid document, and links that are URIs stay as they are.
 */
export function uriReference(value: string): string {
  let result = "";
  let index = 0;
  while (index < value.length) {
    URI_CHARACTERS.lastIndex = index;
    const match = URI_CHARACTERS.exec(value);
    if (match !== null) {
      result += match[0];
      index += match[0].length;
      continue;
    }
    const codePoint = value.codePointAt(index) ?? 0;
    const character = String.fromCodePoint(codePoint);
    // A lone surrogate cannot be encoded as UTF-8: it is dropped, as the XML writer drops it.
    if (codePoint < 0xd800 || codePoint > 0xdfff) result += encodeURIComponent(character);
    index += character.length;
  }
  return result;
}
