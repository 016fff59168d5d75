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
/** Paths filters name: the fields, and paths into their sub-documents. */
const PATHS = [...FIELDS, "x.nested", "y.nested"];

function value(): unknown {
  const roll = random();
  if (roll < 0.15) return undefined;
  if (roll < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => pick(SCALARS));
  if (roll < 0.55) return null;
  if (roll < 0.6) return { nested: pick(SCALARS) };
  if (roll < 0.63) return [{ nested: pick(SCALARS) }];
  if (roll < 0.66) return { nested: [pick(SCALARS), pick(SCALARS)] };
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
  switch (Math.floor(random() * 11)) {
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
    case 6:
      return { $ne: scalar() };
    case 7:
      return { $nin: [scalar(), scalar()] };
    case 8:
      return { $regex: pick(["^a", "b$", " a b ", "é", "A"]), ...(random() < 0.3 ? { $options: "i" } : {}) };
    case 9:
      return { $regex: pick(["a", "^$"]) };
    default:
      return { $elemMatch: { $gte: pick(["a", 0]), $lt: pick(["b", 2]) } };
  }
}

function filter(depth = 0): Document {
  const parts: Document[] = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const roll = random();
    if (depth < 2 && roll < 0.15) return { [pick(["$or", "$nor"])]: [filter(depth + 1), filter(depth + 1)] };
    return { [pick(PATHS)]: condition() };
  });
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
      { x: { $ne: null } },
      { $or: [{ x: "a" }, { y: null }] },
      { "x.$y": "a" },
      { x: { $regex: "a", $options: "x" } },
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
    const nested = simpleMatcher({ "x.nested": "a" });
    expect(nested?.({ x: [{ nested: "a" }] })).toBeUndefined(); // a path through an array: mingo's
    expect(nested?.({ x: { nested: ["b", "a"] } })).toBe(true);
    expect(nested?.({ x: "a" })).toBe(false);
  });
});
