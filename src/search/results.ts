// Search results shaped as ArchivesSpace's index documents: the entry's fields, and `json`, the record as the caller
// may read it (records-by-uri.ts: computed fields there, guarded fields only for who may see them), as a JSON string.
import type { Actor } from "../auth/actor.js";
import type { RecordOperations } from "../records/operations/index.js";
import { readByUri } from "../records/search/records-by-uri.js";
import type { SearchEntry } from "../records/search/entries.js";
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
    const records = await readByUri(
      this.operations,
      entries.map((entry) => entry._id),
      actor,
    );
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
