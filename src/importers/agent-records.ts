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
import { deriveFields } from "../records/computed/derived-fields.js";
import { registry, type JsonObject } from "../registry/index.js";
import { isJsonObject } from "../registry/json.js";
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
 * The sort name `name` is stored with when its agent of `type` is written: derived by the name schema's rule
 * (x-derived, as ArchivesSpace derives it on save), or the one it has when its sort_name_auto_generate is false.
 * The import matches stored agents by it before writing, so it is asked of the write path's own rule.
 */
export function sortNameOf(type: AgentType, name: NameDraft): string {
  // The generated interfaces hold JSON values only (record-draft.ts `untyped` says why the cast is needed).
  const record = agentRecord(type, { names: [name] }) as unknown as JsonObject;
  const names = deriveFields(registry, type, record).names;
  const derived = Array.isArray(names) ? names[0] : undefined;
  return isJsonObject(derived) && typeof derived.sort_name === "string" ? derived.sort_name : "";
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
    const display = agent.names[0] ?? {};
    const sort = sortNameOf(type, display);
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
