// Shape tests on deserialized BSON values, shared by the validators of filters,
// expressions, projections, sorts and pipelines. Values arrive with promoteValues on, so
// most numbers are JS numbers, but Long, Decimal128 and friends can still appear.
import type { Document } from "bson";

const NUMERIC_BSON_TYPES = new Set(["Int32", "Double", "Long", "Decimal128"]);

function bsonTypeOf(value: object): string | undefined {
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return typeof tag === "string" ? tag : undefined;
}

/** A plain embedded document: not an array, a BSON value class, a Date, a RegExp or binary. */
export function isDocument(value: unknown): value is Document {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    bsonTypeOf(value) === undefined &&
    !(value instanceof Date) &&
    !(value instanceof RegExp) &&
    !(value instanceof Uint8Array)
  );
}

export function isNumeric(value: unknown): boolean {
  if (typeof value === "number") return true;
  return typeof value === "object" && value !== null && NUMERIC_BSON_TYPES.has(bsonTypeOf(value) ?? "");
}

/** The value of a numeric BSON value as a double (exact for anything that fits 53 bits). */
export function numericValue(value: unknown): number {
  return typeof value === "number" ? value : Number(String(value));
}

export function isRegex(value: unknown): boolean {
  return value instanceof RegExp || (typeof value === "object" && value !== null && bsonTypeOf(value) === "BSONRegExp");
}

/**
 * An operator expression such as `{$gt: 1}`. As in MongoDB, the first field decides: a
 * document whose first field starts with `$` is operators, anything else is a value.
 */
export function isOperatorDocument(value: unknown): value is Document {
  return isDocument(value) && (firstKey(value)?.startsWith("$") ?? false);
}

export function firstKey(doc: Document): string | undefined {
  for (const key in doc) return key;
  return undefined;
}

/** A value as it appears in MongoDB's error messages (close enough to its extended JSON). */
export function describe(value: unknown): string {
  if (value instanceof RegExp) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** MongoDB's name for the BSON type of a value, as used in "wrong type" messages. */
export function bsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? "int" : "double";
  if (value instanceof Date) return "date";
  if (isRegex(value)) return "regex";
  if (isDocument(value)) return "object";
  return bsonTypeOf(value as object) ?? typeof value;
}

/**
 * Why `value` is not a non-negative integer, worded like MongoDB's
 * parseIntegerElementToNonNegativeLong, or undefined when it is one.
 */
export function nonNegativeIntegerProblem(name: string, value: unknown): string | undefined {
  const shown = `${name}: ${describe(value)}`;
  if (!isNumeric(value)) return `Expected a number in: ${shown}`;
  const n = numericValue(value);
  if (!Number.isInteger(n)) return `Expected an integer: ${shown}`;
  if (n < 0) return `Expected a non-negative number in: ${shown}`;
  return undefined;
}

/** An ObjectId of any loaded copy of bson, read structurally. */
export interface ObjectIdLike {
  id: Uint8Array;
  i0?: unknown;
  i1?: unknown;
  i2?: unknown;
  i3?: unknown;
}

/**
 * bson >= 6.10 keeps an ObjectId's 12 bytes as four private unsigned 24-bit big-endian words;
 * reading them avoids the Buffer the `id` getter allocates. Other layouts are read through `id`.
 */
export function hasWords(oid: ObjectIdLike): oid is ObjectIdLike & { i0: number; i1: number; i2: number; i3: number } {
  return (
    typeof oid.i0 === "number" && typeof oid.i1 === "number" && typeof oid.i2 === "number" && typeof oid.i3 === "number"
  );
}
