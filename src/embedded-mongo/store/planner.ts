// A small query planner. It reads the top-level predicates of a filter, picks the index
// whose leading fields they constrain best (equality first, then one range, then whether
// the index order already gives the requested sort) and turns the predicates into key
// intervals. A plan is "exact" when the intervals alone decide the filter, which lets the
// executor skip and count by rank without touching documents.
import { ObjectId, type Document } from "bson";
import { isOperatorDocument } from "../bson-values.js";
import { CommandError, ErrorCodes } from "../errors.js";
import type { SortKey } from "../query/sort.js";
import { compareValues, typeOrder } from "../bson-order.js";
import type { Collection } from "./collection.js";
import type { SecondaryIndex } from "./secondary-index.js";

interface Bound {
  value: unknown;
  inclusive: boolean;
}

interface FieldPredicate {
  points?: unknown[];
  lower?: Bound;
  upper?: Bound;
  /** false when part of the condition is not expressed by points/lower/upper. */
  exact: boolean;
  /**
   * The range is one array element's ($elemMatch with range operators only): a multikey index's entries are the
   * elements, so its range can serve it, as MongoDB's bounds for $elemMatch do.
   */
  elementRange?: boolean;
}

/** A contiguous run of index entries, as ranks [start, end) in the index tree. */
export interface RankRange {
  start: number;
  end: number;
}

export interface Plan {
  index?: SecondaryIndex;
  ranges: RankRange[];
  /** The ranges contain exactly the matching documents, once each. */
  exact: boolean;
  /**
   * The ranges contain exactly the matching documents, a multikey index's possibly more than once: exact, or
   * point lookups on a one-field multikey index, whose entries are the elements a query compares one by one.
   */
  decides: boolean;
  /** Walking the ranges in order (reversed when `reverse`) yields the requested sort. */
  sorted: boolean;
  reverse: boolean;
}

/** Values whose index keys compare exactly as the query compares them. */
function isPointValue(value: unknown): boolean {
  if (typeof value === "number") return !Number.isNaN(value);
  if (typeof value === "string" || typeof value === "boolean" || value instanceof Date) return true;
  return value instanceof ObjectId;
}

/** The smallest and largest values of a value's type, so one-sided ranges stay within the type as MongoDB's do. */
function typeBracket(value: unknown): [Bound, Bound] | undefined {
  if (typeof value === "number")
    return [
      { value: -Infinity, inclusive: true },
      { value: Infinity, inclusive: true },
    ];
  if (typeof value === "string")
    return [
      { value: "", inclusive: true },
      { value: {}, inclusive: false },
    ];
  if (value instanceof Date)
    return [
      { value: new Date(-8.64e15), inclusive: true },
      { value: new Date(8.64e15), inclusive: true },
    ];
  if (value instanceof ObjectId)
    return [
      { value: new ObjectId("000000000000000000000000"), inclusive: true },
      { value: new ObjectId("ffffffffffffffffffffffff"), inclusive: true },
    ];
  return undefined;
}

function fieldPredicate(condition: unknown): FieldPredicate {
  if (!isOperatorDocument(condition)) {
    if (isPointValue(condition)) return { points: [condition], exact: true };
    return { exact: false };
  }
  const predicate: FieldPredicate = { exact: true };
  const entries = Object.entries(condition);
  const [only] = entries;
  if (entries.length === 1 && only?.[0] === "$elemMatch" && isOperatorDocument(only[1])) {
    const inner = fieldPredicate(only[1]);
    const rangeOnly = Object.keys(only[1] as Document).every((op) => ["$gt", "$gte", "$lt", "$lte"].includes(op));
    if (rangeOnly && inner.lower) return { lower: inner.lower, upper: inner.upper, exact: false, elementRange: true };
    return { exact: false };
  }
  for (const [op, value] of entries) {
    if (op === "$eq" && isPointValue(value) && !predicate.points) predicate.points = [value];
    else if (
      op === "$in" &&
      Array.isArray(value) &&
      value.length > 0 &&
      value.every(isPointValue) &&
      !predicate.points
    ) {
      predicate.points = [...value]
        .sort(compareValues)
        .filter((v, i, all) => i === 0 || compareValues(all[i - 1], v) !== 0);
    } else if ((op === "$gt" || op === "$gte") && typeBracket(value) && !predicate.lower)
      predicate.lower = { value, inclusive: op === "$gte" };
    else if ((op === "$lt" || op === "$lte") && typeBracket(value) && !predicate.upper)
      predicate.upper = { value, inclusive: op === "$lte" };
    else predicate.exact = false;
  }
  if (predicate.points && (predicate.lower || predicate.upper)) {
    // Points plus a range: keep the points, let the filter re-check the range.
    delete predicate.lower;
    delete predicate.upper;
    predicate.exact = false;
  }
  if (predicate.lower && predicate.upper && typeOrder(predicate.lower.value) !== typeOrder(predicate.upper.value))
    predicate.exact = false;
  if (predicate.lower && !predicate.upper) predicate.upper = typeBracket(predicate.lower.value)![1];
  if (predicate.upper && !predicate.lower) predicate.lower = typeBracket(predicate.upper.value)![0];
  return predicate;
}

/** Top-level field predicates, and whether the filter says anything they do not. */
function extractPredicates(filter: Document): { fields: Map<string, FieldPredicate>; residual: boolean } {
  const fields = new Map<string, FieldPredicate>();
  let residual = false;
  const visit = (part: Document) => {
    for (const [field, condition] of Object.entries(part)) {
      if (field === "$and" && Array.isArray(condition)) {
        for (const inner of condition) visit(inner as Document);
      } else if (field.startsWith("$")) {
        residual = true;
      } else if (fields.has(field)) {
        residual = true; // a second condition on the same field: the filter re-checks it
      } else {
        const predicate = fieldPredicate(condition);
        if (!predicate.points && !predicate.lower) residual = true;
        else fields.set(field, predicate);
        if (!predicate.exact) residual = true;
      }
    }
  };
  visit(filter);
  return { fields, residual };
}

interface Candidate {
  index: SecondaryIndex;
  score: number;
  eqFields: number;
  range?: FieldPredicate;
  sorted: boolean;
  reverse: boolean;
  usedFields: Set<string>;
}

function evaluate(index: SecondaryIndex, fields: Map<string, FieldPredicate>, sort: SortKey[]): Candidate {
  let eqFields = 0;
  let range: FieldPredicate | undefined;
  const usedFields = new Set<string>();
  for (const field of index.fields) {
    const predicate = fields.get(field);
    // A multikey index can serve equality, but a range on it could join two different elements.
    if (predicate?.points) {
      eqFields++;
      usedFields.add(field);
      continue;
    }
    if (predicate?.lower && (!index.multikey || predicate.elementRange === true)) {
      range = predicate;
      usedFields.add(field);
    }
    break;
  }
  let singlePointPrefix = 0;
  while (singlePointPrefix < eqFields && fields.get(index.fields[singlePointPrefix])!.points!.length === 1)
    singlePointPrefix++;
  const pinned = new Set(index.fields.slice(0, singlePointPrefix));
  const remainingSort = sort.filter((key) => !pinned.has(key.field));
  let sorted = remainingSort.length === 0;
  let reverse = false;
  if (!sorted && !index.multikey && singlePointPrefix === eqFields) {
    const rest = index.fields.slice(singlePointPrefix);
    const aligned = remainingSort.every((key, i) => rest[i] === key.field);
    const forward = remainingSort.every((key, i) => key.direction === index.directions[singlePointPrefix + i]);
    const backward = remainingSort.every((key, i) => key.direction === -index.directions[singlePointPrefix + i]);
    if (aligned && (forward || backward)) {
      sorted = true;
      reverse = !forward;
    }
  }
  const score =
    eqFields * 4 +
    (range ? 2 : 0) +
    (sorted && sort.length > 0 ? 3 : 0) +
    (index.unique && eqFields === index.fields.length ? 1 : 0);
  return { index, score, eqFields, range, sorted, reverse, usedFields };
}

function resolveHint(collection: Collection, hint: unknown): SecondaryIndex | undefined {
  if (hint === undefined || hint === null) return undefined;
  const found =
    typeof hint === "string"
      ? collection.indexes.get(hint)
      : typeof hint === "object" && Object.keys(hint as Document).length > 0
        ? collection.findIndexByKey(hint as Document)
        : undefined;
  if (!found)
    throw new CommandError(
      ErrorCodes.BadValue,
      "error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index",
    );
  return found;
}

/**
 * A filter of plain equalities on exactly the fields of a unique index names at most one
 * record: the index's hash answers it with no planning (MongoDB's IDHACK, for every unique
 * index). The records found, or undefined when the filter is not of that shape or the hash
 * cannot tell.
 */
export function uniqueKeyLookup(collection: Collection, filter: Document): number[] | undefined {
  const fields = Object.keys(filter);
  if (fields.length === 0) return undefined;
  for (const field of fields) if (field.startsWith("$") || !isPointValue(filter[field])) return undefined;
  for (const index of collection.indexes.values()) {
    if (!index.unique || !index.complete || index.multikey || index.fields.length !== fields.length) continue;
    if (!index.fields.every((field) => Object.hasOwn(filter, field))) continue;
    const found = index.hashLookup(index.fields.map((field) => filter[field]));
    if (found !== undefined) return found === null ? [] : [found];
  }
  return undefined;
}

export function planQuery(collection: Collection, filter: Document, sort: SortKey[], hint?: unknown): Plan {
  const { fields, residual } = extractPredicates(filter);
  const hinted = resolveHint(collection, hint);
  let best: Candidate | undefined;
  for (const index of hinted ? [hinted] : collection.indexes.values()) {
    if (!hinted && !index.complete) continue;
    const candidate = evaluate(index, fields, sort);
    if (
      !best ||
      candidate.score > best.score ||
      (candidate.score === best.score && candidate.index.fields.length < best.index.fields.length)
    )
      best = candidate;
  }
  if (!best || (best.score === 0 && !hinted))
    return { ranges: [], exact: false, decides: false, sorted: sort.length === 0, reverse: false };
  const covered = !residual && best.index.complete && [...fields.keys()].every((field) => best!.usedFields.has(field));
  // On a multikey index a range could join two different elements, and two fields two different elements.
  const decides =
    covered &&
    (!best.index.multikey ||
      (best.index.fields.length === 1 && [...fields.values()].every((predicate) => predicate.points !== undefined)));
  const exact = decides && !best.index.multikey;
  const ranges = rankRanges(best, fields);
  return { index: best.index, ranges, exact, decides, sorted: best.sorted, reverse: best.reverse };
}

/** Turns the chosen predicates into rank ranges of the index tree, in tree order. */
function rankRanges(candidate: Candidate, fields: Map<string, FieldPredicate>): RankRange[] {
  const { index, eqFields, range } = candidate;
  let prefixes: unknown[][] = [[]];
  for (let i = 0; i < eqFields; i++) {
    const points = fields.get(index.fields[i])!.points!;
    const ordered = index.directions[i] === 1 ? points : [...points].reverse();
    prefixes = prefixes.flatMap((prefix) => ordered.map((point) => [...prefix, point]));
  }
  const direction = index.directions[eqFields];
  return prefixes.map((prefix) => {
    if (!range) {
      const start = index.lowerBound(prefix);
      // A full key of a unique index matches at most one entry: one probe instead of two.
      if (index.unique && eqFields === index.fields.length) {
        const first = index.tree.at(start);
        return { start, end: first && index.compareKey(first.k, prefix) === 0 ? start + 1 : start };
      }
      return { start, end: index.upperBound(prefix) };
    }
    const [first, last] = direction === 1 ? [range.lower!, range.upper!] : [range.upper!, range.lower!];
    // The bound is the next key field after the equality prefix.
    const firstKey = [...prefix, first.value];
    const lastKey = [...prefix, last.value];
    const start = first.inclusive ? index.lowerBound(firstKey) : index.upperBound(firstKey);
    const end = last.inclusive ? index.upperBound(lastKey) : index.lowerBound(lastKey);
    return { start, end: Math.max(start, end) };
  });
}
