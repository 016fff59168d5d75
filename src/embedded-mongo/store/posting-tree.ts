// An index's entries, (key, record id) pairs in order, held as one tree node per distinct key with the ids of the
// records holding it in a sorted array (its postings), as search engines hold a term's documents.
//
// A words index holds millions of entries over a few hundred thousand distinct words: a tree of one node per entry
// made every insert a descent through millions of scattered objects (memory-latency bound, 5-20 us a key), where
// the distinct keys make a tree small enough to stay in the cache, and a new record's id is appended at the end of
// its postings (ids only grow). Ranks still count entries (a weighted order-statistic tree: each key weighs its
// postings' length), so counts and skips stay O(log n) rank arithmetic; iteration reads postings in place.
import type { IndexEntry } from "./index-entry.js";
import { OrderStatisticTree, type Comparator, type OrderStatisticTreeOptions } from "./order-statistic-tree.js";

/** A distinct key and the records holding it, ascending. */
interface Postings {
  k: unknown[];
  /** `k[0]`, as IndexEntry has it: the comparisons read it first. */
  h: unknown;
  rids: number[];
}

/** First position in ascending `rids` whose id is >= `rid`. */
function ridPosition(rids: readonly number[], rid: number): number {
  // New records come last: the common insert appends.
  const last = rids.length - 1;
  if (last < 0 || rids[last]! < rid) return rids.length;
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rids[mid]! < rid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const NO_RIDS: number[] = [];

export class PostingTree {
  private readonly keys: OrderStatisticTree<Postings>;

  /** `compareKeys`: the order of keys (not record ids); entries of one key are in record id order. */
  constructor(
    compareKeys: Comparator<{ k: unknown[]; h: unknown }>,
    options: Pick<OrderStatisticTreeOptions<Postings>, "maxNodeSize"> = {},
  ) {
    this.keys = new OrderStatisticTree<Postings>(compareKeys, {
      ...options,
      weight: (postings) => postings.rids.length,
    });
  }

  /** How many entries (not distinct keys). */
  get size(): number {
    return this.keys.size;
  }

  /** Adds an entry; false, changing nothing, when it is there already. */
  insert(entry: IndexEntry): boolean {
    let added = true;
    this.keys.insertOrUpdate({ k: entry.k, h: entry.h, rids: [entry.r] }, (postings) => {
      const rids = postings.rids;
      const at = ridPosition(rids, entry.r);
      if (rids[at] === entry.r) {
        added = false;
        return 0;
      }
      if (at === rids.length) rids.push(entry.r);
      else rids.splice(at, 0, entry.r);
      return 1;
    });
    return added;
  }

  /** Removes an entry; false when it is not there. */
  delete(entry: IndexEntry): boolean {
    let removed = false;
    this.keys.update({ k: entry.k, h: entry.h, rids: NO_RIDS }, (postings) => {
      const rids = postings.rids;
      const at = ridPosition(rids, entry.r);
      if (rids[at] !== entry.r) return 0;
      rids.splice(at, 1);
      removed = true;
      return -1;
    });
    return removed;
  }

  /** Rank of the first entry whose key is >= `probe` by `compare` (see OrderStatisticTree.lowerBound). */
  lowerBound<P>(probe: P, compare: (key: { k: unknown[]; h: unknown }, probe: P) => number): number {
    return this.keys.lowerBound(probe, compare);
  }

  /** Rank of the first entry whose key is > `probe` by `compare`. */
  upperBound<P>(probe: P, compare: (key: { k: unknown[]; h: unknown }, probe: P) => number): number {
    return this.keys.upperBound(probe, compare);
  }

  /** The entry at `rank`, or undefined if out of range. */
  at(rank: number): IndexEntry | undefined {
    const found = this.keys.keyAt(rank);
    if (found === undefined) return undefined;
    const [postings, offset] = found;
    return { k: postings.k, h: postings.h, r: postings.rids[offset]! };
  }

  /**
   * The record ids of the entries with rank in [from, to), as `range` walks them, pushed onto `out`: the rank
   * arithmetic of exact plans reads thousands of them a query, and an entry object each is most of that cost.
   */
  pushRids(from: number, to: number, reverse: boolean, out: number[]): void {
    const lo = Math.max(0, Math.min(Math.ceil(from), this.size));
    const hi = Math.max(lo, Math.min(Math.ceil(to), this.size));
    let remaining = hi - lo;
    if (remaining === 0) return;
    for (const [{ rids }, offset] of this.keys.walk(reverse ? hi - 1 : lo, reverse)) {
      const n = Math.min(remaining, reverse ? offset + 1 : rids.length - offset);
      if (reverse) for (let i = offset; i > offset - n; i--) out.push(rids[i]!);
      else for (let i = offset; i < offset + n; i++) out.push(rids[i]!);
      remaining -= n;
      if (remaining === 0) return;
    }
  }

  /** Entries with rank in [from, to), ascending, or descending when `reverse`; bounds clamped to [0, size]. Lazy. */
  *range(from: number, to: number, reverse = false): Generator<IndexEntry, void, undefined> {
    const lo = Math.max(0, Math.min(Math.ceil(from), this.size));
    const hi = Math.max(lo, Math.min(Math.ceil(to), this.size));
    let remaining = hi - lo;
    if (remaining === 0) return;
    for (const [postings, offset] of this.keys.walk(reverse ? hi - 1 : lo, reverse)) {
      const { k, h, rids } = postings;
      if (reverse)
        for (let i = offset; i >= 0; i--) {
          yield { k, h, r: rids[i]! };
          if (--remaining === 0) return;
        }
      else
        for (let i = offset; i < rids.length; i++) {
          yield { k, h, r: rids[i]! };
          if (--remaining === 0) return;
        }
    }
  }

  /** Each distinct key with its records' ids, in key order: the tree's own arrays, to be read, never changed. */
  *postings(): Generator<{ readonly k: readonly unknown[]; readonly rids: readonly number[] }, void, undefined> {
    for (const [postings] of this.keys.walk(0)) yield postings;
  }

  /** Every entry, ascending. */
  entries(): Generator<IndexEntry, void, undefined> {
    return this.range(0, this.size);
  }

  /** Checks the tree's invariants and that every key's postings are ascending and non-empty. */
  checkInvariants(): void {
    this.keys.checkInvariants();
    for (const [postings] of this.keys.walk(0)) {
      const { rids } = postings;
      if (rids.length === 0) throw new Error("a key without postings");
      for (let i = 1; i < rids.length; i++) if (rids[i - 1]! >= rids[i]!) throw new Error("postings not ascending");
    }
  }
}
