// The change feed: every create, update and delete of a record, in one ordered, durable, resumable sequence.
//
// A write's feed entries are inserted in the write's own transaction (a ChangeWriter, as the search index), so an
// entry exists exactly when its change is committed. They are inserted without a sequence number: numbering them
// there would make every write update one counter document, and every two concurrent writes conflict. Numbers are
// given afterwards, by `sequence()`, to committed entries only, a batch at a time in one transaction that also moves
// the feed's counter: every number it gives is above every number given before, so a reader that has seen up to n
// and asks for what is after n can never be handed a change numbered n or less later (nothing missed), and each
// entry is numbered once (nothing twice). Whoever reads the feed numbers what is waiting first, so a change is in
// the feed for the request after the one that made it; two processes numbering at once meet on the counter
// document, and the store's write conflict makes one of them start over on the other's result.
import type { ClientSession, Collection } from "mongodb";
import { ObjectId } from "mongodb";
import type { Connection } from "mongoose";
import type { Registry } from "../../registry/index.js";
import { COUNTERS, type RecordStore } from "../../storage/record-store.js";
import type { Change, ChangeWriter } from "../changes.js";

export const FEED_COLLECTION = "arca_changes";
/** The feed's counter in arca_counters: the last number given (`seq`) and the last number pruned (`pruned`). */
const FEED_COUNTER = "change_feed";
/** Entries numbered per transaction. */
const SEQUENCE_BATCH = 1_000;

export type FeedOperation = "create" | "update" | "delete";

export interface FeedEntry {
  _id: ObjectId;
  /** Null until numbered (committed, not yet in the feed). */
  seq: number | null;
  /** When the change was written. */
  at: Date;
  operation: FeedOperation;
  type: string;
  /** The record's uri; null for `all`. */
  uri: string | null;
  /** The uri of the record's repository; null for a global record. */
  repository: string | null;
  /** Every record of `type` in `repository` deleted at once (the repository itself was deleted). */
  all?: true;
}

interface FeedCounter {
  _id: string;
  seq: number;
  /** Entries numbered up to here may have been removed (retention): a reader further back has lost changes. */
  pruned?: number;
}

export function feedCollection(connection: Connection): Collection<FeedEntry> {
  return connection.collection<FeedEntry>(FEED_COLLECTION);
}

function counters(connection: Connection): Collection<FeedCounter> {
  return connection.collection<FeedCounter>(COUNTERS);
}

export async function ensureFeedIndexes(connection: Connection): Promise<void> {
  const feed = feedCollection(connection);
  // Unnumbered entries (seq null sorts first) in the order written; then the feed in order.
  await feed.createIndex({ seq: 1, _id: 1 }, { name: "seq" });
  await feed.createIndex({ repository: 1, seq: 1 }, { name: "repository_seq" });
  await feed.createIndex({ at: 1 }, { name: "at" });
  // The counter exists before any transaction updates it: two transactions upserting it would meet on its _id as
  // a duplicate key, not as a write conflict the driver retries.
  await counters(connection).updateOne({ _id: FEED_COUNTER }, { $setOnInsert: { seq: 0 } }, { upsert: true });
}

/** Writes the feed entries of every change, in the transaction of the write making it. */
export class ChangeFeedWriter implements ChangeWriter {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: Registry,
    private readonly now: () => Date,
  ) {}

  covers(type: string): boolean {
    return this.registry.has(type);
  }

  async write(changes: readonly Change[], session: ClientSession | undefined): Promise<void> {
    const at = this.now();
    const entries = changes.flatMap((change) => this.entriesOf(change, at));
    // A transaction's entries (a tree move's siblings, a cascade's records) are inserted together as it ends.
    await this.store.deferUntilCommit(session, this, entries, async (all: FeedEntry[]) => {
      if (all.length > 0) await feedCollection(this.store.connection).insertMany(all, { session });
    });
  }

  private entriesOf(change: Change, at: Date): FeedEntry[] {
    const type = this.registry.get(change.type);
    const repository =
      change.scope.repoId === undefined || type.scope !== "repository"
        ? null
        : this.registry.uriFor(this.registry.scopeHolderType().name, change.scope.repoId);
    const entry = (uri: string | null): FeedEntry => ({
      _id: new ObjectId(),
      seq: null,
      at,
      operation: change.operation,
      type: change.type,
      uri,
      repository,
    });
    if ("id" in change) return [entry(this.registry.uriFor(change.type, change.id, change.scope.repoId))];
    const range = change.ids;
    if (range === "all") return [{ ...entry(null), all: true }];
    // A range deleted together (an import undone): one entry per id, as if deleted one by one.
    const ids = Array.from({ length: Math.max(0, range.end - range.first) }, (_, i) => range.first + i);
    return ids.map((id) => entry(this.registry.uriFor(change.type, id, change.scope.repoId)));
  }
}

/** Numbers the committed entries waiting, in batches, oldest first. Returns how many it numbered. */
export async function sequence(store: RecordStore, maxBatches = 10): Promise<number> {
  const feed = feedCollection(store.connection);
  let numbered = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    // Most reads find nothing waiting: no transaction for them.
    if ((await feed.findOne({ seq: null }, { projection: { _id: 1 } })) === null) break;
    const count = await store.transaction(async (session) => {
      const waiting = await feed
        .find({ seq: null }, { session, projection: { _id: 1 } })
        .sort({ seq: 1, _id: 1 })
        .limit(SEQUENCE_BATCH)
        .toArray();
      if (waiting.length === 0) return 0;
      const counter = await counters(store.connection).findOneAndUpdate(
        { _id: FEED_COUNTER },
        { $inc: { seq: waiting.length } },
        { session, returnDocument: "after" },
      );
      if (counter === null) throw new Error("the change feed's counter is missing (ensureFeedIndexes not run)");
      const first = counter.seq - waiting.length + 1;
      await feed.bulkWrite(
        waiting.map((one, i) => ({ updateOne: { filter: { _id: one._id }, update: { $set: { seq: first + i } } } })),
        { session, ordered: true },
      );
      return waiting.length;
    });
    numbered += count;
    if (count < SEQUENCE_BATCH) break;
  }
  return numbered;
}

/** The feed's position: the last number given, and the last that may have been removed by retention. */
export async function feedPosition(connection: Connection): Promise<{ last: number; pruned: number }> {
  const counter = await counters(connection).findOne({ _id: FEED_COUNTER });
  return { last: counter?.seq ?? 0, pruned: counter?.pruned ?? 0 };
}

/**
 * Removes numbered entries written before `before`, and records the highest number removed first (so a reader
 * asking from further back is told it has lost changes rather than silently handed fewer).
 */
export async function prune(connection: Connection, before: Date): Promise<number> {
  const feed = feedCollection(connection);
  const newest = await feed
    .find({ seq: { $ne: null }, at: { $lt: before } }, { projection: { seq: 1 } })
    .sort({ at: -1 })
    .limit(1)
    .toArray();
  const through = newest[0]?.seq;
  if (through === undefined || through === null) return 0;
  await counters(connection).updateOne({ _id: FEED_COUNTER }, { $max: { pruned: through } });
  const { deletedCount } = await feed.deleteMany({ seq: { $ne: null, $lte: through } });
  return deletedCount;
}
