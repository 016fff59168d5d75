// An in-memory B+tree of unique keys with subtree counts (an order-statistic tree).
//
// Secondary indexes need, besides ordered lookup and iteration, O(log n) "the k-th entry"
// (skip) and "how many entries lie between two bounds" (count = upperBound - lowerBound).
// Callers make keys unique themselves (an index entry carries its record id).
//
// Layout:
//  - Leaves hold sorted keys and are doubly linked, so a range scan costs O(1) per key after
//    one O(log n) descent.
//  - Internal nodes hold `children`, `seps` (children.length - 1 separators) and `counts`
//    (number of keys under each child). Every key in children[i] is < seps[i] and every key in
//    children[i + 1] is >= seps[i]. Separators are copies of keys that may since have been
//    deleted; they stay valid bounds, so deletes never have to rewrite them.
//  - Every node but the root holds between ceil(max/2) and max entries (keys for a leaf,
//    children for an internal node); deletes borrow from or merge with a sibling to keep that.
//
// Iterators returned by range()/keys() are NOT stable under modification: insert, delete or
// clear while iterating gives unspecified results. Collect first, then modify.
//
// Weighted: with a `weight` option each key stands for that many consecutive ranks (a key and its
// postings, posting-tree.ts), counts and ranks are sums of weights, and update() changes a key's
// weight in place. Without it every key weighs 1.

export type Comparator<K> = (a: K, b: K) => number;

export interface OrderStatisticTreeOptions<K> {
  /** Most keys per leaf and most children per internal node (>= 3). Default 64. */
  maxNodeSize?: number;
  /** How many ranks a key stands for (default 1 each); it may change only through update(). */
  weight?: (key: K) => number;
}

interface Leaf<K> {
  readonly leaf: true;
  keys: K[];
  prev: Leaf<K> | null;
  next: Leaf<K> | null;
}

interface Internal<K> {
  readonly leaf: false;
  children: TreeNode<K>[];
  seps: K[];
  counts: number[];
}

type TreeNode<K> = Leaf<K> | Internal<K>;

const DEFAULT_MAX_NODE_SIZE = 64;

function newLeaf<K>(keys: K[]): Leaf<K> {
  return { leaf: true, keys, prev: null, next: null };
}

function entryCount<K>(node: TreeNode<K>): number {
  return node.leaf ? node.keys.length : node.children.length;
}

export class OrderStatisticTree<K> {
  private readonly compare: Comparator<K>;
  private readonly weight: ((key: K) => number) | undefined;
  private readonly maxSize: number;
  private readonly minSize: number;
  private root: TreeNode<K>;
  private count = 0;
  // Descent path reused by insert/delete so that they do not allocate per call.
  private readonly pathNodes: Internal<K>[] = [];
  private readonly pathIndexes: number[] = [];

  constructor(compare: Comparator<K>, options: OrderStatisticTreeOptions<K> = {}) {
    const max = options.maxNodeSize ?? DEFAULT_MAX_NODE_SIZE;
    if (!Number.isInteger(max) || max < 3) throw new RangeError(`maxNodeSize must be an integer >= 3, got ${max}`);
    this.compare = compare;
    this.weight = options.weight;
    this.maxSize = max;
    // A split of max+1 entries leaves both halves >= ceil(max/2), and merging an underfull
    // node (ceil(max/2) - 1) with a minimal sibling gives at most max: both invariants hold.
    this.minSize = Math.ceil(max / 2);
    this.root = newLeaf<K>([]);
  }

  get size(): number {
    return this.count;
  }

  /** Adds `key`; returns false, changing nothing, if an equal key is already present. */
  insert(key: K): boolean {
    const depth = this.descend(key);
    const leaf = this.leafAt(depth);
    const keys = leaf.keys;
    const pos = this.leafLowerBound(keys, key);
    if (pos < keys.length && this.compare(keys[pos]!, key) === 0) return false;
    this.insertAt(leaf, pos, key, depth);
    return true;
  }

  /**
   * Weighted trees: when a key equal to `key` is present, calls `change` with it (which may change its weight, and
   * returns by how much) and returns false; otherwise inserts `key` and returns true. One descent either way.
   */
  insertOrUpdate(key: K, change: (stored: K) => number): boolean {
    const depth = this.descend(key);
    const leaf = this.leafAt(depth);
    const pos = this.leafLowerBound(leaf.keys, key);
    const stored = leaf.keys[pos];
    if (stored !== undefined && this.compare(stored, key) === 0) {
      this.reweigh(depth, change(stored));
      return false;
    }
    this.insertAt(leaf, pos, key, depth);
    return true;
  }

  /**
   * Weighted trees: calls `change` with the key equal to `probe` (which may change its weight, and returns by how
   * much) and returns that key; a key left weighing nothing is removed. Undefined when there is no such key.
   */
  update(probe: K, change: (stored: K) => number): K | undefined {
    const depth = this.descend(probe);
    const leaf = this.leafAt(depth);
    const keys = leaf.keys;
    const pos = this.leafLowerBound(keys, probe);
    const stored = keys[pos];
    if (stored === undefined || this.compare(stored, probe) !== 0) return undefined;
    this.reweigh(depth, change(stored));
    if (this.weightOf(stored) === 0) {
      keys.splice(pos, 1);
      this.rebalanceUpward(depth);
    }
    return stored;
  }

  private insertAt(leaf: Leaf<K>, pos: number, key: K, depth: number): void {
    leaf.keys.splice(pos, 0, key);
    this.reweigh(depth, this.weightOf(key));
    if (leaf.keys.length > this.maxSize) this.splitUpward(leaf, depth);
  }

  /** Adds `delta` to the counts along the path descend() recorded, down to `depth`. */
  private reweigh(depth: number, delta: number): void {
    if (delta === 0) return;
    for (let d = 0; d < depth; d++) this.pathNodes[d]!.counts[this.pathIndexes[d]!]! += delta;
    this.count += delta;
  }

  private weightOf(key: K): number {
    return this.weight === undefined ? 1 : this.weight(key);
  }

  /** The ranks a node's keys stand for. */
  private keyCount(node: TreeNode<K>): number {
    let total = 0;
    if (!node.leaf) for (const c of node.counts) total += c;
    else if (this.weight === undefined) total = node.keys.length;
    else for (const key of node.keys) total += this.weight(key);
    return total;
  }

  /** Removes the key equal to `key`; returns false if there is none. */
  delete(key: K): boolean {
    const depth = this.descend(key);
    const leaf = this.leafAt(depth);
    const keys = leaf.keys;
    const pos = this.leafLowerBound(keys, key);
    if (pos >= keys.length || this.compare(keys[pos]!, key) !== 0) return false;
    const [removed] = keys.splice(pos, 1);
    this.reweigh(depth, -this.weightOf(removed as K));
    this.rebalanceUpward(depth);
    return true;
  }

  has(key: K): boolean {
    const keys = this.leafFor(key).keys;
    const pos = this.leafLowerBound(keys, key);
    return pos < keys.length && this.compare(keys[pos]!, key) === 0;
  }

  /** The stored key equal to `key` (useful when keys carry more than what they compare on). */
  get(key: K): K | undefined {
    const keys = this.leafFor(key).keys;
    const pos = this.leafLowerBound(keys, key);
    return pos < keys.length && this.compare(keys[pos]!, key) === 0 ? keys[pos] : undefined;
  }

  /**
   * Rank (0-based) of the first key k with compare(k, probe) >= 0, or `size` if none. `compare`
   * must be monotonic in key order: < 0 means "k sorts before the probe". The probe is passed
   * rather than closed over so that each caller's `compare` stays one function, which the
   * JIT can inline into the descent: a lookup costs ~20 of these calls.
   */
  lowerBound<P>(probe: P, compare: (key: K, probe: P) => number): number {
    return this.rankWhere(probe, compare, true);
  }

  /** Rank of the first key k with compare(k, probe) > 0, or `size` if none. */
  upperBound<P>(probe: P, compare: (key: K, probe: P) => number): number {
    return this.rankWhere(probe, compare, false);
  }

  /** The key with the given 0-based rank, or undefined if out of range. O(log n). */
  at(rank: number): K | undefined {
    return this.keyAt(rank)?.[0];
  }

  /** The key standing for `rank`, and which of its ranks that is (always 0 unweighted); undefined if out of range. */
  keyAt(rank: number): [K, number] | undefined {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.count) return undefined;
    const [leaf, index, offset] = this.locate(rank);
    return [leaf.keys[index]!, offset];
  }

  /**
   * Weighted trees: the keys from the one standing for `rank` on (or back, when `reverse`), each with the rank
   * within it to start from: the first's own, then 0 going forward or its last going back. Lazy.
   */
  *walk(rank: number, reverse = false): Generator<[K, number], void, undefined> {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.count) return;
    let [leaf, index, offset] = this.locate(rank);
    for (;;) {
      const keys = leaf.keys;
      if (reverse) {
        for (; index >= 0; index--) {
          const key = keys[index]!;
          yield [key, offset < 0 ? this.weightOf(key) - 1 : offset];
          offset = -1;
        }
        if (leaf.prev === null) return;
        leaf = leaf.prev;
        index = leaf.keys.length - 1;
      } else {
        for (; index < keys.length; index++) {
          yield [keys[index]!, offset];
          offset = 0;
        }
        if (leaf.next === null) return;
        leaf = leaf.next;
        index = 0;
      }
    }
  }

  /**
   * Keys with rank in [from, to) ascending, or from to-1 down to from when `reverse`. Bounds are
   * clamped to [0, size]. Lazy: O(log n) to start, then O(1) amortised per key.
   */
  range(from: number, to: number, reverse = false): IterableIterator<K> {
    if (this.weight !== undefined) throw new Error("OrderStatisticTree: range() of a weighted tree (use walk())");
    const lo = Math.max(0, Math.min(Math.ceil(from), this.count));
    const hi = Math.max(lo, Math.min(Math.ceil(to), this.count));
    return reverse ? this.scanBackward(lo, hi) : this.scanForward(lo, hi);
  }

  /** All keys, ascending. */
  keys(): IterableIterator<K> {
    return this.range(0, this.count);
  }

  [Symbol.iterator](): IterableIterator<K> {
    return this.keys();
  }

  clear(): void {
    this.root = newLeaf<K>([]);
    this.count = 0;
  }

  /**
   * Verifies the structural invariants (ordering, separators, counts, fill, leaf links) and
   * throws an Error describing the first violation. O(n); a debugging and test aid.
   */
  checkInvariants(): void {
    const leaves: Leaf<K>[] = [];
    const total = this.checkNode(this.root, undefined, undefined, true, leaves);
    if (total !== this.count) throw new Error(`size ${this.count} but tree holds ${total} keys`);
    for (let i = 0; i < leaves.length; i++) {
      if (leaves[i]!.prev !== (leaves[i - 1] ?? null)) throw new Error(`leaf ${i}: bad prev link`);
      if (leaves[i]!.next !== (leaves[i + 1] ?? null)) throw new Error(`leaf ${i}: bad next link`);
    }
    let previous: K | undefined;
    let first = true;
    for (const leaf of leaves) {
      for (const k of leaf.keys) {
        if (!first && this.compare(previous as K, k) >= 0) throw new Error("keys not strictly ascending");
        previous = k;
        first = false;
      }
    }
  }

  // ------------------------------------------------------------ descent helpers

  /** Walks from the root towards where `key` belongs, recording the path; returns its depth. */
  private descend(key: K): number {
    let node = this.root;
    let depth = 0;
    while (!node.leaf) {
      const i = this.childIndexFor(node, key);
      this.pathNodes[depth] = node;
      this.pathIndexes[depth] = i;
      depth++;
      node = node.children[i]!;
    }
    return depth;
  }

  private leafAt(depth: number): Leaf<K> {
    if (depth === 0) return this.root as Leaf<K>;
    return this.pathNodes[depth - 1]!.children[this.pathIndexes[depth - 1]!] as Leaf<K>;
  }

  /** Index of the child that holds `key` if present: the number of separators <= key. */
  private childIndexFor(node: Internal<K>, key: K): number {
    const seps = node.seps;
    let lo = 0;
    let hi = seps.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(seps[mid]!, key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index in a leaf whose key is >= `key`. */
  private leafLowerBound(keys: K[], key: K): number {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(keys[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The leaf that holds `key` if present (no path recorded: for read-only lookups). */
  private leafFor(key: K): Leaf<K> {
    let node = this.root;
    while (!node.leaf) node = node.children[this.childIndexFor(node, key)]!;
    return node;
  }

  /**
   * Rank of the first key k with compare(k, probe) >= 0 (inclusive) or > 0 (exclusive). At each level we
   * enter the child before the first separator that passes; if no key in that child passes,
   * the answer is the first key of the next child, whose rank is where this child ends.
   */
  private rankWhere<P>(probe: P, compare: (key: K, probe: P) => number, inclusive: boolean): number {
    let node = this.root;
    let rank = 0;
    while (!node.leaf) {
      const seps = node.seps;
      let lo = 0;
      let hi = seps.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const p = compare(seps[mid]!, probe);
        if (inclusive ? p < 0 : p <= 0) lo = mid + 1;
        else hi = mid;
      }
      const counts = node.counts;
      for (let i = 0; i < lo; i++) rank += counts[i]!;
      node = node.children[lo]!;
    }
    const keys = node.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = compare(keys[mid]!, probe);
      if (inclusive ? p < 0 : p <= 0) lo = mid + 1;
      else hi = mid;
    }
    if (this.weight === undefined) return rank + lo;
    for (let i = 0; i < lo; i++) rank += this.weight(keys[i]!);
    return rank;
  }

  /** Leaf, index in it and rank within it of the key standing for `rank` (0 <= rank < size). */
  private locate(rank: number): [Leaf<K>, number, number] {
    let node = this.root;
    while (!node.leaf) {
      const counts = node.counts;
      let i = 0;
      while (rank >= counts[i]!) rank -= counts[i++]!;
      node = node.children[i]!;
    }
    if (this.weight === undefined) return [node, rank, 0];
    let index = 0;
    for (let w = this.weight(node.keys[0]!); rank >= w; w = this.weight(node.keys[++index]!)) rank -= w;
    return [node, index, rank];
  }

  private *scanForward(from: number, to: number): Generator<K, void, undefined> {
    if (from >= to) return;
    let [leaf, offset] = this.locate(from);
    let remaining = to - from;
    for (;;) {
      const keys = leaf.keys;
      for (; offset < keys.length; offset++) {
        yield keys[offset]!;
        if (--remaining === 0) return;
      }
      leaf = leaf.next!;
      offset = 0;
    }
  }

  private *scanBackward(from: number, to: number): Generator<K, void, undefined> {
    if (from >= to) return;
    let [leaf, offset] = this.locate(to - 1);
    let remaining = to - from;
    for (;;) {
      const keys = leaf.keys;
      for (; offset >= 0; offset--) {
        yield keys[offset]!;
        if (--remaining === 0) return;
      }
      leaf = leaf.prev!;
      offset = leaf.keys.length - 1;
    }
  }

  // ------------------------------------------------------------ structural changes

  /** Splits the overfull node at `depth` (and then any overfull ancestors). */
  private splitUpward(node: TreeNode<K>, depth: number): void {
    while (entryCount(node) > this.maxSize) {
      const [right, sep] = this.splitNode(node);
      if (depth === 0) {
        this.root = {
          leaf: false,
          children: [node, right],
          seps: [sep],
          counts: [this.keyCount(node), this.keyCount(right)],
        };
        return;
      }
      depth--;
      const parent = this.pathNodes[depth]!;
      const i = this.pathIndexes[depth]!;
      const rightCount = this.keyCount(right);
      parent.children.splice(i + 1, 0, right);
      parent.seps.splice(i, 0, sep);
      parent.counts.splice(i + 1, 0, rightCount);
      parent.counts[i]! -= rightCount;
      node = parent;
    }
  }

  /** Moves the upper half of `node` into a new right sibling; returns it and the separator between them. */
  private splitNode(node: TreeNode<K>): [TreeNode<K>, K] {
    const mid = entryCount(node) >>> 1;
    if (node.leaf) {
      const right = newLeaf(node.keys.splice(mid));
      right.next = node.next;
      right.prev = node;
      if (node.next) node.next.prev = right;
      node.next = right;
      return [right, right.keys[0]!];
    }
    // Children [mid..] move right; seps[mid-1] moves up, as it separates the two halves.
    const right: Internal<K> = {
      leaf: false,
      children: node.children.splice(mid),
      seps: node.seps.splice(mid),
      counts: node.counts.splice(mid),
    };
    const sep = node.seps.pop()!;
    return [right, sep];
  }

  /** Restores minimum fill from the leaf at `depth` upwards after a delete, and shrinks the root. */
  private rebalanceUpward(depth: number): void {
    while (depth > 0) {
      const parent = this.pathNodes[depth - 1]!;
      const i = this.pathIndexes[depth - 1]!;
      const node = parent.children[i]!;
      if (entryCount(node) >= this.minSize) return;
      const left = i > 0 ? parent.children[i - 1]! : undefined;
      const right = i + 1 < parent.children.length ? parent.children[i + 1]! : undefined;
      if (left && entryCount(left) > this.minSize) {
        this.borrowFromLeft(parent, i);
        return;
      }
      if (right && entryCount(right) > this.minSize) {
        this.borrowFromRight(parent, i);
        return;
      }
      // Both siblings are minimal: merge, which removes one child from the parent.
      this.mergeChildren(parent, left ? i - 1 : i);
      depth--;
    }
    const root = this.root;
    if (!root.leaf && root.children.length === 1) this.root = root.children[0]!;
  }

  /** Moves the last entry of children[i-1] to the front of children[i]. */
  private borrowFromLeft(parent: Internal<K>, i: number): void {
    const node = parent.children[i]!;
    const left = parent.children[i - 1]!;
    let moved: number;
    if (node.leaf && left.leaf) {
      node.keys.unshift(left.keys.pop()!);
      parent.seps[i - 1] = node.keys[0]!;
      moved = this.weightOf(node.keys[0]!);
    } else if (!node.leaf && !left.leaf) {
      node.children.unshift(left.children.pop()!);
      moved = left.counts.pop()!;
      node.counts.unshift(moved);
      node.seps.unshift(parent.seps[i - 1]!);
      parent.seps[i - 1] = left.seps.pop()!;
    } else {
      throw new Error("OrderStatisticTree: siblings at different heights");
    }
    parent.counts[i - 1]! -= moved;
    parent.counts[i]! += moved;
  }

  /** Moves the first entry of children[i+1] to the end of children[i]. */
  private borrowFromRight(parent: Internal<K>, i: number): void {
    const node = parent.children[i]!;
    const right = parent.children[i + 1]!;
    let moved: number;
    if (node.leaf && right.leaf) {
      const key = right.keys.shift()!;
      node.keys.push(key);
      parent.seps[i] = right.keys[0]!;
      moved = this.weightOf(key);
    } else if (!node.leaf && !right.leaf) {
      node.children.push(right.children.shift()!);
      moved = right.counts.shift()!;
      node.counts.push(moved);
      node.seps.push(parent.seps[i]!);
      parent.seps[i] = right.seps.shift()!;
    } else {
      throw new Error("OrderStatisticTree: siblings at different heights");
    }
    parent.counts[i]! += moved;
    parent.counts[i + 1]! -= moved;
  }

  /** Merges children[j+1] into children[j] and removes it from the parent. */
  private mergeChildren(parent: Internal<K>, j: number): void {
    const left = parent.children[j]!;
    const right = parent.children[j + 1]!;
    if (left.leaf && right.leaf) {
      for (const k of right.keys) left.keys.push(k);
      left.next = right.next;
      if (right.next) right.next.prev = left;
    } else if (!left.leaf && !right.leaf) {
      left.seps.push(parent.seps[j]!);
      for (const s of right.seps) left.seps.push(s);
      for (const c of right.children) left.children.push(c);
      for (const c of right.counts) left.counts.push(c);
    } else {
      throw new Error("OrderStatisticTree: siblings at different heights");
    }
    parent.counts[j]! += parent.counts[j + 1]!;
    parent.children.splice(j + 1, 1);
    parent.seps.splice(j, 1);
    parent.counts.splice(j + 1, 1);
  }

  /** Checks the subtree under `node`, whose keys must lie in [low, high); returns its key count. */
  private checkNode(
    node: TreeNode<K>,
    low: K | undefined,
    high: K | undefined,
    isRoot: boolean,
    leaves: Leaf<K>[],
  ): number {
    const n = entryCount(node);
    if (n > this.maxSize) throw new Error(`node over capacity: ${n} > ${this.maxSize}`);
    if (!isRoot && n < this.minSize) throw new Error(`node under minimum fill: ${n} < ${this.minSize}`);
    if (node.leaf) {
      for (const k of node.keys) {
        if (low !== undefined && this.compare(k, low) < 0) throw new Error("key below its separator");
        if (high !== undefined && this.compare(k, high) >= 0) throw new Error("key not below its separator");
      }
      leaves.push(node);
      return this.keyCount(node);
    }
    if (isRoot && n < 2) throw new Error("internal root with a single child");
    if (node.seps.length !== n - 1 || node.counts.length !== n) throw new Error("internal node arrays out of step");
    let total = 0;
    for (let i = 0; i < n; i++) {
      const lo = i === 0 ? low : node.seps[i - 1];
      const hi = i === n - 1 ? high : node.seps[i];
      const sub = this.checkNode(node.children[i]!, lo, hi, false, leaves);
      if (sub !== node.counts[i]) throw new Error(`child ${i} holds ${sub} keys but is counted as ${node.counts[i]}`);
      total += sub;
    }
    return total;
  }
}
