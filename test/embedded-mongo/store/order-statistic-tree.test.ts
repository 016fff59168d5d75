import { describe, expect, it } from "@jest/globals";
import { OrderStatisticTree } from "../../../src/embedded-mongo/store/order-statistic-tree.js";
import { check, rng } from "../../support/random.js";

const byNumber = (a: number, b: number): number => a - b;

/** Index of the first element of sorted `arr` with pred false (arr is partitioned by pred). */
function partitionPoint(arr: readonly number[], pred: (v: number) => boolean): number {
  let i = 0;
  while (i < arr.length && pred(arr[i]!)) i++;
  return i;
}

/** toEqual for long number arrays, without Jest's per-element cost unless they differ. */
function expectSameNumbers(actual: readonly number[], expected: readonly number[]): void {
  let same = actual.length === expected.length;
  for (let i = 0; same && i < actual.length; i++) same = actual[i] === expected[i];
  if (!same) expect(actual).toEqual(expected); // for the diff
}

describe("OrderStatisticTree: edge cases", () => {
  it("rejects a node size below 3", () => {
    expect(() => new OrderStatisticTree(byNumber, { maxNodeSize: 2 })).toThrow(RangeError);
    expect(() => new OrderStatisticTree(byNumber, { maxNodeSize: 4.5 })).toThrow(RangeError);
  });

  it("behaves as empty when new", () => {
    const t = new OrderStatisticTree(byNumber);
    expect(t.size).toBe(0);
    expect(t.at(0)).toBeUndefined();
    expect(t.has(1)).toBe(false);
    expect(t.get(1)).toBeUndefined();
    expect(t.delete(1)).toBe(false);
    expect(t.lowerBound(1, (k, target) => k - target)).toBe(0);
    expect(t.upperBound(1, (k, target) => k - target)).toBe(0);
    expect([...t.keys()]).toEqual([]);
    expect([...t.range(0, 10)]).toEqual([]);
    expect([...t.range(0, 10, true)]).toEqual([]);
    t.checkInvariants();
  });

  it("holds a single key", () => {
    const t = new OrderStatisticTree(byNumber);
    expect(t.insert(7)).toBe(true);
    expect(t.size).toBe(1);
    expect(t.at(0)).toBe(7);
    expect(t.at(1)).toBeUndefined();
    expect(t.at(-1)).toBeUndefined();
    expect(t.at(0.5)).toBeUndefined();
    expect(t.has(7)).toBe(true);
    expect(t.has(8)).toBe(false);
    expect(t.lowerBound(7, (k, target) => k - target)).toBe(0);
    expect(t.upperBound(7, (k, target) => k - target)).toBe(1);
    expect(t.lowerBound(8, (k, target) => k - target)).toBe(1);
    expect(t.upperBound(6, (k, target) => k - target)).toBe(0);
    expect([...t.range(0, 1)]).toEqual([7]);
    expect([...t.range(0, 1, true)]).toEqual([7]);
    expect(t.delete(7)).toBe(true);
    expect(t.size).toBe(0);
    expect([...t.keys()]).toEqual([]);
  });

  it("refuses a duplicate insert without changing anything, and get returns the stored key", () => {
    type Entry = { k: number; payload: string };
    const t = new OrderStatisticTree<Entry>((a, b) => a.k - b.k, { maxNodeSize: 4 });
    for (let i = 0; i < 20; i++) expect(t.insert({ k: i, payload: `first-${i}` })).toBe(true);
    for (let i = 0; i < 20; i++) expect(t.insert({ k: i, payload: `second-${i}` })).toBe(false);
    expect(t.size).toBe(20);
    expect(t.get({ k: 13, payload: "" })?.payload).toBe("first-13");
    expect(t.get({ k: 20, payload: "" })).toBeUndefined();
    t.checkInvariants();
  });

  it("returns false when deleting an absent key, leaving the tree intact", () => {
    const t = new OrderStatisticTree(byNumber, { maxNodeSize: 3 });
    for (let i = 0; i < 50; i += 2) t.insert(i);
    expect(t.delete(1)).toBe(false);
    expect(t.delete(-5)).toBe(false);
    expect(t.delete(1000)).toBe(false);
    expect(t.size).toBe(25);
    expect([...t.keys()]).toEqual(Array.from({ length: 25 }, (_, i) => i * 2));
    t.checkInvariants();
  });

  it("clamps range bounds and yields nothing for empty ranges", () => {
    const t = new OrderStatisticTree(byNumber, { maxNodeSize: 4 });
    for (let i = 0; i < 10; i++) t.insert(i);
    expect([...t.range(-5, 3)]).toEqual([0, 1, 2]);
    expect([...t.range(8, 50)]).toEqual([8, 9]);
    expect([...t.range(8, 50, true)]).toEqual([9, 8]);
    expect([...t.range(5, 5)]).toEqual([]);
    expect([...t.range(6, 2)]).toEqual([]);
    expect([...t.range(6, 2, true)]).toEqual([]);
    expect([...t.range(20, 30)]).toEqual([]);
  });

  it("iterates lazily", () => {
    const t = new OrderStatisticTree(byNumber, { maxNodeSize: 4 });
    for (let i = 0; i < 1000; i++) t.insert(i);
    const it = t.range(100, 1000);
    expect(it.next()).toEqual({ value: 100, done: false });
    expect(it.next()).toEqual({ value: 101, done: false });
    const back = t.range(0, 1000, true);
    expect(back.next().value).toBe(999);
    expect([...t]).toHaveLength(1000);
  });

  it("works again after clear() and after deleting everything", () => {
    const t = new OrderStatisticTree(byNumber, { maxNodeSize: 5 });
    for (let i = 0; i < 300; i++) t.insert(i);
    t.clear();
    expect(t.size).toBe(0);
    expect([...t.keys()]).toEqual([]);
    t.checkInvariants();
    for (let i = 0; i < 300; i++) t.insert(i);
    for (let i = 299; i >= 0; i -= 2) expect(t.delete(i)).toBe(true);
    for (let i = 0; i < 300; i += 2) expect(t.delete(i)).toBe(true);
    expect(t.size).toBe(0);
    expect(t.at(0)).toBeUndefined();
    expect(t.lowerBound(0, () => 0)).toBe(0);
    expect([...t.range(0, 5, true)]).toEqual([]);
    t.checkInvariants();
    expect(t.insert(42)).toBe(true);
    expect([...t.keys()]).toEqual([42]);
    t.checkInvariants();
  });

  it("handles sequential inserts and deletes from either end", () => {
    for (const maxNodeSize of [3, 4, 7, 64]) {
      const t = new OrderStatisticTree(byNumber, { maxNodeSize });
      for (let i = 0; i < 2000; i++) t.insert(i);
      for (let i = -1; i >= -2000; i--) t.insert(i);
      t.checkInvariants();
      expect(t.size).toBe(4000);
      expect(t.at(0)).toBe(-2000);
      expect(t.at(3999)).toBe(1999);
      for (let i = -2000; i < -1000; i++) check(t.delete(i), () => `delete(${i})`);
      for (let i = 1999; i >= 1000; i--) check(t.delete(i), () => `delete(${i})`);
      t.checkInvariants();
      expectSameNumbers(
        [...t.keys()],
        Array.from({ length: 2000 }, (_, i) => i - 1000),
      );
    }
  });
});

describe("OrderStatisticTree: index entries", () => {
  type Entry = { k: number; id: number };
  const compare = (a: Entry, b: Entry): number => a.k - b.k || a.id - b.id;

  it("counts and skips entries between key bounds using probes", () => {
    const t = new OrderStatisticTree<Entry>(compare, { maxNodeSize: 4 });
    // Keys 0..9, each with ids 0..4: 50 entries, 5 per key.
    for (let id = 4; id >= 0; id--) for (let k = 9; k >= 0; k--) t.insert({ k, id });
    const firstWithKey = (k: number): number => t.lowerBound(k, (e, target) => e.k - target);
    const afterKey = (k: number): number => t.upperBound(k, (e, target) => e.k - target);
    expect(firstWithKey(3)).toBe(15);
    expect(afterKey(3)).toBe(20);
    expect(afterKey(6) - firstWithKey(3)).toBe(20); // count of 3 <= k <= 6
    expect(firstWithKey(-1)).toBe(0);
    expect(afterKey(9)).toBe(50);
    expect(firstWithKey(9.5)).toBe(50);
    // Skip 2 entries of k >= 3, then take 4.
    const start = firstWithKey(3) + 2;
    expect([...t.range(start, start + 4)]).toEqual([
      { k: 3, id: 2 },
      { k: 3, id: 3 },
      { k: 3, id: 4 },
      { k: 4, id: 0 },
    ]);
    // The same range descending: k <= 4 from the top.
    expect([...t.range(afterKey(3) - 2, afterKey(4), true)].map((e) => `${e.k}:${e.id}`)).toEqual([
      "4:4",
      "4:3",
      "4:2",
      "4:1",
      "4:0",
      "3:4",
      "3:3",
    ]);
  });
});

describe("OrderStatisticTree: randomized model test", () => {
  for (const [maxNodeSize, keySpace, ops, seed] of [
    [3, 300, 6000, 1],
    [4, 1000, 8000, 2],
    [5, 200, 6000, 3],
    [8, 3000, 10000, 4],
    [64, 20000, 12000, 5],
  ] as const) {
    it(`matches a sorted array (node size ${maxNodeSize}, ${ops} operations)`, () => {
      const rand = rng(seed);
      const t = new OrderStatisticTree(byNumber, { maxNodeSize });
      const model: number[] = [];
      const modelIndex = (k: number): number => partitionPoint(model, (v) => v < k);

      for (let op = 0; op < ops; op++) {
        // Phases of insert-heavy and delete-heavy traffic so the tree grows and shrinks
        // through several heights, exercising splits, borrows and merges.
        const insertBias = Math.floor(op / 1000) % 2 === 0 ? 0.7 : 0.3;
        const k = rand(keySpace);
        const i = modelIndex(k);
        const present = i < model.length && model[i] === k;
        if (rand(1000) < insertBias * 1000) {
          check(t.insert(k) === !present, () => `op ${op}: insert(${k}) with present=${present}`);
          if (!present) model.splice(i, 0, k);
        } else {
          check(t.delete(k) === present, () => `op ${op}: delete(${k}) with present=${present}`);
          if (present) model.splice(i, 1);
        }
        check(t.size === model.length, () => `op ${op}: size ${t.size}, model ${model.length}`);

        if (op % 97 === 0) {
          t.checkInvariants();
          for (let q = 0; q < 20; q++) {
            const r = rand(model.length + 2) - 1;
            check(t.at(r) === model[r], () => `op ${op}: at(${r}) = ${t.at(r)}, model ${model[r]}`);
            const target = rand(keySpace + 2) - 1;
            const lower = partitionPoint(model, (v) => v < target);
            const upper = partitionPoint(model, (v) => v <= target);
            check(t.lowerBound(target, (key, probe) => key - probe) === lower, () => `op ${op}: lowerBound(${target})`);
            check(t.upperBound(target, (key, probe) => key - probe) === upper, () => `op ${op}: upperBound(${target})`);
            check(t.has(target) === upper > lower, () => `op ${op}: has(${target})`);
            const a = rand(model.length + 3) - 1;
            const b = rand(model.length + 3) - 1;
            const from = Math.max(0, Math.min(a, b));
            const to = Math.min(model.length, Math.max(a, b));
            const expected = model.slice(from, Math.max(from, to));
            expectSameNumbers([...t.range(Math.min(a, b), Math.max(a, b))], expected);
            expectSameNumbers([...t.range(Math.min(a, b), Math.max(a, b), true)], [...expected].reverse());
          }
        }
        if (op % 997 === 0) expectSameNumbers([...t.keys()], model);
      }

      t.checkInvariants();
      expectSameNumbers([...t.keys()], model);
      expectSameNumbers([...t.range(0, model.length, true)], [...model].reverse());
      for (const k of [...model]) check(t.delete(k), () => `final delete(${k})`);
      expect(t.size).toBe(0);
      t.checkInvariants();
    });
  }
});
