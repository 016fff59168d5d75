// Search results shaped as ArchivesSpace's index documents: the entry's fields, and `json`, the record as the caller
// may read it (read through the record operations, so computed fields are there and guarded fields only for who
// may see them), as a JSON string. Read a type and repository at a time, in id sets.
import type { Actor } from "../auth/actor.js";
import { MAX_ID_SET, type RecordOperations } from "../records/operations/index.js";
import type { SearchEntry } from "../records/search/entries.js";
import { groupUris, type UriGroup } from "../records/search/uri-groups.js";
import type { JsonObject, JsonValue } from "../registry/index.js";

/** What a result carries of its record besides `json`, when the record has it. */
const RECORD_FIELDS = ["level", "create_time", "system_mtime", "user_mtime", "created_by", "last_modified_by"];

export type ResultDocument = Record<string, JsonValue>;

/** An entry and its record as the caller may read it. */
export interface Found {
  entry: SearchEntry;
  record: JsonObject;
}

export class SearchResults {
  constructor(private readonly operations: RecordOperations) {}

  /**
   * The entries with their records, in their order; an entry whose record the caller may not read (its type's
   * permission) is left out.
   */
  async read(entries: readonly SearchEntry[], actor: Actor): Promise<Found[]> {
    const records = await this.recordsOf(entries, actor);
    return entries.flatMap((entry) => {
      const record = records.get(entry._id);
      return record === undefined ? [] : [{ entry, record }];
    });
  }

  /** The documents of `entries` (as `read`); `fields`: only these fields of each. */
  async documents(
    entries: readonly SearchEntry[],
    actor: Actor,
    fields?: readonly string[],
  ): Promise<ResultDocument[]> {
    return (await this.read(entries, actor)).map(({ entry, record }) => resultDocument(entry, record, fields));
  }

  /** The records of `entries` by uri, each type's (and repository's) read at the same time as the others'. */
  private async recordsOf(entries: readonly SearchEntry[], actor: Actor): Promise<Map<string, JsonObject>> {
    const uris = entries.map((entry) => entry._id);
    const groups = groupUris(this.operations.deps.registry, uris);
    const read = async ({ type, repoId, ids }: UriGroup): Promise<JsonObject[]> => {
      const found: JsonObject[] = [];
      for (let start = 0; start < ids.length; start += MAX_ID_SET) {
        const mode = { kind: "idSet" as const, ids: ids.slice(start, start + MAX_ID_SET) };
        let page: unknown;
        try {
          page = await this.operations.list(type.name, { repoId }, { mode }, actor);
        } catch {
          break; // a type the caller may not read: its entries are left out
        }
        if (Array.isArray(page)) found.push(...(page as JsonObject[]));
      }
      return found;
    };
    const records = new Map<string, JsonObject>();
    for (const record of (await Promise.all(groups.map(read))).flat())
      if (typeof record.uri === "string") records.set(record.uri, record);
    return records;
  }
}

/** One result, shaped as ArchivesSpace's index documents; `fields`: only these. */
export function resultDocument(
  entry: SearchEntry,
  record: JsonObject,
  fields: readonly string[] | undefined,
): ResultDocument {
  const shown: ResultDocument = {
    id: entry._id,
    uri: entry._id,
    title: entry.title,
    primary_type: entry.primary_type,
    types: entry.types,
    json: JSON.stringify(record),
    repository: entry.repository,
    publish: entry.publish,
    suppressed: entry.suppressed,
    system_generated: false,
    jsonmodel_type: entry.primary_type,
  };
  if (entry.identifier !== null) shown.identifier = entry.identifier;
  for (const key of RECORD_FIELDS) {
    const value = record[key];
    if (value !== undefined && value !== null) shown[key] = value;
  }
  if (fields === undefined) return shown;
  return Object.fromEntries(Object.entries(shown).filter(([key]) => fields.includes(key)));
}
