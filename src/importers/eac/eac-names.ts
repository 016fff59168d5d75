// EAC-CPF name entries as agent names. Parts are read by their localType: the field names
// ArchivesSpace's own EAC export writes (primary_name, rest_of_name, ...), the usual words
// (surname, forename, ...) or MARC codes ("100a", "400d", as converted authority records
// carry); a name written as one untyped part ("Feynman, Richard Phillips, 1918-1988.") is split
// into surname, forenames and trailing dates. authorizedForm and alternativeForm name the
// authority (its source) and whether the form is authorized.
import { lookupTable } from "../../registry/dictionary.js";
import type { EnumeratedValues } from "../csv/enumerated-values.js";
import { withoutEndPunctuation } from "../marc/marc-record.js";
import { childElements, textOf } from "../xml/xml-element.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { sortNameOf, type AgentType, type NameDraft, type NameTextField } from "../agent-records.js";
import { structuredDates } from "./eac-dates.js";

/** A name field a part fills, or a person's "Surname, Forenames" (MARC $a) split into two. */
type PartField = NameTextField | "surname_and_forenames";

/** Part localType (lower case) -> name field, by agent type. */
const PERSON_PARTS: Readonly<Record<string, NameTextField>> = lookupTable({
  primary_name: "primary_name",
  surname: "primary_name",
  familyname: "primary_name",
  rest_of_name: "rest_of_name",
  forename: "rest_of_name",
  givenname: "rest_of_name",
  prefix: "prefix",
  suffix: "suffix",
  title: "title",
  number: "number",
  numeration: "number",
  fuller_form: "fuller_form",
  fullerform: "fuller_form",
  dates: "dates",
  qualifier: "qualifier",
  b: "number",
  c: "title",
  d: "dates",
  q: "fuller_form",
  g: "qualifier",
});

const CORPORATE_PARTS: Readonly<Record<string, NameTextField>> = lookupTable({
  primary_name: "primary_name",
  corporatename: "primary_name",
  subordinate_name_1: "subordinate_name_1",
  subordinate_name_2: "subordinate_name_2",
  subordinate: "subordinate_name_1",
  number: "number",
  dates: "dates",
  qualifier: "qualifier",
  location: "location",
  a: "primary_name",
  b: "subordinate_name_1",
  n: "number",
  d: "dates",
  c: "location",
  g: "qualifier",
});

const FAMILY_PARTS: Readonly<Record<string, NameTextField>> = lookupTable({
  family_name: "family_name",
  familyname: "family_name",
  surname: "family_name",
  prefix: "prefix",
  family_type: "family_type",
  dates: "dates",
  qualifier: "qualifier",
  location: "location",
  a: "family_name",
  c: "prefix",
  d: "dates",
  g: "qualifier",
});

const PARTS: Record<AgentType, Readonly<Record<string, NameTextField>>> = lookupTable({
  agent_person: PERSON_PARTS,
  agent_corporate_entity: CORPORATE_PARTS,
  agent_family: FAMILY_PARTS,
});

const NAME_SOURCES: Readonly<Record<string, string>> = lookupTable({
  lcnaf: "naf",
  "lc naf": "naf",
  naf: "naf",
  nad: "nad",
  ulan: "ulan",
  local: "local",
});

/** "Feynman, Richard Phillips, 1918-1988." -> the name and its dates. */
const TRAILING_DATES = /,\s*((?:b\.|d\.|ca\.|fl\.)?\s*\d{3,4}\??(?:\s*-\s*(?:\d{3,4}\??)?)?)\.?$/;

/** The field a part's localType names: a word, or the subfield of a MARC tag ("100a" -> a). */
function partField(type: AgentType, localType: string | undefined): PartField | undefined {
  if (localType === undefined) return undefined;
  const lower = localType.trim().toLowerCase();
  const table = PARTS[type];
  const marc = /^\d{3}([a-z])$/.exec(lower)?.[1];
  if (marc === "a" && type === "agent_person") return "surname_and_forenames";
  return table[marc ?? lower];
}

/** Bidirectional formatting characters some catalogues leave around right-to-left names. */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const clean = (text: string): string =>
  withoutEndPunctuation(text.replace(BIDI_CONTROLS, ""))
    .replace(/^\((.*)\)$/, "$1")
    .trim();

/** A person's "Surname, Forenames" text into primary name and rest. */
function invertedName(name: NameDraft, text: string): void {
  const comma = text.indexOf(",");
  if (comma > 0) {
    name.primary_name = text.slice(0, comma).trim();
    name.rest_of_name = clean(text.slice(comma + 1));
    name.name_order = "inverted";
  } else {
    name.primary_name = text;
    name.name_order = "direct";
  }
}

export interface EacNames {
  names: NameDraft[];
  /** What was read but has no place, for the caller's warnings. */
  problems: string[];
}

export function eacNames(type: AgentType, entries: XmlElement[], values: EnumeratedValues): EacNames {
  const problems = new Set<string>();
  const read: Array<{ name: NameDraft; authorized: boolean; sort: string }> = [];
  for (const entry of entries) {
    const name: NameDraft = {};
    const loose: string[] = [];
    for (const part of childElements(entry, "part")) {
      const text = textOf(part);
      if (text === "") continue;
      const field = partField(type, part.attributes.localType);
      if (field === undefined) loose.push(text);
      else if (field === "surname_and_forenames") invertedName(name, clean(text));
      else if (name[field] === undefined) name[field] = clean(text);
      else name[field] = `${name[field]} ${clean(text)}`;
    }
    if (loose.length > 0) {
      let text = loose.join(" ").replace(/\s+/g, " ").trim();
      const dates = TRAILING_DATES.exec(text);
      if (dates !== null && name.dates === undefined) {
        name.dates = dates[1]?.replace(/\s+/g, "") ?? "";
        text = text.slice(0, dates.index);
      }
      text = clean(text);
      const main = type === "agent_family" ? "family_name" : "primary_name";
      if (name[main] !== undefined) name[main] = `${name[main]} ${text}`;
      else if (type === "agent_person") invertedName(name, text);
      else name[main] = text;
    }
    const main = type === "agent_family" ? "family_name" : "primary_name";
    if (name[main] === undefined || name[main] === "") continue;
    if (type === "agent_person") {
      if (entry.attributes.localType?.toLowerCase() === "directorder") name.name_order = "direct";
      name.name_order ??= "inverted";
    }
    const form = childElements(entry, "authorizedForm", "alternativeForm", "preferredForm")[0];
    const authorized = form !== undefined && form.name !== "alternativeForm";
    if (form !== undefined) {
      const declared = textOf(form);
      const source = values.match("name_source", NAME_SOURCES[declared.toLowerCase()] ?? declared);
      if (source !== undefined) name.source = source;
      else if (declared !== "")
        problems.add(`${form.name} '${declared}' (not in name_source: ${values.values("name_source").join(", ")})`);
    }
    const useDates = childElements(entry, "useDates")[0];
    if (useDates !== undefined) {
      const dates = structuredDates(useDates, "usage");
      if (dates.length > 0) name.use_dates = dates;
    }
    if (entry.attributes.lang !== undefined || entry.attributes.scriptCode !== undefined)
      problems.add("nameEntry xml:lang and scriptCode");
    read.push({ name, authorized, sort: sortNameOf(type, name) });
  }
  // Authorized forms first (the first of them displayed); one name per sort name.
  const ordered = [...read.filter((entry) => entry.authorized), ...read.filter((entry) => !entry.authorized)];
  const seen = new Set<string>();
  const names: NameDraft[] = [];
  for (const { name, authorized, sort } of ordered) {
    if (seen.has(sort)) continue;
    seen.add(sort);
    names.push({ ...name, authorized: authorized || names.length === 0, is_display_name: names.length === 0 });
  }
  return { names, problems: [...problems] };
}
