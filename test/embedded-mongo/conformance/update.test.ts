// Update operators, array updates, upserts, replace, findAndModify, deletes.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import { Timestamp, type Document } from "mongodb";
import { openTarget, type Target } from "../target.js";
import { expectCode, namer, type Loose } from "./helpers.js";

let t: Target;
const next = namer("upd");
beforeAll(async () => {
  t = await openTarget();
});
afterAll(() => t.stop());

/** A new collection seeded with `docs`. */
async function seeded(docs: Document[]) {
  const coll = t.db.collection<Loose>(next());
  if (docs.length) await coll.insertMany(docs);
  return coll;
}

/** Applies `update` to a single doc {_id: 1, ...doc} and returns the result without _id. */
async function applied(doc: Document, update: Document, options: Document = {}): Promise<Document | null> {
  const coll = await seeded([{ _id: 1, ...doc }]);
  const res = await coll.updateOne({ _id: 1 }, update, options);
  expect(res.matchedCount).toBe(1);
  const after = await coll.findOne({ _id: 1 }, { projection: { _id: 0 } });
  return after;
}

describe("field update operators", () => {
  it("$set creates, overwrites and builds nested paths", async () => {
    expect(await applied({ a: 1 }, { $set: { a: 2, b: "x", "c.d.e": true } })).toEqual({
      a: 2,
      b: "x",
      c: { d: { e: true } },
    });
  });

  it("$set on an array index beyond the end pads with null", async () => {
    expect(await applied({ arr: [1, 2] }, { $set: { "arr.4": 9 } })).toEqual({ arr: [1, 2, null, null, 9] });
  });

  it("$unset removes fields (missing fields are a no-op)", async () => {
    const coll = await seeded([{ _id: 1, a: 1, b: { c: 1, d: 2 } }]);
    const res = await coll.updateOne({ _id: 1 }, { $unset: { a: "", "b.c": 1 } });
    expect(res.modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, b: { d: 2 } });
    const noop = await coll.updateOne({ _id: 1 }, { $unset: { zzz: 1 } });
    expect(noop.matchedCount).toBe(1);
    expect(noop.modifiedCount).toBe(0);
  });

  it("$inc adds, and creates missing fields", async () => {
    expect(await applied({ n: 5, m: 1.5 }, { $inc: { n: -2, m: 1, fresh: 3 } })).toEqual({ n: 3, m: 2.5, fresh: 3 });
  });

  it("$inc on a non-numeric field fails with 14 and leaves the document", async () => {
    const coll = await seeded([{ _id: 1, s: "text" }]);
    await expectCode(coll.updateOne({ _id: 1 }, { $inc: { s: 1 } }), 14);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, s: "text" });
  });

  it("$mul multiplies, and sets a missing field to 0", async () => {
    expect(await applied({ p: 4 }, { $mul: { p: 2.5, q: 3 } })).toEqual({ p: 10, q: 0 });
  });

  it("$min / $max only replace when smaller / larger", async () => {
    expect(await applied({ lo: 5, hi: 5 }, { $min: { lo: 3, hi: 7, n: 1 } })).toEqual({ lo: 3, hi: 5, n: 1 });
    expect(await applied({ lo: 5, hi: 5 }, { $max: { lo: 7, hi: 2, n: 1 } })).toEqual({ lo: 7, hi: 5, n: 1 });
  });

  it("$rename moves fields, including out of subdocuments", async () => {
    expect(await applied({ a: 1, s: { x: 2 } }, { $rename: { a: "b", "s.x": "y" } })).toEqual({ b: 1, s: {}, y: 2 });
  });

  it("$currentDate sets a Date or a Timestamp", async () => {
    const before = Date.now();
    const doc = await applied({}, { $currentDate: { d: true, ts: { $type: "timestamp" } } });
    expect(doc!.d).toBeInstanceOf(Date);
    expect((doc!.d as Date).getTime()).toBeGreaterThanOrEqual(before - 5000);
    expect(doc!.ts).toBeInstanceOf(Timestamp);
  });

  it("conflicting paths in one update fail with 40", async () => {
    const coll = await seeded([{ _id: 1, a: 1 }]);
    await expectCode(coll.updateOne({ _id: 1 }, { $set: { a: 2 }, $inc: { a: 1 } }), 40);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
  });

  it("setting a subfield of a scalar fails with 28 (PathNotViable)", async () => {
    const coll = await seeded([{ _id: 1, a: 5 }]);
    await expectCode(coll.updateOne({ _id: 1 }, { $set: { "a.b": 1 } }), 28);
  });

  it("an empty $set is a no-op (MongoDB 5.0+)", async () => {
    const coll = await seeded([{ _id: 1, a: 1 }]);
    const res = await coll.updateOne({ _id: 1 }, { $set: {} });
    expect(res.matchedCount).toBe(1);
    expect(res.modifiedCount).toBe(0);
  });

  it("an empty update document is a replacement by {} (keeps only _id)", async () => {
    // The driver refuses updateOne(filter, {}) client-side, so send the update command raw.
    const coll = await seeded([{ _id: 1, a: 1, b: 2 }]);
    const res = await t.db.command({ update: coll.collectionName, updates: [{ q: { _id: 1 }, u: {} }] });
    expect(res.n).toBe(1);
    expect(res.nModified).toBe(1);
    expect(await coll.find().toArray()).toEqual([{ _id: 1 }]);
  });

  it("an unknown update operator fails with 9 (FailedToParse)", async () => {
    const coll = await seeded([{ _id: 1, a: 1 }]);
    await expectCode(coll.updateOne({ _id: 1 }, { $foo: { a: 2 } } as Document), 9);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
  });

  it("changing _id fails with 66 (ImmutableField)", async () => {
    const coll = await seeded([{ _id: 1, a: 1 }]);
    const err = await expectCode(coll.updateOne({ _id: 1 }, { $set: { _id: 2 } }), 66);
    expect(err.codeName).toBe("ImmutableField");
    await expectCode(coll.replaceOne({ _id: 1 }, { _id: 3, a: 1 }), 66);
    expect(await coll.find().toArray()).toEqual([{ _id: 1, a: 1 }]);
  });

  it("update with an aggregation pipeline computes from other fields", async () => {
    expect(
      await applied({ a: 2, b: 3 }, [{ $set: { c: { $add: ["$a", "$b"] } } }, { $unset: "a" }] as unknown as Document),
    ).toEqual({ b: 3, c: 5 });
  });
});

describe("array update operators", () => {
  it("$push appends; with $each, $sort and $slice", async () => {
    expect(await applied({ s: [4, 2] }, { $push: { s: 7 } })).toEqual({ s: [4, 2, 7] });
    expect(await applied({ s: [4, 2] }, { $push: { s: { $each: [5, 1], $sort: 1, $slice: 3 } } })).toEqual({
      s: [1, 2, 4],
    });
    expect(await applied({ s: [4, 2] }, { $push: { s: { $each: [5, 1], $sort: 1, $slice: -3 } } })).toEqual({
      s: [2, 4, 5],
    });
    expect(await applied({}, { $push: { s: { $each: [{ v: 1 }, { v: 3 }, { v: 2 }], $sort: { v: -1 } } } })).toEqual({
      s: [{ v: 3 }, { v: 2 }, { v: 1 }],
    });
  });

  it("$push to a non-array fails with 2 (BadValue)", async () => {
    const coll = await seeded([{ _id: 1, s: 5 }]);
    await expectCode(coll.updateOne({ _id: 1 }, { $push: { s: 1 } } as Document), 2);
  });

  it("$addToSet adds only missing values; an existing value is a no-op", async () => {
    expect(await applied({ s: ["a"] }, { $addToSet: { s: { $each: ["a", "b", "b"] } } })).toEqual({ s: ["a", "b"] });
    const coll = await seeded([{ _id: 1, s: ["a"] }]);
    const res = await coll.updateOne({ _id: 1 }, { $addToSet: { s: "a" } });
    expect(res.modifiedCount).toBe(0);
  });

  it("$pull by value, by condition and by subdocument match; $pullAll", async () => {
    expect(await applied({ s: [1, 5, 3, 5] }, { $pull: { s: 5 } })).toEqual({ s: [1, 3] });
    expect(await applied({ s: [1, 5, 3, 6] }, { $pull: { s: { $gte: 5 } } })).toEqual({ s: [1, 3] });
    expect(
      await applied(
        {
          it: [
            { k: "a", q: 1 },
            { k: "b", q: 9 },
          ],
        },
        { $pull: { it: { q: { $lt: 5 } } } },
      ),
    ).toEqual({ it: [{ k: "b", q: 9 }] });
    expect(await applied({ s: [1, 2, 3, 2] }, { $pullAll: { s: [2, 3] } })).toEqual({ s: [1] });
  });

  it("$pop removes the last (1) or first (-1) element", async () => {
    expect(await applied({ s: [1, 2, 3] }, { $pop: { s: 1 } })).toEqual({ s: [1, 2] });
    expect(await applied({ s: [1, 2, 3] }, { $pop: { s: -1 } })).toEqual({ s: [2, 3] });
  });

  it("positional $ updates the first matched element", async () => {
    const coll = await seeded([{ _id: 1, g: [80, 85, 80] }]);
    await coll.updateOne({ _id: 1, g: 80 }, { $set: { "g.$": 82 } });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, g: [82, 85, 80] });
  });

  it("positional $ into an array of subdocuments", async () => {
    const coll = await seeded([
      {
        _id: 1,
        it: [
          { k: "a", q: 1 },
          { k: "b", q: 2 },
        ],
      },
    ]);
    await coll.updateOne({ _id: 1, "it.k": "b" }, { $inc: { "it.$.q": 10 } });
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      it: [
        { k: "a", q: 1 },
        { k: "b", q: 12 },
      ],
    });
  });

  it("positional $ without a matching array in the query fails with 2", async () => {
    const coll = await seeded([{ _id: 1, g: [1, 2] }]);
    await expectCode(coll.updateOne({ _id: 1 }, { $set: { "g.$": 5 } }), 2);
  });

  it("$[] updates every element", async () => {
    expect(await applied({ g: [1, 2, 3] }, { $inc: { "g.$[]": 10 } })).toEqual({ g: [11, 12, 13] });
    expect(await applied({ it: [{ q: 1 }, { q: 2 }] }, { $set: { "it.$[].ok": true } })).toEqual({
      it: [
        { q: 1, ok: true },
        { q: 2, ok: true },
      ],
    });
  });

  it("$[elem] with arrayFilters updates only matching elements", async () => {
    expect(
      await applied({ g: [95, 102, 90, 150] }, { $set: { "g.$[el]": 100 } }, { arrayFilters: [{ el: { $gte: 100 } }] }),
    ).toEqual({ g: [95, 100, 90, 100] });
    expect(
      await applied(
        {
          it: [
            { k: "a", q: 1 },
            { k: "b", q: 7 },
            { k: "c", q: 8 },
          ],
        },
        { $set: { "it.$[e].big": true } },
        { arrayFilters: [{ "e.q": { $gt: 5 } }] },
      ),
    ).toEqual({
      it: [
        { k: "a", q: 1 },
        { k: "b", q: 7, big: true },
        { k: "c", q: 8, big: true },
      ],
    });
  });

  it("an unused array filter fails with 9; a missing one with 2", async () => {
    const coll = await seeded([{ _id: 1, g: [1, 2] }]);
    await expectCode(coll.updateOne({ _id: 1 }, { $set: { "g.$[]": 0 } }, { arrayFilters: [{ x: 1 }] }), 9);
    await expectCode(coll.updateOne({ _id: 1 }, { $set: { "g.$[y]": 0 } }), 2);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, g: [1, 2] });
  });
});

describe("counts, replace and upsert", () => {
  it("updateMany reports matched and modified counts; no-op writes are not modifications", async () => {
    const coll = await seeded([
      { _id: 1, a: 1 },
      { _id: 2, a: 2 },
      { _id: 3, a: 1 },
      { _id: 4, a: 3 },
    ]);
    const res = await coll.updateMany({ a: { $lte: 2 } }, { $set: { a: 1 } });
    expect(res.matchedCount).toBe(3);
    expect(res.modifiedCount).toBe(1);
    expect(res.upsertedCount).toBe(0);
    expect(res.upsertedId).toBeNull();
    const none = await coll.updateMany({ a: 99 }, { $set: { b: 1 } });
    expect(none.matchedCount).toBe(0);
  });

  it("replaceOne replaces the whole document but keeps _id", async () => {
    const coll = await seeded([{ _id: 1, a: 1, b: 2 }]);
    const res = await coll.replaceOne({ _id: 1 }, { c: 3 });
    expect(res.modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, c: 3 });
  });

  it("upsert seeds the new document from equality predicates only", async () => {
    const coll = await seeded([]);
    const res = await coll.updateOne(
      { a: 1, b: { $gt: 3 }, "n.x": "deep", $and: [{ k: "and" }] },
      { $set: { c: 1 } },
      { upsert: true },
    );
    expect(res.upsertedCount).toBe(1);
    expect(res.matchedCount).toBe(0);
    expect(res.modifiedCount).toBe(0);
    const doc = await coll.findOne({ _id: res.upsertedId! });
    expect(doc).toEqual({ _id: res.upsertedId, a: 1, n: { x: "deep" }, k: "and", c: 1 });
  });

  it("upsert does not seed from a multi-clause $or", async () => {
    const coll = await seeded([]);
    const res = await coll.updateOne({ $or: [{ a: 1 }, { a: 2 }] }, { $set: { c: 1 } }, { upsert: true });
    expect(await coll.findOne({ _id: res.upsertedId! })).toEqual({ _id: res.upsertedId, c: 1 });
  });

  it("upsert with an _id equality uses it as upsertedId", async () => {
    const coll = await seeded([]);
    const res = await coll.updateOne({ _id: "given" as unknown as never }, { $inc: { n: 1 } }, { upsert: true });
    expect(res.upsertedId).toBe("given");
    expect(await coll.find().toArray()).toEqual([{ _id: "given", n: 1 }]);
  });

  it("$setOnInsert applies only when the upsert inserts", async () => {
    const coll = await seeded([]);
    const upd = { $set: { seen: true }, $setOnInsert: { created: 1 }, $inc: { hits: 1 } };
    await coll.updateOne({ k: "x" }, upd, { upsert: true });
    expect(await coll.findOne({ k: "x" }, { projection: { _id: 0 } })).toEqual({
      k: "x",
      seen: true,
      created: 1,
      hits: 1,
    });
    await coll.updateOne({ k: "x" }, { ...upd, $setOnInsert: { created: 2 } }, { upsert: true });
    expect(await coll.findOne({ k: "x" }, { projection: { _id: 0 } })).toEqual({
      k: "x",
      seen: true,
      created: 1,
      hits: 2,
    });
    expect(await coll.countDocuments()).toBe(1);
  });

  it("a replacement upsert does not copy query fields other than _id", async () => {
    const coll = await seeded([]);
    const res = await coll.replaceOne({ k: 1 }, { v: 2 }, { upsert: true });
    expect(res.upsertedCount).toBe(1);
    expect(await coll.findOne({}, { projection: { _id: 0 } })).toEqual({ v: 2 });
  });

  it("updateMany with upsert inserts exactly one document", async () => {
    const coll = await seeded([]);
    const res = await coll.updateMany({ g: "none" }, { $set: { x: 1 } }, { upsert: true });
    expect(res.upsertedCount).toBe(1);
    expect(await coll.countDocuments({ g: "none", x: 1 })).toBe(1);
  });
});

describe("findOneAnd* and deletes", () => {
  it("findOneAndUpdate returns the before or after image", async () => {
    const coll = await seeded([{ _id: 1, n: 1 }]);
    expect(await coll.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } })).toEqual({ _id: 1, n: 1 });
    expect(await coll.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } }, { returnDocument: "after" })).toEqual({
      _id: 1,
      n: 3,
    });
    expect(await coll.findOneAndUpdate({ _id: 2 }, { $inc: { n: 1 } })).toBeNull();
  });

  it("findOneAndUpdate honours sort and projection", async () => {
    const coll = await seeded([
      { _id: 1, p: 5 },
      { _id: 2, p: 9 },
      { _id: 3, p: 7 },
    ]);
    const doc = await coll.findOneAndUpdate(
      {},
      { $set: { taken: true } },
      { sort: { p: -1 }, projection: { p: 1, taken: 1 }, returnDocument: "after" },
    );
    expect(doc).toEqual({ _id: 2, p: 9, taken: true });
    expect(await coll.countDocuments({ taken: true })).toBe(1);
  });

  it("findOneAndUpdate with upsert: before is null, after is the new doc", async () => {
    const coll = await seeded([]);
    expect(await coll.findOneAndUpdate({ k: "a" }, { $inc: { n: 1 } }, { upsert: true })).toBeNull();
    const after = await coll.findOneAndUpdate(
      { k: "b" },
      { $inc: { n: 5 } },
      { upsert: true, returnDocument: "after" },
    );
    expect(after).toEqual({ _id: expect.anything(), k: "b", n: 5 });
    expect(await coll.countDocuments()).toBe(2);
  });

  it("findOneAndUpdate with includeResultMetadata reports lastErrorObject", async () => {
    const coll = await seeded([{ _id: 1, n: 1 }]);
    const hit = await coll.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } }, { includeResultMetadata: true });
    expect(hit.ok).toBe(1);
    expect(hit.value).toEqual({ _id: 1, n: 1 });
    expect(hit.lastErrorObject).toEqual(expect.objectContaining({ n: 1, updatedExisting: true }));
    const ins = await coll.findOneAndUpdate(
      { _id: 7 },
      { $set: { n: 0 } },
      { upsert: true, includeResultMetadata: true },
    );
    expect(ins.value).toBeNull();
    expect(ins.lastErrorObject).toEqual(expect.objectContaining({ n: 1, updatedExisting: false, upserted: 7 }));
  });

  it("findOneAndReplace replaces and returns the chosen image", async () => {
    const coll = await seeded([{ _id: 1, a: 1 }]);
    expect(await coll.findOneAndReplace({ _id: 1 }, { b: 2 })).toEqual({ _id: 1, a: 1 });
    expect(await coll.findOneAndReplace({ _id: 1 }, { c: 3 }, { returnDocument: "after" })).toEqual({ _id: 1, c: 3 });
  });

  it("findOneAndDelete removes the first document in sort order and returns it", async () => {
    const coll = await seeded([
      { _id: 1, p: 2 },
      { _id: 2, p: 1 },
      { _id: 3, p: 3 },
    ]);
    expect(await coll.findOneAndDelete({}, { sort: { p: 1 } })).toEqual({ _id: 2, p: 1 });
    expect(await coll.countDocuments()).toBe(2);
    expect(await coll.findOneAndDelete({ p: 42 })).toBeNull();
  });

  it("deleteOne removes one match, deleteMany all matches", async () => {
    const coll = await seeded([
      { _id: 1, k: "a" },
      { _id: 2, k: "a" },
      { _id: 3, k: "a" },
      { _id: 4, k: "b" },
    ]);
    expect((await coll.deleteOne({ k: "a" })).deletedCount).toBe(1);
    expect((await coll.deleteMany({ k: "a" })).deletedCount).toBe(2);
    expect((await coll.deleteMany({ k: "zzz" })).deletedCount).toBe(0);
    expect(await coll.find().toArray()).toEqual([{ _id: 4, k: "b" }]);
    expect((await coll.deleteMany({})).deletedCount).toBe(1);
    expect(await coll.countDocuments()).toBe(0);
  });
});
