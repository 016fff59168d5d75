// Writes outside a transaction that reach a document an open transaction has written wait
// for it, as in MongoDB, and resume without applying any statement twice. The engine runs
// with a short transaction lifetime so that the expiry path can be observed.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { MongoClient, type Collection } from "mongodb";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";

const LIFETIME_MS = 1500;
type Counter = { _id: number; n: number };

let engine: RunningEngine;
let inside: MongoClient;
let outside: MongoClient;
let seq = 0;

beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0, transactionLifetimeMs: LIFETIME_MS });
  inside = await MongoClient.connect(engine.uri);
  outside = await MongoClient.connect(engine.uri);
});
afterAll(async () => {
  await inside.close();
  await outside.close();
  await engine.close();
});

async function counters(ids: number[]): Promise<[Collection<Counter>, Collection<Counter>]> {
  const name = `waits_${seq++}`;
  await inside
    .db("waits")
    .collection<Counter>(name)
    .insertMany(ids.map((_id) => ({ _id, n: 0 })));
  return [inside.db("waits").collection<Counter>(name), outside.db("waits").collection<Counter>(name)];
}

const settled = (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise((r) => setTimeout(() => r(false), 200)),
  ]);

describe("writes blocked by an open transaction", () => {
  it("an ordered bulk write waits at the blocked statement and applies every statement once", async () => {
    const [mine, theirs] = await counters([1, 2, 3]);
    const session = inside.startSession();
    try {
      session.startTransaction();
      await mine.updateOne({ _id: 2 }, { $inc: { n: 100 } }, { session });
      const bulk = theirs.bulkWrite(
        [1, 2, 3].map((_id) => ({ updateOne: { filter: { _id }, update: { $inc: { n: 1 } } } })),
        { ordered: true },
      );
      expect(await settled(bulk)).toBe(false);
      // The statement before the blocked one is applied; the one after is not yet.
      expect(await theirs.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, n: 1 },
        { _id: 2, n: 0 },
        { _id: 3, n: 0 },
      ]);
      await session.commitTransaction();
      const result = await bulk;
      expect(result.matchedCount).toBe(3);
      expect(result.modifiedCount).toBe(3);
    } finally {
      await session.endSession();
    }
    expect(await theirs.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 1 },
      { _id: 2, n: 101 },
      { _id: 3, n: 1 },
    ]);
  });

  it("an abort releases the waiting write, which then applies to the committed value", async () => {
    const [mine, theirs] = await counters([1]);
    const session = inside.startSession();
    try {
      session.startTransaction();
      await mine.updateOne({ _id: 1 }, { $inc: { n: 100 } }, { session });
      const waiting = theirs.deleteOne({ _id: 1, n: 0 });
      expect(await settled(waiting)).toBe(false);
      await session.abortTransaction();
      expect((await waiting).deletedCount).toBe(1);
    } finally {
      await session.endSession();
    }
    expect(await theirs.countDocuments()).toBe(0);
  });

  it("a transaction open past its lifetime is aborted and the waiting write goes through", async () => {
    const [mine, theirs] = await counters([1]);
    const session = inside.startSession();
    try {
      session.startTransaction();
      await mine.updateOne({ _id: 1 }, { $inc: { n: 100 } }, { session });
      const started = Date.now();
      const updated = await theirs.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } }, { returnDocument: "after" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(LIFETIME_MS - 200);
      expect(updated).toEqual({ _id: 1, n: 1 });
      await expect(session.commitTransaction()).rejects.toMatchObject({ code: 251 });
    } finally {
      await session.endSession();
    }
  });
});
