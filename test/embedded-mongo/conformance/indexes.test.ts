// Index management, unique constraints (plain, compound, sparse, partial, multikey), TTL, hints.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import { Decimal128, type Collection, type Document } from "mongodb";
import { openTarget, type Target } from "../target.js";
import { expectCode, namer, sleep, type Loose } from "./helpers.js";

let t: Target;
const next = namer("idx");
beforeAll(async () => {
  t = await openTarget();
});
afterAll(() => t.stop());

async function coll(docs: Document[] = []): Promise<Collection<Loose>> {
  const c = t.db.collection<Loose>(next());
  if (docs.length) await c.insertMany(docs);
  else await t.db.createCollection(c.collectionName);
  return c;
}

const names = async (c: Collection<Loose>) => (await c.listIndexes().toArray()).map((i) => i.name as string).sort();

describe("index management", () => {
  it("a new collection has only the _id_ index", async () => {
    const c = await coll([{ a: 1 }]);
    const idx = await c.listIndexes().toArray();
    expect(idx).toHaveLength(1);
    expect(idx[0]).toEqual(expect.objectContaining({ name: "_id_", key: { _id: 1 }, v: 2 }));
  });

  it("createIndex returns generated names like a_1_b_-1", async () => {
    const c = await coll();
    expect(await c.createIndex({ a: 1, b: -1 })).toBe("a_1_b_-1");
    expect(await c.createIndex({ "x.y": 1 })).toBe("x.y_1");
    expect(await c.createIndex({ z: 1 }, { name: "custom" })).toBe("custom");
    expect(await names(c)).toEqual(["_id_", "a_1_b_-1", "custom", "x.y_1"]);
    const spec = (await c.listIndexes().toArray()).find((i) => i.name === "a_1_b_-1")!;
    expect(spec.key).toEqual({ a: 1, b: -1 });
  });

  it("creating the identical index twice is a no-op", async () => {
    const c = await coll();
    await c.createIndex({ a: 1 });
    expect(await c.createIndex({ a: 1 })).toBe("a_1");
    expect(await names(c)).toEqual(["_id_", "a_1"]);
  });

  it("createIndexes reports numIndexesBefore/After", async () => {
    const c = await coll();
    const res = await t.db.command({
      createIndexes: c.collectionName,
      indexes: [
        { key: { p: 1 }, name: "p_1" },
        { key: { q: -1 }, name: "q_-1" },
      ],
    });
    expect(res.ok).toBe(1);
    expect(res.numIndexesBefore).toBe(1);
    expect(res.numIndexesAfter).toBe(3);
  });

  it("createIndex implicitly creates the collection", async () => {
    const name = next();
    await t.db.collection<Loose>(name).createIndex({ a: 1 });
    const colls = await t.db.listCollections({ name }).toArray();
    expect(colls).toHaveLength(1);
  });

  it("dropIndex by name and by key; dropIndexes keeps _id_", async () => {
    const c = await coll();
    await c.createIndexes([{ key: { a: 1 } }, { key: { b: 1 } }, { key: { c: 1 } }]);
    await c.dropIndex("a_1");
    expect(await names(c)).toEqual(["_id_", "b_1", "c_1"]);
    await t.db.command({ dropIndexes: c.collectionName, index: { b: 1 } });
    expect(await names(c)).toEqual(["_id_", "c_1"]);
    await c.dropIndexes();
    expect(await names(c)).toEqual(["_id_"]);
  });

  it("dropping a missing index fails with 27; dropping _id_ fails with 72", async () => {
    const c = await coll();
    const err = await expectCode(c.dropIndex("nope_1"), 27);
    expect(err.codeName).toBe("IndexNotFound");
    await expectCode(c.dropIndex("_id_"), 72);
  });

  it("listIndexes on a missing collection fails with 26", async () => {
    await expectCode(t.db.collection<Loose>(next()).listIndexes().toArray(), 26);
  });

  it("same key pattern with a different name fails with 85/86", async () => {
    const c = await coll();
    await c.createIndex({ a: 1 }, { name: "first" });
    await expectCode(c.createIndex({ a: 1 }, { name: "second" }), [85, 86]);
  });

  it("same name with different options or key fails with 85/86", async () => {
    const c = await coll();
    await c.createIndex({ a: 1 });
    await expectCode(c.createIndex({ a: 1 }, { unique: true }), [85, 86]);
    await c.createIndex({ b: 1 }, { name: "shared" });
    await expectCode(c.createIndex({ c: 1 }, { name: "shared" }), [85, 86]);
    expect(await names(c)).toEqual(["_id_", "a_1", "shared"]);
  });

  it("an invalid index type fails with 67 (CannotCreateIndex)", async () => {
    const c = await coll();
    await expectCode(c.createIndex({ a: "bogus" as unknown as 1 }), 67);
  });
});

describe("unique indexes", () => {
  it("duplicate on a unique field fails with 11000 carrying keyPattern and keyValue", async () => {
    const c = await coll();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: "a@x" });
    const err = await expectCode(c.insertOne({ email: "a@x" }), 11000);
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: "a@x" });
    expect(err.message).toContain("E11000 duplicate key error");
    expect(err.message).toContain("email_1");
    expect(await c.countDocuments()).toBe(1);
    const spec = (await c.listIndexes().toArray()).find((i) => i.name === "email_1")!;
    expect(spec.unique).toBe(true);
  });

  it("a unique index treats a missing field as null: a second missing doc conflicts", async () => {
    const c = await coll();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ n: 1 });
    const err = await expectCode(c.insertOne({ n: 2 }), 11000);
    expect(err.keyValue).toEqual({ email: null });
  });

  it("unique compound index: only the full tuple must be unique", async () => {
    const c = await coll();
    await c.createIndex({ a: 1, b: 1 }, { unique: true });
    await c.insertMany([
      { a: 1, b: 1 },
      { a: 1, b: 2 },
      { a: 2, b: 1 },
    ]);
    const err = await expectCode(c.insertOne({ a: 1, b: 1 }), 11000);
    expect(err.keyPattern).toEqual({ a: 1, b: 1 });
    expect(err.keyValue).toEqual({ a: 1, b: 1 });
    expect(await c.countDocuments()).toBe(3);
  });

  it("building a unique index over existing duplicates fails with 11000", async () => {
    const c = await coll([{ a: 1 }, { a: 2 }, { a: 1 }]);
    await expectCode(c.createIndex({ a: 1 }, { unique: true }), 11000);
    expect(await names(c)).toEqual(["_id_"]);
  });

  it("sparse unique allows many documents without the field", async () => {
    const c = await coll();
    await c.createIndex({ code: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ n: 1 }, { n: 2 }, { n: 3 }, { code: "x" }]);
    await expectCode(c.insertOne({ code: "x" }), 11000);
    expect(await c.countDocuments()).toBe(4);
  });

  it("partial unique applies only to documents matching the filter", async () => {
    const c = await coll();
    await c.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { status: "active" } });
    await c.insertMany([
      { email: "a", status: "gone" },
      { email: "a", status: "gone" },
      { email: "a", status: "active" },
    ]);
    const err = await expectCode(c.insertOne({ email: "a", status: "active" }), 11000);
    expect(err.keyValue).toEqual({ email: "a" });
    const spec = (await c.listIndexes().toArray()).find((i) => i.name === "email_1")!;
    expect(spec.partialFilterExpression).toEqual({ status: "active" });
  });

  it("unique on an array field: shared elements across docs conflict, repeats within a doc do not", async () => {
    const c = await coll();
    await c.createIndex({ tags: 1 }, { unique: true });
    await c.insertOne({ _id: 1, tags: ["a", "b"] });
    await c.insertOne({ _id: 2, tags: ["x", "x"] });
    const err = await expectCode(c.insertOne({ _id: 3, tags: ["c", "b"] }), 11000);
    expect(err.keyValue).toEqual({ tags: "b" });
    expect(await c.countDocuments()).toBe(2);
  });

  it("an update that would duplicate a unique key fails with 11000 and leaves the doc", async () => {
    const c = await coll();
    await c.createIndex({ u: 1 }, { unique: true });
    await c.insertMany([
      { _id: 1, u: "a", v: 1 },
      { _id: 2, u: "b", v: 1 },
    ]);
    await expectCode(c.updateOne({ _id: 2 }, { $set: { u: "a", v: 2 } }), 11000);
    expect(await c.findOne({ _id: 2 })).toEqual({ _id: 2, u: "b", v: 1 });
    await expectCode(c.updateMany({}, { $set: { u: "same" } }), 11000);
    expect(await c.countDocuments({ u: "same" })).toBeLessThanOrEqual(1);
  });

  it("dropping a unique index lifts the constraint", async () => {
    const c = await coll();
    await c.createIndex({ u: 1 }, { unique: true });
    await c.insertOne({ u: 1 });
    await c.dropIndex("u_1");
    await c.insertOne({ u: 1 });
    expect(await c.countDocuments({ u: 1 })).toBe(2);
  });
});

describe("lookups by a full unique key", () => {
  it("follow inserts, key changes and deletes", async () => {
    const c = await coll();
    await c.createIndex({ repo: 1, id: 1 }, { unique: true });
    await c.insertMany([
      { repo: 2, id: 1, t: "one" },
      { repo: 2, id: 2, t: "two" },
      { repo: 3, id: 1, t: "three" },
    ]);
    expect((await c.findOne({ repo: 2, id: 2 }))?.t).toBe("two");
    expect((await c.findOne({ id: 1, repo: 3 }))?.t).toBe("three"); // field order does not matter
    await c.updateOne({ repo: 2, id: 2 }, { $set: { id: 20 } });
    expect(await c.findOne({ repo: 2, id: 2 })).toBeNull();
    expect((await c.findOne({ repo: 2, id: 20 }))?.t).toBe("two");
    await c.deleteOne({ repo: 2, id: 20 });
    expect(await c.findOne({ repo: 2, id: 20 })).toBeNull();
    expect(await c.find({ repo: 2, id: 1 }).skip(1).toArray()).toEqual([]);
    expect(await c.countDocuments({ repo: 2, id: 1 })).toBe(1);
  });

  it("match equal numbers of any type and never values of another type", async () => {
    const c = await coll();
    await c.createIndex({ a: 1 }, { unique: true });
    await c.insertMany([
      { a: Decimal128.fromString("5"), t: "decimal" },
      { a: "6", t: "string" },
      { a: new Date(6), t: "date" },
    ]);
    expect((await c.findOne({ a: 5 }))?.t).toBe("decimal");
    expect((await c.findOne({ a: 5.0 }))?.t).toBe("decimal");
    await expectCode(c.insertOne({ a: 5 }), 11000);
    expect(await c.findOne({ a: 6 })).toBeNull();
    expect((await c.findOne({ a: "6" }))?.t).toBe("string");
    expect((await c.findOne({ a: new Date(6) }))?.t).toBe("date");
  });

  it("by _id, and with a hint naming another index", async () => {
    const c = await coll([
      { _id: 1, a: 10 },
      { _id: "1", a: 11 },
    ]);
    await c.createIndex({ a: 1 });
    expect((await c.findOne({ _id: 1 }))?.a).toBe(10);
    expect((await c.findOne({ _id: "1" }))?.a).toBe(11);
    expect((await c.find({ _id: 1 }).hint({ a: 1 }).toArray()).map((d) => d.a)).toEqual([10]);
    await expectCode(c.find({ _id: 1 }).hint({ nope: 1 }).toArray(), 2);
  });
});

describe("TTL and hints", () => {
  it("TTL index: options are listed and expired documents are removed", async () => {
    const c = await coll();
    expect(await c.createIndex({ at: 1 }, { expireAfterSeconds: 0 })).toBe("at_1");
    const spec = (await c.listIndexes().toArray()).find((i) => i.name === "at_1")!;
    expect(spec.expireAfterSeconds).toBe(0);
    await c.insertMany([
      { _id: "past", at: new Date(Date.now() - 60_000) },
      { _id: "future", at: new Date(Date.now() + 3_600_000) },
      { _id: "notADate", at: "2000-01-01" },
      { _id: "missing" },
    ]);
    if (t.embedded) {
      // Real MongoDB's TTL monitor runs every 60 s; the embedded engine sweeps every second.
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && (await c.countDocuments({ _id: "past" as unknown as never })) > 0)
        await sleep(200);
      const left = (await c.find().toArray()).map((d) => d._id).sort();
      expect(left).toEqual(["future", "missing", "notADate"]);
    }
  });

  it("hint of an existing index works; of a missing index fails with 2", async () => {
    const c = await coll([{ a: 1 }, { a: 2 }, { a: 3 }]);
    await c.createIndex({ a: 1 });
    expect(await c.countDocuments({ a: { $gte: 2 } }, { hint: { a: 1 } })).toBe(2);
    expect((await c.find({}).hint("a_1").toArray()).map((d) => d.a)).toEqual([1, 2, 3]);
    const err = await expectCode(c.find({ a: 1 }).hint("nope_1").toArray(), 2);
    expect(err.codeName).toBe("BadValue");
    await expectCode(c.find({ a: 1 }).hint({ zz: 1 }).toArray(), 2);
  });
});

describe("$elemMatch ranges over a multikey index", () => {
  it("match one element within both bounds, never two elements each meeting one", async () => {
    const c = await coll([
      { _id: 1, w: ["title:paper", "title:zebra"] },
      { _id: 2, w: ["title:papyrus"] },
      // "notes:z" >= "title:pap" and "apple" < "title:paq", but no one element is in between.
      { _id: 3, w: ["apple", "notes:z"] },
      { _id: 4, w: "title:papal" },
      { _id: 5, w: [] },
    ]);
    await c.createIndex({ w: 1 });
    const filter = { w: { $elemMatch: { $gte: "title:pap", $lt: "title:paq" } } };
    const ids = async (options = {}) => (await c.find(filter, options).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids()).toEqual([1, 2]);
    expect(await ids({ hint: { w: 1 } })).toEqual([1, 2]);
    expect(await c.countDocuments(filter)).toBe(2);
    // Beside an equality on the same field, as the search index's queries put them.
    expect((await c.find({ $and: [{ w: "title:zebra" }, filter] }).toArray()).map((d) => d._id)).toEqual([1]);
  });
});
