// A collection: documents by internal record id plus their indexes. Stored documents are
// never mutated in place (updates store a new object), so readers, cursors and snapshots can
// hold references without copying.
import type { Document } from "bson";
import { CommandError, ErrorCodes } from "../errors.js";
import { compareValues } from "../bson-order.js";
import { SecondaryIndex, normaliseIndexSpec, sameIndexOptions, type IndexSpec } from "./secondary-index.js";

export const ID_INDEX_NAME = "_id_";

function sameKeys(a: unknown[][], b: unknown[][]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < a[i].length; j++) if (compareValues(a[i][j], b[i][j]) !== 0) return false;
  }
  return true;
}

export class Collection {
  readonly docs = new Map<number, Document>();
  readonly indexes = new Map<string, SecondaryIndex>();
  /** Commit sequence of each record's last write: how transactions detect write conflicts. */
  readonly lastWrite = new Map<number, number>();
  /**
   * Before-images of records written while a transaction is open (rid -> changes in commit
   * order): a transaction reads the collection as it was when it started. Cleared when no
   * transaction is open.
   */
  readonly history = new Map<number, Array<{ seq: number; before: Document | null }>>();
  private nextRid = 1;

  constructor(
    readonly db: string,
    public name: string,
    readonly options: Document = {},
  ) {
    this.indexes.set(ID_INDEX_NAME, new SecondaryIndex({ v: 2, key: { _id: 1 }, name: ID_INDEX_NAME }));
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  get idIndex(): SecondaryIndex {
    return this.indexes.get(ID_INDEX_NAME)!;
  }

  recordBefore(rid: number, seq: number, before: Document | null): void {
    let changes = this.history.get(rid);
    if (!changes) this.history.set(rid, (changes = []));
    changes.push({ seq, before });
  }

  /** Forgets the changes made at or before `seq` (Infinity: all of them). */
  pruneHistory(seq: number): void {
    if (seq === Infinity) {
      this.history.clear();
      return;
    }
    for (const [rid, changes] of this.history) {
      const kept = changes.filter((change) => change.seq > seq);
      if (kept.length === 0) this.history.delete(rid);
      else if (kept.length !== changes.length) this.history.set(rid, kept);
    }
  }

  /** The record as of commit sequence `seq`: undefined when unchanged since, null when it did not exist. */
  versionAt(rid: number, seq: number): Document | null | undefined {
    return this.history.get(rid)?.find((change) => change.seq > seq)?.before;
  }

  allocateRid(): number {
    return this.nextRid++;
  }

  ridById(id: unknown): number | undefined {
    return this.idIndex.conflictFor([id], -1);
  }

  /** Throws the duplicate key error a write of `doc` as record `rid` would raise, if any. */
  checkUnique(rid: number, doc: Document): Map<SecondaryIndex, unknown[][]> {
    const keysByIndex = new Map<SecondaryIndex, unknown[][]>();
    for (const index of this.indexes.values()) {
      const keys = index.keysOf(doc);
      keysByIndex.set(index, keys);
      if (!index.unique) continue;
      for (const key of keys)
        if (index.conflictFor(key, rid) !== undefined) throw index.duplicateKeyError(this.ns, key);
    }
    return keysByIndex;
  }

  insert(doc: Document, rid = this.allocateRid(), seq = 0): number {
    const keysByIndex = this.checkUnique(rid, doc);
    for (const [index, keys] of keysByIndex) index.add(rid, keys);
    this.docs.set(rid, doc);
    if (rid >= this.nextRid) this.nextRid = rid + 1;
    this.lastWrite.set(rid, seq);
    return rid;
  }

  replace(rid: number, doc: Document, seq = 0): void {
    const old = this.docs.get(rid);
    if (!old) throw new CommandError(ErrorCodes.InternalError, `record ${rid} vanished from ${this.ns}`);
    const keysByIndex = this.checkUnique(rid, doc);
    for (const [index, keys] of keysByIndex) {
      const oldKeys = index.keysOf(old);
      if (sameKeys(oldKeys, keys)) continue;
      // Only the keys that changed: a search entry's words index holds ~100 keys, each in postings that may be
      // long, and an edit changes few of them.
      const { removed, added } = index.changedKeys(oldKeys, keys);
      index.remove(rid, removed);
      index.add(rid, added);
    }
    this.docs.set(rid, doc);
    this.lastWrite.set(rid, seq);
  }

  remove(rid: number): Document | undefined {
    const old = this.docs.get(rid);
    if (!old) return undefined;
    for (const index of this.indexes.values()) index.remove(rid, index.keysOf(old));
    this.docs.delete(rid);
    this.lastWrite.delete(rid);
    return old;
  }

  /** Builds an index over the existing documents; all or nothing. Returns false when an identical index exists. */
  createIndex(raw: Document): boolean {
    const spec = normaliseIndexSpec(raw);
    for (const existing of this.indexes.values()) {
      const sameKey = JSON.stringify(existing.spec.key) === JSON.stringify(spec.key);
      if (existing.name === spec.name) {
        if (sameKey && sameIndexOptions(existing.spec, spec)) return false;
        throw new CommandError(
          ErrorCodes.IndexKeySpecsConflict,
          `An existing index has the same name as the requested index but different options or key. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing.spec)}`,
        );
      }
      if (sameKey) {
        if (sameIndexOptions(existing.spec, spec))
          throw new CommandError(
            ErrorCodes.IndexOptionsConflict,
            `Index already exists with a different name: ${existing.name}`,
          );
        throw new CommandError(
          ErrorCodes.IndexOptionsConflict,
          `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing.spec)}`,
        );
      }
    }
    const index = new SecondaryIndex(spec);
    for (const [rid, doc] of this.docs) {
      const keys = index.keysOf(doc);
      if (index.unique)
        for (const key of keys)
          if (index.conflictFor(key, rid) !== undefined) throw index.duplicateKeyError(this.ns, key);
      index.add(rid, keys);
    }
    this.indexes.set(spec.name, index);
    return true;
  }

  dropIndex(name: string): void {
    if (name === ID_INDEX_NAME) throw new CommandError(ErrorCodes.InvalidOptions, "cannot drop _id index");
    if (!this.indexes.delete(name))
      throw new CommandError(ErrorCodes.IndexNotFound, `index not found with name [${name}]`);
  }

  indexSpecs(): IndexSpec[] {
    return [...this.indexes.values()].map((index) => index.spec);
  }

  findIndexByKey(key: Document): SecondaryIndex | undefined {
    const wanted = JSON.stringify(normaliseIndexSpec({ key, name: "_" }).key);
    return [...this.indexes.values()].find((index) => JSON.stringify(index.spec.key) === wanted);
  }
}
