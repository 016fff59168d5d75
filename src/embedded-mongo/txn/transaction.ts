// A multi-document transaction: its writes are buffered in an overlay that only its own
// session sees, and applied to the catalog in one step at commit (one journal record).
// Conflicts are first-writer-wins, as in MongoDB: touching a document that another open
// transaction has written, or that was committed after this transaction started, is a
// WriteConflict (112) carrying the TransientTransactionError label so drivers retry.
import type { Document } from "bson";
import { scalarIndexed, type CollectionAccess, type FoundRecord } from "../access.js";
import { CommandError, ErrorCodes } from "../errors.js";
import { compileFilter } from "../query/filter.js";
import { sortRecords } from "../query/sort.js";
import { OverlayWrites } from "./overlay-index.js";
import type { Catalog } from "../store/catalog.js";
import type { Collection } from "../store/collection.js";
import { OrderStatisticTree } from "../store/order-statistic-tree.js";
import { indexEntry, type IndexEntry } from "../store/index-entry.js";
import type { SecondaryIndex } from "../store/secondary-index.js";
import { countRecords, selectRecords, type ReadRequest } from "../store/executor.js";
import type { GroupKey } from "../query/group-count.js";
import { countValues } from "../store/value-counts.js";

export const TRANSIENT = "TransientTransactionError";

export function writeConflict(): CommandError {
  return new CommandError(
    ErrorCodes.WriteConflict,
    "Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.",
    {},
    [TRANSIENT],
  );
}

interface Overlay {
  /** rid -> the document as this transaction left it (null: deleted), findable by field (overlay-index.ts). */
  writes: OverlayWrites;
  /**
   * Per unique index (by name), the keys of this transaction's own written documents, ordered
   * as the index orders them: checking a write against the transaction's earlier writes is
   * then a lookup, not a pass over all of them (a batch insert of n documents was O(n²)).
   */
  uniqueKeys: Map<string, OrderStatisticTree<IndexEntry>>;
  /** rids that existed in the committed collection when first touched. */
  existing: Set<number>;
}

/** MongoDB's transactionLifetimeLimitSeconds default: an older open transaction is aborted. */
export const DEFAULT_TRANSACTION_LIFETIME_MS = 60_000;

export class Transaction {
  state: "active" | "committed" | "aborted" = "active";
  readonly overlays = new Map<string, Overlay>();
  readonly startedAt = Date.now();
  /** This transaction's keys in the shared `writers` map. */
  private readonly claimed = new Set<string>();
  private signalFinished!: () => void;
  /** Settles when the transaction commits or aborts. */
  readonly finished = new Promise<void>((resolve) => (this.signalFinished = resolve));

  constructor(
    readonly txnNumber: number,
    readonly startSeq: number,
    private readonly catalog: Catalog,
    /** ns + rid -> the transaction holding a write on it (shared by all transactions). */
    private readonly writers: Map<string, Transaction>,
  ) {}

  access(db: string, name: string): CollectionAccess {
    return new TransactionAccess(this, this.catalog, db, name);
  }

  overlay(ns: string): Overlay {
    let overlay = this.overlays.get(ns);
    if (!overlay)
      this.overlays.set(ns, (overlay = { writes: new OverlayWrites(), existing: new Set(), uniqueKeys: new Map() }));
    return overlay;
  }

  /** Claims a committed document for writing, or fails with a WriteConflict. */
  claim(collection: Collection, rid: number): void {
    const key = `${collection.ns}#${rid}`;
    const holder = this.writers.get(key);
    if (holder && holder !== this) throw writeConflict();
    if ((collection.lastWrite.get(rid) ?? Infinity) > this.startSeq) throw writeConflict();
    this.writers.set(key, this);
    this.claimed.add(key);
    this.overlay(collection.ns).existing.add(rid);
  }

  /** Applies the overlay to the catalog atomically: all of it, or nothing and an error. */
  commit(): void {
    const undo: Array<() => void> = [];
    try {
      for (const [ns, overlay] of this.overlays) {
        const dot = ns.indexOf(".");
        const collection = this.catalog.ensure(ns.slice(0, dot), ns.slice(dot + 1));
        for (const rid of overlay.existing) {
          if ((collection.lastWrite.get(rid) ?? Infinity) > this.startSeq) throw writeConflict();
        }
        // Remove first, then insert final images: a transaction may swap unique values.
        for (const rid of overlay.existing) {
          const old = this.catalog.remove(collection, rid);
          if (old) undo.push(() => this.catalog.insert(collection, old));
        }
        for (const doc of overlay.writes.values()) {
          if (!doc) continue;
          const rid = this.catalog.insert(collection, doc);
          undo.push(() => this.catalog.remove(collection, rid));
        }
      }
      this.state = "committed";
    } catch (error) {
      for (const step of undo.reverse()) step();
      this.state = "aborted";
      throw error instanceof CommandError && error.code === ErrorCodes.DuplicateKey ? writeConflict() : error;
    } finally {
      this.release();
    }
  }

  abort(): void {
    this.state = "aborted";
    this.overlays.clear();
    this.release();
  }

  private released = false;

  private release(): void {
    if (this.released) return;
    this.released = true;
    for (const key of this.claimed) this.writers.delete(key);
    this.catalog.closeSnapshot(this.startSeq);
    this.signalFinished();
  }
}

class TransactionAccess implements CollectionAccess {
  constructor(
    private readonly txn: Transaction,
    private readonly catalog: Catalog,
    readonly db: string,
    readonly name: string,
  ) {}

  private get ns(): string {
    return `${this.db}.${this.name}`;
  }

  private get collection(): Collection | undefined {
    return this.catalog.get(this.db, this.name);
  }

  /** The collection as of the transaction's start, with its own writes on top (snapshot isolation). */
  find(request: ReadRequest): FoundRecord[] {
    const collection = this.collection;
    if (!collection) return [];
    const overlay = this.txn.overlays.get(this.ns);
    if ((!overlay || overlay.writes.size === 0) && collection.history.size === 0) {
      return selectRecords(collection, request).map((rid) => ({ rid, doc: collection.docs.get(rid)! }));
    }
    const startSeq = this.txn.startSeq;
    const touched = (rid: number) => overlay?.writes.has(rid) ?? false;
    const matches = compileFilter(request.filter);
    const merged: FoundRecord[] = [];
    for (const rid of selectRecords(collection, { ...request, skip: 0, limit: 0 })) {
      if (!touched(rid) && (collection.lastWrite.get(rid) ?? 0) <= startSeq)
        merged.push({ rid, doc: collection.docs.get(rid)! });
    }
    for (const rid of collection.history.keys()) {
      if (touched(rid)) continue;
      const before = collection.versionAt(rid, startSeq);
      if (before && matches(before)) merged.push({ rid, doc: before });
    }
    if (overlay)
      for (const [rid, doc] of overlay.writes.candidates(request.filter)) if (matches(doc)) merged.push({ rid, doc });
    const ordered = request.sort.length > 0 ? sortRecords(merged, (r) => r.doc, request.sort) : merged;
    return ordered.slice(request.skip, request.limit > 0 ? request.skip + request.limit : undefined);
  }

  count(filter: Document, skip: number, limit: number, hint?: unknown): number {
    const collection = this.collection;
    const overlay = this.txn.overlays.get(this.ns);
    if (collection && (!overlay || overlay.writes.size === 0) && collection.history.size === 0)
      return countRecords(collection, filter, skip, limit, hint);
    return this.find({ filter, sort: [], skip, limit, hint }).length;
  }

  scalarField(field: string): boolean {
    // The transaction's own writes are in no index yet: only a clean view can be vouched for.
    const overlay = this.txn.overlays.get(this.ns);
    return (!overlay || overlay.writes.size === 0) && scalarIndexed(this.collection, field);
  }

  valueCounts(path: string, rids: readonly number[], unwind: boolean): Map<GroupKey, number> | undefined {
    // As scalarField: the index holds what the transaction sees only while nothing since its start or of its own is
    // outside it.
    const collection = this.collection;
    const overlay = this.txn.overlays.get(this.ns);
    const clean = collection !== undefined && (!overlay || overlay.writes.size === 0) && collection.history.size === 0;
    return clean ? countValues(collection, path, rids, unwind) : undefined;
  }

  insert(doc: Document): void {
    const collection = this.catalog.ensure(this.db, this.name);
    const rid = collection.allocateRid();
    this.checkUnique(collection, rid, doc);
    this.txn.overlay(this.ns).writes.set(rid, doc);
  }

  replace(rid: number, doc: Document): void {
    const collection = this.catalog.require(this.db, this.name);
    this.claimIfCommitted(collection, rid);
    this.checkUnique(collection, rid, doc);
    this.txn.overlay(this.ns).writes.set(rid, doc);
  }

  remove(rid: number): void {
    const collection = this.catalog.require(this.db, this.name);
    this.claimIfCommitted(collection, rid);
    this.forgetKeys(collection, this.txn.overlay(this.ns), rid);
    this.txn.overlay(this.ns).writes.set(rid, null);
  }

  all(): Document[] {
    return this.find({ filter: {}, sort: [], skip: 0, limit: 0 }).map((r) => r.doc);
  }

  prepareWrite(rids: number[]): void {
    const collection = this.catalog.require(this.db, this.name);
    for (const rid of rids) this.claimIfCommitted(collection, rid);
  }

  private claimIfCommitted(collection: Collection, rid: number): void {
    const overlay = this.txn.overlays.get(this.ns);
    if (overlay?.existing.has(rid)) return;
    if (collection.docs.has(rid)) this.txn.claim(collection, rid);
  }

  /** Unique indexes hold over the committed documents this transaction has not touched plus its own writes. */
  private checkUnique(collection: Collection, rid: number, doc: Document): void {
    const overlay = this.txn.overlay(this.ns);
    const added: Array<{ index: SecondaryIndex; keys: unknown[][] }> = [];
    for (const index of collection.indexes.values()) {
      if (!index.unique) continue;
      const keys = index.keysOf(doc);
      const own = this.ownKeys(overlay, index);
      for (const key of keys) {
        const start = index.lowerBound(key);
        for (const entry of index.tree.range(start, index.tree.size)) {
          if (index.compareKey(entry.k, key) !== 0) break;
          if (entry.r !== rid && !overlay.writes.has(entry.r)) throw index.duplicateKeyError(collection.ns, key);
        }
        const first = own.lowerBound(key, index.compareEntry);
        for (const entry of own.range(first, own.size)) {
          if (index.compareKey(entry.k, key) !== 0) break;
          if (entry.r !== rid) throw index.duplicateKeyError(collection.ns, key);
        }
      }
      added.push({ index, keys });
    }
    // Every index accepted the document: its keys replace the ones its previous version held.
    this.forgetKeys(collection, overlay, rid);
    for (const { index, keys } of added) for (const k of keys) this.ownKeys(overlay, index).insert(indexEntry(k, rid));
  }

  private ownKeys(overlay: Overlay, index: SecondaryIndex): OrderStatisticTree<IndexEntry> {
    let tree = overlay.uniqueKeys.get(index.name);
    if (!tree)
      overlay.uniqueKeys.set(
        index.name,
        (tree = new OrderStatisticTree<IndexEntry>((a, b) => index.compareKey(a.k, b.k) || a.r - b.r)),
      );
    return tree;
  }

  /** Drops the unique keys of the transaction's current version of `rid`, if it wrote one. */
  private forgetKeys(collection: Collection, overlay: Overlay, rid: number): void {
    const previous = overlay.writes.get(rid);
    if (!previous) return;
    for (const index of collection.indexes.values()) {
      if (!index.unique) continue;
      for (const k of index.keysOf(previous)) this.ownKeys(overlay, index).delete(indexEntry(k, rid));
    }
  }
}
