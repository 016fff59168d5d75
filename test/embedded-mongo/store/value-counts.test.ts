import { describe, expect, it } from "@jest/globals";
import type { Document } from "bson";
import { Collection } from "../../../src/embedded-mongo/store/collection.js";
import { countValues } from "../../../src/embedded-mongo/store/value-counts.js";

/** A collection of `docs` with a sparse index on `v`, and the record ids of all of them. */
function indexed(docs: Document[], spec: Document = { key: { v: 1 }, name: "v_1", sparse: true }) {
  const collection = new Collection("db", "c");
  collection.createIndex(spec);
  const rids = docs.map((doc, i) => collection.insert({ _id: i, ...doc }));
  return { collection, rids };
}

const sorted = (counts: Map<unknown, number> | undefined) =>
  counts === undefined ? undefined : [...counts].sort(([a], [b]) => String(a).localeCompare(String(b)));

describe("counts per value read from an index", () => {
  it("counts each element of an array once, a scalar as one, and nothing for null, [] or a missing field", () => {
    const { collection, rids } = indexed([{ v: ["a", "b"] }, { v: "a" }, { v: [] }, { v: null }, {}, { v: 3 }]);
    expect(sorted(countValues(collection, "v", rids, true))).toEqual([
      [3, 1],
      ["a", 2],
      ["b", 1],
    ]);
    // Only the records asked about.
    expect(sorted(countValues(collection, "v", rids.slice(1), true))).toEqual([
      [3, 1],
      ["a", 1],
    ]);
  });

  it("without unwinding, counts what is not a value as null (the records the index leaves out included)", () => {
    const { collection, rids } = indexed([{ v: "a" }, { v: null }, {}, { v: "a" }, { v: false }]);
    expect(sorted(countValues(collection, "v", rids, false))).toEqual([
      ["a", 2],
      [false, 1],
      [null, 2],
    ]);
  });

  it("leaves the count to the records once the index keys a path unlike $unwind, and for values it cannot group", () => {
    for (const odd of [{ v: ["a", "a"] }, { v: [null, "a"] }, { v: [{ w: 1 }] }, { v: { w: 1 } }]) {
      const { collection, rids } = indexed([{ v: "a" }, odd]);
      expect(countValues(collection, "v", rids, true)).toBeUndefined();
    }
    const { collection, rids } = indexed([{ v: "a" }, { w: [{ v: "b" }] }], { key: { "w.v": 1 }, name: "wv" });
    expect(countValues(collection, "w.v", rids, true)).toBeUndefined();
    // An array there: without unwinding, the group key is the whole array.
    const arrays = indexed([{ v: ["a"] }]);
    expect(countValues(arrays.collection, "v", arrays.rids, false)).toBeUndefined();
  });

  it("is used only with an index on that path alone, without a partial filter, and for enough of its records", () => {
    const docs = Array.from({ length: 1000 }, (_, i) => ({ v: `x${i % 3}`, n: i }));
    const other = indexed(docs);
    expect(countValues(other.collection, "n", other.rids, true)).toBeUndefined();
    const compound = indexed(docs, { key: { v: 1, n: 1 }, name: "v_n" });
    expect(countValues(compound.collection, "v", compound.rids, true)).toBeUndefined();
    const partial = indexed(docs, { key: { v: 1 }, name: "v_p", partialFilterExpression: { n: { $gt: 5 } } });
    expect(countValues(partial.collection, "v", partial.rids, true)).toBeUndefined();
    const { collection, rids } = indexed(docs);
    expect(countValues(collection, "v", rids.slice(0, 3), true)).toBeUndefined();
    expect(sorted(countValues(collection, "v", rids.slice(0, 300), true))).toEqual([
      ["x0", 100],
      ["x1", 100],
      ["x2", 100],
    ]);
  });
});
