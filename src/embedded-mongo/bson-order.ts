// MongoDB's canonical total order over BSON values: the order used by sort and by indexes.
//
// Reference: https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/
// and the server's canonicalizeBSONType / compareElementValues.
//
// Values are recognised structurally (via bson's `_bsontype` tag and plain JS types) rather
// than with `instanceof`, because several copies of the bson package can be loaded at once
// (ours, the driver's, mongoose's) and because Jest runs tests in a separate vm realm, where
// `instanceof Date` / `instanceof Uint8Array` fail for objects made by Node itself.
//
// This is called millions of times by the index B+tree, so the common cases (number vs
// number, string vs string) are handled before anything else and hot paths do not allocate.

import { MaxKey, MinKey } from "bson";
import { isDate, isRegExp, isUint8Array } from "node:util/types";
import { hasWords, type ObjectIdLike } from "./bson-values.js";

/**
 * Canonical type ranks, lowest first. The numbers are the server's own canonical type values
 * (so they can be cross-checked against the MongoDB source), except that JS `undefined` is
 * folded into null: in this engine `undefined` means "missing", which sorts as null.
 */
export const TypeRank = {
  MinKey: -1,
  Null: 5,
  Number: 10,
  String: 15,
  Object: 20,
  Array: 25,
  Binary: 30,
  ObjectId: 35,
  Boolean: 40,
  Date: 45,
  Timestamp: 47,
  RegExp: 50,
  // The docs' sort-order table stops at "Regular Expression, MaxKey"; the server places
  // JavaScript code (without, then with, scope) between them, and so do we.
  Code: 60,
  CodeWithScope: 65,
  MaxKey: 127,
} as const;

/** The smallest BSON value; use as an open lower index bound. */
export const MIN_KEY: MinKey = new MinKey();
/** The largest BSON value; use as an open upper index bound. */
export const MAX_KEY: MaxKey = new MaxKey();

const TWO_32 = 4294967296;
const TWO_53 = 9007199254740992;

// Minimal structural views of the bson classes we read. Only fields that bson has had for
// several major versions are used, so values from any loaded copy of bson work.
interface LongLike {
  high: number;
  low: number;
  unsigned?: boolean;
}
interface BinaryLike {
  buffer: Uint8Array;
  position: number;
  sub_type: number;
}
interface CodeLike {
  code: unknown;
  scope?: unknown;
}
interface DBRefLike {
  collection: string;
  oid: unknown;
  db?: string;
  fields?: Record<string, unknown>;
}

/** The canonical type rank of `v` (see {@link TypeRank}); values of different ranks never compare equal. */
export function typeOrder(v: unknown): number {
  switch (typeof v) {
    case "number":
    case "bigint": // bson's `useBigInt64` deserialises int64 as bigint
      return TypeRank.Number;
    case "string":
      return TypeRank.String;
    case "boolean":
      return TypeRank.Boolean;
    case "object":
      return v === null ? TypeRank.Null : objectTypeOrder(v);
    case "function": // bson serialises functions as Code (serializeFunctions)
      return TypeRank.Code;
    default:
      // undefined, and JS symbols, which the bson serialiser drops: both are "missing".
      return TypeRank.Null;
  }
}

function objectTypeOrder(v: object): number {
  const tag = (v as { _bsontype?: unknown })._bsontype;
  if (typeof tag === "string") {
    switch (tag) {
      case "Int32":
      case "Double":
      case "Long":
      case "Decimal128":
        return TypeRank.Number;
      case "BSONSymbol":
        return TypeRank.String;
      case "ObjectId":
      case "ObjectID":
        return TypeRank.ObjectId;
      case "Binary":
        return TypeRank.Binary;
      case "Timestamp":
        return TypeRank.Timestamp;
      case "BSONRegExp":
        return TypeRank.RegExp;
      case "Code": {
        const scope = (v as CodeLike).scope;
        return scope === null || scope === undefined ? TypeRank.Code : TypeRank.CodeWithScope;
      }
      case "MinKey":
        return TypeRank.MinKey;
      case "MaxKey":
        return TypeRank.MaxKey;
      // "DBRef" is stored as the embedded document {$ref, $id, ...}, so it ranks as Object.
    }
  }
  if (Array.isArray(v)) return TypeRank.Array;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return TypeRank.Object; // fast path for documents
  if (isDate(v)) return TypeRank.Date;
  if (isRegExp(v)) return TypeRank.RegExp;
  if (isUint8Array(v)) return TypeRank.Binary; // Buffer included; BinData subtype 0
  return TypeRank.Object;
}

/**
 * Compares two BSON values in MongoDB's canonical order: negative if `a` sorts first, 0 if
 * they are equal for sorting/indexing (e.g. `Int32(5)`, `5`, `Long(5)` and `Double(5)`), positive
 * if `a` sorts after `b`.
 *
 * Known approximations: Decimal128 is compared through its nearest double (so `Decimal128("0.1")`
 * equals the double `0.1`, which the server would not do), and JS `undefined`/`null` are equal.
 * Embedded documents compare fields in JS property order, which puts integer-like keys first.
 */
export function compareValues(a: unknown, b: unknown): number {
  // Fast paths: the overwhelmingly common index keys.
  if (typeof a === "number" && typeof b === "number") return compareDoubles(a, b);
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  const ta = typeOrder(a);
  const tb = typeOrder(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return compareSameRank(a, b, ta);
}

/** `compareValues(a, b) === 0`. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  return compareValues(a, b) === 0;
}

function compareSameRank(a: unknown, b: unknown, rank: number): number {
  switch (rank) {
    case TypeRank.Number:
      return compareNumbers(a, b);
    case TypeRank.String:
      return compareStrings(stringValue(a), stringValue(b));
    case TypeRank.Object:
      return compareDocuments(documentView(a as object), documentView(b as object));
    case TypeRank.Array:
      return compareArrays(a as readonly unknown[], b as readonly unknown[]);
    case TypeRank.Binary:
      return compareBinaries(a as object, b as object);
    case TypeRank.ObjectId:
      return compareObjectIds(a as ObjectIdLike, b as ObjectIdLike);
    case TypeRank.Boolean:
      return (a ? 1 : 0) - (b ? 1 : 0);
    case TypeRank.Date:
      return compareDoubles((a as Date).getTime(), (b as Date).getTime()); // Invalid Date (NaN) lowest
    case TypeRank.Timestamp:
      return compareTimestamps(a as LongLike, b as LongLike);
    case TypeRank.RegExp:
      return compareRegExps(a as object, b as object);
    case TypeRank.Code:
    case TypeRank.CodeWithScope:
      return compareCode(a, b);
    default:
      return 0; // MinKey, MaxKey, Null: one value each
  }
}

// ---------------------------------------------------------------- numbers

/** Double order with NaN lowest (NaN equals NaN) and -0 equal to 0. */
function compareDoubles(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0; // also -0 vs 0
  // At least one NaN.
  if (a !== a) return b !== b ? 0 : -1;
  return 1;
}

/** Nearest double of any numeric BSON value. Exact except for int64s beyond 2^53 and Decimal128. */
function numberValue(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  switch ((v as { _bsontype: string })._bsontype) {
    case "Long": {
      const l = v as LongLike;
      const high = l.unsigned ? l.high >>> 0 : l.high;
      // high * 2^32 is exact; the sum rounds once, so this is the correctly rounded value.
      return high * TWO_32 + (l.low >>> 0);
    }
    case "Decimal128":
      // Approximate: Decimal128 has 34 significant digits. Number() parses "NaN",
      // "Infinity" and exponents, and rounds correctly, so the mapping is monotonic.
      return Number(String(v));
    default: // Int32, Double
      return (v as { value: number }).value;
  }
}

function compareNumbers(a: unknown, b: unknown): number {
  const da = numberValue(a);
  const db = numberValue(b);
  // Rounding to double is monotonic, so a strict double inequality is exact.
  if (da < db) return -1;
  if (da > db) return 1;
  if (da !== da || db !== db) return compareDoubles(da, db);
  // Equal as doubles. Below 2^53 every int64 is exactly representable, so that is exact too;
  // at or beyond it, two different int64s can round to the same double.
  if (Math.abs(da) < TWO_53 || da === Infinity || da === -Infinity) return 0;
  const ba = exactInteger(a, da);
  const bb = exactInteger(b, db);
  return ba < bb ? -1 : ba > bb ? 1 : 0;
}

/** Exact integer value of a numeric whose double `d` is finite with |d| >= 2^53 (hence integral). */
function exactInteger(v: unknown, d: number): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "object" && v !== null && (v as { _bsontype?: unknown })._bsontype === "Long") {
    const l = v as LongLike;
    const bits = (BigInt(l.high >>> 0) << 32n) | BigInt(l.low >>> 0);
    return l.unsigned ? bits : BigInt.asIntN(64, bits);
  }
  return BigInt(d);
}

// ---------------------------------------------------------------- strings

function stringValue(v: unknown): string {
  return typeof v === "string" ? v : String((v as { value: unknown }).value);
}

/**
 * Code point order, which is the UTF-8 byte order the server uses. JS `<` compares UTF-16 code
 * units, which disagrees when a surrogate (U+D800-DFFF, i.e. an astral character) meets a BMP
 * character in U+E000-FFFF: the surrogate is smaller as a unit but the astral code point larger.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) return fixupCodeUnit(ca) - fixupCodeUnit(cb);
      return ca - cb;
    }
  }
  return a.length - b.length;
}

/** Moves surrogates above U+E000-FFFF so that code-unit order matches code-point order. */
function fixupCodeUnit(c: number): number {
  return c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

// ---------------------------------------------------------------- documents and arrays

/** The fields of an embedded document; a DBRef is the document {$ref, $id, ...fields, $db} it is stored as. */
function documentView(v: object): Record<string, unknown> {
  if ((v as { _bsontype?: unknown })._bsontype !== "DBRef") return v as Record<string, unknown>;
  const ref = v as DBRefLike;
  const doc: Record<string, unknown> = { $ref: ref.collection, $id: ref.oid, ...ref.fields };
  if (ref.db !== undefined && ref.db !== null) doc.$db = ref.db;
  return doc;
}

/** Field by field: the values' type ranks, then the field names, then the values. A prefix sorts first. */
function compareDocuments(a: Record<string, unknown>, b: Record<string, unknown>): number {
  if (a === b) return 0;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = ka.length < kb.length ? ka.length : kb.length;
  for (let i = 0; i < n; i++) {
    const va = a[ka[i]!];
    const vb = b[kb[i]!];
    const ta = typeOrder(va);
    const tb = typeOrder(vb);
    if (ta !== tb) return ta < tb ? -1 : 1;
    const names = compareStrings(ka[i]!, kb[i]!);
    if (names !== 0) return names;
    const c = compareTyped(va, vb, ta);
    if (c !== 0) return c;
  }
  return ka.length - kb.length;
}

/**
 * Element by element; a prefix sorts first. (The server compares arrays as {"0":..,"1":..} documents, which is
 * equivalent.)
 */
function compareArrays(a: readonly unknown[], b: readonly unknown[]): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Like compareSameRank, but keeps the string/number fast paths for values already ranked. */
function compareTyped(a: unknown, b: unknown, rank: number): number {
  if (typeof a === "number" && typeof b === "number") return compareDoubles(a, b);
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  return compareSameRank(a, b, rank);
}

// ---------------------------------------------------------------- binary, ObjectId, Timestamp

/** BinData: by length, then subtype, then bytes. A plain Uint8Array/Buffer is subtype 0. */
function compareBinaries(a: object, b: object): number {
  let bytesA: Uint8Array, lenA: number, subA: number;
  let bytesB: Uint8Array, lenB: number, subB: number;
  if ((a as { _bsontype?: unknown })._bsontype === "Binary") {
    const bin = a as BinaryLike;
    bytesA = bin.buffer;
    lenA = bin.position;
    subA = bin.sub_type;
  } else {
    bytesA = a as Uint8Array;
    lenA = bytesA.length;
    subA = 0;
  }
  if ((b as { _bsontype?: unknown })._bsontype === "Binary") {
    const bin = b as BinaryLike;
    bytesB = bin.buffer;
    lenB = bin.position;
    subB = bin.sub_type;
  } else {
    bytesB = b as Uint8Array;
    lenB = bytesB.length;
    subB = 0;
  }
  if (lenA !== lenB) return lenA - lenB;
  if (subA !== subB) return subA - subB;
  return compareBytes(bytesA, bytesB, lenA);
}

function compareBytes(a: Uint8Array, b: Uint8Array, length: number): number {
  for (let i = 0; i < length; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** By the 12 bytes, i.e. creation second first. */
function compareObjectIds(a: ObjectIdLike, b: ObjectIdLike): number {
  if (a === b) return 0;
  // Four unsigned 24-bit big-endian words: comparing them in order is comparing the bytes.
  if (hasWords(a) && hasWords(b)) return a.i0 - b.i0 || a.i1 - b.i1 || a.i2 - b.i2 || a.i3 - b.i3;
  return compareBytes(a.id, b.id, 12);
}

/** Unsigned 64-bit: the seconds (high word), then the increment (low word). */
function compareTimestamps(a: LongLike, b: LongLike): number {
  const ha = a.high >>> 0;
  const hb = b.high >>> 0;
  if (ha !== hb) return ha < hb ? -1 : 1;
  const la = a.low >>> 0;
  const lb = b.low >>> 0;
  return la < lb ? -1 : la > lb ? 1 : 0;
}

// ---------------------------------------------------------------- regular expressions and code

function regExpParts(v: object): [pattern: string, flags: string] {
  if ((v as { _bsontype?: unknown })._bsontype === "BSONRegExp") {
    const r = v as { pattern: string; options: string };
    return [r.pattern, r.options];
  }
  const r = v as RegExp;
  return [r.source, r.flags];
}

/** By pattern, then flags. */
function compareRegExps(a: object, b: object): number {
  const [pa, fa] = regExpParts(a);
  const [pb, fb] = regExpParts(b);
  return compareStrings(pa, pb) || compareStrings(fa, fb);
}

/** By source text, then (code with scope only) the scope document. */
function compareCode(a: unknown, b: unknown): number {
  const ca = typeof a === "function" ? String(a) : String((a as CodeLike).code);
  const cb = typeof b === "function" ? String(b) : String((b as CodeLike).code);
  const c = compareStrings(ca, cb);
  if (c !== 0) return c;
  const sa = typeof a === "function" ? undefined : (a as CodeLike).scope;
  const sb = typeof b === "function" ? undefined : (b as CodeLike).scope;
  if (sa === null || sa === undefined || sb === null || sb === undefined) return 0; // same rank, so both absent
  return compareDocuments(sa as Record<string, unknown>, sb as Record<string, unknown>);
}
