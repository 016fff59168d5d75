// A MARC authority record (leader/06 z) as an agent: the 100/110/111 heading as its
// authorized name (with the record's LCCN or control number as authority id, and the
// cataloguing rules of 040 $e), 4xx see-from tracings as further names, 046 (or the heading's
// $d) as dates of existence, 678 as a biographical note. Sources (670), identifiers (024, 035),
// places, occupations and related names (370-378, 5xx) have no field in an agent here: listed in
// one warning per record.
import type {
  NoteText,
  StructuredDateLabel,
  StructuredDateRange,
  StructuredDateSingle,
} from "../../../generated/types/index.js";
import { ImportError } from "../pending.js";
import { archivalDate } from "../source-dates.js";
import { sortNameOf, type AgentDraft, type NameDraft } from "../agent-records.js";
import { notImportedMessage, type MappedRecords, type MarcMapping } from "./bibliographic-record.js";
import { marcName } from "./marc-names.js";
import { fieldsOf, noteText, value, values, type DataField, type MarcRecord } from "./marc-record.js";

const HEADING_TAGS = ["100", "110", "111"];

/** One end of a date of existence: standardized when it is a date, else kept as an expression. */
function dateEnd(text: string | undefined): { value: string; standardized: boolean } | undefined {
  const written = text?.trim().replace(/[.,]$/, "");
  if (written === undefined || written === "") return undefined;
  const standardized = archivalDate(written);
  return standardized !== undefined
    ? { value: standardized, standardized: true }
    : { value: written, standardized: false };
}

/** 046 $f/$g (birth, death) or $q/$r (establishment, termination), else the heading's $d ("1873-1955", "1885-"). */
function existence(record: MarcRecord, heading: DataField): StructuredDateLabel[] {
  let begin: string | undefined;
  let end: string | undefined;
  for (const field of fieldsOf(record, "046")) {
    begin ??= value(field, "f") ?? value(field, "q") ?? value(field, "s");
    end ??= value(field, "g") ?? value(field, "r") ?? value(field, "t");
  }
  if (begin === undefined && end === undefined) {
    const dates = value(heading, "d")?.trim().replace(/[.,]$/, "");
    if (dates === undefined) return [];
    const parts = /^(\d{4})\s*-\s*(\d{4})?$/.exec(dates);
    if (parts === null)
      return [
        {
          date_label: "existence",
          date_type_structured: "single",
          structured_date_single: { date_role: "begin", date_expression: dates },
        },
      ];
    [begin, end] = [parts[1], parts[2]];
  }
  const from = dateEnd(begin);
  const to = dateEnd(end);
  if (from === undefined && to !== undefined) {
    const single: StructuredDateSingle = to.standardized
      ? { date_role: "end", date_standardized: to.value }
      : { date_role: "end", date_expression: to.value };
    return [{ date_label: "existence", date_type_structured: "single", structured_date_single: single }];
  }
  const range: StructuredDateRange = {};
  if (from?.standardized === true) range.begin_date_standardized = from.value;
  else if (from !== undefined) range.begin_date_expression = from.value;
  if (to?.standardized === true) range.end_date_standardized = to.value;
  else if (to !== undefined) range.end_date_expression = to.value;
  return [{ date_label: "existence", date_type_structured: "range", structured_date_range: range }];
}

export function authorityRecord(record: MarcRecord, index: number, mapping: MarcMapping): MappedRecords {
  const heading = record.fields.find((field) => HEADING_TAGS.includes(field.tag));
  if (heading === undefined)
    throw new ImportError("an authority record without a 100, 110 or 111 heading", record.source);
  const authorized = marcName(heading);
  if (authorized === undefined)
    throw new ImportError(`${heading.tag} has no $a: the agent has no name`, heading.source);
  const taken = new Set<DataField>([heading]);
  const notImported: string[] = authorized.unused.map((code) => `${heading.tag} $${code}`);

  const lccn = fieldsOf(record, "010")
    .flatMap((field) => values(field, "a"))[0]
    ?.replace(/\s+/g, "");
  const authorityId = lccn ?? record.control.get("001")?.trim();
  const agency = record.control.get("003")?.trim() ?? fieldsOf(record, "040").map((field) => value(field, "a"))[0];
  const name: NameDraft = { ...authorized.name, authorized: true, is_display_name: true };
  if (authorityId) name.authority_id = authorityId;
  if (lccn !== undefined && agency === "DLC") {
    const source = mapping.values.match("name_source", "naf");
    if (source !== undefined) name.source = source;
  }
  for (const field of fieldsOf(record, "040")) {
    const rules = value(field, "e");
    const matched = rules === undefined ? undefined : mapping.values.match("name_rule", rules.replace(/\d+$/, ""));
    if (matched !== undefined) name.rules = matched;
    else if (rules !== undefined) notImported.push(`040 $e (${rules})`);
  }
  fieldsOf(record, "010", "040").forEach((field) => taken.add(field));

  const names: NameDraft[] = [name];
  const seen = new Set<string>();
  const variantTag = `4${heading.tag.slice(1)}`;
  for (const field of record.fields.filter(
    (candidate) => candidate.tag.startsWith("4") && candidate.tag.length === 3,
  )) {
    const variant = field.tag === variantTag ? marcName(field) : undefined;
    if (variant === undefined || variant.type !== authorized.type) continue;
    const key = JSON.stringify(variant.name);
    taken.add(field);
    if (seen.has(key) || key === JSON.stringify(authorized.name)) continue;
    seen.add(key);
    names.push({ ...variant.name, authorized: false, is_display_name: false });
    notImported.push(...variant.unused.map((code) => `${field.tag} $${code}`));
  }

  const agent: AgentDraft = { names };
  const dates = existence(record, heading);
  if (dates.length > 0) agent.dates_of_existence = dates;
  fieldsOf(record, "046").forEach((field) => taken.add(field));
  const biography = fieldsOf(record, "678").map((field): NoteText => {
    taken.add(field);
    return {
      jsonmodel_type: "note_text",
      content: noteText(field.subfields.map((subfield) => subfield.value).join("\n")),
    };
  });
  if (biography.length > 0) agent.notes = [{ jsonmodel_type: "note_bioghist", subnotes: biography }];

  for (const field of record.fields) if (!taken.has(field)) notImported.push(field.tag);
  if (notImported.length > 0) mapping.warn(notImportedMessage([...new Set(notImported)], "an agent"), record.source);

  const claimed = mapping.agents.claim(authorized.type, agent, record.source);
  if (claimed.pending === undefined)
    mapping.warn(
      `record ${index}: the same agent as an earlier record of the file (${sortNameOf(authorized.type, name)}); not created twice`,
      record.source,
    );
  return { agents: claimed.pending === undefined ? [] : [claimed.pending], subjects: [], principal: [] };
}
