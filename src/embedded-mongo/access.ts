// What a CRUD command needs from a collection, independent of whether it runs inside a
// transaction: the committed implementation writes through the catalog (and so the
// journal); the transactional one (txn/transaction.ts) buffers writes in an overlay.
import type { Document } from "bson";
import type { Catalog } from "./store/catalog.js";
import type { Collection } from "./store/collection.js";
import { countRecords, selectRecords, type ReadRequest } from "./store/executor.js";
import type { GroupKey } from "./query/group-count.js";
import { countValues } from "./store/value-counts.js";

export interface FoundRecord {
  rid: number;
  doc: Document;
}

/**
 * A write outside a transaction reached a document an open transaction has written. As in
 * MongoDB it waits for that transaction to end (commit, abort, or its lifetime limit) and
 * is then retried; the engine does the waiting.
 */
export class WriteBlocked extends Error {
  constructor(
    private readonly finished: Promise<void>,
    /** When the transaction's lifetime limit runs out. */
    private readonly deadline: number,
    /** Ends the transaction as its lifetime limit does (abort). */
    private readonly expire: () => void,
  ) {
    super("write blocked by an open transaction");
  }

  async wait(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>(
      (resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, this.deadline - Date.now()))),
    );
    const outcome = await Promise.race([this.finished.then(() => false), expired]);
    clearTimeout(timer);
    if (outcome) this.expire();
  }
}

/** Throws WriteBlocked when an open transaction holds record `rid` of namespace `ns`. */
export type WriteGate = (ns: string, rid: number) => void;

/** A complete index on `field` that has never gone multikey: no stored document holds an array there. */
export function scalarIndexed(collection: Collection | undefined, field: string): boolean {
  if (!collection) return true;
  return [...collection.indexes.values()].some(
    (index) => index.fields.includes(field) && index.complete && !index.multikey,
  );
}

export interface CollectionAccess {
  readonly db: string;
  readonly name: string;
  find(request: ReadRequest): FoundRecord[];
  /** Called with every record a statement will replace or remove, before it changes any. */
  prepareWrite(rids: number[]): void;
  count(filter: Document, skip: number, limit: number, hint?: unknown): number;
  /** Whether `field` is never an array in any document: a complete index on it has never gone multikey. */
  scalarField(field: string): boolean;
  /**
   * How many of the records `rids` (distinct, as `find` gave them) hold each value of `path`, as a $group on it
   * (after an $unwind of it, when `unwind`) counts them, read from an index on it (store/value-counts.ts); undefined
   * when the records are to be read instead.
   */
  valueCounts(path: string, rids: readonly number[], unwind: boolean): Map<GroupKey, number> | undefined;
  insert(doc: Document): void;
  replace(rid: number, doc: Document): void;
  remove(rid: number): void;
  /** All documents, for aggregation sources and $lookup. */
  all(): Document[];
}

export class CommittedAccess implements CollectionAccess {
  constructor(
    private readonly catalog: Catalog,
    readonly db: string,
    readonly name: string,
    private readonly gate: WriteGate = () => undefined,
  ) {}

  private get collection(): Collection | undefined {
    return this.catalog.get(this.db, this.name);
  }

  find(request: ReadRequest): FoundRecord[] {
    const collection = this.collection;
    if (!collection) return [];
    return selectRecords(collection, request).map((rid) => ({ rid, doc: collection.docs.get(rid)! }));
  }

  count(filter: Document, skip: number, limit: number, hint?: unknown): number {
    const collection = this.collection;
    return collection ? countRecords(collection, filter, skip, limit, hint) : 0;
  }

  scalarField(field: string): boolean {
    return scalarIndexed(this.collection, field);
  }

  valueCounts(path: string, rids: readonly number[], unwind: boolean): Map<GroupKey, number> | undefined {
    const collection = this.collection;
    return collection ? countValues(collection, path, rids, unwind) : undefined;
  }

  prepareWrite(rids: number[]): void {
    const ns = `${this.db}.${this.name}`;
    for (const rid of rids) this.gate(ns, rid);
  }

  insert(doc: Document): void {
    this.catalog.insert(this.catalog.ensure(this.db, this.name), doc);
  }

  replace(rid: number, doc: Document): void {
    this.catalog.replace(this.catalog.require(this.db, this.name), rid, doc);
  }

  remove(rid: number): void {
    this.catalog.remove(this.catalog.require(this.db, this.name), rid);
  }

  all(): Document[] {
    return [...(this.collection?.docs.values() ?? [])];
  }
}
