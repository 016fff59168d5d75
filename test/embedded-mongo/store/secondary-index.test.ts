import { describe, expect, it } from "@jest/globals";
import { Decimal128 } from "bson";
import { SecondaryIndex } from "../../../src/embedded-mongo/store/secondary-index.js";

const unique = () => new SecondaryIndex({ v: 2, name: "a_1_b_1", key: { a: 1, b: 1 }, unique: true });

describe("a unique index's hash", () => {
  it("finds a key's record, and knows when no record has the key", () => {
    const index = unique();
    index.add(1, [[2, 7]]);
    index.add(2, [[2, 8]]);
    expect(index.hashLookup([2, 7])).toBe(1);
    expect(index.hashLookup([2.0, 8])).toBe(2);
    expect(index.hashLookup([2, 9])).toBeNull();
    expect(index.hashLookup([2, "7"])).toBeNull();
  });

  it("follows removals", () => {
    const index = unique();
    index.add(1, [[2, 7]]);
    index.remove(1, [[2, 7]]);
    expect(index.hashLookup([2, 7])).toBeNull();
    expect(index.tree.size).toBe(0);
  });

  it("defers to the tree while it holds a key the hash cannot, so equal values of other types are still found", () => {
    const index = unique();
    index.add(1, [[2, Decimal128.fromString("7")]]);
    expect(index.hashLookup([2, 7])).toBeUndefined();
    expect(index.conflictFor([2, 7], 99)).toBe(1); // Decimal128 7 equals 7, as on a MongoDB server
    index.remove(1, [[2, Decimal128.fromString("7")]]);
    expect(index.hashLookup([2, 7])).toBeNull();
  });

  it("reports a conflict only with another record", () => {
    const index = unique();
    index.add(1, [[2, 7]]);
    expect(index.conflictFor([2, 7], 1)).toBeUndefined();
    expect(index.conflictFor([2, 7], 3)).toBe(1);
    expect(index.conflictFor([2, 8], 3)).toBeUndefined();
  });

  it("is kept only by unique indexes", () => {
    const index = new SecondaryIndex({ v: 2, name: "a_1", key: { a: 1 } });
    index.add(1, [[7]]);
    expect(index.hashLookup([7])).toBeUndefined();
    expect(index.conflictFor([7], 2)).toBe(1);
  });
});

describe("a replaced document's keys", () => {
  it("are told apart into those gone and those new, in any order, equal values of other types unchanged", () => {
    const index = new SecondaryIndex({ v: 2, name: "words_1", key: { words: 1 } });
    const { removed, added } = index.changedKeys(
      [["c"], ["a"], [2], ["b"]],
      [["d"], ["b"], [Decimal128.fromString("2")], ["c"], ["e"]],
    );
    expect(removed).toEqual([["a"]]);
    expect(added).toEqual([["d"], ["e"]]);
  });

  it("leave the index holding exactly the new document's keys when only the changed ones are moved", () => {
    const index = new SecondaryIndex({ v: 2, name: "words_1", key: { words: 1 } });
    index.add(1, [["a"], ["b"], ["c"]]);
    index.add(2, [["b"]]);
    const { removed, added } = index.changedKeys([["a"], ["b"], ["c"]], [["b"], ["c"], ["d"]]);
    index.remove(1, removed);
    index.add(1, added);
    expect([...index.tree.entries()].map((entry) => [entry.k[0], entry.r])).toEqual([
      ["b", 1],
      ["b", 2],
      ["c", 1],
      ["d", 1],
    ]);
  });
});
