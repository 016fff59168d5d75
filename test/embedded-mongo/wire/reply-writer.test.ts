import { describe, expect, it } from "@jest/globals";
import {
  Binary,
  BSONRegExp,
  Decimal128,
  Double,
  Int32,
  Long,
  ObjectId,
  Timestamp,
  serialize,
  type Document,
} from "bson";
import { ReplyWriter, Unwritable } from "../../../src/embedded-mongo/wire/reply-writer.js";

const NO_PREFIX = new Uint8Array(0);

function nested(depth: number): Document {
  let doc: Document = { leaf: true };
  for (let i = 0; i < depth; i++) doc = { d: doc };
  return doc;
}

// Documents the writer must write itself, byte for byte as bson does.
const written: Array<[string, Document]> = [
  [
    "strings",
    { ascii: "abc", empty: "", accents: "Ça été", cjk: "档案", emoji: "📜", lone: "\ud800x", nul: "a\u0000b" },
  ],
  [
    "strings around the native-encoding length",
    {
      at: "a".repeat(24),
      past: "a".repeat(25),
      accented: `${"é".repeat(30)}x`,
      lateAccent: `${"a".repeat(40)}é📜`,
      lone: `${"a".repeat(30)}\udc00`,
      nul: `${"a".repeat(30)}\u0000b`,
    },
  ],
  ["int32 edges", { zero: 0, one: 1, neg: -1, max: 2147483647, min: -2147483648 }],
  [
    "doubles",
    {
      negZero: -0,
      over: 2147483648,
      under: -2147483649,
      half: 1.5,
      nan: NaN,
      inf: Infinity,
      ninf: -Infinity,
      safe: 2 ** 53,
      unsafe: 2 ** 53 + 2,
    },
  ],
  ["booleans, null, undefined", { t: true, f: false, n: null, u: undefined }],
  [
    "dates",
    { epoch: new Date(0), before: new Date(-86_400_000), now: new Date(1_763_700_000_123), invalid: new Date(NaN) },
  ],
  [
    "bson classes",
    {
      oid: new ObjectId("6b0150d0ecc490d02cd09cb7"),
      long: Long.fromString("-9007199254740993"),
      zero: Long.ZERO,
      ts: new Timestamp({ t: 1_763_700_000, i: 7 }),
    },
  ],
  ["arrays", { empty: [], mixed: [1, "two", null, undefined, [3, [4]], { five: 5 }], sparse: [1, , 3] }], // eslint-disable-line no-sparse-arrays
  [
    "null prototype and non-ASCII names",
    { inner: Object.assign(Object.create(null) as Document, { a: 1 }), clé: "v", 名: 2 },
  ],
  [
    "a cursor reply",
    {
      cursor: {
        id: Long.ZERO,
        ns: "bench.list",
        firstBatch: [
          { _id: new ObjectId(), repo_id: 2, id: 7, dates: [{ begin: "1857-01-01" }], updated_at: new Date() },
        ],
      },
      ok: 1,
      operationTime: new Timestamp({ t: 1, i: 1 }),
    },
  ],
  ["deep nesting", nested(150)],
  [
    "larger than the scratch buffer",
    { big: "x".repeat(200_000), list: Array.from({ length: 5_000 }, (_, i) => ({ i, s: `item ${i}` })) },
  ],
];

// Documents only bson writes: the writer must refuse them, never write them differently.
const refused: Array<[string, Document]> = [
  ["Binary", { b: new Binary(Buffer.from("x")) }],
  ["Buffer", { b: Buffer.from("x") }],
  ["Decimal128", { d: Decimal128.fromString("1.5") }],
  ["Int32 and Double wrappers", { i: new Int32(5), d: new Double(5) }],
  ["regular expressions", { r: /a/i, s: new BSONRegExp("a", "i") }],
  ["a Map", { m: new Map([["a", 1]]) }],
  [
    "a class instance",
    {
      c: new (class Point {
        x = 1;
      })(),
    },
  ],
  ["a function", { f: () => 1 }],
  ["a bigint", { n: 10n }],
  ["a toBSON hook", { t: { toBSON: () => "hooked" } }],
  ["a _bsontype field", { t: { _bsontype: "Whatever" } }],
];

describe("ReplyWriter", () => {
  const writer = new ReplyWriter(1024);

  it.each(written)("writes %s exactly as bson serialises them", (_name, doc) => {
    const written = writer.write(NO_PREFIX, doc);
    expect(Buffer.compare(written.bytes, Buffer.from(serialize(doc)))).toBe(0);
    written.release();
  });

  it.each(refused)("leaves %s to bson", (_name, doc) => {
    expect(() => writer.write(NO_PREFIX, doc)).toThrow(Unwritable);
  });

  it("refuses a field name bson refuses, and a document past bson's size limit", () => {
    expect(() => writer.write(NO_PREFIX, { "a\u0000b": 1 })).toThrow(Unwritable);
    expect(() => writer.write(NO_PREFIX, { "é\u0000": 1 })).toThrow(Unwritable);
    expect(() => serialize({ "a\u0000b": 1 })).toThrow();
    expect(() => writer.write(NO_PREFIX, { big: "x".repeat(18 * 1024 * 1024) })).toThrow(Unwritable);
  });

  it("puts the prefix first and is reusable after a large or refused reply", () => {
    writer.write(NO_PREFIX, { big: "y".repeat(100_000) }).release();
    expect(() => writer.write(NO_PREFIX, { f: () => 1 })).toThrow(Unwritable);
    const out = writer.write(Uint8Array.of(9, 8, 7), { a: 1 }).bytes;
    expect([...out.subarray(0, 3)]).toEqual([9, 8, 7]);
    expect(Buffer.compare(out.subarray(3), Buffer.from(serialize({ a: 1 })))).toBe(0);
  });

  it("never lends a buffer whose reply is not yet released, and reuses a released one without growing it again", () => {
    const lender = new ReplyWriter(1024);
    const big = { big: "z".repeat(300_000) };
    const first = lender.write(NO_PREFIX, big);
    const second = lender.write(NO_PREFIX, { a: 1 }); // while the first is still being written out
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer);
    expect(Buffer.compare(first.bytes, Buffer.from(serialize(big)))).toBe(0); // untouched by the second
    second.release();
    first.release();
    first.release(); // a second release gives nothing back twice
    expect(lender.spareBuffers).toHaveLength(2);
    const again = lender.write(NO_PREFIX, big); // the last given back is lent first
    expect(again.bytes.buffer).toBe(first.bytes.buffer); // the grown buffer, reused
    expect(Buffer.compare(again.bytes, Buffer.from(serialize(big)))).toBe(0);
    again.release();
  });

  it("keeps a bounded number of buffers, and none larger than 2 MiB", () => {
    const lender = new ReplyWriter(1024);
    const replies = Array.from({ length: 20 }, () => lender.write(NO_PREFIX, { a: 1 }));
    const huge = lender.write(NO_PREFIX, { big: "h".repeat(3 * 1024 * 1024) });
    huge.release();
    expect(lender.spareBuffers).toHaveLength(0); // grown past 2 MiB: not kept
    for (const reply of replies) reply.release();
    expect(lender.spareBuffers).toHaveLength(8);
    expect(Math.max(...lender.spareBuffers.map((buf) => buf.length))).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it("takes back the buffer of a reply it could not write", () => {
    const lender = new ReplyWriter(1024);
    expect(() => lender.write(NO_PREFIX, { f: () => 1 })).toThrow(Unwritable);
    expect(lender.spareBuffers).toHaveLength(1);
  });
});
