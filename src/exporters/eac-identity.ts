// An agent's <identity>: its identifiers, its entity type and every name. A name is a
// <nameEntry> of <part>s, each @localType naming the field it holds (ArchivesSpace's words:
// surname, forename, numeration, ...; a corporate body's number is "number", the word Arca's
// importer reads), its use dates, and <authorizedForm> or <alternativeForm> holding its source
// (else its rules). A name with parallel names is a <nameEntryParallel> of its entry and theirs,
// the form and use dates on the group (cpf.xsd puts them there), the name itself marked
// <preferredForm> when authorized. A person's name in direct order is marked
// @localType="directOrder". The display name comes first, the others in their order.
//
// EAC-CPF has no entity type for software: a software agent is a corporateBody whose
// <identity> says @localType="software" (ArchivesSpace writes "software", which cpf.xsd refuses).
import type {
  NameCorporateEntity,
  NameFamily,
  NamePerson,
  NameSoftware,
  ParallelNameCorporateEntity,
  ParallelNameFamily,
  ParallelNamePerson,
  ParallelNameSoftware,
} from "../../generated/types/index.js";
import { writeDatesElement } from "./eac-dates.js";
import { anyUri, nmtoken, scriptCode, text, xmlLang } from "./eac-terms.js";
import type { LinkedAgentRecord } from "./export-records.js";
import type { AgentName } from "./ead-terms.js";
import type { XmlWriter } from "./xml-writer.js";

type ParallelName = ParallelNamePerson | ParallelNameFamily | ParallelNameCorporateEntity | ParallelNameSoftware;

interface Part {
  localType: string;
  text: string;
}

/** A name ready to be written: its parts, and its parallel names' parts. */
export interface NameView {
  name: AgentName;
  parts: Part[];
  direct: boolean;
  parallels: Array<{ name: ParallelName; parts: Part[]; direct: boolean }>;
}

/** Name fields and the @localType of the part each fills, in ArchivesSpace's order. */
const PERSON_PARTS = [
  ["primary_name", "surname"],
  ["title", "title"],
  ["prefix", "prefix"],
  ["rest_of_name", "forename"],
  ["suffix", "suffix"],
  ["fuller_form", "fuller_form"],
  ["number", "numeration"],
  ["qualifier", "qualifier"],
  ["dates", "dates"],
] as const satisfies ReadonlyArray<readonly [keyof NamePerson & keyof ParallelNamePerson, string]>;

const FAMILY_PARTS = [
  ["prefix", "prefix"],
  ["family_name", "surname"],
  ["qualifier", "qualifier"],
  ["location", "location"],
  ["dates", "dates"],
  ["family_type", "family_type"],
] as const satisfies ReadonlyArray<readonly [keyof NameFamily & keyof ParallelNameFamily, string]>;

const CORPORATE_PARTS = [
  ["primary_name", "primary_name"],
  ["subordinate_name_1", "subordinate_name_1"],
  ["subordinate_name_2", "subordinate_name_2"],
  ["number", "number"],
  ["qualifier", "qualifier"],
  ["location", "location"],
  ["dates", "dates"],
] as const satisfies ReadonlyArray<readonly [keyof NameCorporateEntity & keyof ParallelNameCorporateEntity, string]>;

const SOFTWARE_PARTS = [
  ["software_name", "software_name"],
  ["version", "version"],
  ["manufacturer", "manufacturer"],
  ["qualifier", "qualifier"],
  ["dates", "dates"],
] as const satisfies ReadonlyArray<readonly [keyof NameSoftware & keyof ParallelNameSoftware, string]>;

function partsOf<N>(name: N, spec: ReadonlyArray<readonly [keyof N, string]>): Part[] {
  return spec.flatMap(([field, localType]) => {
    const value = name[field];
    const written = typeof value === "string" ? text(value) : undefined;
    return written === undefined ? [] : [{ localType, text: written }];
  });
}

function viewsOf<N extends AgentName & { parallel_names?: P[] }, P extends ParallelName>(
  names: readonly N[],
  spec: ReadonlyArray<readonly [keyof N & keyof P, string]>,
  direct: (name: N | P) => boolean,
): NameView[] {
  return names.map((name) => ({
    name,
    parts: partsOf<N>(name, spec),
    direct: direct(name),
    parallels: (name.parallel_names ?? []).map((parallel) => ({
      name: parallel,
      parts: partsOf<P>(parallel, spec),
      direct: direct(parallel),
    })),
  }));
}

/** The agent's names to write, the display name first. */
export function nameViews(agent: LinkedAgentRecord): NameView[] {
  let views: NameView[];
  switch (agent.type) {
    case "agent_person":
      views = viewsOf<NamePerson, ParallelNamePerson>(
        agent.record.names,
        PERSON_PARTS,
        (name) => name.name_order === "direct",
      );
      break;
    case "agent_family":
      views = viewsOf<NameFamily, ParallelNameFamily>(agent.record.names, FAMILY_PARTS, () => false);
      break;
    case "agent_corporate_entity":
      views = viewsOf<NameCorporateEntity, ParallelNameCorporateEntity>(
        agent.record.names,
        CORPORATE_PARTS,
        () => false,
      );
      break;
    case "agent_software":
      views = viewsOf<NameSoftware, ParallelNameSoftware>(agent.record.names, SOFTWARE_PARTS, () => false);
      break;
  }
  const display = views.findIndex((view) => view.name.is_display_name === true);
  if (display <= 0) return views;
  return [views[display] as NameView, ...views.slice(0, display), ...views.slice(display + 1)];
}

/** What the <authorizedForm>/<alternativeForm>/<preferredForm> of a name hold: its source, else its rules. */
function formToken(name: AgentName | ParallelName): string | undefined {
  return nmtoken(name.source) ?? nmtoken(name.rules);
}

/**
 * The form element of a name: <authorizedForm> for an authorized one (a name-token is required, so
 * one without source or rules says "unspecified"), <alternativeForm> for another when it has a
 * source or rules.
 */
function writeForm(xml: XmlWriter, name: AgentName): void {
  const token = formToken(name);
  if (name.authorized === true) xml.element("authorizedForm", {}, token ?? "unspecified");
  else if (token !== undefined) xml.element("alternativeForm", {}, token);
}

function entryAttributes(name: AgentName | ParallelName, direct: boolean): Record<string, string | undefined> {
  return {
    "xml:lang": xmlLang(name.language),
    scriptCode: scriptCode(name.script),
    transliteration: nmtoken(name.transliteration),
    localType: direct ? "directOrder" : undefined,
  };
}

function writeParts(xml: XmlWriter, parts: readonly Part[]): void {
  // A <nameEntry> needs a part: a name with none (all its fields empty) still has an empty one.
  if (parts.length === 0) xml.element("part");
  for (const part of parts) xml.element("part", { localType: part.localType }, part.text);
}

function writeName(xml: XmlWriter, view: NameView): void {
  const { name } = view;
  if (view.parallels.length === 0) {
    xml.open("nameEntry", entryAttributes(name, view.direct));
    writeParts(xml, view.parts);
    writeDatesElement(xml, "useDates", name.use_dates);
    writeForm(xml, name);
    xml.close("nameEntry");
    return;
  }
  xml.open("nameEntryParallel");
  xml.open("nameEntry", entryAttributes(name, view.direct));
  writeParts(xml, view.parts);
  if (name.authorized === true) xml.element("preferredForm", {}, formToken(name) ?? "unspecified");
  xml.close("nameEntry");
  for (const parallel of view.parallels) {
    xml.open("nameEntry", entryAttributes(parallel.name, parallel.direct));
    writeParts(xml, parallel.parts);
    xml.close("nameEntry");
  }
  writeDatesElement(xml, "useDates", name.use_dates);
  writeForm(xml, name);
  xml.close("nameEntryParallel");
}

/** The entity type cpf.xsd has for the agent's type, and <identity>'s @localType where that says less. */
function entityType(agent: LinkedAgentRecord): { entityType: string; localType?: string } {
  switch (agent.type) {
    case "agent_person":
      return { entityType: "person" };
    case "agent_family":
      return { entityType: "family" };
    case "agent_corporate_entity":
      return { entityType: "corporateBody" };
    case "agent_software":
      return { entityType: "corporateBody", localType: "software" };
  }
}

/**
 * <identity>: the agent identifiers and the names' authority ids other than the record id as
 * <entityId>s, the entity type, the names.
 */
export function writeIdentity(xml: XmlWriter, agent: LinkedAgentRecord, names: NameView[], recordId: string): void {
  const type = entityType(agent);
  xml.open("identity", { localType: type.localType });
  for (const identifier of agent.record.agent_identifiers ?? []) {
    const value = text(identifier.entity_identifier);
    if (value !== undefined) xml.element("entityId", { localType: anyUri(identifier.identifier_type) }, value);
  }
  const authorityIds = new Set(names.map((view) => text(view.name.authority_id)));
  authorityIds.delete(recordId);
  for (const authorityId of authorityIds)
    if (authorityId !== undefined) xml.element("entityId", { localType: "authority_id" }, authorityId);
  xml.element("entityType", {}, type.entityType);
  for (const view of names) writeName(xml, view);
  xml.close("identity");
}
