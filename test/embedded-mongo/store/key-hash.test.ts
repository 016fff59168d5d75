import { describe, expect, it } from "@jest/globals";
import { Binary, Decimal128, Long, ObjectId } from "bson";
import { compareValues } from "../../../src/embedded-mongo/bson-order.js";
import { KeyHash } from "../../../src/embedded-mongo/store/key-hash.js";

// The hash's one promise: two keys meet in it exactly when they compare equal.
const hashable: unknown[] = [
  0,
  -0,
  5,
  5.0,
  5.5,
  -5,
  NaN,
  Infinity,
  -Infinity,
  2 ** 53,
  "",
  "5",
  "s5",
  "d5",
  "a",
  "A",
  "é",
  'quote"comma,',
  "\u0000",
  true,
  false,
  null,
  undefined,
  new Date(0),
  new Date(5),
  new Date(1_700_000_000_000),
  new Date(1_700_000_000_000),
  new Date(NaN),
  new ObjectId("000000000000000000000001"),
  new ObjectId("000000000000000000000001"),
  new ObjectId("ffffffffffffffffffffffff"),
];

describe("KeyHash", () => {
  it("finds a stored single-value key by exactly the values that compare equal to it", () => {
    for (const stored of hashable) {
      const hash = new KeyHash();
      expect(hash.set([stored], 1)).toBe(true);
      for (const probe of hashable) {
        const expected = compareValues(stored, probe) === 0 ? 1 : null;
        if (hash.get([probe]) !== expected)
          throw new Error(
            `stored ${String(stored)}, probed ${String(probe)}: got ${hash.get([probe])}, expected ${expected}`,
          );
      }
    }
  });

  it("keeps compound keys apart field by field", () => {
    const hash = new KeyHash();
    hash.set([2, 7], 1);
    hash.set([2, "7"], 2);
    hash.set([7, 2], 3);
    hash.set(["a", "b,c"], 4);
    hash.set(["a,b", "c"], 5);
    expect([
      hash.get([2.0, 7]),
      hash.get([2, "7"]),
      hash.get([7, 2]),
      hash.get(["a", "b,c"]),
      hash.get(["a,b", "c"]),
    ]).toEqual([1, 2, 3, 4, 5]);
    expect(hash.get([2, 8])).toBeNull();
    expect(hash.get([3, 7])).toBeNull();
  });

  it("forgets a key only for its own record, and prunes emptied levels", () => {
    const hash = new KeyHash();
    hash.set([2, 7], 1);
    expect(hash.delete([2, 7], 9)).toBe(true);
    expect(hash.get([2, 7])).toBe(1);
    hash.delete([2, 7], 1);
    expect(hash.get([2, 7])).toBeNull();
    hash.set([2, 8], 2);
    expect(hash.get([2, 8])).toBe(2);
  });

  it("gives an ObjectId one form whether its bytes are read from bson's words or from its id", () => {
    const hash = new KeyHash();
    const oid = new ObjectId();
    hash.set([oid], 1);
    // An ObjectId of a bson copy without the words, as another driver's might be.
    expect(hash.get([{ _bsontype: "ObjectId", id: oid.id }])).toBe(1);
    expect(hash.get([new ObjectId(oid.toHexString())])).toBe(1);
  });

  it("holds no key with a value whose equality it cannot express", () => {
    const hash = new KeyHash();
    for (const value of [
      Long.fromString("9007199254740993"),
      Decimal128.fromString("5"),
      new Binary(Buffer.from("x")),
      { a: 1 },
      [1, 2],
      10n,
    ]) {
      expect(hash.set([value], 1)).toBe(false);
      expect(hash.set([1, value], 1)).toBe(false);
      expect(hash.get([value])).toBeUndefined();
      expect(hash.delete([value], 1)).toBe(false);
    }
    expect(hash.get([1, 1])).toBeNull();
  });
});
