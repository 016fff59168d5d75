/**
 * The acceptance script, with mongoose, against the engine started as a separate
 * process on a data directory (what `npm run db` starts): CRUD, a unique compound index
 * and its duplicate-key error, sorted and paged finds, countDocuments, findOneAndUpdate
 * with $inc, a transaction, and a 5,000-document insertMany. Finally the engine is
 * restarted and everything the script left behind must still be there.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { Schema, type Connection, type Model } from "mongoose";
import { spawnEngine, type EngineProcess } from "../../../src/embedded-mongo/launcher.js";
import { freshDir, removeDir, settleWithin, stopQuietly } from "./helpers.js";

interface ArchiveRecord {
  fonds: string;
  ref: string;
  title: string;
  year: number;
  views: number;
}

interface Item {
  i: number;
  group: string;
}

const recordSchema = new Schema<ArchiveRecord>({
  fonds: { type: String, required: true },
  ref: { type: String, required: true },
  title: { type: String, required: true },
  year: { type: Number, required: true },
  views: { type: Number, default: 0 },
});
recordSchema.index({ fonds: 1, ref: 1 }, { unique: true });

const itemSchema = new Schema<Item>({ i: Number, group: String });

let dataDir: string;
const engines: EngineProcess[] = [];
let conn: Connection | undefined;
let Records: Model<ArchiveRecord>;
let Items: Model<Item>;

async function connect(engine: EngineProcess): Promise<void> {
  conn = await mongoose
    .createConnection(engine.uri, { dbName: "acceptance", serverSelectionTimeoutMS: 5000 })
    .asPromise();
  Records = conn.model<ArchiveRecord>("Record", recordSchema, "records");
  Items = conn.model<Item>("Item", itemSchema, "items");
}

async function disconnect(): Promise<void> {
  if (conn) await settleWithin(conn.close(), 5000);
  conn = undefined;
}

beforeAll(async () => {
  dataDir = await freshDir("mongoose");
  engines.push(await spawnEngine({ dataDir, port: 0, fsync: "always" }));
  await connect(engines[0]);
  await Records.init();
});

afterAll(async () => {
  await disconnect();
  for (const engine of engines) await stopQuietly(engine);
  await removeDir(dataDir);
});

/** The error a mongoose operation rejects with (fails if it resolves). */
async function failure(p: Promise<unknown>): Promise<{ code?: number; message: string; keyValue?: unknown }> {
  try {
    await p;
  } catch (error) {
    return error as { code?: number; message: string; keyValue?: unknown };
  }
  throw new Error("expected the operation to fail");
}

describe("acceptance script (mongoose, engine as a separate process)", () => {
  it("builds the unique compound index", async () => {
    const indexes = await conn!.db!.collection("records").listIndexes().toArray();
    expect(indexes.map((ix) => ix.name).sort()).toEqual(["_id_", "fonds_1_ref_1"]);
    expect(indexes.find((ix) => ix.name === "fonds_1_ref_1")).toMatchObject({
      key: { fonds: 1, ref: 1 },
      unique: true,
    });
  });

  it("create / read / update / delete", async () => {
    const created = await Records.create({ fonds: "crud", ref: "A-1", title: "Charter", year: 1291 });
    expect(created._id).toBeInstanceOf(mongoose.Types.ObjectId);
    expect(created.views).toBe(0);

    const read = await Records.findById(created._id).lean();
    expect(read).toMatchObject({ fonds: "crud", ref: "A-1", title: "Charter", year: 1291, views: 0 });

    const doc = await Records.findOne({ fonds: "crud", ref: "A-1" });
    doc!.title = "Federal Charter";
    await doc!.save();
    const updated = await Records.updateOne({ _id: created._id }, { $set: { year: 1292 } });
    expect(updated).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await Records.findById(created._id).lean()).toMatchObject({ title: "Federal Charter", year: 1292 });

    const deleted = await Records.deleteOne({ _id: created._id });
    expect(deleted.deletedCount).toBe(1);
    expect(await Records.findById(created._id)).toBeNull();
    expect(await Records.countDocuments({ fonds: "crud" })).toBe(0);
  });

  it("rejects a duplicate (fonds, ref) with 11000 and keeps one document", async () => {
    await Records.create({ fonds: "dup", ref: "X", title: "first", year: 1900 });
    await Records.create({ fonds: "dup", ref: "Y", title: "other ref", year: 1900 });
    await Records.create({ fonds: "dup2", ref: "X", title: "other fonds", year: 1900 });
    const err = await failure(Records.create({ fonds: "dup", ref: "X", title: "second", year: 1901 }));
    expect(err.code).toBe(11000);
    expect(err.message).toContain("E11000");
    expect(err.keyValue).toEqual({ fonds: "dup", ref: "X" });
    const kept = await Records.find({ fonds: "dup", ref: "X" }).lean();
    expect(kept).toHaveLength(1);
    expect(kept[0].title).toBe("first");
  });

  it("sorts and pages", async () => {
    await Records.insertMany(
      Array.from({ length: 30 }, (_, i) => ({
        fonds: "page",
        ref: `P-${String(i).padStart(2, "0")}`,
        title: `t${i}`,
        year: 1800 + ((i * 7) % 30),
      })),
    );
    // Years 1800 + (7i mod 30): 1800..1829 once each (7 and 30 are coprime; 1829 is i = 17, 1828 is i = 4); newest
    // first, 8 per page.
    const page = (n: number) =>
      Records.find({ fonds: "page" })
        .sort({ year: -1 })
        .skip(n * 8)
        .limit(8)
        .lean();
    expect((await page(0)).map((r) => r.year)).toEqual([1829, 1828, 1827, 1826, 1825, 1824, 1823, 1822]);
    expect((await page(2)).map((r) => r.year)).toEqual([1813, 1812, 1811, 1810, 1809, 1808, 1807, 1806]);
    expect((await page(3)).map((r) => r.year)).toEqual([1805, 1804, 1803, 1802, 1801, 1800]);
    expect(await page(4)).toEqual([]);

    // A compound sort with a tie on the first key, and a projection.
    await Records.create({ fonds: "page", ref: "Q-dup-year", title: "tie", year: 1829 });
    const top = await Records.find({ fonds: "page" }, { ref: 1, year: 1, _id: 0 })
      .sort({ year: -1, ref: 1 })
      .limit(3)
      .lean();
    expect(top).toEqual([
      { ref: "P-17", year: 1829 },
      { ref: "Q-dup-year", year: 1829 },
      { ref: "P-04", year: 1828 },
    ]);
  });

  it("counts documents", async () => {
    expect(await Records.countDocuments({ fonds: "page" })).toBe(31);
    expect(await Records.countDocuments({ fonds: "page", year: { $gte: 1820 } })).toBe(11);
    expect(await Records.countDocuments({ fonds: "nothing" })).toBe(0);
    expect(await Records.countDocuments()).toBe(34);
  });

  it("findOneAndUpdate with $inc", async () => {
    await Records.create({ fonds: "inc", ref: "C", title: "counter", year: 2000, views: 5 });
    const after = await Records.findOneAndUpdate(
      { fonds: "inc", ref: "C" },
      { $inc: { views: 2 } },
      { returnDocument: "after" },
    ).lean();
    expect(after?.views).toBe(7);
    const before = await Records.findOneAndUpdate(
      { fonds: "inc", ref: "C" },
      { $inc: { views: 10 } },
      { returnDocument: "before" },
    ).lean();
    expect(before?.views).toBe(7);
    const upserted = await Records.findOneAndUpdate(
      { fonds: "inc", ref: "D" },
      { $inc: { views: 1 }, $setOnInsert: { title: "new", year: 2001 } },
      { upsert: true, returnDocument: "after" },
    ).lean();
    expect(upserted).toMatchObject({ fonds: "inc", ref: "D", views: 1, title: "new", year: 2001 });
    expect((await Records.findOne({ fonds: "inc", ref: "C" }).lean())?.views).toBe(17);
  });

  it("connection.transaction commits, and rolls back when the callback throws", async () => {
    await conn!.transaction(async (session) => {
      await Records.create([{ fonds: "tx", ref: "T-1", title: "in txn", year: 1950 }], { session });
      await Records.updateOne({ fonds: "inc", ref: "C" }, { $inc: { views: 100 } }, { session });
      // The transaction sees its own writes.
      expect(await Records.countDocuments({ fonds: "tx" }).session(session)).toBe(1);
    });
    expect(await Records.countDocuments({ fonds: "tx" })).toBe(1);
    expect((await Records.findOne({ fonds: "inc", ref: "C" }).lean())?.views).toBe(117);

    const err = await failure(
      conn!.transaction(async (session) => {
        await Records.create([{ fonds: "tx", ref: "T-2", title: "rolled back", year: 1951 }], { session });
        await Records.updateOne({ fonds: "inc", ref: "C" }, { $inc: { views: 1000 } }, { session });
        throw new Error("abort this one");
      }),
    );
    expect(err.message).toBe("abort this one");
    expect(await Records.find({ fonds: "tx" }).distinct("ref")).toEqual(["T-1"]);
    expect((await Records.findOne({ fonds: "inc", ref: "C" }).lean())?.views).toBe(117);

    // A duplicate inside a transaction aborts the whole of it.
    const dup = await failure(
      conn!.transaction(async (session) => {
        await Records.create([{ fonds: "tx", ref: "T-3", title: "x", year: 1952 }], { session });
        await Records.create([{ fonds: "tx", ref: "T-1", title: "dup", year: 1952 }], { session });
      }),
    );
    expect(dup.code).toBe(11000);
    expect(await Records.countDocuments({ fonds: "tx" })).toBe(1);
  });

  it("inserts 5,000 documents with insertMany and counts them", async () => {
    const docs = Array.from({ length: 5000 }, (_, i) => ({ i, group: i % 3 === 0 ? "fizz" : "plain" }));
    const inserted = await Items.insertMany(docs);
    expect(inserted).toHaveLength(5000);
    expect(await Items.countDocuments()).toBe(5000);
    expect(await Items.countDocuments({ group: "fizz" })).toBe(1667);
    expect(await Items.countDocuments({ i: { $gte: 4990 } })).toBe(10);
    const last = await Items.find().sort({ i: -1 }).limit(2).lean();
    expect(last.map((d) => d.i)).toEqual([4999, 4998]);
  });

  it("keeps everything across an engine restart", async () => {
    const snapshot = async () => ({
      records: await Records.find().sort({ fonds: 1, ref: 1 }).lean(),
      items: await Items.countDocuments(),
      indexes: (await conn!.db!.collection("records").listIndexes().toArray()).map((ix) => ix.name).sort(),
    });
    const before = await snapshot();
    await disconnect();
    await engines[0].stop();
    expect(engines[0].child.exitCode).toBe(0);

    engines.push(await spawnEngine({ dataDir, port: 0, fsync: "always" }));
    await connect(engines[1]);
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(after.items).toBe(5000);
    expect(after.records).toHaveLength(37);
    const err = await failure(Records.create({ fonds: "dup", ref: "X", title: "again", year: 1 }));
    expect(err.code).toBe(11000);
  });
});
