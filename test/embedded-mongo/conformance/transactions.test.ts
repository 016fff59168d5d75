// Multi-document transactions, isolation, write conflicts, sessions and retryable writes.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import { Long, MongoClient, Timestamp, type ClientSession, type Collection, type Document } from "mongodb";
import { openTarget, type Target } from "../target.js";
import { expectCode, namer, rejection, sleep, type Loose } from "./helpers.js";

let t: Target;
let other: MongoClient;
const next = namer("txn");
beforeAll(async () => {
  t = await openTarget();
  other = await MongoClient.connect(t.uri, { serverSelectionTimeoutMS: 5000 });
});
afterAll(async () => {
  await other?.close();
  await t.stop();
});

async function seeded(docs: Document[]): Promise<Collection<Loose>> {
  const c = t.db.collection<Loose>(next());
  if (docs.length) await c.insertMany(docs);
  else await t.db.createCollection(c.collectionName);
  return c;
}
const viaOther = (c: Collection<Loose>) => other.db(t.db.databaseName).collection<Loose>(c.collectionName);

describe("commit and abort", () => {
  it("commit makes every write of the transaction visible", async () => {
    const c = await seeded([{ _id: 1, n: 0 }]);
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await c.insertOne({ _id: 2, n: 0 }, { session: s });
      await c.updateOne({ _id: 1 }, { $inc: { n: 5 } }, { session: s });
      await c.deleteOne({ _id: 2 }, { session: s });
      await c.insertOne({ _id: 3, n: 3 }, { session: s });
      await s.commitTransaction();
    } finally {
      await s.endSession();
    }
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 5 },
      { _id: 3, n: 3 },
    ]);
  });

  it("abort discards every write of the transaction", async () => {
    const c = await seeded([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ]);
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await c.insertOne({ _id: 9 }, { session: s });
      await c.updateMany({}, { $set: { n: 100 } }, { session: s });
      await c.deleteOne({ _id: 2 }, { session: s });
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ]);
  });

  it("a transaction spanning two collections commits atomically", async () => {
    const a = await seeded([{ _id: "acct", bal: 100 }]);
    const b = await seeded([]);
    const s = t.client.startSession();
    try {
      await s.withTransaction(async () => {
        await a.updateOne({ _id: "acct" }, { $inc: { bal: -30 } }, { session: s });
        await b.insertOne({ _id: "ledger1", amount: 30 }, { session: s });
      });
    } finally {
      await s.endSession();
    }
    expect(await a.findOne({ _id: "acct" })).toEqual({ _id: "acct", bal: 70 });
    expect(await b.countDocuments()).toBe(1);
  });

  it("a collection can be created implicitly inside a transaction", async () => {
    const c = t.db.collection<Loose>(next());
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await c.insertOne({ _id: 1 }, { session: s });
      await s.commitTransaction();
    } finally {
      await s.endSession();
    }
    expect(await c.countDocuments()).toBe(1);
  });
});

describe("isolation", () => {
  it("uncommitted writes are invisible to other sessions and clients; reads in the txn see them", async () => {
    const c = await seeded([{ _id: 1, v: "old" }]);
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await c.insertOne({ _id: 2, v: "new" }, { session: s });
      await c.updateOne({ _id: 1 }, { $set: { v: "changed" } }, { session: s });
      // Inside the transaction: own writes visible.
      expect(await c.countDocuments({}, { session: s })).toBe(2);
      expect(await c.findOne({ _id: 1 }, { session: s })).toEqual({ _id: 1, v: "changed" });
      // Outside: same client without the session, and a second client.
      expect(await c.find().toArray()).toEqual([{ _id: 1, v: "old" }]);
      expect(await viaOther(c).find().toArray()).toEqual([{ _id: 1, v: "old" }]);
      await s.commitTransaction();
    } finally {
      await s.endSession();
    }
    expect(await viaOther(c).find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: "changed" },
      { _id: 2, v: "new" },
    ]);
  });

  it("a transaction reads from its snapshot: later outside commits are not seen", async () => {
    const c = await seeded([{ _id: 1 }]);
    const s = t.client.startSession();
    try {
      s.startTransaction();
      expect(await c.countDocuments({}, { session: s })).toBe(1);
      await viaOther(c).insertOne({ _id: 2 });
      expect(await c.countDocuments({}, { session: s })).toBe(1);
      await s.commitTransaction();
    } finally {
      await s.endSession();
    }
    expect(await c.countDocuments()).toBe(2);
  });

  it("write-write conflict: the second transaction gets 112 WriteConflict with TransientTransactionError", async () => {
    const c = await seeded([{ _id: 1, n: 0 }]);
    const a = t.client.startSession();
    const b = other.startSession();
    try {
      a.startTransaction();
      b.startTransaction();
      await c.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: a });
      const err = await expectCode(viaOther(c).updateOne({ _id: 1 }, { $inc: { n: 10 } }, { session: b }), 112);
      expect(err.codeName).toBe("WriteConflict");
      expect(err.errorLabels).toContain("TransientTransactionError");
      await b.abortTransaction();
      await a.commitTransaction();
    } finally {
      await a.endSession();
      await b.endSession();
    }
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 1 });
  });

  it("writing a document changed after the transaction's snapshot is a WriteConflict", async () => {
    const c = await seeded([{ _id: 1, n: 0 }, { _id: 2 }]);
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await c.findOne({ _id: 2 }, { session: s }); // establishes the snapshot
      await viaOther(c).updateOne({ _id: 1 }, { $inc: { n: 10 } });
      const err = await expectCode(c.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: s }), 112);
      expect(err.errorLabels).toContain("TransientTransactionError");
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 10 });
  });

  it("a non-transactional write to a document held by a transaction waits for it, then applies", async () => {
    const c = await seeded([{ _id: 1, n: 0 }]);
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await c.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: s });
      const outside = viaOther(c).updateOne({ _id: 1 }, { $inc: { n: 10 } });
      await sleep(150);
      // The outside write is still waiting: the document holds the transaction's value only once it commits.
      expect(await viaOther(c).findOne({ _id: 1 })).toEqual({ _id: 1, n: 0 });
      await s.commitTransaction();
      const res = await outside;
      expect(res.modifiedCount).toBe(1);
    } finally {
      await s.endSession();
    }
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 11 });
  });

  it("a count per value sees the transaction's own writes and not what others commit meanwhile", async () => {
    // Enough matches that, outside a transaction, the engine counts from the index on the path.
    const c = await seeded(Array.from({ length: 600 }, (_, i) => ({ _id: i, v: i % 2 === 0 ? "a" : "b" })));
    await c.createIndex({ v: 1 });
    const counts = (session?: ClientSession) =>
      c
        .aggregate([{ $match: {} }, { $group: { _id: "$v", n: { $sum: 1 } } }, { $sort: { _id: 1 } }], { session })
        .toArray();
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await c.insertOne({ _id: 1000, v: "c" }, { session: s });
      await c.updateOne({ _id: 0 }, { $set: { v: "b" } }, { session: s });
      await viaOther(c).insertOne({ _id: 2000, v: "a" });
      expect(await counts(s)).toEqual([
        { _id: "a", n: 299 },
        { _id: "b", n: 301 },
        { _id: "c", n: 1 },
      ]);
      await s.commitTransaction();
    } finally {
      await s.endSession();
    }
    expect(await counts()).toEqual([
      { _id: "a", n: 300 },
      { _id: "b", n: 301 },
      { _id: "c", n: 1 },
    ]);
  });
});

describe("withTransaction and errors inside transactions", () => {
  it("withTransaction retries after a transient write conflict and then commits", async () => {
    const c = await seeded([{ _id: 1, n: 0 }]);
    const a = t.client.startSession();
    const b = other.startSession();
    let attempts = 0;
    try {
      await a.withTransaction(async () => {
        attempts++;
        if (attempts === 1) {
          b.startTransaction();
          await viaOther(c).updateOne({ _id: 1 }, { $inc: { n: 100 } }, { session: b });
          try {
            await c.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: a });
          } finally {
            await b.commitTransaction();
          }
        } else {
          await c.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: a });
        }
      });
    } finally {
      await a.endSession();
      await b.endSession();
    }
    expect(attempts).toBe(2);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 101 });
  });

  it("a duplicate key inside a transaction aborts it: commit then fails with 251", async () => {
    const c = await seeded([{ _id: 1 }]);
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await c.insertOne({ _id: 2 }, { session: s });
      await expectCode(c.insertOne({ _id: 1 }, { session: s }), 11000);
      const err = await expectCode(s.commitTransaction(), 251);
      expect(err.codeName).toBe("NoSuchTransaction");
    } finally {
      await s.endSession();
    }
    expect(await c.find().toArray()).toEqual([{ _id: 1 }]);
  });

  it("an error thrown by the callback aborts withTransaction without committing", async () => {
    const c = await seeded([]);
    const s = t.client.startSession();
    try {
      const err = await rejection(
        s.withTransaction(async () => {
          await c.insertOne({ _id: "x" }, { session: s });
          throw new Error("app failure");
        }),
      );
      expect(err.message).toBe("app failure");
    } finally {
      await s.endSession();
    }
    expect(await c.countDocuments()).toBe(0);
  });
});

describe("sessions and retryable writes", () => {
  it("a causally consistent session reads its own writes and tracks operation/cluster time", async () => {
    const c = await seeded([]);
    const s = t.client.startSession({ causalConsistency: true });
    try {
      await c.insertOne({ _id: "w" }, { session: s });
      expect(s.operationTime).toBeInstanceOf(Timestamp);
      // Documented difference: one node has no cluster time to gossip, so the engine omits $clusterTime.
      if (!t.embedded) expect(s.clusterTime?.clusterTime).toBeInstanceOf(Timestamp);
      else expect(s.clusterTime).toBeUndefined();
      expect(await c.findOne({ _id: "w" }, { session: s })).toEqual({ _id: "w" });
    } finally {
      await s.endSession();
    }
  });

  it("retryable writes (on by default) succeed", async () => {
    const c = await seeded([]);
    const s = t.client.startSession();
    try {
      await c.insertOne({ _id: 1 }, { session: s });
      await c.updateOne({ _id: 1 }, { $set: { a: 1 } }, { session: s });
      await c.findOneAndUpdate({ _id: 1 }, { $inc: { b: 1 } }, { session: s });
      await c.deleteOne({ _id: 99 }, { session: s });
    } finally {
      await s.endSession();
    }
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 1, b: 1 }]);
  });

  it("a retried insert (same lsid + txnNumber) is not applied twice", async () => {
    const c = await seeded([]);
    // A private client: the hand-picked txnNumbers must not leak into the shared session pool.
    const client = await MongoClient.connect(t.uri, { serverSelectionTimeoutMS: 5000 });
    const db = client.db(t.db.databaseName);
    const s = client.startSession();
    try {
      const cmd = { insert: c.collectionName, documents: [{ _id: 1, v: "once" }], txnNumber: Long.fromNumber(7) };
      const first = await db.command(cmd, { session: s });
      expect(first.n).toBe(1);
      const retry = await db.command(cmd, { session: s });
      expect(retry.ok).toBe(1);
      expect(retry.n).toBe(1);
      expect(retry.writeErrors).toBeUndefined();
      // A new txnNumber is a new write: now the duplicate is reported.
      const fresh = await db.command({ ...cmd, txnNumber: Long.fromNumber(8) }, { session: s });
      expect(fresh.writeErrors?.[0]?.code).toBe(11000);
    } finally {
      await s.endSession();
      await client.close();
    }
    expect(await c.countDocuments()).toBe(1);
  });
});
