// An agent's <control>: who keeps the record and how, from its record control, record
// identifiers, conventions, maintenance history and sources (ArchivesSpace's agents v3 fields,
// as its serializer writes them), with what cpf.xsd requires filled in where the agent says
// nothing: the maintenance agency is the repository of the route (ArchivesSpace's older
// exporter's choice), the status "new" or "revised" by whether the agent was changed since it
// was created, and the history its creation and last change.
import type { Repository } from "../../generated/types/index.js";
import type { NameView } from "./eac-identity.js";
import { writeDescriptiveNote } from "./eac-notes.js";
import {
  agencyCode,
  agentType,
  anyUri,
  dateTimeOf,
  eventType,
  languageCode,
  linkAttributes,
  maintenanceStatus,
  nmtoken,
  publicationStatus,
  scriptCode,
  text,
  UNCODED_SCRIPT,
  UNDETERMINED_LANGUAGE,
} from "./eac-terms.js";
import type { LinkedAgentRecord } from "./export-records.js";
import type { XmlWriter } from "./xml-writer.js";

/**
 * <recordId>, an XML name token: the display name's authority id (Arca's EAC importer reads it back as that), else
 * the primary record identifier, else the agent's uri with colons for slashes (ArchivesSpace's form).
 */
export function recordIdOf(agent: LinkedAgentRecord, names: readonly NameView[]): string {
  const primary = (agent.record.agent_record_identifiers ?? []).find((identifier) => identifier.primary_identifier);
  return (
    nmtoken(names[0]?.name.authority_id) ??
    nmtoken(primary?.record_identifier) ??
    String(agent.record.uri ?? "").replace(/\//g, ":")
  );
}

/** `US-xyz`: the repository's country and org code, ArchivesSpace's main agency code. */
function repositoryAgencyCode(repository: Repository): string | undefined {
  const org = text(repository.org_code);
  const country = text(repository.country);
  return agencyCode(org === undefined || country === undefined ? org : `${country}-${org}`);
}

/** Paired <language> and <script> (cpf.xsd wants both), the code as the text ArchivesSpace would translate. */
export function writeLanguage(
  xml: XmlWriter,
  name: string,
  language: string | undefined,
  script: string | undefined,
  notes: ReadonlyArray<string | undefined>,
): void {
  const languageValue = languageCode(language);
  const scriptValue = scriptCode(script);
  if (languageValue === undefined && scriptValue === undefined) return;
  xml.open(name);
  xml.element("language", { languageCode: languageValue ?? UNDETERMINED_LANGUAGE }, languageValue ?? "undetermined");
  xml.element("script", { scriptCode: scriptValue ?? UNCODED_SCRIPT }, scriptValue ?? "uncoded");
  writeDescriptiveNote(xml, notes);
  xml.close(name);
}

export function writeControl(
  xml: XmlWriter,
  agent: LinkedAgentRecord,
  names: readonly NameView[],
  recordId: string,
  repository: Repository,
): void {
  const record = agent.record;
  const recordControl = record.agent_record_controls?.[0];
  xml.open("control");
  xml.element("recordId", {}, recordId);
  for (const identifier of record.agent_record_identifiers ?? []) {
    const value = text(identifier.record_identifier);
    if (value !== undefined && value !== recordId)
      xml.element("otherRecordId", { localType: anyUri(identifier.identifier_type) }, value);
  }
  const changed = record.create_time !== undefined && record.create_time !== record.system_mtime;
  xml.element(
    "maintenanceStatus",
    {},
    maintenanceStatus(recordControl?.maintenance_status) ?? (changed ? "revised" : "new"),
  );
  xml.optional("publicationStatus", publicationStatus(recordControl?.publication_status));

  xml.open("maintenanceAgency");
  xml.optional("agencyCode", agencyCode(recordControl?.maintenance_agency) ?? repositoryAgencyCode(repository));
  for (const code of record.agent_other_agency_codes ?? []) {
    const value = nmtoken(code.maintenance_agency);
    const type = anyUri(code.agency_code_type);
    if (value !== undefined && type !== undefined) xml.element("otherAgencyCode", { localType: type }, value);
  }
  xml.element(
    "agencyName",
    {},
    text(recordControl?.agency_name) ?? text(repository.name) ?? text(repository.repo_code) ?? "",
  );
  writeDescriptiveNote(xml, [recordControl?.maintenance_agency_note]);
  xml.close("maintenanceAgency");

  if (recordControl !== undefined)
    writeLanguage(xml, "languageDeclaration", recordControl.language, recordControl.script, [
      recordControl.language_note,
    ]);
  writeConventions(xml, agent, names);
  writeMaintenanceHistory(xml, agent);
  writeSources(xml, agent);
  xml.close("control");
}

/** The conventions declared, then the rules the names follow that none declares. */
function writeConventions(xml: XmlWriter, agent: LinkedAgentRecord, names: readonly NameView[]): void {
  const declared = new Set<string>();
  for (const convention of agent.record.agent_conventions_declarations ?? []) {
    const rule = text(convention.name_rule);
    const citation = text(convention.citation) ?? rule;
    if (citation === undefined && text(convention.descriptive_note) === undefined) continue;
    if (rule !== undefined) declared.add(rule);
    xml.open("conventionDeclaration");
    xml.optional("abbreviation", rule);
    xml.element("citation", linkAttributes(convention), citation ?? "");
    writeDescriptiveNote(xml, [convention.descriptive_note]);
    xml.close("conventionDeclaration");
  }
  for (const rule of new Set(names.map((view) => text(view.name.rules)))) {
    if (rule === undefined || declared.has(rule)) continue;
    xml.open("conventionDeclaration");
    xml.element("abbreviation", {}, rule);
    xml.element("citation", {}, rule);
    xml.close("conventionDeclaration");
  }
}

function maintenanceEvent(
  xml: XmlWriter,
  type: string,
  when: string,
  agent: { type: string; name: string },
  description?: string,
): void {
  xml.open("maintenanceEvent");
  xml.element("eventType", {}, type);
  xml.element("eventDateTime", { standardDateTime: dateTimeOf(when) }, when);
  xml.element("agentType", {}, agent.type);
  xml.element("agent", {}, agent.name);
  xml.optional("eventDescription", description);
  xml.close("maintenanceEvent");
}

/** The agent's maintenance history; without one, its creation and its last change (cpf.xsd needs an event). */
function writeMaintenanceHistory(xml: XmlWriter, agent: LinkedAgentRecord): void {
  const record = agent.record;
  xml.open("maintenanceHistory");
  let written = 0;
  for (const history of record.agent_maintenance_histories ?? []) {
    const type = eventType(history.maintenance_event_type);
    if (type === undefined) continue;
    maintenanceEvent(
      xml,
      type,
      text(history.event_date) ?? "",
      { type: agentType(history.maintenance_agent_type), name: text(history.agent) ?? "" },
      text(history.descriptive_note),
    );
    written += 1;
  }
  if (written === 0) {
    const created = text(record.create_time) ?? "";
    maintenanceEvent(xml, "created", created, { type: "human", name: text(record.created_by) ?? "unknown" });
    const modified = text(record.system_mtime);
    if (modified !== undefined && modified !== created)
      maintenanceEvent(xml, "revised", modified, { type: "human", name: text(record.last_modified_by) ?? "unknown" });
  }
  xml.close("maintenanceHistory");
}

function writeSources(xml: XmlWriter, agent: LinkedAgentRecord): void {
  const sources = (agent.record.agent_sources ?? []).filter(
    (source) => text(source.source_entry) !== undefined || text(source.descriptive_note) !== undefined,
  );
  if (sources.length === 0) return;
  xml.open("sources");
  for (const source of sources) {
    xml.open("source", linkAttributes(source));
    xml.optional("sourceEntry", text(source.source_entry));
    writeDescriptiveNote(xml, [source.descriptive_note]);
    xml.close("source");
  }
  xml.close("sources");
}
