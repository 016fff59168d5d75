// A stored document as the API shows it (docs/api.md §3): storage fields dropped, server
// fields added (uri, jsonmodel_type, repository ref), times as ISO-8601 UTC to the second,
// fields with no value omitted rather than sent as null, fields the viewer may not see left out,
// and every array of the schema present, [] when empty (registry/array-fields.ts).
import { arrayFiller } from "../../registry/array-fields.js";
import type { JsonObject, JsonValue, RecordType, Registry } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { Actor } from "../types.js";
import { hideGuardedFields } from "./field-access.js";

export const TIME_FIELDS = ["create_time", "system_mtime", "user_mtime"] as const;

export function isoSeconds(date: Date): string {
  // toISOString is YYYY-MM-DDTHH:mm:ss.sssZ for every date a record holds (years 0000-9999);
  // cutting beats a regex replace, and a record read formats a dozen of these.
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, "Z");
}

/** Keys of a stored document that are the store's, not the record's. */
const STORAGE_KEYS: ReadonlySet<string> = new Set(["_id", "id", "repo_id", "tree_parent"]);

// Plain loops rather than entries/map/filter: every record read runs this over every field,
// and it was the largest Arca-side cost of a GET in the profile (BENCHMARKS.md).
function withoutNulls(value: unknown): JsonValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== "object") return value as JsonValue;
  if (value instanceof Date) return isoSeconds(value);
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    for (const item of value) {
      const kept = withoutNulls(item);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  return withoutNullFields(value, undefined);
}

/** An object's fields without nulls, leaving out `skip`'s keys. */
function withoutNullFields(value: object, skip: ReadonlySet<string> | undefined): Record<string, JsonValue> {
  // keys: stored fields, which passed the schema and assertSafeKeys when written
  const out: Record<string, JsonValue> = {};
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (skip?.has(key)) continue;
    const kept = withoutNulls(fields[key]);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** Each type's array filler, worked out from its schema on its first read. */
const fillers = new WeakMap<JsonObject, (record: Record<string, JsonValue>) => void>();

function fillerOf(type: RecordType): (record: Record<string, JsonValue>) => void {
  let filler = fillers.get(type.schema);
  if (filler === undefined) fillers.set(type.schema, (filler = arrayFiller(type.schema)));
  return filler;
}

/** `viewer`: whom the record is shown to, for the fields only some callers may see (x-read-permission). */
export function shapeRecord(registry: Registry, type: RecordType, stored: StoredRecord, viewer: Actor): JsonObject {
  const record = withoutNullFields(stored, STORAGE_KEYS);
  if (type.readGuards.length > 0) hideGuardedFields(type, record, viewer, stored.repo_id);
  fillerOf(type)(record);
  record.jsonmodel_type = type.name;
  record.uri = registry.uriFor(type.name, stored.id, stored.repo_id);
  if (stored.repo_id !== undefined)
    record.repository = { ref: registry.uriFor(registry.scopeHolderType().name, stored.repo_id) };
  return record;
}
