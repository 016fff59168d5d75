// A hash of a unique index's keys: key -> record id, such that two keys meet in the hash
// exactly when they compare equal in MongoDB's order (compareValues). Only the common scalar
// types have a hashed form; a key holding any other value (Long, Decimal128, Binary, a
// document, ...) is not hashed, and the index answers such lookups from its tree.
//
// Why: a lookup by a full unique key is the commonest read there is, and descending a
// B+tree of 100k entries touches ~50 cold cache lines (each comparison dereferences an
// entry, its key array and the key's elements), where a hash probe touches a few. InnoDB's
// adaptive hash index does the same for the same reason.
//
// Layout: one Map level per key field, keyed by each value's hashed form. Numbers are their
// own form (Map's SameValueZero already makes 5 and 5.0, 0 and -0, NaN and NaN one key, as
// MongoDB does), so the usual integer keys cost no allocation; other types get a string
// whose first character names the type, so no two types meet.

import { hasWords, type ObjectIdLike } from "../bson-values.js";

type Part = number | string | boolean | null;
type Level = Map<Part, Level | number>;

/**
 * An ObjectId's 12 bytes as six 16-bit characters after an "o": a flat 7-character string.
 * (`toHexString()` builds its result by concatenation, which V8 keeps as a tree of a dozen
 * string pieces: ~300 bytes per hashed _id instead of ~40.)
 */
function objectIdPart(oid: ObjectIdLike): string {
  if (hasWords(oid)) {
    const { i0, i1, i2, i3 } = oid;
    return String.fromCharCode(
      0x6f,
      i0 >>> 8,
      ((i0 & 0xff) << 8) | (i1 >>> 16),
      i1 & 0xffff,
      i2 >>> 8,
      ((i2 & 0xff) << 8) | (i3 >>> 16),
      i3 & 0xffff,
    );
  }
  const b = oid.id;
  return String.fromCharCode(
    0x6f,
    (b[0] << 8) | b[1],
    (b[2] << 8) | b[3],
    (b[4] << 8) | b[5],
    (b[6] << 8) | b[7],
    (b[8] << 8) | b[9],
    (b[10] << 8) | b[11],
  );
}

/** A value's hashed form, or undefined when it has none. */
function partOf(value: unknown): Part | undefined {
  switch (typeof value) {
    case "number":
    case "boolean":
      return value;
    case "string":
      return `s${value}`;
    case "undefined":
      return null; // missing and null index alike
    case "object": {
      if (value === null) return null;
      if (value instanceof Date) return `d${value.getTime()}`;
      return (value as { _bsontype?: unknown })._bsontype === "ObjectId"
        ? objectIdPart(value as ObjectIdLike)
        : undefined;
    }
    default:
      return undefined;
  }
}

/** The hashed forms of a key's values, or undefined when any value has none. */
function partsOf(key: readonly unknown[]): Part[] | undefined {
  const parts: Part[] = [];
  for (const value of key) {
    const part = partOf(value);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return parts;
}

export class KeyHash {
  private readonly root: Level = new Map();

  /**
   * The record of `key`: a record id, null when the hash holds no equal key, undefined when `key` has no hashed form.
   */
  get(key: readonly unknown[]): number | null | undefined {
    let node: Level | number | undefined = this.root;
    for (const value of key) {
      const part = partOf(value);
      if (part === undefined) return undefined;
      node = (node as Level).get(part);
      if (node === undefined) return null;
    }
    return node as number;
  }

  /** Records `key` -> `rid`; false (holding nothing) when `key` has no hashed form. */
  set(key: readonly unknown[], rid: number): boolean {
    const parts = partsOf(key);
    if (!parts) return false;
    let level = this.root;
    for (let i = 0; i < parts.length - 1; i++) {
      let next = level.get(parts[i]) as Level | undefined;
      if (!next) level.set(parts[i], (next = new Map()));
      level = next;
    }
    level.set(parts[parts.length - 1], rid);
    return true;
  }

  /** Forgets `key` if it leads to `rid`; false when `key` has no hashed form. */
  delete(key: readonly unknown[], rid: number): boolean {
    const parts = partsOf(key);
    if (!parts) return false;
    const path: Level[] = [this.root];
    for (let i = 0; i < parts.length - 1; i++) {
      const next = path[i].get(parts[i]) as Level | undefined;
      if (!next) return true;
      path.push(next);
    }
    const leaf = path[path.length - 1];
    if (leaf.get(parts[parts.length - 1]) !== rid) return true;
    leaf.delete(parts[parts.length - 1]);
    // Prune levels left empty, so a hash of deleted keys does not keep their maps.
    for (let i = path.length - 1; i > 0 && path[i].size === 0; i--) path[i - 1].delete(parts[i - 1]);
    return true;
  }
}
