// Records as the parsers build them: each as its generated interface (generated/types), so a
// field its schema lacks, or a value of the wrong type, is a compile error in the parser rather
// than a failed or silently thinned import. These helpers build such records field by field
// and hand them to the import (pending.ts) as the JSON it handles.
import type { RecordTypeMap } from "../../generated/types/index.js";
import type { PendingRecord } from "./pending.js";

/** A record type's name (its jsonmodel_type), as the generated types know them. */
export type RecordTypeName = keyof RecordTypeMap;

/**
 * A record while it is built: every field optional, and a list its schema wants non-empty
 * (`[T, ...T[]]`) a plain list until the record is finished and checked.
 */
export type Draft<T> = { [K in keyof T]?: NonNullable<T[K]> extends [infer U, ...unknown[]] ? U[] : T[K] };

/** `items`, or `[fallback]` when there are none: for a list its schema wants non-empty. */
export function nonEmpty<T>(items: readonly T[], fallback: T): [T, ...T[]] {
  const [first = fallback, ...rest] = items;
  return [first, ...rest];
}

/** A pending record built as its generated interface, so a field its schema lacks is a compile error. */
export interface TypedPendingRecord<K extends RecordTypeName> extends Omit<PendingRecord, "type" | "record"> {
  type: K;
  record: RecordTypeMap[K];
}

/**
 * A typed pending record as the committer takes it. The generated interfaces hold JSON values
 * only (builders leave an optional field out rather than set it to undefined: `put`), but
 * TypeScript does not let an interface stand for an index signature; this is the one place the
 * two meet.
 */
export function untyped<K extends RecordTypeName>(pending: TypedPendingRecord<K>): PendingRecord {
  return pending as unknown as PendingRecord;
}

/** The fields of `T` whose values are `V` (the text fields of a name, the flags of an accession). */
export type KeysOfType<T, V> = { [K in keyof T]-?: NonNullable<T[K]> extends V ? K : never }[keyof T];

/** Sets `field` when the value is defined (and, for strings, not blank; for lists, not empty). */
export function put<T extends object, K extends keyof T>(record: T, field: K, value: T[K] | undefined): void {
  if (value === undefined) return;
  if (typeof value === "string" && value.trim() === "") return;
  if (Array.isArray(value) && value.length === 0) return;
  record[field] = value;
}
