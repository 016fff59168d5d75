import { describe, expect, it } from "@jest/globals";
import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from "bson";
import { runInNewContext } from "node:vm";
import {
  compareStrings,
  compareValues,
  MAX_KEY,
  MIN_KEY,
  typeOrder,
  TypeRank,
  valuesEqual,
} from "../../src/embedded-mongo/bson-order.js";

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** Asserts that `values` are strictly ascending, checking every pair in both directions. */
function expectAscending(values: readonly unknown[]): void {
  for (let i = 0; i < values.length; i++) {
    for (let j = 0; j < values.length; j++) {
      const expected = sign(i - j);
      const actual = sign(compareValues(values[i], values[j]));
      if (actual !== expected) {
        throw new Error(
          `compareValues(#${i}, #${j}) = ${actual}, expected ${expected}: ${String(values[i])} vs ${String(values[j])}`,
        );
      }
    }
  }
}

function expectAllEqual(values: readonly unknown[]): void {
  for (const a of values) {
    for (const b of values) {
      expect(compareValues(a, b)).toBe(0);
      expect(valuesEqual(a, b)).toBe(true);
    }
  }
}

const oid = (hex: string): ObjectId => new ObjectId(hex);

describe("type order", () => {
  // One representative per rank, lowest first, chosen to be "extreme" within its type so that
  // the type rank rather than the value decides every comparison.
  const ladder: Array<[string, unknown]> = [
    ["MinKey", MIN_KEY],
    ["null", null],
    ["number", Number.POSITIVE_INFINITY],
    ["string", "\u{10FFFF}".repeat(3)],
    ["object", { z: MAX_KEY }],
    ["array", [MAX_KEY]],
    ["binary", new Binary(new Uint8Array(64).fill(255), 255)],
    ["objectId", oid("ffffffffffffffffffffffff")],
    ["boolean", true],
    ["date", new Date(8.64e15)],
    ["timestamp", new Timestamp({ t: 0xffffffff, i: 0xffffffff })],
    ["regexp", /zzz/y],
    ["code", new Code("zzz")],
    ["code with scope", new Code("zzz", { z: 1 })],
    ["MaxKey", MAX_KEY],
  ];

  it("ranks types in MongoDB's documented order", () => {
    expectAscending(ladder.map(([, v]) => v));
  });

  it("ranks the minimum of each type above the maximum of the previous type", () => {
    const minima: unknown[] = [
      MIN_KEY,
      undefined,
      Number.NaN,
      "",
      {},
      [],
      new Uint8Array(0),
      oid("000000000000000000000000"),
      false,
      new Date(Number.NaN),
      new Timestamp({ t: 0, i: 0 }),
      new BSONRegExp("", ""),
      new Code(""),
      new Code("", {}),
      new MaxKey(),
    ];
    for (let i = 1; i < minima.length; i++) {
      expect(compareValues(ladder[i - 1]![1], minima[i])).toBeLessThan(0);
      expect(compareValues(minima[i], ladder[i - 1]![1])).toBeGreaterThan(0);
    }
  });

  it("exposes the canonical ranks through typeOrder", () => {
    expect(typeOrder(new MinKey())).toBe(TypeRank.MinKey);
    expect(typeOrder(null)).toBe(TypeRank.Null);
    expect(typeOrder(undefined)).toBe(TypeRank.Null);
    for (const n of [1, 1n, new Int32(1), new Double(1), Long.fromNumber(1), new Decimal128("1")]) {
      expect(typeOrder(n)).toBe(TypeRank.Number);
    }
    expect(typeOrder("s")).toBe(TypeRank.String);
    expect(typeOrder(new BSONSymbol("s"))).toBe(TypeRank.String);
    expect(typeOrder({})).toBe(TypeRank.Object);
    expect(typeOrder(Object.create(null))).toBe(TypeRank.Object);
    expect(typeOrder(new DBRef("c", new ObjectId()))).toBe(TypeRank.Object);
    expect(typeOrder([])).toBe(TypeRank.Array);
    expect(typeOrder(new Binary())).toBe(TypeRank.Binary);
    expect(typeOrder(Buffer.from("x"))).toBe(TypeRank.Binary);
    expect(typeOrder(new ObjectId())).toBe(TypeRank.ObjectId);
    expect(typeOrder(false)).toBe(TypeRank.Boolean);
    expect(typeOrder(new Date())).toBe(TypeRank.Date);
    expect(typeOrder(new Timestamp({ t: 1, i: 1 }))).toBe(TypeRank.Timestamp);
    expect(typeOrder(/x/)).toBe(TypeRank.RegExp);
    expect(typeOrder(new BSONRegExp("x"))).toBe(TypeRank.RegExp);
    expect(typeOrder(new Code("x"))).toBe(TypeRank.Code);
    expect(typeOrder(new Code("x", { a: 1 }))).toBe(TypeRank.CodeWithScope);
    expect(typeOrder(new MaxKey())).toBe(TypeRank.MaxKey);
  });

  it("treats null, undefined and distinct MinKey/MaxKey instances as equal", () => {
    expectAllEqual([null, undefined]);
    expectAllEqual([MIN_KEY, new MinKey()]);
    expectAllEqual([MAX_KEY, new MaxKey()]);
    expect(compareValues(MIN_KEY, null)).toBeLessThan(0);
    expect(compareValues(undefined, MIN_KEY)).toBeGreaterThan(0);
    expect(compareValues(null, Number.NEGATIVE_INFINITY)).toBeLessThan(0);
    expect(compareValues(undefined, Number.NaN)).toBeLessThan(0);
  });

  it("recognises Dates, RegExps and Buffers made in another realm", () => {
    const foreign = runInNewContext("({ date: new Date(5), re: /a/i, bytes: new Uint8Array([1, 2]) })") as Record<
      string,
      unknown
    >;
    expect(typeOrder(foreign.date)).toBe(TypeRank.Date);
    expect(typeOrder(foreign.re)).toBe(TypeRank.RegExp);
    expect(typeOrder(foreign.bytes)).toBe(TypeRank.Binary);
    expect(compareValues(foreign.date, new Date(5))).toBe(0);
    expect(compareValues(foreign.re, /a/i)).toBe(0);
    expect(compareValues(foreign.bytes, new Binary(Buffer.from([1, 2])))).toBe(0);
  });
});

describe("numbers", () => {
  it("compares equal values of every numeric type as equal", () => {
    expectAllEqual([
      5,
      5n,
      new Int32(5),
      new Double(5.0),
      Long.fromNumber(5),
      new Decimal128("5"),
      new Decimal128("5.00"),
    ]);
    expectAllEqual([0, -0, new Double(-0), new Int32(0), Long.ZERO, new Decimal128("-0")]);
  });

  it("orders across numeric types by value", () => {
    expectAscending([
      Number.NaN,
      Number.NEGATIVE_INFINITY,
      Long.MIN_VALUE,
      new Int32(-2147483648),
      -1.5,
      new Decimal128("-1"),
      new Int32(0),
      new Double(0.5),
      Long.fromNumber(1),
      new Decimal128("1.5"),
      2,
      new Int32(2147483647),
      Long.MAX_VALUE,
      new Decimal128("1E+300"),
      Number.POSITIVE_INFINITY,
    ]);
  });

  it("sorts NaN below every other number and equal to itself", () => {
    expectAllEqual([Number.NaN, new Double(Number.NaN), new Decimal128("NaN")]);
    expect(compareValues(Number.NaN, Number.NEGATIVE_INFINITY)).toBeLessThan(0);
    expect(compareValues(Long.MIN_VALUE, Number.NaN)).toBeGreaterThan(0);
    expect(compareValues(new Decimal128("-Infinity"), new Double(Number.NaN))).toBeGreaterThan(0);
  });

  it("compares int64 values beyond 2^53 exactly", () => {
    const two53 = 2 ** 53;
    const big = Long.fromString("9007199254740993"); // 2^53 + 1: rounds to 2^53 as a double
    expect(Number(big.toString())).toBe(two53); // the premise: doubles cannot tell them apart
    expect(compareValues(big, two53)).toBeGreaterThan(0);
    expect(compareValues(two53, big)).toBeLessThan(0);
    expect(compareValues(big, Long.fromString("9007199254740992"))).toBeGreaterThan(0);
    expect(compareValues(big, 9007199254740993n)).toBe(0);
    expect(compareValues(big, 9007199254740994)).toBeLessThan(0); // 2^53 + 2 is a double
    expect(compareValues(Long.fromString("-9007199254740993"), -two53)).toBeLessThan(0);
    expect(compareValues(Long.MAX_VALUE, 2 ** 63)).toBeLessThan(0); // 2^63 - 1 < 2^63
    expect(compareValues(Long.MAX_VALUE, Long.MAX_VALUE.subtract(Long.ONE))).toBeGreaterThan(0);
    expect(compareValues(Long.MIN_VALUE, -(2 ** 63))).toBe(0);
    expect(compareValues(Long.MIN_VALUE.add(Long.ONE), -(2 ** 63))).toBeGreaterThan(0);
    expect(compareValues(Long.MAX_VALUE, Number.POSITIVE_INFINITY)).toBeLessThan(0);
    expect(compareValues(Long.fromString("18446744073709551615", true), Long.MAX_VALUE)).toBeGreaterThan(0);
  });

  it("keeps large int64 order consistent with a sort by bigint", () => {
    const raw = [2n ** 62n + 3n, 2n ** 62n + 1n, 2n ** 62n, 2n ** 62n + 2n, -(2n ** 62n) - 1n, -(2n ** 62n)];
    const longs = raw.map((b) => Long.fromBigInt(b));
    const sorted = [...longs].sort(compareValues).map((l) => l.toBigInt());
    expect(sorted).toEqual([...raw].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("compares Decimal128 through its nearest double", () => {
    expect(compareValues(new Decimal128("0.25"), 0.25)).toBe(0);
    expect(compareValues(new Decimal128("0.3"), 0.25)).toBeGreaterThan(0);
    expect(compareValues(new Decimal128("Infinity"), Number.POSITIVE_INFINITY)).toBe(0);
    expect(compareValues(new Decimal128("-1E+6144"), Number.NEGATIVE_INFINITY)).toBe(0);
  });
});

describe("strings", () => {
  it("compares by code point, which is UTF-8 byte order, not UTF-16 code units", () => {
    const astral = "\u{1F600}"; // surrogate pair D83D DE00
    const highBmp = "\uFF21"; // U+FF21, above the surrogate range
    expect(astral < highBmp).toBe(true); // the premise: JS's code-unit order gets this wrong
    expect(compareValues(astral, highBmp)).toBeGreaterThan(0);
    expect(compareValues(highBmp, astral)).toBeLessThan(0);
    expect(Buffer.compare(Buffer.from(astral), Buffer.from(highBmp))).toBeGreaterThan(0);
    expectAscending([
      "",
      "A",
      "B",
      "a",
      "ab",
      "b",
      "\u00e9",
      "\u4e2d",
      "\uD7FF",
      "\uE000",
      "\uFFFD",
      "\uFFFF",
      "\u{10000}",
      "\u{1F600}",
      "\u{10FFFF}",
    ]);
    expectAscending(["x\uE000", "x\u{10000}", "x\u{10000}a", "x\u{10001}"]);
  });

  it("does not use locale collation", () => {
    expect(compareValues("Z", "a")).toBeLessThan(0);
    expect(compareValues("a", "B")).toBeGreaterThan(0);
  });

  it("agrees with UTF-8 byte comparison on random strings", () => {
    const alphabet = ["a", "z", "\u00ff", "\uD7FF", "\uE000", "\uFFFF", "\u{10000}", "\u{1F600}"];
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let t = 0; t < 500; t++) {
      const make = (): string => Array.from({ length: rand(4) }, () => alphabet[rand(alphabet.length)]).join("");
      const a = make();
      const b = make();
      expect(sign(compareStrings(a, b))).toBe(sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });

  it("treats BSONSymbol as a string", () => {
    expect(compareValues(new BSONSymbol("abc"), "abc")).toBe(0);
    expect(compareValues(new BSONSymbol("abd"), "abc")).toBeGreaterThan(0);
    expect(compareValues(new BSONSymbol("abc"), 1)).toBeGreaterThan(0);
  });
});

describe("embedded documents", () => {
  it("compares value type rank first, then field name, then value", () => {
    // {b: 1} < {a: "x"}: the number outranks nothing, so the type decides before the names.
    expect(compareValues({ b: 1 }, { a: "x" })).toBeLessThan(0);
    expect(compareValues({ a: 1 }, { b: 1 })).toBeLessThan(0);
    expect(compareValues({ a: 2 }, { b: 1 })).toBeLessThan(0);
    expect(compareValues({ a: 1 }, { a: 2 })).toBeLessThan(0);
    expect(compareValues({ a: 1, b: 2 }, { a: 1, b: 1 })).toBeGreaterThan(0);
  });

  it("sorts a prefix document first and compares fields in insertion order", () => {
    expectAscending([{}, { a: MIN_KEY }, { a: 1 }, { a: 1, b: null }, { a: 1, b: 1 }, { a: 1, c: 0 }, { a: 2 }]);
    expect(compareValues({ a: 1, b: 2 }, { b: 2, a: 1 })).toBeLessThan(0);
  });

  it("compares nested documents and arrays recursively", () => {
    expect(compareValues({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toBeLessThan(0);
    expect(compareValues({ a: { b: [1, { c: Long.fromNumber(7) }] } }, { a: { b: [1, { c: 7 }] } })).toBe(0);
    expect(compareValues({ a: { b: "x" } }, { a: { b: 100 } })).toBeGreaterThan(0);
  });

  it("treats numeric types inside documents by value", () => {
    expect(compareValues({ n: new Int32(3) }, { n: 3.0 })).toBe(0);
    expect(compareValues({ n: undefined }, { n: null })).toBe(0);
  });

  it("compares a DBRef as its stored document {$ref, $id, $db}", () => {
    const id = oid("0123456789abcdef01234567");
    expect(compareValues(new DBRef("c", id, "db"), { $ref: "c", $id: id, $db: "db" })).toBe(0);
    expect(compareValues(new DBRef("c", id), new DBRef("d", id))).toBeLessThan(0);
  });
});

describe("arrays", () => {
  it("compares element by element with a prefix first", () => {
    expectAscending([[], [MIN_KEY], [null], [1], [1, 1], [1, 2], [1, 2, 0], [2], ["a"], [{}], [[]], [[1]]]);
  });

  it("compares numeric elements across types", () => {
    expect(compareValues([new Int32(1), Long.fromNumber(2)], [1, new Double(2)])).toBe(0);
  });
});

describe("other types", () => {
  it("orders Binary by length, then subtype, then bytes; a Buffer is subtype 0", () => {
    expectAscending([
      new Binary(Buffer.from([9, 9]), 4),
      new Binary(Buffer.from([0, 0, 0]), 0),
      new Binary(Buffer.from([0, 0, 1]), 0),
      new Binary(Buffer.from([0, 0, 0]), 4),
      new Binary(Buffer.from([0, 0, 0, 0]), 0),
    ]);
    expect(compareValues(Buffer.from([1, 2, 3]), new Binary(Buffer.from([1, 2, 3])))).toBe(0);
    expect(compareValues(new Uint8Array([1, 2, 3]), Buffer.from([1, 2, 4]))).toBeLessThan(0);
  });

  it("orders ObjectIds by their bytes", () => {
    expectAscending([
      oid("000000000000000000000000"),
      oid("000000000000000000000001"),
      oid("0000000000ff000000000000"),
      oid("7fffffffffffffffffffffff"),
      oid("800000000000000000000000"),
      oid("ffffffffffffffffffffffff"),
    ]);
    expect(compareValues(oid("65f000000000000000000001"), oid("65f000000000000000000001"))).toBe(0);
  });

  it("orders ObjectId look-alikes that only expose `id` bytes", () => {
    const fake = (hex: string): unknown => ({ _bsontype: "ObjectId", id: Buffer.from(hex, "hex") });
    expect(compareValues(fake("000000000000000000000002"), oid("000000000000000000000001"))).toBeGreaterThan(0);
    expect(compareValues(oid("000000000000000000000002"), fake("000000000000000000000002"))).toBe(0);
  });

  it("orders booleans false before true", () => {
    expectAscending([false, true]);
  });

  it("orders Dates by time with Invalid Date lowest", () => {
    expectAscending([
      new Date(Number.NaN),
      new Date(-8.64e15),
      new Date(-1),
      new Date(0),
      new Date(1),
      new Date(8.64e15),
    ]);
    expect(compareValues(new Date(Number.NaN), new Date("nope"))).toBe(0);
  });

  it("orders Timestamps as unsigned 64-bit values", () => {
    expectAscending([
      new Timestamp({ t: 0, i: 0 }),
      new Timestamp({ t: 0, i: 0x7fffffff }),
      new Timestamp({ t: 0, i: 0x80000000 }),
      new Timestamp({ t: 1, i: 0 }),
      new Timestamp({ t: 0x7fffffff, i: 0xffffffff }),
      new Timestamp({ t: 0x80000000, i: 0 }),
      new Timestamp({ t: 0xffffffff, i: 0xffffffff }),
    ]);
  });

  it("orders regular expressions by pattern, then flags; RegExp equals BSONRegExp", () => {
    expectAscending([/a/, /a/i, /a/im, /ab/, /b/]);
    expect(compareValues(/ab+c/im, new BSONRegExp("ab+c", "mi"))).toBe(0);
    expect(compareValues(new BSONRegExp("b"), /a/s)).toBeGreaterThan(0);
  });

  it("orders code by source, with code-with-scope after all plain code", () => {
    expectAscending([
      new Code("a"),
      new Code("b"),
      new Code("a", { x: 1 }),
      new Code("a", { x: 2 }),
      new Code("b", {}),
    ]);
    expect(compareValues(new Code("x"), new Code("x", null))).toBe(0);
  });
});

describe("as a sort comparator", () => {
  // A deliberately mixed pool, including values that are equal across types.
  const pool: unknown[] = [
    MAX_KEY,
    MIN_KEY,
    null,
    undefined,
    0,
    -0,
    1,
    new Int32(1),
    Long.fromNumber(1),
    new Decimal128("1"),
    2n ** 60n,
    Long.fromBigInt(2n ** 60n + 1n),
    Number.NaN,
    -Infinity,
    "",
    "a",
    "\u{1F600}",
    "\uFFFF",
    new BSONSymbol("a"),
    {},
    { a: 1 },
    { a: "1" },
    { b: 1 },
    { a: 1, b: 1 },
    [],
    [1],
    [1, 2],
    ["a"],
    [[]],
    Buffer.from([1]),
    new Binary(Buffer.from([1]), 2),
    oid("000000000000000000000001"),
    oid("100000000000000000000000"),
    false,
    true,
    new Date(0),
    new Date(1),
    new Timestamp({ t: 1, i: 2 }),
    /a/,
    /a/g,
    new Code("f"),
    new Code("f", { s: 1 }),
  ];

  it("is antisymmetric and reflexive over a mixed pool", () => {
    for (const a of pool) {
      expect(compareValues(a, a)).toBe(0);
      for (const b of pool) expect(sign(compareValues(a, b)) + sign(compareValues(b, a))).toBe(0);
    }
  });

  it("is transitive over a mixed pool", () => {
    for (const a of pool) {
      for (const b of pool) {
        if (compareValues(a, b) > 0) continue;
        for (const c of pool) {
          if (compareValues(b, c) <= 0) expect(compareValues(a, c)).toBeLessThanOrEqual(0);
        }
      }
    }
  });

  it("sorts the pool into non-decreasing type ranks", () => {
    // Array.prototype.sort moves `undefined` to the end without consulting the comparator.
    const sorted = pool.filter((v) => v !== undefined).sort(compareValues);
    for (let i = 1; i < sorted.length; i++) {
      expect(typeOrder(sorted[i - 1])).toBeLessThanOrEqual(typeOrder(sorted[i]));
      expect(compareValues(sorted[i - 1], sorted[i])).toBeLessThanOrEqual(0);
    }
    expect(sorted[0]).toBe(MIN_KEY);
    expect(sorted[sorted.length - 1]).toBe(MAX_KEY);
  });
});
