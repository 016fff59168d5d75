// Inserts, queries, projections, sorting, cursors, counts, distinct.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import { Double, Int32, Long, ObjectId, type Collection, type Document } from "mongodb";
import { openTarget, type Target } from "../target.js";
import { asLong, expectCode, isZeroId, namer, rejection, type Loose } from "./helpers.js";

let t: Target;
const next = namer("crud");
let people: Collection<Loose>;

const PEOPLE: Document[] = [
  {
    _id: 1,
    name: "alice",
    age: 30,
    tags: ["a", "b"],
    addr: { city: "Oslo", zip: "0150" },
    scores: [82, 90],
    items: [
      { sku: "x", qty: 2 },
      { sku: "y", qty: 10 },
    ],
  },
  {
    _id: 2,
    name: "bob",
    age: 25,
    tags: ["b", "c"],
    addr: { city: "Bergen" },
    scores: [70, 88],
    items: [{ sku: "x", qty: 8 }],
  },
  { _id: 3, name: "Carol", age: 35, tags: ["c"], addr: { city: "Oslo" }, scores: [95], items: [] },
  {
    _id: 4,
    name: "dave",
    age: null,
    tags: [],
    scores: [60, 100],
    items: [
      { sku: "y", qty: 1 },
      { sku: "x", qty: 9 },
    ],
  },
  { _id: 5, name: "eve", tags: ["a", "b", "c"], addr: { city: "Tromsø", zip: "9008" }, scores: [84] },
];

beforeAll(async () => {
  t = await openTarget();
  people = t.db.collection<Loose>(next());
  await people.insertMany(PEOPLE);
});
afterAll(() => t.stop());

async function ids(filter: Document): Promise<number[]> {
  const docs = await people.find(filter).sort({ _id: 1 }).toArray();
  return docs.map((d) => d._id as number);
}

describe("inserts", () => {
  it("insertOne generates an ObjectId _id that is stored", async () => {
    const coll = t.db.collection<Loose>(next());
    const res = await coll.insertOne({ a: 1 });
    expect(res.acknowledged).toBe(true);
    expect(res.insertedId).toBeInstanceOf(ObjectId);
    const doc = await coll.findOne({});
    expect(doc).toEqual({ _id: res.insertedId, a: 1 });
  });

  it("insertMany returns every inserted id", async () => {
    const coll = t.db.collection<Loose>(next());
    const res = await coll.insertMany([{ a: 1 }, { a: 2 }, { _id: "custom", a: 3 }]);
    expect(res.insertedCount).toBe(3);
    expect(res.insertedIds[0]).toBeInstanceOf(ObjectId);
    expect(res.insertedIds[2]).toBe("custom");
    expect(await coll.countDocuments()).toBe(3);
  });

  it("ordered insertMany stops at the first duplicate _id (11000)", async () => {
    const coll = t.db.collection<Loose>(next());
    const err = await expectCode(coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 3 }]), 11000);
    expect(err.insertedCount).toBe(2);
    expect(err.writeErrors).toHaveLength(1);
    expect(err.writeErrors![0].index).toBe(2);
    expect(err.writeErrors![0].code).toBe(11000);
    expect((await coll.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([1, 2]);
  });

  it("unordered insertMany inserts everything except the duplicate", async () => {
    const coll = t.db.collection<Loose>(next());
    const err = await expectCode(
      coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 3 }], { ordered: false }),
      11000,
    );
    expect(err.insertedCount).toBe(3);
    expect(err.writeErrors).toHaveLength(1);
    expect(err.writeErrors![0].index).toBe(2);
    expect((await coll.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([1, 2, 3]);
  });

  it("insertOne with an existing _id fails with 11000 and keyValue", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertOne({ _id: "k", v: 1 });
    const err = await expectCode(coll.insertOne({ _id: "k", v: 2 }), 11000);
    expect(err.keyValue).toEqual({ _id: "k" });
    expect(err.message).toMatch(/E11000 duplicate key error/);
    expect(await coll.findOne({ _id: "k" as unknown as ObjectId })).toEqual({ _id: "k", v: 1 });
  });
});

describe("query operators", () => {
  it("$eq / implicit equality / $ne (which matches missing fields)", async () => {
    expect(await ids({ name: "bob" })).toEqual([2]);
    expect(await ids({ age: { $eq: 30 } })).toEqual([1]);
    expect(await ids({ age: { $ne: 30 } })).toEqual([2, 3, 4, 5]);
  });

  it("$gt $gte $lt $lte compare numbers only (type bracketing)", async () => {
    expect(await ids({ age: { $gt: 25 } })).toEqual([1, 3]);
    expect(await ids({ age: { $gte: 25 } })).toEqual([1, 2, 3]);
    expect(await ids({ age: { $lt: 30 } })).toEqual([2]);
    expect(await ids({ age: { $lte: 30, $gt: 20 } })).toEqual([1, 2]);
    expect(await ids({ name: { $gt: "c" } })).toEqual([4, 5]);
  });

  it("numeric equality crosses int32, double and int64", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([
      { _id: 1, v: new Int32(7) },
      { _id: 2, v: new Double(7) },
      { _id: 3, v: Long.fromNumber(7) },
      { _id: 4, v: "7" },
      { _id: 5, v: 7.5 },
    ]);
    const eq = await coll.find({ v: 7 }).sort({ _id: 1 }).toArray();
    expect(eq.map((d) => d._id)).toEqual([1, 2, 3]);
    const gt = await coll.find({ v: { $gt: 7 } }).toArray();
    expect(gt.map((d) => d._id)).toEqual([5]);
  });

  it("null matches both null and missing fields", async () => {
    expect(await ids({ age: null })).toEqual([4, 5]);
    expect(await ids({ "addr.zip": null })).toEqual([2, 3, 4]);
  });

  it("$in and $nin (with null and arrays)", async () => {
    expect(await ids({ age: { $in: [25, 35] } })).toEqual([2, 3]);
    expect(await ids({ age: { $in: [null] } })).toEqual([4, 5]);
    expect(await ids({ tags: { $in: ["a"] } })).toEqual([1, 5]);
    expect(await ids({ tags: { $nin: ["a", "c"] } })).toEqual([4]);
    expect(await ids({ name: { $in: [/^a/, "bob"] } })).toEqual([1, 2]);
  });

  it("$and $or $nor", async () => {
    expect(await ids({ $and: [{ tags: "b" }, { tags: "c" }] })).toEqual([2, 5]);
    expect(await ids({ $or: [{ age: 25 }, { name: "eve" }] })).toEqual([2, 5]);
    expect(await ids({ $nor: [{ tags: "a" }, { age: { $gte: 35 } }] })).toEqual([2, 4]);
  });

  it("$not inverts an operator expression and also matches missing fields", async () => {
    expect(await ids({ age: { $not: { $gt: 25 } } })).toEqual([2, 4, 5]);
    expect(await ids({ name: { $not: /^[a-c]/ } })).toEqual([3, 4, 5]);
  });

  it("$exists true includes explicit nulls; $exists false only missing", async () => {
    expect(await ids({ age: { $exists: true } })).toEqual([1, 2, 3, 4]);
    expect(await ids({ age: { $exists: false } })).toEqual([5]);
    expect(await ids({ "addr.zip": { $exists: true } })).toEqual([1, 5]);
  });

  it("$type by alias and by number, including 'number' and 'array'", async () => {
    expect(await ids({ age: { $type: "number" } })).toEqual([1, 2, 3]);
    expect(await ids({ age: { $type: "null" } })).toEqual([4]);
    expect(await ids({ name: { $type: 2 } })).toEqual([1, 2, 3, 4, 5]);
    expect(await ids({ items: { $type: "array" } })).toEqual([1, 2, 3, 4]);
    expect(await ids({ addr: { $type: "object" } })).toEqual([1, 2, 3, 5]);
  });

  it("$regex with options and regex literals", async () => {
    expect(await ids({ name: { $regex: "^c", $options: "i" } })).toEqual([3]);
    expect(await ids({ name: { $regex: "^c" } })).toEqual([]);
    expect(await ids({ name: /e$/ })).toEqual([1, 4, 5]);
    expect(await ids({ tags: /^c/ })).toEqual([2, 3, 5]);
  });

  it("$elemMatch requires one element to satisfy all conditions", async () => {
    expect(await ids({ items: { $elemMatch: { sku: "x", qty: { $gt: 5 } } } })).toEqual([2, 4]);
    // Without $elemMatch the conditions may be satisfied by different elements.
    expect(await ids({ "items.sku": "x", "items.qty": { $gt: 5 } })).toEqual([1, 2, 4]);
    expect(await ids({ scores: { $elemMatch: { $gte: 80, $lt: 85 } } })).toEqual([1, 5]);
  });

  it("range conditions on an array field may be met by different elements", async () => {
    expect(await ids({ scores: { $gt: 85, $lt: 75 } })).toEqual([2, 4]);
  });

  it("$size and $all", async () => {
    expect(await ids({ tags: { $size: 2 } })).toEqual([1, 2]);
    expect(await ids({ tags: { $size: 0 } })).toEqual([4]);
    expect(await ids({ tags: { $all: ["b", "c"] } })).toEqual([2, 5]);
  });

  it("array equality: element match, whole-array match, positional index path", async () => {
    expect(await ids({ tags: "c" })).toEqual([2, 3, 5]);
    expect(await ids({ tags: ["a", "b"] })).toEqual([1]);
    expect(await ids({ tags: ["b", "a"] })).toEqual([]);
    expect(await ids({ "tags.0": "b" })).toEqual([2]);
    expect(await ids({ "items.1.sku": "x" })).toEqual([4]);
  });

  it("dotted paths reach into subdocuments and arrays of subdocuments", async () => {
    expect(await ids({ "addr.city": "Oslo" })).toEqual([1, 3]);
    expect(await ids({ "items.sku": "y" })).toEqual([1, 4]);
    expect(await ids({ "items.qty": { $gte: 9 } })).toEqual([1, 4]);
  });

  it("$expr compares two fields of the same document", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([
      { _id: 1, a: 5, b: 3 },
      { _id: 2, a: 1, b: 9 },
      { _id: 3, a: 4, b: 4 },
    ]);
    const docs = await coll.find({ $expr: { $gt: ["$a", "$b"] } }).toArray();
    expect(docs.map((d) => d._id)).toEqual([1]);
  });

  it("findOne returns null when nothing matches", async () => {
    expect(await people.findOne({ name: "nobody" })).toBeNull();
    expect(await t.db.collection<Loose>(next()).findOne({})).toBeNull();
  });
});

describe("projection", () => {
  it("inclusion keeps _id unless excluded", async () => {
    expect(await people.findOne({ _id: 1 }, { projection: { name: 1 } })).toEqual({ _id: 1, name: "alice" });
    expect(await people.findOne({ _id: 1 }, { projection: { name: 1, _id: 0 } })).toEqual({ name: "alice" });
  });

  it("exclusion removes only the listed fields", async () => {
    const doc = await people.findOne({ _id: 2 }, { projection: { tags: 0, scores: 0, items: 0, addr: 0 } });
    expect(doc).toEqual({ _id: 2, name: "bob", age: 25 });
  });

  it("dotted inclusion into subdocuments and arrays of subdocuments", async () => {
    const doc = await people.findOne({ _id: 1 }, { projection: { "addr.city": 1, "items.sku": 1, _id: 0 } });
    expect(doc).toEqual({ addr: { city: "Oslo" }, items: [{ sku: "x" }, { sku: "y" }] });
  });

  it("top-level inclusion keeps the document's field order, whole values, and adds $literal constants after", async () => {
    const doc = await people.findOne({ _id: 1 }, { projection: { tag: { $literal: "t" }, items: 1, name: 1, x: 1 } });
    expect(Object.entries(doc ?? {})).toEqual([
      ["_id", 1],
      ["name", "alice"],
      ["items", PEOPLE[0].items],
      ["tag", "t"],
    ]);
    expect(await people.findOne({ _id: 1 }, { projection: { _id: 0, age: true, name: -1 } })).toEqual({
      name: "alice",
      age: 30,
    });
  });

  it("mixing inclusion and exclusion is rejected", async () => {
    const err = await rejection(people.findOne({ _id: 1 }, { projection: { name: 1, age: 0 } }));
    expect([31253, 31254]).toContain(err.code);
  });
});

describe("sort, skip, limit", () => {
  it("multi-key sort with mixed directions", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([
      { _id: 1, g: "b", n: 1 },
      { _id: 2, g: "a", n: 2 },
      { _id: 3, g: "b", n: 3 },
      { _id: 4, g: "a", n: 1 },
    ]);
    const docs = await coll.find().sort({ g: 1, n: -1 }).toArray();
    expect(docs.map((d) => d._id)).toEqual([2, 4, 3, 1]);
  });

  it("missing and null sort first ascending, last descending", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([{ _id: 1, v: 2 }, { _id: 2 }, { _id: 3, v: 1 }, { _id: 4, v: null }]);
    expect((await coll.find().sort({ v: 1, _id: 1 }).toArray()).map((d) => d._id)).toEqual([2, 4, 3, 1]);
    expect((await coll.find().sort({ v: -1, _id: 1 }).toArray()).map((d) => d._id)).toEqual([1, 3, 2, 4]);
  });

  it("values of different BSON types sort in canonical type order", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([
      { _id: 1, v: "b" },
      { _id: 2, v: 10 },
      { _id: 3, v: true },
      { _id: 4, v: { k: 1 } },
      { _id: 5, v: null },
      { _id: 6 },
      { _id: 7, v: new Date(0) },
      { _id: 8, v: 2.5 },
      { _id: 9, v: new ObjectId() },
    ]);
    const docs = await coll.find().sort({ v: 1, _id: 1 }).toArray();
    expect(docs.map((d) => d._id)).toEqual([5, 6, 8, 2, 1, 4, 9, 3, 7]);
  });

  it("skip and limit page through a sorted result", async () => {
    const docs = await people.find().sort({ _id: -1 }).skip(1).limit(2).toArray();
    expect(docs.map((d) => d._id)).toEqual([4, 3]);
    expect(await people.find().skip(10).toArray()).toEqual([]);
  });
});

describe("cursors", () => {
  let big: Collection<Loose>;
  beforeAll(async () => {
    big = t.db.collection<Loose>(next());
    await big.insertMany(Array.from({ length: 1050 }, (_, i) => ({ i, pad: "x".repeat(20) })));
  });

  it("iterates 1,050 documents with batchSize 100 via getMore", async () => {
    const seen = new Set<string>();
    let n = 0;
    for await (const doc of big.find().batchSize(100)) {
      seen.add(String(doc._id));
      n++;
    }
    expect(n).toBe(1050);
    expect(seen.size).toBe(1050);
  });

  it("find returns 101 documents in the first batch by default, then getMore returns the rest", async () => {
    const first = await t.db.command({ find: big.collectionName, filter: {} });
    expect(first.cursor.firstBatch).toHaveLength(101);
    expect(isZeroId(first.cursor.id)).toBe(false);
    expect(first.cursor.ns).toBe(`${t.db.databaseName}.${big.collectionName}`);
    const more = await t.db.command({ getMore: asLong(first.cursor.id), collection: big.collectionName });
    expect(more.cursor.nextBatch).toHaveLength(949);
    expect(isZeroId(more.cursor.id)).toBe(true);
  });

  it("getMore honours batchSize", async () => {
    const first = await t.db.command({ find: big.collectionName, filter: {}, batchSize: 10 });
    expect(first.cursor.firstBatch).toHaveLength(10);
    const more = await t.db.command({
      getMore: asLong(first.cursor.id),
      collection: big.collectionName,
      batchSize: 300,
    });
    expect(more.cursor.nextBatch).toHaveLength(300);
    expect(isZeroId(more.cursor.id)).toBe(false);
    await t.db.command({ killCursors: big.collectionName, cursors: [asLong(first.cursor.id)] });
  });

  it("a batch holds at most 16 MiB of documents, the first counted (GridFS chunks of 1 MiB read back whole)", async () => {
    const chunks = t.db.collection<Loose>(next());
    const mib = 1024 * 1024;
    for (let n = 0; n < 20; n++) await chunks.insertOne({ n, data: Buffer.alloc(mib, n) });
    const first = await t.db.command({ find: chunks.collectionName, filter: {}, sort: { n: 1 } });
    const batch = first.cursor.firstBatch as Document[];
    expect(batch.length).toBeGreaterThan(1);
    expect(batch.length * mib).toBeLessThanOrEqual(16 * mib);
    await t.db.command({ killCursors: chunks.collectionName, cursors: [asLong(first.cursor.id)] });
    const all = await chunks.find({}).sort({ n: 1 }).toArray();
    expect(all.map((doc) => (doc.data as { buffer: Uint8Array }).buffer[0])).toEqual(
      Array.from({ length: 20 }, (_, n) => n),
    );
    await chunks.drop();
  });

  it("a limit that fits in the first batch closes the cursor immediately", async () => {
    const res = await t.db.command({ find: big.collectionName, filter: {}, limit: 5 });
    expect(res.cursor.firstBatch).toHaveLength(5);
    expect(isZeroId(res.cursor.id)).toBe(true);
  });

  it("killCursors reports the cursor killed and getMore then fails with 43", async () => {
    const first = await t.db.command({ find: big.collectionName, filter: {}, batchSize: 2 });
    const id = asLong(first.cursor.id);
    const res = await t.db.command({ killCursors: big.collectionName, cursors: [id] });
    expect(res.cursorsKilled.map((c: unknown) => asLong(c).toString())).toEqual([id.toString()]);
    const err = await expectCode(t.db.command({ getMore: id, collection: big.collectionName }), 43);
    expect(err.codeName).toBe("CursorNotFound");
  });

  it("closing a driver cursor kills it on the server", async () => {
    const cursor = big.find().batchSize(5);
    await cursor.next();
    const id = cursor.id!;
    expect(isZeroId(id)).toBe(false);
    await cursor.close();
    expect(cursor.killed).toBe(true);
    await expectCode(t.db.command({ getMore: asLong(id), collection: big.collectionName }), 43);
  });
});

describe("counting and distinct", () => {
  it("countDocuments with a filter, skip and limit", async () => {
    expect(await people.countDocuments()).toBe(5);
    expect(await people.countDocuments({ tags: "b" })).toBe(3);
    expect(await people.countDocuments({ tags: "b" }, { skip: 1 })).toBe(2);
    expect(await people.countDocuments({}, { limit: 2 })).toBe(2);
    expect(await people.countDocuments({ name: "nobody" })).toBe(0);
  });

  it("estimatedDocumentCount counts the whole collection", async () => {
    expect(await people.estimatedDocumentCount()).toBe(5);
    expect(await t.db.collection<Loose>(next()).estimatedDocumentCount()).toBe(0);
  });

  it("distinct flattens arrays and de-duplicates", async () => {
    expect((await people.distinct("tags")).sort()).toEqual(["a", "b", "c"]);
    expect((await people.distinct("items.sku")).sort()).toEqual(["x", "y"]);
    expect((await people.distinct("addr.city", { tags: "a" })).sort()).toEqual(["Oslo", "Tromsø"]);
    expect(await people.distinct("nope")).toEqual([]);
  });
});
