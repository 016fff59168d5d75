// Aggregation pipeline stages, accumulators, expressions and aggregate cursors.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import type { Collection, Document } from "mongodb";
import { openTarget, type Target } from "../target.js";
import { asLong, expectCode, isZeroId, namer, type Loose } from "./helpers.js";

let t: Target;
const next = namer("agg");
let sales: Collection<Loose>;

const SALES: Document[] = [
  { _id: 1, item: "abc", price: 10, qty: 2, tags: ["a", "b"], store: "n" },
  { _id: 2, item: "jkl", price: 20, qty: 1, tags: ["b"], store: "s" },
  { _id: 3, item: "xyz", price: 5, qty: 10, tags: [], store: "n" },
  { _id: 4, item: "xyz", price: 5, qty: 20, store: "s" },
  { _id: 5, item: "abc", price: 10, qty: 10, tags: ["c", "a"], store: "n" },
];

beforeAll(async () => {
  t = await openTarget();
  sales = t.db.collection<Loose>(next());
  await sales.insertMany(SALES);
});
afterAll(() => t.stop());

const run = (pipeline: Document[], coll: Collection<Loose> = sales) => coll.aggregate(pipeline).toArray();

describe("basic stages", () => {
  it("$match + $sort + $skip + $limit", async () => {
    const docs = await run([
      { $match: { price: { $lte: 10 } } },
      { $sort: { qty: -1, _id: 1 } },
      { $skip: 1 },
      { $limit: 2 },
    ]);
    expect(docs.map((d) => d._id)).toEqual([3, 5]);
  });

  it("$project with inclusion, exclusion of _id and computed fields", async () => {
    const docs = await run([
      { $match: { _id: { $in: [1, 2] } } },
      { $sort: { _id: 1 } },
      {
        $project: {
          _id: 0,
          item: 1,
          total: { $multiply: ["$price", "$qty"] },
          label: { $concat: ["$item", "-", "$store"] },
        },
      },
    ]);
    expect(docs).toEqual([
      { item: "abc", total: 20, label: "abc-n" },
      { item: "jkl", total: 20, label: "jkl-s" },
    ]);
  });

  it("$addFields / $set add fields and keep the rest; $unset removes", async () => {
    const docs = await run([
      { $match: { _id: 4 } },
      { $addFields: { total: { $multiply: ["$price", "$qty"] } } },
      { $set: { big: { $gt: ["$total", 50] }, nTags: { $size: { $ifNull: ["$tags", []] } } } },
      { $unset: ["store", "price"] },
    ]);
    expect(docs).toEqual([{ _id: 4, item: "xyz", qty: 20, total: 100, big: true, nTags: 0 }]);
  });

  it("$unionWith a sub-pipeline led by $match (with $sort/$limit and later stages) adds exactly the matched documents", async () => {
    const other = t.db.collection<Loose>(next());
    await other.insertMany([
      { _id: 10, item: "abc", qty: 1 },
      { _id: 11, item: "abc", qty: 7 },
      { _id: 12, item: "def", qty: 3 },
      { _id: 13, item: "abc", qty: 4 },
    ]);
    await other.createIndex({ item: 1 });
    const docs = await run([
      { $match: { _id: { $in: [1, 2] } } },
      { $addFields: { from: "sales" } },
      {
        $unionWith: {
          coll: other.collectionName,
          pipeline: [
            { $match: { item: "abc" } },
            { $sort: { qty: -1 } },
            { $limit: 2 },
            { $addFields: { from: "other" } },
          ],
        },
      },
    ]);
    expect(docs.map((d) => [d._id, d.from])).toEqual([
      [1, "sales"],
      [2, "sales"],
      [11, "other"],
      [13, "other"],
    ]);
    // Stages after the union see every document; a field path is not a literal.
    const sortedBack = await run([
      { $match: { _id: 1 } },
      {
        $unionWith: {
          coll: other.collectionName,
          pipeline: [{ $match: { _id: { $in: [10, 12] } } }, { $set: { copy: "$item" } }],
        },
      },
      { $sort: { _id: -1 } },
    ]);
    expect(sortedBack.map((d) => [d._id, d.copy])).toEqual([
      [12, "def"],
      [10, "abc"],
      [1, undefined],
    ]);
  });

  it("$unionWith whose sub-pipeline ends in a $project keeping fields and adding a $literal tag", async () => {
    const other = t.db.collection<Loose>(next());
    await other.insertMany([
      { _id: 20, item: "abc", qty: 1, note: "n" },
      { _id: 21, item: "abc", qty: 7 },
      { _id: 22, item: "def", qty: 3 },
    ]);
    const docs = await run([
      { $match: { _id: 2 } },
      { $project: { qty: 1, item: 1 } },
      {
        $unionWith: {
          coll: other.collectionName,
          pipeline: [
            { $match: { item: "abc" } },
            { $sort: { _id: 1 } },
            { $limit: 5 },
            { $project: { _id: 0, tag: { $literal: "linked" }, note: 1, qty: 1 } },
          ],
        },
      },
    ]);
    expect(docs.map((d) => Object.entries(d))).toEqual([
      [
        ["_id", 2],
        ["item", "jkl"],
        ["qty", 1],
      ],
      [
        ["qty", 1],
        ["note", "n"],
        ["tag", "linked"],
      ],
      [
        ["qty", 7],
        ["tag", "linked"],
      ],
    ]);
  });

  it("$match with $in then $group by that field counting: one row per value present, on a scalar index and on a multikey one", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.createIndex({ parent: 1, position: 1 });
    await coll.insertMany([
      { parent: "a", position: 0 },
      { parent: "a", position: 1 },
      { parent: "b", position: 0 },
      { parent: "c", position: 0 },
    ]);
    const pipeline = [{ $match: { parent: { $in: ["a", "b", "z"] } } }, { $group: { _id: "$parent", n: { $sum: 1 } } }];
    const rows = await run(pipeline, coll);
    expect(rows.sort((x, y) => String(x._id).localeCompare(String(y._id)))).toEqual([
      { _id: "a", n: 2 },
      { _id: "b", n: 1 },
    ]);
    // An array value groups under the whole array, as MongoDB does.
    await coll.insertOne({ parent: ["a", "b"], position: 5 });
    const multikey = await run(pipeline, coll);
    expect(
      multikey.map((row) => [row._id, row.n]).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    ).toEqual(
      [
        ["a", 2],
        [["a", "b"], 1],
        ["b", 1],
      ].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    );
  });

  it("$count counts; on an empty input it emits no document", async () => {
    expect(await run([{ $match: { store: "n" } }, { $count: "n" }])).toEqual([{ n: 3 }]);
    expect(await run([{ $match: { store: "zzz" } }, { $count: "n" }])).toEqual([]);
  });

  it("$replaceRoot promotes a subdocument", async () => {
    const docs = await run([{ $match: { _id: 2 } }, { $replaceRoot: { newRoot: { id: "$_id", what: "$item" } } }]);
    expect(docs).toEqual([{ id: 2, what: "jkl" }]);
  });

  it("$cond and $ifNull expressions", async () => {
    const docs = await run([
      { $sort: { _id: 1 } },
      {
        $project: {
          size: { $cond: [{ $gte: ["$qty", 10] }, "bulk", "single"] },
          firstTag: { $ifNull: [{ $arrayElemAt: ["$tags", 0] }, "none"] },
        },
      },
    ]);
    expect(docs.map((d) => [d.size, d.firstTag])).toEqual([
      ["single", "a"],
      ["single", "b"],
      ["bulk", "none"],
      ["bulk", "none"],
      ["bulk", "c"],
    ]);
  });

  it("aggregating a missing collection returns no documents", async () => {
    expect(await run([{ $match: {} }], t.db.collection<Loose>(next()))).toEqual([]);
  });
});

describe("$group", () => {
  it("groups with $sum $avg $min $max", async () => {
    const docs = await run([
      {
        $group: {
          _id: "$item",
          n: { $sum: 1 },
          qty: { $sum: "$qty" },
          avgQty: { $avg: "$qty" },
          lo: { $min: "$qty" },
          hi: { $max: "$qty" },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(docs).toEqual([
      { _id: "abc", n: 2, qty: 12, avgQty: 6, lo: 2, hi: 10 },
      { _id: "jkl", n: 1, qty: 1, avgQty: 1, lo: 1, hi: 1 },
      { _id: "xyz", n: 2, qty: 30, avgQty: 15, lo: 10, hi: 20 },
    ]);
  });

  it("$avg yields a fraction; $sum ignores non-numeric and missing values", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([{ v: 1 }, { v: 2 }, { v: "x" }, {}]);
    expect(
      await run([{ $group: { _id: null, s: { $sum: "$v" }, a: { $avg: "$v" }, m: { $sum: "$missing" } } }], coll),
    ).toEqual([{ _id: null, s: 3, a: 1.5, m: 0 }]);
  });

  it("$first / $last / $push follow the incoming sort order", async () => {
    const docs = await run([
      { $sort: { qty: 1, _id: 1 } },
      { $group: { _id: "$store", first: { $first: "$_id" }, last: { $last: "$_id" }, ids: { $push: "$_id" } } },
      { $sort: { _id: 1 } },
    ]);
    expect(docs).toEqual([
      { _id: "n", first: 1, last: 5, ids: [1, 3, 5] },
      { _id: "s", first: 2, last: 4, ids: [2, 4] },
    ]);
  });

  it("$addToSet collects distinct values", async () => {
    const [doc] = await run([{ $group: { _id: "$store", items: { $addToSet: "$item" } } }, { $match: { _id: "n" } }]);
    expect([...(doc.items as string[])].sort()).toEqual(["abc", "xyz"]);
  });

  it("compound group keys and _id: null", async () => {
    const docs = await run([
      { $group: { _id: { s: "$store", p: "$price" }, n: { $sum: 1 } } },
      { $sort: { "_id.s": 1, "_id.p": 1 } },
    ]);
    expect(docs).toEqual([
      { _id: { s: "n", p: 5 }, n: 1 },
      { _id: { s: "n", p: 10 }, n: 2 },
      { _id: { s: "s", p: 5 }, n: 1 },
      { _id: { s: "s", p: 20 }, n: 1 },
    ]);
    expect(await run([{ $group: { _id: null, total: { $sum: { $multiply: ["$price", "$qty"] } } } }])).toEqual([
      { _id: null, total: 290 },
    ]);
  });

  it("$group over an empty input emits nothing", async () => {
    expect(await run([{ $match: { item: "none" } }, { $group: { _id: null, n: { $sum: 1 } } }])).toEqual([]);
  });

  it("countDocuments equals an explicit $match + $group pipeline", async () => {
    const [viaAgg] = await run([{ $match: { store: "n" } }, { $group: { _id: 1, n: { $sum: 1 } } }]);
    expect(viaAgg).toEqual({ _id: 1, n: 3 });
    expect(await sales.countDocuments({ store: "n" })).toBe(3);
  });
});

describe("$unwind, $lookup, $facet", () => {
  it("$unwind emits one document per element, dropping empty/missing arrays", async () => {
    const docs = await run([{ $unwind: "$tags" }, { $sort: { _id: 1, tags: 1 } }, { $project: { tags: 1 } }]);
    expect(docs).toEqual([
      { _id: 1, tags: "a" },
      { _id: 1, tags: "b" },
      { _id: 2, tags: "b" },
      { _id: 5, tags: "a" },
      { _id: 5, tags: "c" },
    ]);
  });

  it("$unwind with preserveNullAndEmptyArrays and includeArrayIndex", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([
      { _id: 1, s: ["x", "y"] },
      { _id: 2, s: [] },
      { _id: 3 },
      { _id: 4, s: null },
      { _id: 5, s: "solo" },
    ]);
    const docs = await run(
      [
        { $unwind: { path: "$s", preserveNullAndEmptyArrays: true, includeArrayIndex: "i" } },
        { $sort: { _id: 1, i: 1 } },
      ],
      coll,
    );
    expect(docs).toEqual([
      { _id: 1, s: "x", i: 0 },
      { _id: 1, s: "y", i: 1 },
      { _id: 2, i: null },
      { _id: 3, i: null },
      { _id: 4, s: null, i: null },
      { _id: 5, s: "solo", i: null },
    ]);
  });

  it("$lookup with localField/foreignField (array local field matches each element)", async () => {
    const tags = t.db.collection<Loose>(next());
    await tags.insertMany([
      { _id: "a", label: "Alpha" },
      { _id: "b", label: "Beta" },
    ]);
    const docs = await run([
      { $match: { _id: { $in: [1, 3, 4] } } },
      { $sort: { _id: 1 } },
      { $lookup: { from: tags.collectionName, localField: "tags", foreignField: "_id", as: "tagDocs" } },
      { $project: { labels: "$tagDocs.label" } },
    ]);
    expect(docs.map((d) => [d._id, [...(d.labels as string[])].sort()])).toEqual([
      [1, ["Alpha", "Beta"]],
      [3, []],
      [4, []],
    ]);
  });

  it("$lookup with let + pipeline", async () => {
    const prices = t.db.collection<Loose>(next());
    await prices.insertMany([
      { item: "abc", min: 8 },
      { item: "abc", min: 12 },
      { item: "xyz", min: 1 },
    ]);
    const docs = await run([
      { $match: { _id: { $in: [1, 3] } } },
      { $sort: { _id: 1 } },
      {
        $lookup: {
          from: prices.collectionName,
          let: { it: "$item", p: "$price" },
          pipeline: [
            { $match: { $expr: { $and: [{ $eq: ["$item", "$$it"] }, { $lte: ["$min", "$$p"] }] } } },
            { $project: { _id: 0, min: 1 } },
          ],
          as: "ok",
        },
      },
      { $project: { ok: 1 } },
    ]);
    expect(docs).toEqual([
      { _id: 1, ok: [{ min: 8 }] },
      { _id: 3, ok: [{ min: 1 }] },
    ]);
  });

  it("$facet runs sub-pipelines over the same input", async () => {
    const [doc] = await run([
      {
        $facet: {
          byStore: [{ $group: { _id: "$store", n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
          top: [{ $sort: { qty: -1 } }, { $limit: 1 }, { $project: { _id: 1 } }],
          total: [{ $count: "n" }],
        },
      },
    ]);
    expect(doc).toEqual({
      byStore: [
        { _id: "n", n: 3 },
        { _id: "s", n: 2 },
      ],
      top: [{ _id: 4 }],
      total: [{ n: 5 }],
    });
  });
});

describe("aggregate cursors and output stages", () => {
  let big: Collection<Loose>;
  beforeAll(async () => {
    big = t.db.collection<Loose>(next());
    await big.insertMany(Array.from({ length: 1050 }, (_, i) => ({ i, g: i % 7 })));
  });

  it("iterates more than 101 results with batchSize via getMore", async () => {
    const seen = new Set<number>();
    for await (const d of big.aggregate([{ $match: { i: { $gte: 0 } } }, { $project: { i: 1 } }], { batchSize: 50 }))
      seen.add(d.i as number);
    expect(seen.size).toBe(1050);
  });

  it("raw aggregate returns a 101-document first batch and a live cursor", async () => {
    const res = await t.db.command({ aggregate: big.collectionName, pipeline: [{ $sort: { i: 1 } }], cursor: {} });
    expect(res.cursor.firstBatch).toHaveLength(101);
    expect(res.cursor.firstBatch[100].i).toBe(100);
    expect(isZeroId(res.cursor.id)).toBe(false);
    const more = await t.db.command({
      getMore: asLong(res.cursor.id),
      collection: big.collectionName,
      batchSize: 1000,
    });
    expect(more.cursor.nextBatch).toHaveLength(949);
    expect(more.cursor.nextBatch[0].i).toBe(101);
    expect(isZeroId(more.cursor.id)).toBe(true);
  });

  it("aggregate without the cursor option fails with 9", async () => {
    await expectCode(t.db.command({ aggregate: big.collectionName, pipeline: [] }), 9);
  });

  // $out/$merge are optional for the embedded engine: there (only) a clean error answer is
  // accepted, and it must leave the target collection untouched.
  const REFUSED = Symbol("refused");
  async function optional<T>(p: Promise<T>): Promise<T | typeof REFUSED> {
    try {
      return await p;
    } catch (e) {
      if (!t.embedded) throw e;
      expect(typeof (e as { code?: unknown }).code).toBe("number");
      return REFUSED;
    }
  }
  it("$out writes the result into a collection (replacing it)", async () => {
    const target = next();
    await t.db.collection<Loose>(target).insertOne({ stale: true });
    const out = await optional(run([{ $group: { _id: "$store", n: { $sum: 1 } } }, { $out: target }]));
    if (out === REFUSED) {
      expect(
        await t.db
          .collection<Loose>(target)
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ).toEqual([{ stale: true }]);
      return;
    }
    expect(out).toEqual([]);
    const docs = await t.db.collection<Loose>(target).find().sort({ _id: 1 }).toArray();
    expect(docs).toEqual([
      { _id: "n", n: 3 },
      { _id: "s", n: 2 },
    ]);
  });

  it("$merge upserts into an existing collection", async () => {
    const target = t.db.collection<Loose>(next());
    await target.insertMany([
      { _id: "n", n: 0, keep: true },
      { _id: "other", n: 9 },
    ]);
    const merged = await optional(
      run([
        { $group: { _id: "$store", n: { $sum: 1 } } },
        { $merge: { into: target.collectionName, whenMatched: "merge", whenNotMatched: "insert" } },
      ]),
    );
    if (merged === REFUSED) {
      expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: "n", n: 0, keep: true },
        { _id: "other", n: 9 },
      ]);
      return;
    }
    expect(merged).toEqual([]);
    const docs = await target.find().sort({ _id: 1 }).toArray();
    expect(docs).toEqual([
      { _id: "n", n: 3, keep: true },
      { _id: "other", n: 9 },
      { _id: "s", n: 2 },
    ]);
  });
});

describe("counting the values of a path ($unwind then $group with $sum: 1)", () => {
  const sorted = (docs: Document[]) =>
    docs.map((d) => [d._id, d.n]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

  it("counts each element of arrays, a scalar as one, and leaves out missing, null and empty arrays", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([
      { _id: 1, facets: { subjects: ["Maps", "Letters"] }, published: true },
      { _id: 2, facets: { subjects: ["Maps"] }, published: false },
      { _id: 3, facets: { subjects: [] }, published: true },
      { _id: 4, facets: { subjects: "Diaries" } },
      { _id: 5, facets: {} },
      { _id: 6, facets: { subjects: null } },
      { _id: 7, facets: { subjects: [null, 3] } },
    ]);
    const counted = await run(
      [{ $unwind: "$facets.subjects" }, { $group: { _id: "$facets.subjects", n: { $sum: 1 } } }],
      coll,
    );
    expect(sorted(counted)).toEqual([
      [3, 1],
      ["Diaries", 1],
      ["Letters", 1],
      ["Maps", 2],
      [null, 1],
    ]);
    // Without $unwind: a missing value groups under null, and what follows the $group runs on the counts.
    const grouped = await run(
      [
        { $match: { _id: { $lte: 5 } } },
        { $group: { _id: "$published", n: { $sum: 1 } } },
        { $sort: { n: -1, _id: 1 } },
      ],
      coll,
    );
    expect(grouped).toEqual([
      { _id: null, n: 2 },
      { _id: true, n: 2 },
      { _id: false, n: 1 },
    ]);
  });

  it("counts each $facet of that shape over the same documents, and runs what follows on the counts", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([
      { _id: 1, kind: "letter", tags: ["a", "b"] },
      { _id: 2, kind: "letter", tags: ["b"] },
      { _id: 3, kind: "map", tags: [] },
      { _id: 4, kind: "map" },
    ]);
    const count = (path: string) => [
      { $unwind: `$${path}` },
      { $group: { _id: `$${path}`, n: { $sum: 1 } } },
      { $sort: { n: -1, _id: 1 } },
    ];
    const [row] = await run(
      [{ $match: { _id: { $lte: 3 } } }, { $facet: { kinds: count("kind"), tags: count("tags") } }],
      coll,
    );
    expect(row).toEqual({
      kinds: [
        { _id: "letter", n: 2 },
        { _id: "map", n: 1 },
      ],
      tags: [
        { _id: "b", n: 2 },
        { _id: "a", n: 1 },
      ],
    });
    // A sub-pipeline of another shape: the whole stage as MongoDB runs it.
    const [mixed] = await run([{ $facet: { kinds: count("kind"), total: [{ $count: "n" }] } }], coll);
    expect(mixed).toEqual({
      kinds: [
        { _id: "letter", n: 2 },
        { _id: "map", n: 2 },
      ],
      total: [{ n: 4 }],
    });
  });

  it("counts the same with an index on the path as without, whatever the documents hold there", async () => {
    // Values an index keys differently from what $unwind gives (null elements, repeats, arrays on the way) beside
    // plain ones; enough matches that an index on the path is read instead of the documents where the engine can.
    const shapes: Loose[] = [
      { v: "a" },
      { v: ["a", "b"] },
      { v: ["b", "c", "d"] },
      { v: [] },
      { v: null },
      {},
      { v: 7 },
      { v: true },
      { w: { v: ["a"] } },
    ];
    const unusual: Loose[] = [{ v: ["a", "a"] }, { v: [null, "b"] }, { w: [{ v: "a" }, { v: "b" }] }, { v: [["a"]] }];
    const docs = (extra: Loose[]) =>
      Array.from({ length: 600 }, (_, i) => ({ _id: i, even: i % 2 === 0, ...(shapes[i % shapes.length] ?? {}) }))
        .concat(extra.map((doc, i) => ({ _id: 1000 + i, even: true, ...doc })))
        .map((doc) => ({ ...doc }));
    const counts = (path: string, unwind: boolean) => [
      { $match: { even: true } },
      {
        $facet: {
          n: [
            ...(unwind ? [{ $unwind: `$${path}` }] : []),
            { $group: { _id: `$${path}`, n: { $sum: 1 } } },
            { $sort: { n: -1, _id: 1 } },
          ],
        },
      },
    ];
    for (const extra of [[], ...unusual.map((doc) => [doc])]) {
      const plain = t.db.collection<Loose>(next());
      const sparse = t.db.collection<Loose>(next());
      const full = t.db.collection<Loose>(next());
      for (const coll of [plain, sparse, full]) await coll.insertMany(docs(extra));
      await sparse.createIndex({ v: 1 }, { sparse: true });
      await sparse.createIndex({ "w.v": 1 }, { sparse: true });
      await full.createIndex({ v: 1 });
      await full.createIndex({ "w.v": 1 });
      for (const path of ["v", "w.v"])
        for (const unwind of [true, false]) {
          const expected = await run(counts(path, unwind), plain).catch((error: unknown) => String(error));
          for (const indexed of [sparse, full])
            expect([
              path,
              unwind,
              await run(counts(path, unwind), indexed).catch((error: unknown) => String(error)),
            ]).toEqual([path, unwind, expected]);
        }
    }
  });

  it("groups what it cannot count in place as MongoDB does: whole arrays and sub-documents", async () => {
    const coll = t.db.collection<Loose>(next());
    await coll.insertMany([
      { _id: 1, tags: ["a", "b"], place: { city: "Leeds" } },
      { _id: 2, tags: ["a", "b"], place: { city: "Leeds" } },
    ]);
    expect(await run([{ $group: { _id: "$tags", n: { $sum: 1 } } }], coll)).toEqual([{ _id: ["a", "b"], n: 2 }]);
    expect(await run([{ $group: { _id: "$place", n: { $sum: 1 } } }], coll)).toEqual([
      { _id: { city: "Leeds" }, n: 2 },
    ]);
  });
});
