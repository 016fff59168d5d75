// The posting tree (src/embedded-mongo/store/posting-tree.ts) against a sorted array of (key, record id) entries:
// every rank, bound and range it answers is the array's, through inserts and deletes that grow and shrink it through
// several heights (small nodes: splits, borrows and merges of keys of many weights) and keys gaining and losing
// postings.
import { describe, expect, it } from "@jest/globals";
import type { IndexEntry } from "../../../src/embedded-mongo/store/index-entry.js";
import { PostingTree } from "../../../src/embedded-mongo/store/posting-tree.js";
import { check, rng } from "../../support/random.js";

type Pair = [key: number, rid: number];
const compareKeys = (a: { h: unknown }, b: { h: unknown }): number => (a.h as number) - (b.h as number);
const byKey = (entry: { h: unknown }, probe: number): number => (entry.h as number) - probe;
const entry = ([key, rid]: Pair): IndexEntry => ({ k: [key], h: key, r: rid });
const pairOf = (one: IndexEntry | undefined): Pair | undefined =>
  one === undefined ? undefined : [one.h as number, one.r];
const comparePairs = (a: Pair, b: Pair): number => a[0] - b[0] || a[1] - b[1];

function samePairs(actual: Pair[], expected: Pair[], what: () => string): void {
  const same = actual.length === expected.length && actual.every((pair, i) => comparePairs(pair, expected[i]!) === 0);
  if (!same)
    throw new Error(`${what()}: ${JSON.stringify(actual.slice(0, 20))} != ${JSON.stringify(expected.slice(0, 20))}`);
}

describe("PostingTree", () => {
  it("keeps a key's entries in record id order, whatever order they came in, and refuses a duplicate", () => {
    const tree = new PostingTree(compareKeys, { maxNodeSize: 3 });
    for (const rid of [5, 1, 9, 3]) expect(tree.insert(entry([7, rid]))).toBe(true);
    expect(tree.insert(entry([7, 3]))).toBe(false);
    for (const rid of [2, 8]) tree.insert(entry([4, rid]));
    expect(tree.size).toBe(6);
    expect([...tree.entries()].map(pairOf)).toEqual([
      [4, 2],
      [4, 8],
      [7, 1],
      [7, 3],
      [7, 5],
      [7, 9],
    ]);
    expect(tree.lowerBound(7, byKey)).toBe(2);
    expect(tree.upperBound(7, byKey)).toBe(6);
    expect(pairOf(tree.at(3))).toEqual([7, 3]);
    expect([...tree.range(1, 4, true)].map(pairOf)).toEqual([
      [7, 3],
      [7, 1],
      [4, 8],
    ]);
    expect(tree.delete(entry([7, 4]))).toBe(false);
    expect(tree.delete(entry([4, 2]))).toBe(true);
    expect(tree.delete(entry([4, 8]))).toBe(true);
    // The key went with its last entry.
    expect(tree.lowerBound(5, byKey)).toBe(0);
    expect(tree.size).toBe(4);
    tree.checkInvariants();
  });

  for (const [maxNodeSize, keySpace, ridSpace, ops, seed] of [
    [3, 40, 200, 6000, 1],
    [4, 300, 60, 8000, 2],
    [5, 8, 2000, 6000, 3],
    [64, 2000, 400, 12000, 4],
  ] as const) {
    it(`matches a sorted array of entries (node size ${maxNodeSize}, ${keySpace} keys, ${ops} operations)`, () => {
      const rand = rng(seed);
      const tree = new PostingTree(compareKeys, { maxNodeSize });
      const model: Pair[] = [];
      const position = (pair: Pair): number => {
        let lo = 0;
        let hi = model.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (comparePairs(model[mid]!, pair) < 0) lo = mid + 1;
          else hi = mid;
        }
        return lo;
      };
      const firstAtLeast = (key: number, inclusive: boolean) =>
        model.findIndex(([k]) => (inclusive ? k >= key : k > key)) === -1
          ? model.length
          : model.findIndex(([k]) => (inclusive ? k >= key : k > key));

      for (let op = 0; op < ops; op++) {
        const insertBias = Math.floor(op / 1500) % 2 === 0 ? 0.7 : 0.3;
        // Half the deletes take an entry that is there, so keys lose their postings down to none.
        const pair: Pair =
          rand(2) === 0 && model.length > 0 ? model[rand(model.length)]! : [rand(keySpace), rand(ridSpace)];
        const at = position(pair);
        const present = at < model.length && comparePairs(model[at]!, pair) === 0;
        if (rand(1000) < insertBias * 1000) {
          check(tree.insert(entry(pair)) === !present, () => `op ${op}: insert ${pair} (present ${present})`);
          if (!present) model.splice(at, 0, pair);
        } else {
          check(tree.delete(entry(pair)) === present, () => `op ${op}: delete ${pair} (present ${present})`);
          if (present) model.splice(at, 1);
        }
        check(tree.size === model.length, () => `op ${op}: size ${tree.size}, model ${model.length}`);

        if (op % 97 === 0) {
          tree.checkInvariants();
          for (let q = 0; q < 10; q++) {
            const rank = rand(model.length + 2) - 1;
            const found = pairOf(tree.at(rank));
            const wanted = model[rank];
            check(
              found === wanted || (found !== undefined && wanted !== undefined && comparePairs(found, wanted) === 0),
              () => `op ${op}: at(${rank}) = ${found}, model ${wanted}`,
            );
            const key = rand(keySpace + 2) - 1;
            check(tree.lowerBound(key, byKey) === firstAtLeast(key, true), () => `op ${op}: lowerBound(${key})`);
            check(tree.upperBound(key, byKey) === firstAtLeast(key, false), () => `op ${op}: upperBound(${key})`);
            const a = rand(model.length + 3) - 1;
            const b = rand(model.length + 3) - 1;
            const from = Math.max(0, Math.min(a, b));
            const to = Math.min(model.length, Math.max(a, b));
            const expected = model.slice(from, Math.max(from, to));
            const what = () => `op ${op}: range(${Math.min(a, b)}, ${Math.max(a, b)})`;
            samePairs(
              [...tree.range(Math.min(a, b), Math.max(a, b))].map((one) => pairOf(one)!),
              expected,
              what,
            );
            samePairs(
              [...tree.range(Math.min(a, b), Math.max(a, b), true)].map((one) => pairOf(one)!),
              [...expected].reverse(),
              what,
            );
          }
        }
      }
      tree.checkInvariants();
      samePairs(
        [...tree.entries()].map((one) => pairOf(one)!),
        model,
        () => "at the end",
      );
      for (const pair of [...model]) check(tree.delete(entry(pair)), () => `final delete ${pair}`);
      expect(tree.size).toBe(0);
      tree.checkInvariants();
    });
  }
});
