// Databases and their collections, and the only door through which state changes. Every
// change is applied in memory and recorded as a Mutation; the server journals the
// mutations of one command (or one committed transaction) as a single record before it
// answers, and recovery replays them through the same apply().
import type { Document } from "bson";
import { CommandError, ErrorCodes } from "../errors.js";
import { Collection } from "./collection.js";

export type Mutation =
  | { op: "createCollection"; db: string; coll: string; options: Document }
  | { op: "dropCollection"; db: string; coll: string }
  | { op: "dropDatabase"; db: string }
  | { op: "rename"; db: string; coll: string; toDb: string; toColl: string }
  | { op: "createIndex"; db: string; coll: string; spec: Document }
  | { op: "dropIndex"; db: string; coll: string; name: string }
  | { op: "insert"; db: string; coll: string; docs: Document[] }
  | { op: "replace"; db: string; coll: string; doc: Document }
  | { op: "delete"; db: string; coll: string; id: unknown };

const VALID_NAME = /^[^\0$]+$/;

export function checkCollectionName(name: unknown): string {
  if (typeof name !== "string" || name.length === 0)
    throw new CommandError(ErrorCodes.InvalidNamespace, "collection name must be a non-empty string");
  if (!VALID_NAME.test(name) || name.startsWith(".") || name.startsWith("system.")) {
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid collection name: ${name}`);
  }
  return name;
}

export function checkDatabaseName(name: string): string {
  if (name.length === 0 || /[/\\. "$\0]/.test(name) || name.length > 63)
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid database name: '${name}'`);
  return name;
}

export class Catalog {
  readonly databases = new Map<string, Map<string, Collection>>();
  /** Global write sequence: increases with every applied document write. */
  seq = 0;
  private pending: Mutation[] = [];
  /** Start sequences of the open transactions (seq -> how many): writes keep before-images for them. */
  private readonly openSnapshots = new Map<number, number>();

  openSnapshot(): number {
    this.openSnapshots.set(this.seq, (this.openSnapshots.get(this.seq) ?? 0) + 1);
    return this.seq;
  }

  closeSnapshot(seq: number): void {
    const left = (this.openSnapshots.get(seq) ?? 1) - 1;
    if (left > 0) this.openSnapshots.set(seq, left);
    else this.openSnapshots.delete(seq);
    this.pruneHistory();
  }

  /** Drops before-images no open transaction can read: those at or before the oldest open snapshot. */
  pruneHistory(): void {
    const oldest = this.openSnapshots.size === 0 ? Infinity : Math.min(...this.openSnapshots.keys());
    for (const collections of this.databases.values()) {
      for (const collection of collections.values()) collection.pruneHistory(oldest);
    }
  }

  private keepBefore(collection: Collection, rid: number, before: Document | null): void {
    if (this.openSnapshots.size > 0) collection.recordBefore(rid, this.seq + 1, before);
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** The mutations recorded since the last call (one journal record's worth). */
  takePending(): Mutation[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  get(db: string, coll: string): Collection | undefined {
    return this.databases.get(db)?.get(coll);
  }

  require(db: string, coll: string): Collection {
    const found = this.get(db, coll);
    if (!found) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns does not exist: ${db}.${coll}`);
    return found;
  }

  /** Writes to a missing collection create it, as MongoDB does. */
  ensure(db: string, coll: string): Collection {
    return this.get(db, coll) ?? (this.apply({ op: "createCollection", db, coll, options: {} }) as Collection);
  }

  insert(collection: Collection, doc: Document): number {
    const rid = collection.allocateRid();
    this.keepBefore(collection, rid, null);
    collection.insert(doc, rid, ++this.seq);
    this.pending.push({ op: "insert", db: collection.db, coll: collection.name, docs: [doc] });
    return rid;
  }

  replace(collection: Collection, rid: number, doc: Document): void {
    this.keepBefore(collection, rid, collection.docs.get(rid) ?? null);
    collection.replace(rid, doc, ++this.seq);
    this.pending.push({ op: "replace", db: collection.db, coll: collection.name, doc });
  }

  remove(collection: Collection, rid: number): Document | undefined {
    this.keepBefore(collection, rid, collection.docs.get(rid) ?? null);
    const old = collection.remove(rid);
    this.seq++;
    if (old) this.pending.push({ op: "delete", db: collection.db, coll: collection.name, id: old._id });
    return old;
  }

  /** Applies a mutation (from a command or from recovery) and records it for the journal. */
  apply(mutation: Mutation): unknown {
    const result = this.applyUnlogged(mutation);
    this.pending.push(mutation);
    return result;
  }

  /** Recovery: rebuild state without recording mutations again. */
  replay(mutation: Mutation): void {
    this.applyUnlogged(mutation);
  }

  private applyUnlogged(m: Mutation): unknown {
    switch (m.op) {
      case "createCollection": {
        let db = this.databases.get(m.db);
        if (!db) this.databases.set(m.db, (db = new Map()));
        if (db.has(m.coll))
          throw new CommandError(ErrorCodes.NamespaceExists, `Collection ${m.db}.${m.coll} already exists.`);
        const created = new Collection(m.db, m.coll, m.options);
        db.set(m.coll, created);
        return created;
      }
      case "dropCollection":
        return this.databases.get(m.db)?.delete(m.coll) ?? false;
      case "dropDatabase":
        return this.databases.delete(m.db);
      case "rename": {
        const source = this.require(m.db, m.coll);
        this.databases.get(m.db)!.delete(m.coll);
        let target = this.databases.get(m.toDb);
        if (!target) this.databases.set(m.toDb, (target = new Map()));
        const moved = new Collection(m.toDb, m.toColl, source.options);
        for (const spec of source.indexSpecs()) if (spec.name !== "_id_") moved.createIndex(spec);
        for (const [rid, doc] of source.docs) moved.insert(doc, rid);
        target.set(m.toColl, moved);
        return moved;
      }
      case "createIndex":
        return this.ensure(m.db, m.coll).createIndex(m.spec);
      case "dropIndex":
        return this.require(m.db, m.coll).dropIndex(m.name);
      case "insert": {
        const collection = this.ensure(m.db, m.coll);
        for (const doc of m.docs) collection.insert(doc, undefined, ++this.seq);
        return undefined;
      }
      case "replace": {
        const collection = this.require(m.db, m.coll);
        const rid = collection.ridById(m.doc._id);
        if (rid === undefined)
          throw new CommandError(
            ErrorCodes.InternalError,
            `replay: no document ${String(m.doc._id)} in ${m.db}.${m.coll}`,
          );
        collection.replace(rid, m.doc, ++this.seq);
        return undefined;
      }
      case "delete": {
        const collection = this.require(m.db, m.coll);
        const rid = collection.ridById(m.id);
        if (rid !== undefined) collection.remove(rid);
        this.seq++;
        return undefined;
      }
    }
  }

  /**
   * The whole state as mutations, for a snapshot. The references are captured now, in this
   * tick (documents are immutable), and serialised lazily while later writes carry on.
   */
  snapshot(batchSize = 1000): Iterable<Mutation> {
    const frozen = [...this.databases].map(([db, colls]) => ({
      db,
      colls: [...colls.values()].map((c) => ({
        name: c.name,
        options: c.options,
        docs: [...c.docs.values()],
        specs: c.indexSpecs(),
      })),
    }));
    return (function* (): Generator<Mutation> {
      for (const { db, colls } of frozen) {
        for (const { name, options, docs, specs } of colls) {
          yield { op: "createCollection", db, coll: name, options };
          for (const spec of specs) if (spec.name !== "_id_") yield { op: "createIndex", db, coll: name, spec };
          for (let i = 0; i < docs.length; i += batchSize)
            yield { op: "insert", db, coll: name, docs: docs.slice(i, i + batchSize) };
        }
      }
    })();
  }
}
