// A row of ArchivesSpace's accession import template (aspace_accession_import_template.csv,
// 119 columns) as an accession, with the agent and subject the row names. Columns whose data
// the accession schema has no place for (collection management, events such as
// "acknowledgement sent", user-defined fields, agent contacts) are reported per row.
import type {
  Accession,
  ArchivalDate,
  Extent,
  LangMaterial,
  LanguageAndScript,
  LinkedAgent,
} from "../../../generated/types/index.js";
import { lookupTable } from "../../registry/dictionary.js";
import type { PendingRecord } from "../pending.js";
import { put, untyped, type Draft, type KeysOfType } from "../record-draft.js";
import {
  agentTypeLabel,
  type AgentType,
  type FileAgents,
  type NameDraft,
  type NameTextField,
} from "../agent-records.js";
import type { FileSubjects } from "./subject-records.js";
import type { TemplateRow } from "./template-row.js";

/** Columns that tell this template apart. */
export const ACCESSION_TEMPLATE_MARKERS = ["accession_title", "accession_number_1"];

/** The records of one row: its agent and subject when the file has not named them before, then the accession. */
export interface AccessionRowRecords {
  agents: PendingRecord[];
  subjects: PendingRecord[];
  accession: PendingRecord;
}

const TEXT_FIELDS: ReadonlyArray<[column: string, field: KeysOfType<Accession, string>]> = [
  ["accession_title", "title"],
  ["accession_access_restrictions_note", "access_restrictions_note"],
  ["accession_condition_description", "condition_description"],
  ["accession_content_description", "content_description"],
  ["accession_disposition", "disposition"],
  ["accession_general_note", "general_note"],
  ["accession_inventory", "inventory"],
  ["accession_provenance", "provenance"],
  ["accession_retention_rule", "retention_rule"],
  ["accession_use_restrictions_note", "use_restrictions_note"],
];

const FLAG_FIELDS: ReadonlyArray<[column: string, field: KeysOfType<Accession, boolean>]> = [
  ["accession_publish", "publish"],
  ["accession_restrictions_apply", "restrictions_apply"],
  ["accession_access_restrictions", "access_restrictions"],
  ["accession_use_restrictions", "use_restrictions"],
];

const AGENT_TYPES: Readonly<Record<string, AgentType>> = lookupTable({
  agent_person: "agent_person",
  person: "agent_person",
  agent_family: "agent_family",
  family: "agent_family",
  agent_corporate_entity: "agent_corporate_entity",
  corporate_entity: "agent_corporate_entity",
  corporate: "agent_corporate_entity",
});

/**
 * Name columns each agent type takes (beyond primary name, dates, qualifier, authority id, rules, source, sort name).
 */
const NAME_COLUMNS: Record<AgentType, ReadonlyArray<[column: string, field: NameTextField]>> = lookupTable({
  agent_person: [
    ["agent_name_rest_of_name", "rest_of_name"],
    ["agent_name_prefix", "prefix"],
    ["agent_name_title", "title"],
    ["agent_name_suffix", "suffix"],
    ["agent_name_fuller_form", "fuller_form"],
    ["agent_name_number", "number"],
  ],
  agent_family: [["agent_name_prefix", "prefix"]],
  agent_corporate_entity: [
    ["agent_name_subordinate_name_1", "subordinate_name_1"],
    ["agent_name_subordinate_name_2", "subordinate_name_2"],
    ["agent_name_number", "number"],
  ],
});

/** ArchivesSpace's template says "indirect" for what the name_order list calls "inverted". */
const NAME_ORDER_SYNONYMS: ReadonlyMap<string, string> = new Map([["indirect", "inverted"]]);

const AGENT_LINK_COLUMNS = ["agent_type", "agent_role", "agent_relator"];

/** "Creator (cre)" or "cre": a MARC relator code. */
const RELATOR = /^(?:.*\()?([a-z]{3})\)?$/i;

export class AccessionRows {
  /** Identifier (id_0..id_3 joined) -> the line that first used it. */
  private readonly identifiers = new Map<string, number>();

  constructor(
    private readonly agents: FileAgents,
    private readonly subjects: FileSubjects,
  ) {}

  map(row: TemplateRow): AccessionRowRecords {
    const accession: Draft<Accession> = {};
    const ids = ["accession_number_1", "accession_number_2", "accession_number_3", "accession_number_4"].map((column) =>
      row.text(column),
    );
    const [id_0, id_1, id_2, id_3] = ids;
    if (id_0 === undefined) row.fail("accession_number_1 is empty: every accession needs an identifier");
    const identifier = JSON.stringify(ids.map((id) => id ?? null));
    const earlier = this.identifiers.get(identifier);
    if (earlier !== undefined)
      row.fail(`the accession identifier ${ids.filter(Boolean).join("-")} is already used on line ${earlier}`);
    this.identifiers.set(identifier, row.line);
    put(accession, "id_1", id_1);
    put(accession, "id_2", id_2);
    put(accession, "id_3", id_3);

    for (const [column, field] of TEXT_FIELDS) put(accession, field, row.text(column));
    for (const [column, field] of FLAG_FIELDS) put(accession, field, row.flag(column));
    put(accession, "accession_date", row.calendarDate("accession_accession_date"));
    put(accession, "acquisition_type", row.enumerated("accession_acquisition_type", "accession_acquisition_type"));
    put(accession, "resource_type", row.enumerated("accession_resource_type", "accession_resource_type"));
    put(accession, "lang_materials", languages(row));
    put(
      accession,
      "dates",
      [1, 2].map((n) => date(row, n)).filter((value) => value !== undefined),
    );
    put(
      accession,
      "extents",
      [extent(row)].filter((value) => value !== undefined),
    );

    const agents: PendingRecord[] = [];
    const subjects: PendingRecord[] = [];
    const link = this.agent(row);
    if (link !== undefined) {
      if (link.pending !== undefined) agents.push(link.pending);
      accession.linked_agents = [link.linked];
    }
    const subject = this.subject(row);
    if (subject !== undefined) {
      if (subject.pending !== undefined) subjects.push(subject.pending);
      accession.subjects = [{ ref: subject.key }];
    }

    const unread = row.unread();
    if (unread.length > 0) row.warn(`not imported, no field takes them: ${unread.join(", ")}`);
    // Exactly this identifier: absent parts absent.
    const match = Object.fromEntries(ids.map((id, i) => [`id_${i}`, id ?? null]));
    return {
      agents,
      subjects,
      accession: untyped({
        key: `csv:accession:${row.line}`,
        type: "accession",
        record: { ...accession, id_0 },
        source: row.source,
        match,
        onMatch: "reuse",
      }),
    };
  }

  private agent(row: TemplateRow): { linked: LinkedAgent; key: string; pending?: PendingRecord } | undefined {
    const primary = row.text("agent_name_primary_name");
    if (primary === undefined) {
      if (row.anyFilled(AGENT_LINK_COLUMNS))
        row.warn("agent columns are filled but agent_name_primary_name is empty: no agent linked");
      return undefined;
    }
    const typeText = row.text("agent_type");
    let type = typeText === undefined ? undefined : AGENT_TYPES[typeText.toLowerCase()];
    if (type === undefined) {
      row.warn(
        `agent_type: '${typeText ?? ""}' is not agent_person, agent_family or agent_corporate_entity; the agent is imported as a person`,
      );
      type = "agent_person";
    }
    const name: NameDraft = { authorized: true, is_display_name: true };
    put(name, type === "agent_family" ? "family_name" : "primary_name", primary);
    if (type === "agent_person")
      put(
        name,
        "name_order",
        row.enumerated("agent_name_name_order", "name_person_name_order", NAME_ORDER_SYNONYMS) ?? "inverted",
      );
    for (const [column, field] of NAME_COLUMNS[type]) put(name, field, row.text(column));
    put(name, "dates", row.text("agent_name_dates"));
    put(name, "qualifier", row.text("agent_name_qualifier"));
    put(name, "authority_id", row.text("agent_name_authority_id"));
    put(name, "rules", row.enumerated("agent_name_rules", "name_rule"));
    put(name, "source", row.enumerated("agent_name_source", "name_source"));
    const sort = row.text("agent_name_sort_name");
    if (sort !== undefined) {
      name.sort_name = sort;
      name.sort_name_auto_generate = false;
    }

    const claimed = this.agents.claim(type, { names: [name] }, row.source);
    const roleText = row.text("agent_role");
    let role =
      roleText === undefined
        ? undefined
        : ["creator", "source", "subject"].find((value) => value === roleText.toLowerCase());
    if (role === undefined) {
      if (roleText !== undefined)
        row.warn(
          `agent_role: '${roleText}' is not creator, source or subject; the ${agentTypeLabel[type]} is linked as creator`,
        );
      role = "creator";
    }
    const linked: LinkedAgent = { ref: claimed.key, role };
    const relatorText = row.text("agent_relator");
    if (relatorText !== undefined) {
      const code = RELATOR.exec(relatorText)?.[1];
      if (code === undefined)
        row.warn(`agent_relator: '${relatorText}' is not a MARC relator code (three letters, e.g. cre); left out`);
      else linked.relator = code.toLowerCase();
    }
    return { linked, key: claimed.key, pending: claimed.pending };
  }

  private subject(row: TemplateRow): { key: string; pending?: PendingRecord } | undefined {
    const term = row.text("subject_term");
    if (term === undefined) {
      if (row.anyFilled(["subject_term_type", "subject_source"]))
        row.warn("subject columns are filled but subject_term is empty: no subject linked");
      return undefined;
    }
    const termType = row.enumerated("subject_term_type", "subject_term_type") ?? "topical";
    const source = row.enumerated("subject_source", "subject_source") ?? "local";
    return this.subjects.claim({ terms: [{ term, term_type: termType }], source }, row.source);
  }
}

/** lang_material_* and the older accession_language/_script columns: one entry per distinct language and script. */
function languages(row: TemplateRow): LangMaterial[] {
  const pairs = [
    ["lang_material_language", "lang_material_script"],
    ["accession_language", "accession_script"],
  ].map(([languageColumn, scriptColumn]): LanguageAndScript | undefined => {
    const language = row.text(languageColumn as string);
    const script = row.text(scriptColumn as string);
    if (language === undefined) {
      if (script !== undefined) row.warn(`${scriptColumn}: a script without a language; left out`);
      return undefined;
    }
    if (!/^[a-z]{3}$/.test(language)) {
      row.warn(`${languageColumn}: '${language}' is not an ISO 639-2 code (three lower-case letters); left out`);
      return undefined;
    }
    if (script !== undefined && !/^[A-Z][a-z]{3}$/.test(script)) {
      row.warn(`${scriptColumn}: '${script}' is not an ISO 15924 code (e.g. Latn); left out`);
      return { language };
    }
    return script === undefined ? { language } : { language, script };
  });
  const seen = new Set<string>();
  const entries: LangMaterial[] = [];
  for (const pair of pairs) {
    if (pair === undefined || seen.has(JSON.stringify(pair))) continue;
    seen.add(JSON.stringify(pair));
    entries.push({ language_and_script: pair });
  }
  return entries;
}

function date(row: TemplateRow, n: number): ArchivalDate | undefined {
  const prefix = `date_${n}_`;
  const expression = row.text(`${prefix}expression`);
  const begin = row.archivalDate(`${prefix}begin`);
  const end = row.archivalDate(`${prefix}end`);
  const label = row.enumerated(`${prefix}label`, "date_label");
  const type = row.enumerated(`${prefix}type`, "date_type");
  if (expression === undefined && begin === undefined && end === undefined) {
    if (label !== undefined || type !== undefined)
      row.warn(`${prefix}*: a label or type without a date (expression, begin or end); left out`);
    return undefined;
  }
  if (begin === undefined && expression === undefined)
    row.fail(`${prefix}end without ${prefix}begin or ${prefix}expression`);
  const result: ArchivalDate = {
    label: label ?? "creation",
    date_type: type ?? (end !== undefined ? "inclusive" : begin !== undefined ? "single" : "inclusive"),
  };
  put(result, "expression", expression);
  put(result, "begin", begin);
  put(result, "end", end);
  return result;
}

function extent(row: TemplateRow): Extent | undefined {
  const number = row.text("extent_number");
  const typeText = row.text("extent_type");
  const summary = row.text("extent_container_summary");
  if (number === undefined && typeText === undefined) {
    if (summary !== undefined)
      row.warn("extent_container_summary without extent_number and extent_type: an extent needs both; left out");
    return undefined;
  }
  const type = row.enumerated("extent_type", "extent_extent_type");
  if (number === undefined || type === undefined) {
    row.warn(
      `an extent needs extent_number and a known extent_type (${number ?? "no number"}, ${typeText ?? "no type"}); the extent is left out`,
    );
    return undefined;
  }
  const result: Extent = { portion: "whole", number, extent_type: type };
  put(result, "container_summary", summary);
  return result;
}
