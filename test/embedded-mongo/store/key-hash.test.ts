import { describe, expect, it } from "@jest/globals";
import { Binary, Decimal128, Long, ObjectId } from "bson";
import { compareValues } from "../../../src/embedded-mongo/store/bson-order.js";
import { hashKey } from "../../../src/embedded-mongo/store/key-hash.js";

// The hash's one promise: two keys get the same hash exactly when they compare equal.
const hashable: unknown[] = [
  0, -0, 5, 5.0, 5.5, -5, NaN, Infinity, -Infinity, 2 ** 53,
  "", "5", "n5", "a", "A", "é", 'quote"comma,', "\u0000",
  true, false,
  null, undefined,
  new Date(0), new Date(1_700_000_000_000), new Date(1_700_000_000_000), new Date(NaN),
  new ObjectId("000000000000000000000001"), new ObjectId("000000000000000000000001"), new ObjectId("ffffffffffffffffffffffff"),
];

describe("hashKey", () => {
  it("gives equal single-value keys the same hash and unequal ones different hashes", () => {
    for (const a of hashable) {
      for (const b of hashable) {
        const equal = compareValues(a, b) === 0;
        const sameHash = hashKey([a]) === hashKey([b]);
        if (equal !== sameHash) throw new Error(`${String(a)} vs ${String(b)}: equal ${equal}, same hash ${sameHash}`);
      }
    }
  });

  it("does the same for compound keys, whatever their strings hold", () => {
    const pairs = [["a", "b,c"], ["a,b", "c"], ['a"', "b"], ["a", '"b']];
    const hashes = pairs.map((key) => hashKey(key));
    expect(new Set(hashes).size).toBe(pairs.length);
    expect(hashKey([2, 7])).toBe(hashKey([2.0, 7]));
    expect(hashKey([2, 7])).not.toBe(hashKey([2, "7"]));
    expect(hashKey([2, 7])).not.toBe(hashKey([7, 2]));
  });

  it("has no hash for values whose equality it cannot express", () => {
    for (const value of [Long.fromString("9007199254740993"), Decimal128.fromString("5"), new Binary(Buffer.from("x")), { a: 1 }, [1, 2], 10n]) {
      expect(hashKey([value])).toBeUndefined();
      expect(hashKey([1, value])).toBeUndefined();
    }
  });
});
