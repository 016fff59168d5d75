// Transactions read the collection as it was when they started, from before-images kept
// while they are open. Overlapping transactions must not let that history grow without end:
// what no open transaction can read is pruned.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { MongoClient } from "mongodb";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";

let engine: RunningEngine;
let client: MongoClient;
beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0 });
  client = await MongoClient.connect(engine.uri);
});
afterAll(async () => {
  await client.close();
  await engine.close();
});

describe("snapshot history", () => {
  it("keeps what open transactions can read and prunes the rest", async () => {
    const coll = client.db("h").collection<{ _id: number; n: number }>("c");
    await coll.insertOne({ _id: 1, n: 0 });
    const history = () => engine.engine.catalog.get("h", "c")!.history;
    const a = client.startSession();
    const b = client.startSession();
    try {
      a.startTransaction();
      expect(await coll.findOne({ _id: 1 }, { session: a })).toEqual({ _id: 1, n: 0 });
      await coll.updateOne({ _id: 1 }, { $set: { n: 1 } });
      b.startTransaction();
      expect(await coll.findOne({ _id: 1 }, { session: b })).toEqual({ _id: 1, n: 1 });
      await coll.updateOne({ _id: 1 }, { $set: { n: 2 } });
      expect(history().get(1)).toHaveLength(2);

      await a.commitTransaction();
      // Only b is open: the change b cannot see anyway (n: 0 -> 1) is gone, b's view is intact.
      expect(history().get(1)).toHaveLength(1);
      expect(await coll.findOne({ _id: 1 }, { session: b })).toEqual({ _id: 1, n: 1 });

      await b.commitTransaction();
      expect(history().size).toBe(0);
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, n: 2 });
    } finally {
      await a.endSession();
      await b.endSession();
    }
  });
});
