// How linked agents and subjects, and a few enumerated values, are named in EAD: the access
// element a subject or agent becomes, an agent's display name, and the words of an extent
// type. These follow ArchivesSpace's exporter (backend/app/exporters/lib/export_helpers.rb),
// so what ArchivesSpace's importer and ours read back is what it wrote.
import type {
  NameCorporateEntity,
  NameFamily,
  NamePerson,
  NameSoftware,
  Subject,
  Term,
} from "../../generated/types/index.js";
import { lookupTable } from "../registry/dictionary.js";
import type { LinkedAgentRecord, LinkedRecord } from "./export-records.js";

/** A text field's value; an empty one counts as none. */
export function str(value: string | undefined): string | undefined {
  return value !== undefined && value !== "" ? value : undefined;
}

/** The access element of a subject, from its first term's type; undefined: not shown. */
export function subjectElement(subject: Subject): string | undefined {
  switch (str(subject.terms[0].term_type)) {
    case "function":
      return "function";
    case "genre_form":
    case "style_period":
      return "genreform";
    case "geographic":
    case "cultural_context":
      return "geogname";
    case "occupation":
      return "occupation";
    case "uniform_title":
      return "title";
    case "topical":
    case "temporal":
    case "technique":
      return "subject";
    default:
      return undefined;
  }
}

const AGENT_TYPES: ReadonlySet<LinkedRecord["type"]> = new Set([
  "agent_person",
  "agent_family",
  "agent_corporate_entity",
  "agent_software",
]);

export function isAgent(linked: LinkedRecord): linked is LinkedAgentRecord {
  return AGENT_TYPES.has(linked.type);
}

/** The name element of an agent, from its type. */
export function agentElement(agent: LinkedAgentRecord): string {
  switch (agent.type) {
    case "agent_person":
      return "persname";
    case "agent_family":
      return "famname";
    case "agent_corporate_entity":
      return "corpname";
    default:
      return "name";
  }
}

export type AgentName = NamePerson | NameFamily | NameCorporateEntity | NameSoftware;

/** The name marked for display, else the authorized one, else the first. */
export function preferred<N extends AgentName>(names: readonly N[]): N | undefined {
  return names.find((name) => name.is_display_name === true) ?? names.find((name) => name.authorized) ?? names[0];
}

/** The agent's display name record. */
export function displayName(agent: LinkedAgentRecord): AgentName | undefined {
  return preferred<AgentName>(agent.record.names);
}

function joined(parts: Array<string | undefined>, separator: string): string {
  return parts.filter((part): part is string => part !== undefined && part.trim() !== "").join(separator);
}

/** A name's core followed by its dates and qualifier, as ArchivesSpace's sort names read. */
function withDatesAndQualifier(name: AgentName, core: string): string {
  const qualifier = str(name.qualifier);
  return joined([core, str(name.dates), qualifier === undefined ? undefined : `(${qualifier})`], ", ");
}

function personName(name: NamePerson): string {
  const primary = str(name.primary_name);
  const rest = str(name.rest_of_name);
  const core = str(name.name_order) === "direct" ? joined([rest, primary], " ") : joined([primary, rest], ", ");
  const fuller = str(name.fuller_form);
  return joined(
    [
      core,
      str(name.prefix),
      str(name.suffix),
      str(name.title),
      str(name.number),
      fuller === undefined ? undefined : `(${fuller})`,
    ],
    ", ",
  );
}

/** The display name built from its parts, by the agent's type, the way ArchivesSpace builds it. */
function builtName(agent: LinkedAgentRecord): string {
  switch (agent.type) {
    case "agent_person": {
      const name = preferred(agent.record.names);
      return name === undefined ? "" : personName(name);
    }
    case "agent_corporate_entity": {
      const name = preferred(agent.record.names);
      const parts = [name?.primary_name, name?.subordinate_name_1, name?.subordinate_name_2, name?.number];
      return joined(parts.map(str), ". ");
    }
    case "agent_family": {
      const name = preferred(agent.record.names);
      return joined([str(name?.family_name), str(name?.prefix)], ", ");
    }
    case "agent_software": {
      const name = preferred(agent.record.names);
      return joined([str(name?.software_name), str(name?.version), str(name?.manufacturer)], " ");
    }
  }
}

/**
 * How an agent's name reads in EAD: its sort name when it has one (ArchivesSpace computes it;
 * here it is stored as sent), else one built from the name's parts the way ArchivesSpace's is.
 */
export function agentName(agent: LinkedAgentRecord): string {
  const name = displayName(agent);
  if (name === undefined) return "";
  return str(name.sort_name) ?? withDatesAndQualifier(name, builtName(agent));
}

/** Terms of a subject or a linked agent, in order. */
export function termTexts(holder: { terms?: readonly Term[] }): string[] {
  return (holder.terms ?? []).map((term) => str(term.term)).filter((term): term is string => term !== undefined);
}

/** `linear_feet` -> `linear feet`: the words of an enumeration value, as EAD text. */
export function enumerationWords(value: string): string {
  return value.replace(/_/g, " ");
}

/** EAD3's list numeration values for ArchivesSpace's (EAD 2002's) ones. */
export function ead3Numeration(value: string | undefined): string | undefined {
  switch (value) {
    case undefined:
    case "null":
      return undefined;
    case "arabic":
      return "decimal";
    case "loweralpha":
      return "lower-alpha";
    case "upperalpha":
      return "upper-alpha";
    case "lowerroman":
      return "lower-roman";
    case "upperroman":
      return "upper-roman";
    default:
      return value;
  }
}

/** EAD3's physdescstructuredtype for an extent type (ArchivesSpace's mapping). */
export function physdescStructuredType(extentType: string | undefined): string {
  switch (extentType) {
    case "cassettes":
    case "leaves":
    case "photographic_prints":
    case "photographic_slides":
    case "reels":
    case "sheets":
    case "volumes":
      return "materialtype";
    case "gigabytes":
    case "megabytes":
    case "terabytes":
      return "otherphysdescstructuredtype";
    default:
      return "spaceoccupied";
  }
}

/** An index entry's element, by note_index_item type. */
export const INDEX_ITEM_ELEMENTS: Readonly<Record<string, string>> = lookupTable({
  name: "name",
  person: "persname",
  family: "famname",
  corporate_entity: "corpname",
  subject: "subject",
  function: "function",
  occupation: "occupation",
  title: "title",
  geographic_name: "geogname",
  genre_form: "genreform",
});

/** Access elements: in EAD3 their text sits in `<part>`. */
export const ACCESS_ELEMENTS: ReadonlySet<string> = new Set([
  "corpname",
  "famname",
  "function",
  "genreform",
  "geogname",
  "name",
  "occupation",
  "persname",
  "subject",
  "title",
]);

/** An xs:ID (NCName): EAD's @id values must be one. */
const NCNAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * An @id for a ref_id or persistent_id: the value itself when it is a valid XML ID (so it reads
 * back unchanged), else prefixed `aspace_` as ArchivesSpace does (a generated ref_id may start
 * with a digit), with characters an ID cannot hold replaced by `_`.
 */
export function xmlId(value: string | undefined): string | undefined {
  if (value === undefined || value === "" || value === "null") return undefined;
  if (NCNAME.test(value)) return value;
  return `aspace_${value.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
}
