// The real ArchivesSpace records of ../shared/data/archivesspace-json (batch-import form) and
// its recorded responses (recorded-responses/), and the mapping of the records' temporary
// `import_*` uris to the uris the service gave them.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type Json = Record<string, unknown>;

const sharedData = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "shared", "data");
const dataDir = join(sharedData, "archivesspace-json");

export function readRecords(file: string): Json[] {
  return JSON.parse(readFileSync(join(dataDir, file), "utf8")) as Json[];
}

export function readRecord(file: string): Json {
  return JSON.parse(readFileSync(join(dataDir, file), "utf8")) as Json;
}

/** A record as a real ArchivesSpace answered it, e.g. "top_container.json". */
export function readRecordedResponse(file: string): Json {
  return JSON.parse(readFileSync(join(sharedData, "recorded-responses", file), "utf8")) as Json;
}

/** Where each real agent type lives. The fixture's uris all say /agents/people, even the corporate one. */
export const AGENT_PATHS: Record<string, string> = {
  agent_person: "/agents/people",
  agent_corporate_entity: "/agents/corporate_entities",
  agent_family: "/agents/families",
  agent_software: "/agents/software",
};

/** Replaces every `{"ref": "<import uri>"}` found in `mapping` (deep copy). */
export function mapRefs<T>(value: T, mapping: ReadonlyMap<string, string>): T {
  return JSON.parse(JSON.stringify(value), (key, item: unknown) =>
    key === "ref" && typeof item === "string" ? (mapping.get(item) ?? item) : item,
  ) as T;
}
