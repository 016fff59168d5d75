// Where records live: one MongoDB collection per record type (the registry's collection
// name), documents holding the record's fields plus its numeric `id` (and `repo_id` for
// repository-scoped types), ids from an atomic per-type counter that never hands out a
// number twice, and the indexes the registry declares.
import mongoose, { type Collection as MongoCollection, type Connection } from "mongoose";
import type { Document as BsonDocument, ClientSession } from "mongodb";
import type { IndexSpec, Registry } from "../registry/index.js";

/** Stored beside the record's own fields. */
export interface StorageFields {
  id: number;
  repo_id?: number;
  /** Tree nodes only: the uri of the parent node or root record (registry TREE_PARENT_FIELD). */
  tree_parent?: string;
}

export type StoredRecord = BsonDocument & StorageFields;

/** Items a transaction writes together just before it commits, and how (RecordStore.deferUntilCommit). */
interface Deferred {
  items: unknown[];
  flush: (items: unknown[]) => Promise<void>;
}

/** What follows a commit; it must not throw (the write it follows is done whatever happens). */
export type CommitCallback = () => void | Promise<void>;

export const COUNTERS = "arca_counters";

/**
 * The first of `count` consecutive new ids of a sequence (a record type's, or an enumeration's
 * and its values'): one atomic counter write, so ids are never handed out twice nor reused.
 *
 * The write does not wait for the journal (`j: false`): ids matter only once a write using them is durable, and a
 * journal (the engine's, or MongoDB's) is one ordered log, so that write's own wait makes the counter durable before
 * it. A crash loses only ids no durable write used. (Waiting here was an fsync of its own on every create.)
 */
export async function nextIds(connection: Connection, sequence: string, count: number): Promise<number> {
  const counters = connection.collection<{ _id: string; seq: number }>(COUNTERS);
  const result = await counters.findOneAndUpdate(
    { _id: sequence },
    { $inc: { seq: count } },
    { upsert: true, returnDocument: "after", writeConcern: { j: false } },
  );
  if (!result) throw new Error(`id counter for ${sequence} did not answer`);
  return result.seq - count + 1;
}
/**
 * Gives back the last `count` ids of a counter, from `first`, when nothing was taken after them: a write that was
 * refused (a duplicate identifier, a rolled-back transaction) then leaves the counter as it found it. Ids taken by
 * someone since stay taken (a gap, as any database's sequence leaves).
 */
export async function releaseIds(
  connection: Connection,
  sequence: string,
  first: number,
  count: number,
): Promise<void> {
  const counters = connection.collection<{ _id: string; seq: number }>(COUNTERS);
  // From 1: the allocation made the counter (its upsert), which goes again; a missing counter counts from 0.
  if (first === 1) await counters.deleteOne({ _id: sequence, seq: count });
  else await counters.updateOne({ _id: sequence, seq: first + count - 1 }, { $inc: { seq: -count } });
}

/**
 * Moves a counter on to at least `id` (never back), so that ids taken by hand (start-up's fixed ids, a
 * stock install's enumeration ids) are never handed out again. Idempotent: two processes doing it at
 * once leave the same counter.
 */
export async function advanceCounter(connection: Connection, sequence: string, id: number): Promise<void> {
  const counters = connection.collection<{ _id: string; seq: number }>(COUNTERS);
  await counters.updateOne({ _id: sequence }, { $max: { seq: id } }, { upsert: true });
}

/** One document per serialization key (see `serialized`). */
const LOCKS = "arca_locks";

export class RecordStore {
  /** Lock documents known to exist, so the upsert that creates one runs once per key and process. */
  private readonly knownLocks = new Set<string>();
  /** What to run after each running transaction of this store commits (afterCommit). */
  private readonly commitCallbacks = new Map<ClientSession, CommitCallback[]>();
  /** What each running transaction's current attempt writes just before it commits (deferUntilCommit), by key. */
  private readonly deferred = new Map<ClientSession, Map<object, Deferred>>();

  constructor(
    readonly connection: Connection,
    private readonly registry: Registry,
  ) {}

  /** The raw collection of a type (lean reads, no mongoose document overhead). */
  collection(type: string): MongoCollection<StoredRecord> {
    return this.connection.collection<StoredRecord>(this.registry.get(type).collection);
  }

  /**
   * Runs `work` in a multi-document transaction, retried by the driver on a transient error
   * (a write conflict with a concurrent transaction), so `work` must read what it needs inside.
   */
  async transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = await this.connection.startSession();
    try {
      const result = await session.withTransaction(async () => {
        // Each attempt starts with no callbacks and nothing deferred: a retried attempt registers its own again.
        this.commitCallbacks.set(session, []);
        const deferred = new Map<object, Deferred>();
        this.deferred.set(session, deferred);
        const value = await work(session);
        for (const { items, flush } of deferred.values()) await flush(items);
        return value;
      });
      const callbacks = this.commitCallbacks.get(session) ?? [];
      this.commitCallbacks.delete(session);
      for (const callback of callbacks) await callback();
      return result;
    } finally {
      this.commitCallbacks.delete(session);
      this.deferred.delete(session);
      await session.endSession();
    }
  }

  /**
   * Runs `callback` once what was written with `session` is committed: at the end of that
   * transaction (never, if it aborts), or at once when there is no transaction (`session`
   * undefined, or one this store did not start: that write is already done). For what must
   * follow a write only once it is visible to everyone, such as emptying a cache. The
   * transaction returns once its callbacks are done; called outside one, the promise settles
   * when `callback` is done.
   */
  async afterCommit(session: ClientSession | undefined, callback: CommitCallback): Promise<void> {
    const pending = session === undefined ? undefined : this.commitCallbacks.get(session);
    if (pending === undefined) await callback();
    else pending.push(callback);
  }

  /**
   * Hands `items` to `flush` together with every other item deferred under `key` by the same transaction, once,
   * when its work is done and before it commits: many writes of one transaction adding to one collection make one
   * command, not one each. Outside a transaction this store runs (`session` undefined, or one it did not start),
   * `flush` runs at once. `flush` must write with the transaction's session; what it throws fails the transaction.
   */
  async deferUntilCommit<T>(
    session: ClientSession | undefined,
    key: object,
    items: readonly T[],
    flush: (items: T[]) => Promise<void>,
  ): Promise<void> {
    const attempt = session === undefined ? undefined : this.deferred.get(session);
    if (attempt === undefined) return flush([...items]);
    const queued = attempt.get(key);
    if (queued === undefined) attempt.set(key, { items: [...items], flush: flush as Deferred["flush"] });
    else queued.items.push(...items);
  }

  /**
   * A transaction that also conflicts with every other `serialized` transaction sharing one of
   * `keys` (each writes its keys' lock documents first). Snapshot isolation alone lets two
   * transactions that read the same state and insert different documents both commit (two
   * appends to one tree both taking the last position); writing a common document makes the
   * later one fail with a write conflict, and the driver retries it on the new state.
   */
  async serialized<T>(keys: readonly string[], work: (session: ClientSession) => Promise<T>): Promise<T> {
    const sorted = await this.ensureLocks(keys);
    return this.transaction(async (session) => {
      await this.writeLocks(session, sorted);
      return work(session);
    });
  }

  /**
   * What `serialized` does, for a transaction already running: from here on it conflicts with every other holder of
   * `keys`.
   */
  async lockWithin(session: ClientSession, keys: readonly string[]): Promise<void> {
    await this.writeLocks(session, await this.ensureLocks(keys));
  }

  /** The lock documents of `keys`, created if need be; returns the keys sorted (one order for every taker). */
  private async ensureLocks(keys: readonly string[]): Promise<string[]> {
    const sorted = [...new Set(keys)].sort();
    for (const key of sorted) {
      // Created outside any transaction: two transactions upserting the same new document
      // would meet on the unique _id instead of as a retryable write conflict.
      if (this.knownLocks.has(key)) continue;
      await this.locks().updateOne({ _id: key }, { $setOnInsert: { writes: 0 } }, { upsert: true });
      this.knownLocks.add(key);
    }
    return sorted;
  }

  private async writeLocks(session: ClientSession, sorted: readonly string[]): Promise<void> {
    for (const key of sorted) await this.locks().updateOne({ _id: key }, { $inc: { writes: 1 } }, { session });
  }

  private locks() {
    return this.connection.collection<{ _id: string; writes: number }>(LOCKS);
  }

  /** The next id of a type: allocated atomically, never reused even after deletes. */
  nextId(type: string): Promise<number> {
    return this.nextIds(type, 1);
  }

  /** The first of `count` consecutive new ids of a type (one counter write for a whole batch). */
  nextIds(type: string, count: number): Promise<number> {
    return nextIds(this.connection, type, count);
  }

  /** Gives back ids of a type no record was written with (see the function `releaseIds`). */
  releaseIds(type: string, first: number, count: number): Promise<void> {
    return releaseIds(this.connection, type, first, count);
  }

  /** Moves a type's counter on to at least `id` (see the function `advanceCounter`). */
  advanceCounter(type: string, id: number): Promise<void> {
    return advanceCounter(this.connection, type, id);
  }

  /**
   * Creates every index the registry declares, plus the one modified_since lists use. An index of a declared name
   * whose keys or options differ from the declaration (a store made by an earlier version) is dropped and made again.
   */
  async syncIndexes(): Promise<void> {
    for (const type of this.registry.types) {
      const collection = this.collection(type.name);
      const existing = await collection
        .listIndexes()
        .toArray()
        .catch(() => []);
      for (const spec of type.indexes) {
        const options = {
          name: spec.name,
          unique: spec.unique,
          ...(spec.sparse === true && { sparse: true }),
          ...(spec.partialFilterExpression ? { partialFilterExpression: { ...spec.partialFilterExpression } } : {}),
        };
        const found = existing.find((index) => index.name === spec.name);
        // Another node starting at the same time may have dropped it first (IndexNotFound): it is gone either way.
        if (found !== undefined && !sameIndex(found, spec))
          await collection.dropIndex(spec.name).catch((error: unknown) => {
            if (!(error instanceof mongoose.mongo.MongoServerError && error.code === INDEX_NOT_FOUND)) throw error;
          });
        await collection.createIndex({ ...spec.keys }, options);
      }
      const mtimeKeys: Record<string, 1> =
        type.scope === "repository" ? { repo_id: 1, system_mtime: 1, id: 1 } : { system_mtime: 1, id: 1 };
      await collection.createIndex(mtimeKeys, { name: "system_mtime_index" });
    }
  }
}

/** MongoDB's IndexNotFound error code. */
const INDEX_NOT_FOUND = 27;

/** Whether an index as the store lists it is the declared one: the same keys in order, uniqueness and sparseness. */
function sameIndex(listed: Record<string, unknown>, spec: IndexSpec): boolean {
  const keys = Object.entries((listed.key ?? {}) as Record<string, unknown>).map(([field, order]) => [
    field,
    Number(order),
  ]);
  return (
    JSON.stringify(keys) === JSON.stringify(Object.entries(spec.keys)) &&
    (listed.unique === true) === spec.unique &&
    (listed.sparse === true) === (spec.sparse === true) &&
    JSON.stringify(listed.partialFilterExpression ?? null) === JSON.stringify(spec.partialFilterExpression ?? null)
  );
}

/** A MongoDB duplicate-key error (E11000), with the index's key pattern. */
export function duplicateKeyPattern(error: unknown): Record<string, unknown> | undefined {
  if (error instanceof mongoose.mongo.MongoServerError && error.code === 11000) {
    return (error.keyPattern as Record<string, unknown> | undefined) ?? {};
  }
  return undefined;
}
