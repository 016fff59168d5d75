// $bsonSize (MongoDB 4.4+), which resolve[] uses to leave targets too large for its byte budget
// in the store: in $expr filters and in aggregation, the size of a document in bytes, null for
// null or missing, an error for anything else. As in the rest of the suite, the same
// assertions hold against MongoDB.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { calculateObjectSize } from "bson";
import { openTarget, type Target } from "../target.js";
import { expectCode, namer, type Loose } from "./helpers.js";

const BSON_SIZE_NOT_A_DOCUMENT = 31393;

let t: Target;
const next = namer("bsonsize");
beforeAll(async () => {
  t = await openTarget();
});
afterAll(() => t.stop());

const small = { _id: 1, text: "a" };
const large = { _id: 2, text: "b".repeat(10_000), sub: { x: 1 } };

describe("$bsonSize", () => {
  it("filters by a document's size in $expr, as resolve[] asks", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([small, large]);
    const within = await coll.find({ _id: { $in: [1, 2] }, $expr: { $lte: [{ $bsonSize: "$$ROOT" }, 1000] } }).toArray();
    expect(within).toEqual([small]);
  });

  it("projects the size of the whole document and of a subdocument; null for a missing field", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([small, large]);
    const sizes = await coll.aggregate([{ $sort: { _id: 1 } }, { $project: { whole: { $bsonSize: "$$ROOT" }, sub: { $bsonSize: "$sub" } } }]).toArray();
    expect(sizes).toEqual([
      { _id: 1, whole: calculateObjectSize(small), sub: null },
      { _id: 2, whole: calculateObjectSize(large), sub: calculateObjectSize(large.sub) },
    ]);
  });

  it("refuses a value that is not a document", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertOne(small);
    await expectCode(coll.aggregate([{ $project: { size: { $bsonSize: "$text" } } }]).toArray(), BSON_SIZE_NOT_A_DOCUMENT);
  });
});
