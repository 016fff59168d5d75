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
  /** The ranges contain exactly the matching documents, a multikey index's possibly more than once. */
  decides: boolean;
  /** What documents of the ranges must be checked against (undefined: nothing, `decides`). */
  residual?: Document;
  /**
   * Further points on the index's array field (an AND of words): each one's ranges, within the same bounds on the
   * other fields. A document matches those conditions when it has an entry in each: read from the index, not by
   * searching the document's array (see alsoIn).
   */
  alsoIn?: RankRange[][];
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

/** One top-level condition of a filter (within top-level $ands): a field's, or an operator's such as $or. */
interface Condition {
  key: string;
  condition: unknown;
}

/** Top-level field predicates, the filter's top-level conditions, and which condition each predicate was read from. */
function extractPredicates(filter: Document): {
  fields: Map<string, FieldPredicate>;
  conditions: Condition[];
  sources: Map<string, Condition>;
} {
  const fields = new Map<string, FieldPredicate>();
  const conditions: Condition[] = [];
  const sources = new Map<string, Condition>();
  const visit = (part: Document) => {
    for (const [field, condition] of Object.entries(part)) {
      if (field === "$and" && Array.isArray(condition)) {
        for (const inner of condition) visit(inner as Document);
        continue;
      }
      const one = { key: field, condition };
      conditions.push(one);
      // An operator's condition, or a second one on a field, is re-checked against the documents.
      if (field.startsWith("$") || fields.has(field)) continue;
      const predicate = fieldPredicate(condition);
      if (predicate.points || predicate.lower) {
        fields.set(field, predicate);
        sources.set(field, one);
      }
    }
  };
  visit(filter);
  return { fields, conditions, sources };
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
    if (predicate?.lower && (!index.multikeyFields[index.fields.indexOf(field)] || predicate.elementRange === true)) {
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

export function rangeTotal(ranges: readonly RankRange[]): number {
  return ranges.reduce((sum, range) => sum + (range.end - range.start), 0);
}

/**
 * The candidate to use, with its ranges: the best scored; among several usable ones without a sort to serve, the one
 * whose ranges hold the fewest entries (counted by rank, O(log n) a range), so a rare key is walked rather than a
 * common one.
 */
function choose(
  candidates: Candidate[],
  fields: Map<string, FieldPredicate>,
  sort: SortKey[],
): { best: Candidate; ranges: RankRange[] } | undefined {
  const ranges = new Map<Candidate, RankRange[]>();
  const usable = candidates.filter((candidate) => candidate.score > 0);
  if (usable.length > 1) for (const candidate of usable) ranges.set(candidate, rankRanges(candidate, fields));
  const size = (c: Candidate) => (ranges.has(c) ? rangeTotal(ranges.get(c)!) : Infinity);
  let best: Candidate | undefined;
  for (const candidate of candidates) {
    const better =
      best === undefined ||
      (sort.length === 0 && ranges.has(candidate) && ranges.has(best)
        ? size(candidate) < size(best) || (size(candidate) === size(best) && candidate.score > best.score)
        : candidate.score > best.score ||
          (candidate.score === best.score &&
            (size(candidate) < size(best) ||
              (size(candidate) === size(best) && candidate.index.fields.length < best.index.fields.length))));
    if (better) best = candidate;
  }
  return best && { best, ranges: ranges.get(best) ?? rankRanges(best, fields) };
}

/** The conditions the chosen index's ranges decide: no document needs re-checking against them. */
function decidedConditions(
  candidate: Candidate,
  fields: Map<string, FieldPredicate>,
  sources: Map<string, Condition>,
): Set<Condition> {
  const decided = new Set<Condition>();
  // What a sparse index leaves out misses its fields, and no predicate of `fields` matches a missing field.
  if (!candidate.index.complete && !candidate.index.sparseOnly) return decided;
  candidate.index.fields.forEach((field, i) => {
    const predicate = fields.get(field);
    const source = sources.get(field);
    if (!candidate.usedFields.has(field) || predicate === undefined || source === undefined || !predicate.exact) return;
    // On an array field an entry is one element: it decides equality with a point, not a range (two bounds may
    // be met by two elements).
    if (candidate.index.multikeyFields[i] && predicate.points === undefined) return;
    decided.add(source);
  });
  return decided;
}

/**
 * Whether each matching document is in the ranges once: every field that has held an array is pinned to one
 * point (a document has one entry per element).
 */
function onceEach(candidate: Candidate, fields: Map<string, FieldPredicate>): boolean {
  return candidate.index.fields.every(
    (field, i) =>
      !candidate.index.multikeyFields[i] ||
      (candidate.usedFields.has(field) && fields.get(field)?.points?.length === 1),
  );
}

/** The most entries read into sets to intersect (past it, the conditions are checked on each document). */
export const MAX_INTERSECTED = 200_000;
/**
 * Entries read into a set per candidate walked, at most: reading an entry costs about a tenth of searching a
 * candidate's hundred-element array for a word (about 0.4 µs against 3 µs, from the search bench's store counts at
 * 100,000 entries; at 50 an AND of common words cost 21 ms to count where checking each candidate cost 15).
 */
const INTERSECT_PER_CANDIDATE = 10;

/**
 * An AND of points on the chosen index's leading array field (`{$and: [{words: a}, {words: b}]}`), the index walked
 * for one of them: the others' ranges, under the same points on the index's other fields, which must have held
 * no array (each document then has one entry per element, under its own values of those fields). Their
 * conditions are added to `decided`. Undefined when there are none, or their entries are too many to read: reading
 * a common word's entries in order costs less than searching each candidate's hundred words for it.
 */
function intersections(
  candidate: Candidate,
  walked: readonly RankRange[],
  fields: Map<string, FieldPredicate>,
  conditions: readonly Condition[],
  decided: Set<Condition>,
): RankRange[][] | undefined {
  const { index } = candidate;
  const [field] = index.fields;
  // The index walked on points of its array field (not a range of it), so that each other point's ranges, built
  // alike, hold an entry of every walked document that has that element.
  if (field === undefined || !index.complete || !index.multikeyFields[0] || candidate.eqFields === 0) return;
  if (index.multikeyFields.some((isArray, i) => isArray && i > 0)) return;
  const found: Array<{ condition: Condition; ranges: RankRange[][] }> = [];
  let entries = 0;
  for (const one of conditions) {
    const points = one.key === field && !decided.has(one) ? everyPoint(one.condition) : undefined;
    if (points === undefined) continue;
    const ranges = points.map((point) => rankRanges(candidate, new Map([...fields, [field, pointAt(point)]])));
    entries += ranges.reduce((sum, one) => sum + rangeTotal(one), 0);
    if (entries > Math.min(MAX_INTERSECTED, INTERSECT_PER_CANDIDATE * rangeTotal(walked))) return undefined;
    found.push({ condition: one, ranges });
  }
  if (found.length === 0) return undefined;
  for (const { condition } of found) decided.add(condition);
  return found.flatMap(({ ranges }) => ranges);
}

function pointAt(value: unknown): FieldPredicate {
  return { points: [value], exact: true };
}

/** The points a condition requires all of: `v`, `{$eq: v}` or `{$all: [v, ...]}`; undefined for any other. */
function everyPoint(condition: unknown): unknown[] | undefined {
  if (isOperatorDocument(condition)) {
    const [only, ...others] = Object.entries(condition);
    if (only === undefined || others.length > 0) return undefined;
    const [op, value] = only;
    if (op === "$eq") return isPointValue(value) ? [value] : undefined;
    if (op !== "$all" || !Array.isArray(value) || value.length === 0) return undefined;
    return value.every(isPointValue) ? value : undefined;
  }
  return isPointValue(condition) ? [condition] : undefined;
}

export function planQuery(collection: Collection, filter: Document, sort: SortKey[], hint?: unknown): Plan {
  const { fields, conditions, sources } = extractPredicates(filter);
  const hinted = resolveHint(collection, hint);
  // `fields` holds only predicates that a document missing the field cannot meet (points and ranges of a type): a
  // sparse index serves one on its leading field.
  const indexes = hinted
    ? [hinted]
    : [...collection.indexes.values()].filter(
        (index) => index.complete || (index.sparseOnly && fields.has(index.fields[0]!)),
      );
  const chosen = choose(
    indexes.map((index) => evaluate(index, fields, sort)),
    fields,
    sort,
  );
  if (!chosen || (chosen.best.score === 0 && !hinted))
    return { ranges: [], exact: false, decides: false, residual: filter, sorted: sort.length === 0, reverse: false };
  const { best, ranges } = chosen;
  const decided = decidedConditions(best, fields, sources);
  const alsoIn = intersections(best, ranges, fields, conditions, decided);
  // $comment says nothing of which documents match.
  const kept = conditions.filter((one) => !decided.has(one) && one.key !== "$comment");
  const residual =
    kept.length === 0
      ? undefined
      : kept.length === 1
        ? { [kept[0]!.key]: kept[0]!.condition }
        : { $and: kept.map((one) => ({ [one.key]: one.condition })) };
  const decides = residual === undefined;
  const exact = decides && alsoIn === undefined && onceEach(best, fields);
  return {
    index: best.index,
    ranges,
    exact,
    decides,
    residual,
    ...(alsoIn && { alsoIn }),
    sorted: best.sorted,
    reverse: best.reverse,
  };
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
