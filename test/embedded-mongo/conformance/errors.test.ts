// Error behaviour: bad operators, bad command shapes, invalid names, oversize documents.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import type { Collection, Document } from "mongodb";
import { openTarget, type Target } from "../target.js";
import { asLong, expectCode, namer, rejection, type Loose } from "./helpers.js";

let t: Target;
const next = namer("err");
let c: Collection<Loose>;
beforeAll(async () => {
  t = await openTarget();
  c = t.db.collection<Loose>(next());
  await c.insertMany([
    { _id: 1, a: 1, s: "x" },
    { _id: 2, a: 2, s: "y" },
  ]);
});
afterAll(() => t.stop());

const find = (filter: Document) => c.find(filter).toArray();

describe("query errors", () => {
  it("an unknown query operator fails with 2 (BadValue)", async () => {
    const err = await expectCode(find({ a: { $foo: 1 } }), 2);
    expect(err.codeName).toBe("BadValue");
    expect(err.message).toContain("$foo");
  });

  it("an unknown top-level operator fails with 2", async () => {
    await expectCode(find({ $foo: [{ a: 1 }] }), 2);
  });

  const malformed: Array<[string, Document]> = [
    ["$in with a non-array", { a: { $in: 5 } }],
    ["$and with a non-array", { $and: { a: 1 } }],
    ["$or with an empty array", { $or: [] }],
    ["$elemMatch with a non-object", { a: { $elemMatch: 1 } }],
    ["$size with a non-number", { a: { $size: "two" } }],
    ["$regex with a non-string", { s: { $regex: 5 } }],
  ];
  for (const [label, filter] of malformed) {
    it(`malformed operator argument: ${label} fails with 2`, async () => {
      await expectCode(find(filter), 2);
    });
  }

  it("an invalid regular expression is rejected", async () => {
    const err = await rejection(find({ s: { $regex: "(" } }));
    expect(typeof err.code).toBe("number");
  });

  it("$where: runs JavaScript on MongoDB, is refused by the embedded engine", async () => {
    const p = find({ $where: "this.a > 1" });
    if (t.embedded) {
      const err = await rejection(p);
      expect(typeof err.code).toBe("number");
    } else {
      expect((await p).map((d) => d._id)).toEqual([2]);
    }
  });

  it("$text without a text index is an error", async () => {
    const err = await rejection(find({ $text: { $search: "x" } }));
    if (!t.embedded) expect(err.code).toBe(27); // IndexNotFound: text index required for $text query
    expect(typeof err.code).toBe("number");
  });

  it("a sort key that is not 1/-1 is rejected", async () => {
    // (The driver refuses { a: 2 } in cursor.sort() itself, so send the find command raw.)
    await rejection(t.db.command({ find: c.collectionName, filter: {}, sort: { a: 2 } }));
    await expectCode(c.aggregate([{ $sort: { a: 2 } }]).toArray(), 15975);
  });
});

describe("command shape errors", () => {
  const badTypes: Array<[string, (name: string) => Document]> = [
    ["find.filter: 5", (name) => ({ find: name, filter: 5 })],
    ["find.limit: 'ten'", (name) => ({ find: name, limit: "ten" })],
    ["find.sort: 'a'", (name) => ({ find: name, sort: "a" })],
    ["insert.documents: 'nope'", (name) => ({ insert: name, documents: "nope" })],
    [
      "update.updates[0].multi: 'yes'",
      (name) => ({ update: name, updates: [{ q: {}, u: { $set: { a: 9 } }, multi: "yes" }] }),
    ],
  ];
  for (const [label, command] of badTypes) {
    it(`wrong option type ${label} fails with 14 (TypeMismatch) and writes nothing`, async () => {
      const coll = t.db.collection<Loose>(next());
      await coll.insertMany([
        { _id: 1, a: 1 },
        { _id: 2, a: 2 },
      ]);
      await expectCode(t.db.command(command(coll.collectionName)), 14);
      expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, a: 1 },
        { _id: 2, a: 2 },
      ]);
    });
  }

  it("getMore on an unknown cursor fails with 43 (CursorNotFound)", async () => {
    await expectCode(t.db.command({ getMore: asLong(123456789), collection: c.collectionName }), 43);
  });

  it("$inc with a non-numeric argument fails with 14", async () => {
    await expectCode(c.updateOne({ _id: 1 }, { $inc: { a: "one" as unknown as number } }), 14);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1, s: "x" });
  });

  it("an array _id is rejected with 2", async () => {
    const coll = t.db.collection<Loose>(next());
    await expectCode(coll.insertOne({ _id: [1, 2] as unknown as never }), 2);
    expect(await coll.countDocuments()).toBe(0);
  });
});

describe("aggregation errors", () => {
  it("an unknown stage fails with 40324", async () => {
    await expectCode(c.aggregate([{ $frobnicate: {} }]).toArray(), 40324);
  });

  it("an unknown expression operator fails with 168 (InvalidPipelineOperator)", async () => {
    await expectCode(c.aggregate([{ $addFields: { x: { $frobnicate: "$a" } } }]).toArray(), 168);
    // $project parses a lone unknown $-field as a projection, hence MongoDB's 31325 there.
    await expectCode(c.aggregate([{ $project: { x: { $frobnicate: "$a" } } }]).toArray(), 31325);
  });

  it("$group without _id fails with 15955", async () => {
    await expectCode(c.aggregate([{ $group: { n: { $sum: 1 } } }]).toArray(), 15955);
  });

  it("$limit 0 fails with 15958", async () => {
    await expectCode(c.aggregate([{ $limit: 0 }]).toArray(), 15958);
  });
});

describe("names and document validity", () => {
  it("a collection name containing '$' is an invalid namespace (73)", async () => {
    await expectCode(t.db.collection<Loose>("bad$name").insertOne({ a: 1 }), 73);
    await expectCode(t.db.command({ create: "" }), 73);
  });

  it("a top-level $-prefixed field is accepted on insert (MongoDB 5.0+)", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertOne({ _id: 1, $price: 50, qty: 30 });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, $price: 50, qty: 30 });
    const docs = await coll
      .aggregate([{ $project: { p: { $getField: { field: { $literal: "$price" }, input: "$$ROOT" } } } }])
      .toArray();
    expect(docs).toEqual([{ _id: 1, p: 50 }]);
  });

  it("a $-prefixed top-level field in a replacement document fails with 52", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertOne({ _id: 1, a: 1 });
    await expectCode(coll.replaceOne({ _id: 1 }, { a: 2, $bad: 1 }), 52);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
  });

  it("a document over 16 MiB is rejected and nothing is stored", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertOne({ _id: "small" });
    const huge = { _id: "huge", blob: "x".repeat(16 * 1024 * 1024 + 1024) };
    const err = await rejection(coll.insertOne(huge));
    expect(err).toBeInstanceOf(Error);
    if (typeof err.code === "number" && err.code !== 0) expect([10334, 2, 17419, 17420]).toContain(err.code);
    expect(await coll.countDocuments({ _id: "huge" as unknown as never })).toBe(0);
    expect(await coll.countDocuments()).toBe(1);
  });

  it("an update that grows a document past 16 MiB fails and leaves it unchanged", async () => {
    const coll = t.db.collection<Loose>(next());
    const half = "y".repeat(9 * 1024 * 1024);
    await coll.insertOne({ _id: 1, a: half });
    await rejection(coll.updateOne({ _id: 1 }, { $set: { b: half } }));
    const doc = await coll.findOne({ _id: 1 }, { projection: { b: 1 } });
    expect(doc).toEqual({ _id: 1 });
  });
});
