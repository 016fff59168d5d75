// What a CRUD command needs from a collection, independent of whether it runs inside a
// transaction: the committed implementation writes through the catalog (and so the
// journal); the transactional one (txn/transaction.ts) buffers writes in an overlay.
import type { Document } from "bson";
import type { Catalog } from "../store/catalog.js";
import type { Collection } from "../store/collection.js";
import { countRecords, selectRecords, type ReadRequest } from "../store/executor.js";

export interface FoundRecord {
  rid: number;
  doc: Document;
}

export interface CollectionAccess {
  readonly db: string;
  readonly name: string;
  find(request: ReadRequest): FoundRecord[];
  count(filter: Document, skip: number, limit: number, hint?: unknown): number;
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
