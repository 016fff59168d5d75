// A transaction's own writes, findable by the value of a top-level field. A read inside a transaction sees its
// writes on top of the snapshot; testing each of them against every filter made a transaction of n writes, each
// preceded by a read (an update finds its record first), cost O(n²): a merge re-pointing 1,000 records spent 6 s
// there. Built per field on the first read that asks for it, then kept up to date with every write, so such a read
// tests only the written documents that can match.
import { ObjectId, type Document } from "bson";
import { isOperatorDocument } from "../bson-values.js";

/** A value an equality on a field compares as a key does (what the planner calls a point). */
type Key = number | boolean | string;

function keyOf(value: unknown): Key | undefined {
  if (typeof value === "number") return Number.isNaN(value) ? undefined : value;
  if (typeof value === "boolean") return value;
  // Prefixed, so that a string and a date or an id never share a key.
  if (typeof value === "string") return `s${value}`;
  if (value instanceof Date) return `d${value.getTime()}`;
  if (value instanceof ObjectId) return `o${value.toHexString()}`;
  return undefined;
}

/** The keys of `{field: value}`, `{field: {$eq: value}}` or `{field: {$in: [values]}}` on a top-level field. */
function pointKeys(condition: unknown): Key[] | undefined {
  const one = keyOf(condition);
  if (one !== undefined) return [one];
  if (!isOperatorDocument(condition)) return undefined;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return undefined;
  if (operators[0] === "$eq") return pointKeys(condition.$eq);
  if (operators[0] !== "$in" || !Array.isArray(condition.$in)) return undefined;
  const keys = condition.$in.map(keyOf);
  return keys.every((key) => key !== undefined) ? (keys as Key[]) : undefined;
}

/** The first top-level field a filter pins to a few values, and their keys. */
export function pinnedField(filter: Document): { field: string; keys: Key[] } | undefined {
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith("$") || field.includes(".")) continue;
    const keys = pointKeys(condition);
    if (keys !== undefined) return { field, keys };
  }
  return undefined;
}

class FieldIndex {
  private readonly byKey = new Map<Key, Set<number>>();
  /** Documents whose value is no key (an array, a sub-document, ...): they may match, so they are always tested. */
  private readonly loose = new Set<number>();

  constructor(private readonly field: string) {}

  add(rid: number, doc: Document | null): void {
    if (doc === null || !Object.hasOwn(doc, this.field)) return;
    const value: unknown = doc[this.field];
    // A missing or null field matches no point.
    if (value === null || value === undefined) return;
    const key = keyOf(value);
    if (key === undefined) this.loose.add(rid);
    else {
      let rids = this.byKey.get(key);
      if (rids === undefined) this.byKey.set(key, (rids = new Set()));
      rids.add(rid);
    }
  }

  remove(rid: number, doc: Document | null): void {
    if (doc === null || !Object.hasOwn(doc, this.field)) return;
    const key = keyOf(doc[this.field]);
    if (key === undefined) this.loose.delete(rid);
    else this.byKey.get(key)?.delete(rid);
  }

  candidates(keys: readonly Key[]): Set<number> {
    const found = new Set(this.loose);
    for (const key of keys) for (const rid of this.byKey.get(key) ?? []) found.add(rid);
    return found;
  }
}

/** The written documents of one collection in one transaction (rid -> document, null when deleted). */
export class OverlayWrites {
  private readonly docs = new Map<number, Document | null>();
  private readonly indexes = new Map<string, FieldIndex>();

  get size(): number {
    return this.docs.size;
  }

  has(rid: number): boolean {
    return this.docs.has(rid);
  }

  get(rid: number): Document | null | undefined {
    return this.docs.get(rid);
  }

  values(): IterableIterator<Document | null> {
    return this.docs.values();
  }

  set(rid: number, doc: Document | null): void {
    const previous = this.docs.get(rid);
    for (const index of this.indexes.values()) {
      if (previous !== undefined) index.remove(rid, previous);
      index.add(rid, doc);
    }
    this.docs.set(rid, doc);
  }

  /** The written documents that may match `filter` (all when it pins no top-level field), deleted ones left out. */
  *candidates(filter: Document): Generator<[number, Document]> {
    const pinned = pinnedField(filter);
    if (pinned === undefined) {
      for (const [rid, doc] of this.docs) if (doc !== null) yield [rid, doc];
      return;
    }
    let index = this.indexes.get(pinned.field);
    if (index === undefined) {
      this.indexes.set(pinned.field, (index = new FieldIndex(pinned.field)));
      for (const [rid, doc] of this.docs) index.add(rid, doc);
    }
    for (const rid of index.candidates(pinned.keys)) {
      const doc = this.docs.get(rid);
      if (doc) yield [rid, doc];
    }
  }
}
