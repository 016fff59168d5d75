// A MARC bibliographic record (leader/06 other than z) as a resource: 245 title, 099/090/852
// identifier, 245 $f/$g, 260/264 $c or 008 dates, 300 extents, 041/008 and 546 languages,
// 040 finding-aid language and rules, 351 and 5xx notes, 1xx/7xx agents as creators (sources
// for donors and former owners), 600/610/611 agents and 630-657 headings as subjects, 856
// finding-aid link. What the resource has no field for is listed in one warning per record.
import type {
  ArchivalDate,
  Extent,
  ExternalId,
  LangMaterial,
  LinkedAgent,
  Note,
  Ref,
  Resource,
} from "../../../generated/types/index.js";
import { lookupTable } from "../../registry/dictionary.js";
import { extentUnitCandidates } from "../extent-units.js";
import { ImportError, type PendingRecord, type SourceLocation } from "../pending.js";
import { nonEmpty, untyped } from "../record-draft.js";
import { archivalDate, yearSpan } from "../source-dates.js";
import type { EnumeratedValues } from "../csv/enumerated-values.js";
import type { FileSubjects } from "../csv/subject-records.js";
import type { FileAgents, NameDraft } from "../agent-records.js";
import { marcName, marcRelator, nameSource, nameSubdivisions } from "./marc-names.js";
import { isNoteField, marcNote } from "./marc-notes.js";
import {
  fieldsOf,
  noteText,
  value,
  values,
  withoutEndPunctuation,
  type DataField,
  type MarcRecord,
} from "./marc-record.js";
import { marcSubject, SUBJECT_TAGS } from "./marc-subjects.js";

export interface MarcMapping {
  values: EnumeratedValues;
  agents: FileAgents;
  subjects: FileSubjects;
  warn(message: string, source: SourceLocation): void;
}

/** The records a MARC record stands for, in the order they may be written. */
export interface MappedRecords {
  agents: PendingRecord[];
  subjects: PendingRecord[];
  principal: PendingRecord[];
}

const NAME_TAGS = new Set(["100", "110", "111", "600", "610", "611", "700", "710", "711"]);

/** Leader/07 (bibliographic level) -> archival_record_level. */
const LEVELS: Readonly<Record<string, string>> = lookupTable({ c: "collection", a: "item", m: "item" });

/** Which subfields of which fields the mapping reads; the rest of a handled field is listed as not imported. */
class Coverage {
  private readonly read = new Map<DataField, Set<string> | "all">();

  take(field: DataField, ...codes: string[]): void {
    const known = this.read.get(field);
    if (known === "all") return;
    if (codes.length === 0) this.read.set(field, "all");
    else this.read.set(field, new Set([...(known ?? []), ...codes]));
  }

  /** "852 $a $b", "370" for every field or subfield never taken. */
  left(record: MarcRecord): string[] {
    const left: string[] = [];
    for (const field of record.fields) {
      const known = this.read.get(field);
      if (known === "all") continue;
      if (known === undefined) left.push(field.tag);
      else {
        const codes = [
          ...new Set(
            field.subfields
              .map((subfield) => subfield.code)
              .filter((code) => !known.has(code) && code !== "6" && code !== "8"),
          ),
        ];
        if (codes.length > 0) left.push(`${field.tag} ${codes.map((code) => `$${code}`).join(" ")}`);
      }
    }
    return [...new Set(left)];
  }
}

/** Not-imported items as one message. */
export const notImportedMessage = (items: string[], what: string): string =>
  `not imported, ${what} has no field for them: ${items.join(", ")}`;

export function bibliographicRecord(record: MarcRecord, index: number, mapping: MarcMapping): MappedRecords {
  const coverage = new Coverage();
  const mapped: MappedRecords = { agents: [], subjects: [], principal: [] };
  const where = record.source;
  const fail = (message: string, source: SourceLocation = where): never => {
    throw new ImportError(message, source);
  };

  const titleField = fieldsOf(record, "245")[0] ?? fail("no 245 field: a resource needs a title");
  const title = withoutEndPunctuation(values(titleField, "a", "b", "k", "n", "p", "s").join(" "));
  if (title === "") fail("245 has no $a: a resource needs a title", titleField.source);
  coverage.take(titleField, "a", "b", "k", "n", "p", "s");

  const identifier =
    identifierOf(record, coverage) ?? fail("no identifier: none of 099, 090, 852 ($h $i or $c) or 001 has one");
  const dates = datesOf(record, coverage, titleField);
  const { extents, physdesc } = extentsOf(record, coverage, mapping);
  const languages = languagesOf(record, coverage, mapping);
  const resource: Resource = {
    title,
    id_0: identifier,
    level: LEVELS[record.leader[7] ?? ""] ?? "collection",
    dates,
    extents,
    lang_materials: languages.materials,
    finding_aid_language: languages.findingAid,
    finding_aid_script: "Zyyy",
  };
  mapping.warn(
    "finding_aid_script: MARC does not record the script of the description; set to Zyyy (undetermined)",
    where,
  );
  for (const field of fieldsOf(record, "040")) {
    coverage.take(field, "b");
    const rules = value(field, "e");
    if (rules === undefined) continue;
    const matched = mapping.values.match("resource_finding_aid_description_rules", rules.replace(/\d+$/, ""));
    if (matched !== undefined) {
      resource.finding_aid_description_rules = matched;
      coverage.take(field, "e");
    }
  }

  const notes: Note[] = [...physdesc];
  for (const field of record.fields.filter(isNoteField)) {
    const note = marcNote(field);
    if (note === undefined) continue;
    coverage.take(field);
    if (note.general)
      mapping.warn(
        `${field.tag} has no note type of its own: imported as a general note (odd) labelled "MARC ${field.tag}"`,
        field.source,
      );
    notes.push(note.note);
  }
  if (notes.length > 0) resource.notes = notes;

  const externalIds = externalIdsOf(record, coverage);
  if (externalIds.length > 0) resource.external_ids = externalIds;
  for (const field of fieldsOf(record, "856")) {
    const label = [...values(field, "z"), ...values(field, "3")].join(" ");
    const url = value(field, "u");
    if (
      url !== undefined &&
      resource.ead_location === undefined &&
      (field.ind2 === "2" || /finding aid/i.test(label))
    ) {
      resource.ead_location = url;
      coverage.take(field, "u", "z", "3");
    }
  }

  const linkedAgents: LinkedAgent[] = [];
  const subjects: Ref[] = [];
  const subjectKeys = new Set<string>();
  for (const field of record.fields) {
    if (NAME_TAGS.has(field.tag)) {
      const link = agentLink(field, mapping, coverage);
      if (link === undefined) continue;
      if (link.pending !== undefined) mapped.agents.push(link.pending);
      linkedAgents.push(link.linked);
    } else if (SUBJECT_TAGS[field.tag] !== undefined) {
      const found = marcSubject(field, mapping.values);
      if (found === undefined) continue;
      coverage.take(field);
      if (found.unknownSource !== undefined)
        mapping.warn(
          `${field.tag}: the source '${found.unknownSource}' is not in subject_source (${mapping.values.describe("subject_source")}); the subject is filed as local`,
          field.source,
        );
      const claimed = mapping.subjects.claim(found.subject, field.source);
      if (claimed.pending !== undefined) mapped.subjects.push(claimed.pending);
      if (!subjectKeys.has(claimed.key)) {
        subjectKeys.add(claimed.key);
        subjects.push({ ref: claimed.key });
      }
    }
  }
  if (linkedAgents.length > 0) resource.linked_agents = linkedAgents;
  if (subjects.length > 0) resource.subjects = subjects;

  const left = coverage.left(record);
  if (left.length > 0) mapping.warn(notImportedMessage(left, "a resource"), where);
  mapped.principal.push(
    untyped({
      key: `marc:resource:${index}`,
      type: "resource",
      record: resource,
      source: where,
      match: { id_0: identifier, id_1: null, id_2: null, id_3: null },
      onMatch: "skip-file",
    }),
  );
  return mapped;
}

function identifierOf(record: MarcRecord, coverage: Coverage): string | undefined {
  for (const [tag, codes] of [
    ["099", ["a"]],
    ["090", ["a", "b"]],
  ] as const) {
    for (const field of fieldsOf(record, tag)) {
      const id = values(field, ...codes)
        .join(" ")
        .trim();
      if (id === "") continue;
      coverage.take(field, ...codes);
      // 852 usually repeats the call number: read, not lost.
      for (const holding of fieldsOf(record, "852"))
        for (const code of ["c", "h", "i"]) if (value(holding, code) === id) coverage.take(holding, code);
      return id;
    }
  }
  for (const field of fieldsOf(record, "852")) {
    const callNumber = values(field, "h", "i").join(" ").trim();
    const codes = callNumber !== "" ? ["h", "i"] : ["c"];
    const id = callNumber !== "" ? callNumber : (value(field, "c") ?? "");
    if (id === "") continue;
    coverage.take(field, ...codes);
    return id;
  }
  return record.control.get("001")?.trim() || undefined;
}

function dateOf(expression: string, label: string, type: "inclusive" | "bulk"): ArchivalDate {
  const span = yearSpan(expression);
  const date: ArchivalDate = {
    label,
    date_type: span.end === undefined && span.begin !== undefined && type === "inclusive" ? "single" : type,
    expression,
  };
  if (span.begin !== undefined) date.begin = span.begin;
  if (span.end !== undefined) date.end = span.end;
  return date;
}

/** 264 second indicator -> date label. */
const LABEL_BY_264: Readonly<Record<string, string>> = lookupTable({
  "0": "creation",
  "1": "publication",
  "2": "other",
  "3": "other",
  "4": "copyright",
});

function datesOf(record: MarcRecord, coverage: Coverage, titleField: DataField): [ArchivalDate, ...ArchivalDate[]] {
  const dates: ArchivalDate[] = [];
  for (const expression of values(titleField, "f"))
    dates.push(dateOf(withoutEndPunctuation(expression), "creation", "inclusive"));
  for (const expression of values(titleField, "g"))
    dates.push(dateOf(withoutEndPunctuation(expression), "creation", "bulk"));
  coverage.take(titleField, "f", "g");
  const fromTitle = dates.length > 0;
  for (const field of fieldsOf(record, "260", "264")) {
    for (const expression of values(field, "c")) {
      const label =
        field.tag === "264" ? (LABEL_BY_264[field.ind2] ?? "other") : fromTitle ? "publication" : "creation";
      dates.push(
        dateOf(
          withoutEndPunctuation(expression),
          fromTitle && label === "creation" ? "publication" : label,
          "inclusive",
        ),
      );
      coverage.take(field, "c");
    }
  }
  const [first, ...more] = dates;
  if (first !== undefined) return [first, ...more];
  // 008/06 date type, 07-10 first date, 11-14 second date.
  const fixed = record.control.get("008") ?? "";
  const begin = archivalDate(fixed.slice(7, 11));
  const end = archivalDate(fixed.slice(11, 15));
  if (begin === undefined) throw new ImportError("no date: none in 245 $f/$g, 260/264 $c or 008/07-14", record.source);
  const single = end === undefined || end === begin || fixed[6] === "s";
  return [{ label: "creation", date_type: single ? "single" : "inclusive", begin, ...(!single && { end }) }];
}

/** The 300s as extents; one that is not a number and a known type is kept as a physical description note. */
function extentsOf(
  record: MarcRecord,
  coverage: Coverage,
  mapping: MarcMapping,
): { extents: [Extent, ...Extent[]]; physdesc: Note[] } {
  const extents: Extent[] = [];
  const physdesc: string[] = [];
  const fields = fieldsOf(record, "300");
  for (const field of fields) {
    coverage.take(field);
    const statement = values(field, "a").join(" ").trim();
    const match = /^([\d.,]+)\s*(.*)$/.exec(statement);
    const number = match?.[1]?.replace(/[.,]$/, "");
    const typeText = withoutEndPunctuation([match?.[2] ?? "", ...values(field, "f")].join(" ").trim());
    const type = extentUnitCandidates(typeText)
      .map((candidate) => mapping.values.match("extent_extent_type", candidate))
      .find((found) => found !== undefined);
    if (number === undefined || number === "" || type === undefined) {
      const text = noteText(field.subfields.map((subfield) => subfield.value).join(" "));
      mapping.warn(
        `300 '${text}' is not a number and an extent type of extent_extent_type (${mapping.values.describe("extent_extent_type")}): kept as a physical description note`,
        field.source,
      );
      physdesc.push(text);
      continue;
    }
    const extent: Extent = { portion: "whole", number, extent_type: type };
    const details = values(field, "b").map(withoutEndPunctuation).join("; ");
    const dimensions = values(field, "c").map(withoutEndPunctuation).join("; ");
    const summary = values(field, "3", "e", "g").map(withoutEndPunctuation).join("; ");
    if (details !== "") extent.physical_details = details;
    if (dimensions !== "") extent.dimensions = dimensions;
    if (summary !== "") extent.container_summary = summary;
    extents.push(extent);
  }
  const [first, ...more] = extents;
  if (first === undefined) {
    throw new ImportError(
      fields.length === 0
        ? "no 300 field: a resource needs an extent"
        : "no 300 field gives an extent as a number and a type of extent_extent_type (add the type to the list, or correct the 300)",
      fields[0]?.source ?? record.source,
    );
  }
  return {
    extents: [first, ...more],
    physdesc: physdesc.map((text) => ({ jsonmodel_type: "note_singlepart", type: "physdesc", content: [text] })),
  };
}

function languagesOf(
  record: MarcRecord,
  coverage: Coverage,
  mapping: MarcMapping,
): { materials: [LangMaterial, ...LangMaterial[]]; findingAid: string } {
  const codes: string[] = [];
  for (const field of fieldsOf(record, "041")) {
    for (const text of values(field, "a")) {
      const compact = text.trim().toLowerCase();
      // Older records run the codes together: "engfre".
      const split = compact.length % 3 === 0 ? (compact.match(/.{3}/g) ?? []) : [compact];
      for (const code of split) {
        if (/^[a-z]{3}$/.test(code)) codes.push(code);
        else mapping.warn(`041 $a '${text}' is not an ISO 639-2 code; left out`, field.source);
      }
    }
    coverage.take(field, "a");
  }
  const fixed = (record.control.get("008") ?? "").slice(35, 38);
  if (codes.length === 0 && /^[a-z]{3}$/.test(fixed)) codes.push(fixed);
  if (codes.length === 0) {
    mapping.warn("no language of the materials (041 $a or 008/35-37): set to und (undetermined)", record.source);
    codes.push("und");
  }
  const materials: LangMaterial[] = [...new Set(codes)].map((language) => ({ language_and_script: { language } }));
  const notes = fieldsOf(record, "546").map((field) => {
    coverage.take(field);
    return noteText(field.subfields.map((subfield) => subfield.value).join(" "));
  });
  if (notes.length > 0)
    materials.push({
      notes: notes.map((text) => ({ jsonmodel_type: "note_langmaterial", type: "langmaterial", content: [text] })),
    });

  let findingAid: string | undefined;
  for (const field of fieldsOf(record, "040")) {
    const code = value(field, "b")?.trim().toLowerCase();
    if (code !== undefined && /^[a-z]{3}$/.test(code)) findingAid ??= code;
  }
  if (findingAid === undefined) {
    mapping.warn("no language of cataloguing (040 $b): finding_aid_language set to und (undetermined)", record.source);
    findingAid = "und";
  }
  return { materials: nonEmpty(materials, { language_and_script: { language: "und" } }), findingAid };
}

function externalIdsOf(record: MarcRecord, coverage: Coverage): ExternalId[] {
  const ids: ExternalId[] = [];
  const control = record.control.get("001")?.trim();
  if (control) ids.push({ external_id: control, source: record.control.get("003")?.trim() || "MARC 001" });
  for (const field of fieldsOf(record, "010", "035")) {
    for (const id of values(field, "a"))
      ids.push({ external_id: id.trim(), source: field.tag === "010" ? "LCCN" : "MARC 035" });
    coverage.take(field, "a");
  }
  return ids;
}

function agentLink(
  field: DataField,
  mapping: MarcMapping,
  coverage: Coverage,
): { linked: LinkedAgent; pending?: PendingRecord } | undefined {
  const heading = marcName(field);
  if (heading === undefined) {
    mapping.warn(`${field.tag} has no $a: no agent`, field.source);
    return undefined;
  }
  coverage.take(field);
  if (heading.unused.length > 0)
    mapping.warn(
      `${field.tag}: ${heading.unused.map((code) => `$${code}`).join(" ")} not imported (no field of an agent name takes them)`,
      field.source,
    );
  const name: NameDraft = { ...heading.name, authorized: true, is_display_name: true };
  if (field.tag.startsWith("6")) {
    const source = nameSource(field, mapping.values);
    if (source.source !== undefined) name.source = source.source;
    if (source.unknown !== undefined)
      mapping.warn(
        `${field.tag}: the name source '${source.unknown}' is not in name_source (${mapping.values.describe("name_source")}); left out`,
        field.source,
      );
  }
  const claimed = mapping.agents.claim(heading.type, { names: [name] }, field.source);
  const relator = marcRelator(field);
  if (relator.unknown !== undefined)
    mapping.warn(
      `${field.tag}: the relator '${relator.unknown}' is neither a MARC relator code nor a known term; left out`,
      field.source,
    );
  const linked: LinkedAgent = { ref: claimed.key, role: relator.role };
  if (relator.relator !== undefined) linked.relator = relator.relator;
  const terms = nameSubdivisions(field, mapping.subjects.vocabulary);
  if (terms.length > 0) linked.terms = terms;
  return { linked, pending: claimed.pending };
}
