// A stored document as the API shows it (contract §3): storage fields dropped, server
// fields added (uri, jsonmodel_type, repository ref), times as ISO-8601 UTC to the second,
// and fields with no value omitted rather than sent as null.
import type { JsonObject, JsonValue, RecordType, Registry } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";

export const TIME_FIELDS = ["create_time", "system_mtime", "user_mtime"] as const;

export function isoSeconds(date: Date): string {
  // toISOString is YYYY-MM-DDTHH:mm:ss.sssZ for every date a record holds (years 0000-9999);
  // cutting beats a regex replace, and a record read formats a dozen of these.
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, "Z");
}

function withoutNulls(value: unknown): JsonValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return isoSeconds(value);
  if (Array.isArray(value)) return value.map(withoutNulls).filter((v): v is JsonValue => v !== undefined);
  if (typeof value === "object") {
    // keys: stored fields, which passed the schema and assertSafeKeys when written
    const out: Record<string, JsonValue> = {};
    for (const [key, inner] of Object.entries(value)) {
      const kept = withoutNulls(inner);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return value as JsonValue;
}

export function shapeRecord(registry: Registry, type: RecordType, stored: StoredRecord): JsonObject {
  const { _id, id, repo_id, tree_parent, ...fields } = stored;
  const record = (withoutNulls(fields) ?? {}) as Record<string, JsonValue>;
  record.jsonmodel_type = type.name;
  record.uri = registry.uriFor(type.name, id, repo_id);
  if (repo_id !== undefined) record.repository = { ref: registry.uriFor(registry.scopeHolderType().name, repo_id) };
  return record;
}
