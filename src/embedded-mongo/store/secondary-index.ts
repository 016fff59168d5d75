// One index of a collection: its (key, record id) entries in order, in a posting tree (a key's records held together,
// posting-tree.ts). Entries are unique because the record id breaks ties, and ranked, so "skip k" and "count in
// range" are O(log n) rank arithmetic, which is what keeps deep pages as cheap as the first.
import type { Document } from "bson";
import { Query } from "mingo";
import { CommandError, ErrorCodes } from "../errors.js";
import { compareValues } from "../bson-order.js";
import { extractKeys, missingAll } from "./index-keys.js";
import { KeyHash } from "./key-hash.js";
import { indexEntry } from "./index-entry.js";
import { PostingTree } from "./posting-tree.js";
import { shared } from "./shared-strings.js";

export interface IndexSpec {
  v?: number;
  name: string;
  key: Record<string, number>;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  [option: string]: unknown;
}

export class SecondaryIndex {
  readonly fields: string[];
  readonly paths: string[][];
  readonly directions: number[];
  readonly tree: PostingTree;
  /** Set once any document produced keys through an array; never cleared, as in MongoDB. */
  multikey = false;
  /** Per field: set once a document's value for it was an array (MongoDB's multikey paths); never cleared. */
  readonly multikeyFields: boolean[];
  /**
   * Per field: false once a document's keys for it were not one per element of an array at the path's end (see
   * ExtractedKeys.unlikeUnwind); never set back.
   */
  readonly unwindsAsKeyed: boolean[];
  private readonly partial?: Query;
  /** Unique indexes only: the record of each entry whose key has a hashed form (key-hash.ts). */
  private readonly hash?: KeyHash;
  /** Entries without a hash key: while there are any, a hash miss proves nothing. */
  private unhashed = 0;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((field) => field.split("."));
    this.directions = this.fields.map((field) => (spec.key[field] < 0 ? -1 : 1));
    this.multikeyFields = this.fields.map(() => false);
    this.unwindsAsKeyed = this.fields.map(() => true);
    const directions = this.directions;
    this.tree = new PostingTree((a, b) => {
      const lead = compareValues(a.h, b.h);
      if (lead !== 0) return lead * directions[0]!;
      for (let i = 1; i < directions.length; i++) {
        const c = compareValues(a.k[i], b.k[i]);
        if (c !== 0) return c * directions[i];
      }
      return 0;
    });
    if (spec.partialFilterExpression) this.partial = new Query(spec.partialFilterExpression, {});
    if (this.unique) this.hash = new KeyHash();
  }

  get name(): string {
    return this.spec.name;
  }

  /** `_id_` is unique although MongoDB lists it without `unique: true`. */
  get unique(): boolean {
    return this.spec.unique === true || this.spec.name === "_id_";
  }

  /** Sparse and partial indexes hold only some documents, so the planner may not use them to find "all matches". */
  get complete(): boolean {
    return !this.spec.sparse && !this.partial;
  }

  /**
   * A sparse index without a partial filter: it leaves out only documents missing all its fields, so it holds every
   * document a point or a typed range on its leading field can match (MongoDB uses sparse indexes for those).
   */
  get sparseOnly(): boolean {
    return this.spec.sparse === true && !this.partial;
  }

  /** The keys a document contributes, or none when a sparse/partial index leaves it out. */
  keysOf(doc: Document): unknown[][] {
    if (this.spec.sparse && missingAll(doc, this.paths)) return [];
    if (this.partial && !this.partial.test(doc)) return [];
    const { keys, multikey, arrayFields, unlikeUnwind } = extractKeys(doc, this.paths);
    unlikeUnwind.forEach((unlike, i) => {
      if (unlike) this.unwindsAsKeyed[i] = false;
    });
    if (multikey) {
      this.multikey = true;
      arrayFields.forEach((isArray, i) => {
        if (isArray) this.multikeyFields[i] = true;
      });
    }
    return keys;
  }

  /** Compares an entry's key with a key prefix, ignoring the record id (for probes). */
  compareKey(entryKey: unknown[], probe: unknown[]): number {
    return this.compareFrom(entryKey, probe, 0);
  }

  private compareFrom(entryKey: unknown[], probe: unknown[], from: number): number {
    for (let i = from; i < probe.length; i++) {
      const c = compareValues(entryKey[i], probe[i]);
      if (c !== 0) return c * this.directions[i]!;
    }
    return 0;
  }

  /** Compares an entry with a key prefix: the tree comparison of every probe into this index. */
  readonly compareEntry = (entry: { k: unknown[]; h: unknown }, prefix: unknown[]): number => {
    if (prefix.length === 0) return 0;
    const lead = compareValues(entry.h, prefix[0]);
    return lead !== 0 ? lead * this.directions[0]! : this.compareFrom(entry.k, prefix, 1);
  };

  /** Rank of the first entry whose key, cut to `prefix`'s length, is >= `prefix`. */
  lowerBound(prefix: unknown[]): number {
    return this.tree.lowerBound(prefix, this.compareEntry);
  }

  /** Rank of the first entry whose key, cut to `prefix`'s length, is > `prefix`. */
  upperBound(prefix: unknown[]): number {
    return this.tree.upperBound(prefix, this.compareEntry);
  }

  /**
   * Unique indexes: the record whose key equals `key`, null when no entry does, undefined when
   * only the tree can tell (no hash, or entries the hash cannot hold).
   */
  hashLookup(key: unknown[]): number | null | undefined {
    const found = this.hash?.get(key);
    return found === null && this.unhashed > 0 ? undefined : found;
  }

  /** The record holding `key` in this unique index, other than `self`. */
  conflictFor(key: unknown[], self: number): number | undefined {
    const hashed = this.hashLookup(key);
    // A unique index holds a key once, so a hit on `self` means no other record has it.
    if (hashed !== undefined) return hashed !== null && hashed !== self ? hashed : undefined;
    const start = this.lowerBound(key);
    for (const entry of this.tree.range(start, this.tree.size)) {
      if (this.compareKey(entry.k, key) !== 0) return undefined;
      if (entry.r !== self) return entry.r;
    }
    return undefined;
  }

  add(rid: number, keys: unknown[][]): void {
    for (const k of keys) {
      for (let i = 0; i < k.length; i++) if (typeof k[i] === "string") k[i] = shared(k[i] as string);
      if (!this.tree.insert(indexEntry(k, rid))) continue;
      if (this.hash && !this.hash.set(k, rid)) this.unhashed++;
    }
  }

  /** The keys of `before` not in `after`, and those of `after` not in `before`. */
  changedKeys(before: unknown[][], after: unknown[][]): { removed: unknown[][]; added: unknown[][] } {
    const order = (a: unknown[], b: unknown[]) => this.compareKey(a, b);
    const old = [...before].sort(order);
    const now = [...after].sort(order);
    const removed: unknown[][] = [];
    const added: unknown[][] = [];
    let i = 0;
    let j = 0;
    while (i < old.length || j < now.length) {
      const c = i === old.length ? 1 : j === now.length ? -1 : order(old[i]!, now[j]!);
      if (c < 0) removed.push(old[i++]!);
      else if (c > 0) added.push(now[j++]!);
      else {
        i++;
        j++;
      }
    }
    return { removed, added };
  }

  remove(rid: number, keys: unknown[][]): void {
    for (const k of keys) {
      if (!this.tree.delete(indexEntry(k, rid))) continue;
      if (this.hash && !this.hash.delete(k, rid)) this.unhashed--;
    }
  }

  duplicateKeyError(ns: string, key: unknown[]): CommandError {
    const keyPattern: Document = {};
    const keyValue: Document = {};
    this.fields.forEach((field, i) => {
      keyPattern[field] = this.spec.key[field];
      keyValue[field] = key[i];
    });
    const shown = this.fields.map((field, i) => `${field}: ${JSON.stringify(key[i])}`).join(", ");
    return new CommandError(
      ErrorCodes.DuplicateKey,
      `E11000 duplicate key error collection: ${ns} index: ${this.name} dup key: { ${shown} }`,
      { keyPattern, keyValue },
    );
  }
}

/** Validates a createIndexes spec and fills in the defaults MongoDB reports back. */
export function normaliseIndexSpec(raw: Document): IndexSpec {
  const key = raw.key;
  if (typeof key !== "object" || key === null || Array.isArray(key) || Object.keys(key).length === 0) {
    throw new CommandError(ErrorCodes.CannotCreateIndex, "Index key pattern must be a non-empty object");
  }
  const directions: Array<[string, number]> = [];
  for (const [field, direction] of Object.entries(key as Document)) {
    if (typeof direction === "string") {
      throw new CommandError(
        ErrorCodes.CannotCreateIndex,
        `Index type '${direction}' is not supported by the embedded engine`,
      );
    }
    const n = Number(direction);
    if (!Number.isFinite(n) || n === 0)
      throw new CommandError(
        ErrorCodes.CannotCreateIndex,
        `Values in the index key pattern can't be 0 or non-numeric: ${field}`,
      );
    directions.push([field, n > 0 ? 1 : -1]);
  }
  // fromEntries defines each key, so a field named __proto__ is a field, not a prototype.
  const normalisedKey: Record<string, number> = Object.fromEntries(directions);
  const name =
    typeof raw.name === "string"
      ? raw.name
      : Object.entries(normalisedKey)
          .map(([f, d]) => `${f}_${d}`)
          .join("_");
  const spec: IndexSpec = { ...raw, v: 2, key: normalisedKey, name };
  if (raw.expireAfterSeconds !== undefined) {
    const ttl = Number(raw.expireAfterSeconds);
    if (!Number.isFinite(ttl) || ttl < 0)
      throw new CommandError(ErrorCodes.CannotCreateIndex, "expireAfterSeconds must be a non-negative number");
    if (Object.keys(normalisedKey).length !== 1)
      throw new CommandError(ErrorCodes.CannotCreateIndex, "TTL indexes are single-field indexes");
    spec.expireAfterSeconds = ttl;
  }
  return spec;
}

/** Options that make two indexes on the same key pattern different indexes. */
export function sameIndexOptions(a: IndexSpec, b: IndexSpec): boolean {
  const pick = (s: IndexSpec) =>
    JSON.stringify([!!s.unique, !!s.sparse, s.partialFilterExpression ?? null, s.expireAfterSeconds ?? null]);
  return pick(a) === pick(b);
}
