// Agents as the parsers hand them on: one pending record per distinct agent of a file, matched
// against the agents already stored so that importing again links the existing agent instead
// of creating a second one. Shared by the EAC-CPF, MARCXML and CSV parsers.
import type {
  AgentPerson,
  NameCorporateEntity,
  NameFamily,
  NamePerson,
  RecordTypeMap,
} from "../../generated/types/index.js";
import type { PendingRecord, SourceLocation } from "./pending.js";
import { untyped, type Draft, type KeysOfType } from "./record-draft.js";

export const AGENT_TYPES = ["agent_person", "agent_family", "agent_corporate_entity"] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

/** Each agent type's name subrecord, as the generated types have them. */
export interface AgentNames {
  agent_person: NamePerson;
  agent_family: NameFamily;
  agent_corporate_entity: NameCorporateEntity;
}

/**
 * A name while its parts are read, before its type's required fields are known to be there:
 * any field of any agent type's name (a misspelt one is a compile error).
 */
export type NameDraft = Partial<Omit<NamePerson & NameFamily & NameCorporateEntity, "jsonmodel_type">>;

/** The fields of a name that hold text, which a part of a name in a source can fill. */
export type NameTextField = KeysOfType<NameDraft, string>;

/** The field every name of a type must have: the primary name, or the family name. */
export const PRIMARY_NAME_FIELD = {
  agent_person: "primary_name",
  agent_family: "family_name",
  agent_corporate_entity: "primary_name",
} as const satisfies Record<AgentType, NameTextField>;

const NAME_JSONMODEL_TYPES = {
  agent_person: "name_person",
  agent_family: "name_family",
  agent_corporate_entity: "name_corporate_entity",
} as const satisfies { [T in AgentType]: AgentNames[T]["jsonmodel_type"] };

/**
 * The agent record being built: `names` first (the display name first), then any other field
 * of an agent (every agent type has the same ones besides its names).
 */
export type AgentDraft = Omit<Draft<AgentPerson>, "names"> & { names: NameDraft[] };

/**
 * The record of `type` a draft makes. Its field names are checked by the compiler; whether each
 * name has what its type requires (a primary name, say) is the record's validation's to say when
 * it is written, as for any record.
 */
export function agentRecord<T extends AgentType>(type: T, draft: AgentDraft): RecordTypeMap[T] {
  // keys: AgentType, the code's own union
  const jsonmodel = NAME_JSONMODEL_TYPES[type];
  const record = { ...draft, names: draft.names.map((name) => ({ ...name, jsonmodel_type: jsonmodel })) };
  return record as unknown as RecordTypeMap[T];
}

const field = (name: NameDraft, key: NameTextField): string | undefined => {
  const value = name[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
};

/**
 * The name as ArchivesSpace sorts and shows it (its SortNameProcessor): a person's
 * "Primary, Rest, Prefix, Suffix, Title, Number (Fuller form), Dates (Qualifier)", a family's
 * "Family, Prefix, Dates (Qualifier)", a corporate body's "Primary. Sub 1. Sub 2 (Number : Dates) (Qualifier)".
 * ArchivesSpace computes it on save; here it is stored as sent, so the parsers compute it.
 */
export function sortName(type: AgentType, name: NameDraft): string {
  let result: string;
  const qualifier = field(name, "qualifier");
  const dates = field(name, "dates");
  if (type === "agent_person") {
    const primary = field(name, "primary_name");
    const rest = field(name, "rest_of_name");
    if (field(name, "name_order") === "direct") result = [rest, primary].filter(Boolean).join(" ");
    else result = [primary, rest].filter(Boolean).join(", ");
    for (const key of ["prefix", "suffix", "title", "number"] as const) {
      const value = field(name, key);
      if (value !== undefined) result += `, ${value}`;
    }
    const fuller = field(name, "fuller_form");
    if (fuller !== undefined) result += ` (${fuller})`;
    if (dates !== undefined) result += `, ${dates}`;
  } else if (type === "agent_family") {
    result = field(name, "family_name") ?? "";
    const prefix = field(name, "prefix");
    if (prefix !== undefined) result += `, ${prefix}`;
    if (dates !== undefined) result += `, ${dates}`;
  } else {
    result = [field(name, "primary_name"), field(name, "subordinate_name_1"), field(name, "subordinate_name_2")]
      .filter(Boolean)
      .join(". ");
    const grouped = [field(name, "number"), dates].filter(Boolean);
    if (grouped.length > 0) result += ` (${grouped.join(" : ")})`;
  }
  if (qualifier !== undefined) result += ` (${qualifier})`;
  return result.trim().slice(0, 255);
}

/** The uri prefix agents of a type have, for messages. */
export const agentTypeLabel: Record<AgentType, string> = {
  agent_person: "person",
  agent_family: "family",
  agent_corporate_entity: "corporate body",
};

/**
 * The agents one file names. The first time the file names an agent (same type, display sort
 * name and authority id), `claim` gives its pending record, to be yielded before any record
 * linking to it; every later time, only its key. Each pending agent matches a stored agent of
 * its type with that sort name (and authority id, when it has one) and reuses it: importing a
 * file again creates no second agent.
 */
export class FileAgents {
  private readonly keys = new Map<string, string>();
  private created = 0;

  constructor(private readonly prefix: string) {}

  claim(type: AgentType, agent: AgentDraft, source: SourceLocation): { key: string; pending?: PendingRecord } {
    for (const name of agent.names) {
      if (field(name, "sort_name") === undefined) name.sort_name = sortName(type, name);
    }
    const display = agent.names[0] ?? {};
    const sort = field(display, "sort_name") ?? "";
    const authorityId = field(display, "authority_id");
    const identity = JSON.stringify([type, sort, authorityId ?? null]);
    const known = this.keys.get(identity);
    if (known !== undefined) return { key: known };
    this.created += 1;
    const key = `${this.prefix}:${type}:${this.created}`;
    this.keys.set(identity, key);
    const match: Record<string, string> = { "names.sort_name": sort };
    if (authorityId !== undefined) match["names.authority_id"] = authorityId;
    return { key, pending: untyped({ key, type, record: agentRecord(type, agent), source, match, onMatch: "reuse" }) };
  }
}
