// The records an export reads, as the generated types (generated/types): the resource and its
// archival objects it describes, its repository, and the records they link to. The operations
// hand records over as JSON; `asRecord` is the one place the exporter takes that JSON as the type
// its schema promises (a stored record passed its schema when it was written, and shapeRecord
// gives it in the API's form, which is what the types describe), so a field the exporter reads
// that a schema does not have fails `tsc`.
import type {
  AgentCorporateEntity,
  AgentFamily,
  AgentPerson,
  AgentSoftware,
  ArchivalObject,
  DigitalObject,
  RecordTypeMap,
  Resource,
  Subject,
  TopContainer,
} from "../../generated/types/index.js";
import type { JsonObject } from "../registry/index.js";

/** What <archdesc> or a <c> describes. */
export type DescribedRecord = Resource | ArchivalObject;

/** A record a described one links to and EAD shows inline, tagged with its type. */
export type LinkedRecord =
  | { type: "agent_person"; record: AgentPerson }
  | { type: "agent_family"; record: AgentFamily }
  | { type: "agent_corporate_entity"; record: AgentCorporateEntity }
  | { type: "agent_software"; record: AgentSoftware }
  | { type: "subject"; record: Subject }
  | { type: "top_container"; record: TopContainer }
  | { type: "digital_object"; record: DigitalObject };

export type LinkedAgentRecord = Extract<LinkedRecord, { type: `agent_${string}` }>;

/** `json`, a record of type `type` as the operations gave it, as its generated type. */
export function asRecord<K extends keyof RecordTypeMap>(_type: K, json: JsonObject): RecordTypeMap[K] {
  return json as unknown as RecordTypeMap[K];
}

/** A record of one of the types EAD shows inline, tagged; undefined for any other type. */
export function linkedRecord(type: string, json: JsonObject): LinkedRecord | undefined {
  switch (type) {
    case "agent_person":
      return { type, record: asRecord(type, json) };
    case "agent_family":
      return { type, record: asRecord(type, json) };
    case "agent_corporate_entity":
      return { type, record: asRecord(type, json) };
    case "agent_software":
      return { type, record: asRecord(type, json) };
    case "subject":
      return { type, record: asRecord(type, json) };
    case "top_container":
      return { type, record: asRecord(type, json) };
    case "digital_object":
      return { type, record: asRecord(type, json) };
    default:
      return undefined;
  }
}
