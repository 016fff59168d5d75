// The matcher that spares mingo the common filters (query/simple-filter.ts) must agree with mingo wherever it gives
// an answer: random filters of its shape over random documents, compared one by one, and the shapes it must leave
// to mingo.
import { describe, expect, it } from "@jest/globals";
import type { Document } from "bson";
import { Query } from "mingo";
import { simpleMatcher } from "../../src/embedded-mongo/query/simple-filter.js";

let seed = 12345;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const SCALARS: readonly unknown[] = [
  "a",
  "b",
  "ab",
  "B",
  "é",
  "\u{1F600}",
  "",
  0,
  1,
  2.5,
  -1,
  true,
  false,
  new Date(0),
  new Date(5),
];
const FIELDS = ["x", "y", "words"];

function value(): unknown {
  const roll = random();
  if (roll < 0.15) return undefined;
  if (roll < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => pick(SCALARS));
  if (roll < 0.55) return null;
  if (roll < 0.6) return { nested: pick(SCALARS) };
  return pick(SCALARS);
}

function doc(): Document {
  const out: Document = {};
  for (const field of FIELDS) {
    const one = value();
    if (one !== undefined) out[field] = one;
  }
  return out;
}

function condition(): unknown {
  const scalar = () => pick(SCALARS);
  switch (Math.floor(random() * 7)) {
    case 0:
      return scalar();
    case 1:
      return { $eq: scalar() };
    case 2:
      return { $in: [scalar(), scalar()] };
    case 3:
      return { $all: [scalar(), scalar()] };
    case 4:
      return { [pick(["$gt", "$gte", "$lt", "$lte"])]: pick(["a", "b", 1, 0, new Date(1)]) };
    case 5:
      return { $gte: pick(["a", 0]), $lt: pick(["b", 2]) };
    default:
      return { $elemMatch: { $gte: pick(["a", 0]), $lt: pick(["b", 2]) } };
  }
}

function filter(): Document {
  const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({ [pick(FIELDS)]: condition() }));
  return parts.length === 1 ? (parts[0] as Document) : { $and: parts };
}

describe("the simple matcher", () => {
  it("agrees with mingo on every document it judges (2,000 filters x 50 documents)", () => {
    const docs = Array.from({ length: 50 }, doc);
    let judged = 0;
    for (let i = 0; i < 2000; i++) {
      const spec = filter();
      const simple = simpleMatcher(spec);
      expect([JSON.stringify(spec), simple !== undefined]).toEqual([JSON.stringify(spec), true]);
      const query = new Query(spec, {});
      for (const one of docs) {
        const verdict = simple?.(one);
        if (verdict === undefined) continue;
        judged++;
        const expected = query.test(one);
        if (verdict !== expected) throw new Error(`${JSON.stringify(spec)} on ${JSON.stringify(one)}: ${verdict}`);
      }
    }
    expect(judged).toBeGreaterThan(50_000);
  });

  it("leaves other shapes to mingo", () => {
    for (const spec of [
      { x: null },
      { x: { $ne: "a" } },
      { $or: [{ x: "a" }, { y: "b" }] },
      { "x.y": "a" },
      { x: { sub: 1 } },
      { x: { $exists: true } },
      { x: { $elemMatch: { $eq: "a" } } },
      { x: { $elemMatch: { $gte: "a" } }, $comment: "c" },
    ])
      expect([spec, simpleMatcher(spec)]).toEqual([spec, undefined]);
  });

  it("defers to mingo for a document with a value it does not compare", () => {
    const match = simpleMatcher({ x: "a" });
    expect(match?.({ x: { nested: "a" } })).toBeUndefined();
    expect(match?.({ x: ["a", { nested: 1 }] })).toBeUndefined();
    expect(match?.({ x: null })).toBeUndefined();
    expect(match?.({ x: ["b", "a"] })).toBe(true);
    expect(match?.({})).toBe(false);
  });
});
