// A matcher for the common shape of filter, without mingo: fields (dotted paths through sub-documents) compared
// with scalars by equality, $eq, $ne, $in, $nin, $all, the four range operators, $regex and $elemMatch over
// ranges, joined by $and, $or and $nor. mingo compiles and walks a generic query tree for each document, about
// 20 µs for a search index entry with a hundred words; this is about a microsecond. Anything else (null, $exists,
// sub-documents as values, BSON number wrappers in the document, a path through an array) is mingo's: the matcher
// is built only for filters it covers exactly, and answers `undefined` for a document holding a value it does not
// compare, which then goes to mingo too.
import type { Document } from "bson";
import { compareValues } from "../bson-order.js";
import { isDocument } from "../bson-values.js";

type Scalar = string | number | boolean | Date;
/** true or false; undefined: not this matcher's to decide. */
type Verdict = boolean | undefined;
type Test = (doc: Document) => Verdict;

const RANGE = new Set(["$gt", "$gte", "$lt", "$lte"]);

function isScalar(value: unknown): value is Scalar {
  if (typeof value === "number") return !Number.isNaN(value);
  return typeof value === "string" || typeof value === "boolean" || value instanceof Date;
}

/** Whether a stored value is one this matcher compares as MongoDB does (else: mingo). */
function comparable(value: unknown): boolean {
  return isScalar(value) || value === undefined;
}

function same(a: Scalar, b: unknown): boolean {
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  return a === b;
}

/** MongoDB's range comparison within one type bracket (numbers, strings, dates); other types never match. */
function inRange(op: string, bound: Scalar, value: unknown): boolean {
  const bracketed =
    (typeof bound === "number" && typeof value === "number") ||
    (typeof bound === "string" && typeof value === "string") ||
    (bound instanceof Date && value instanceof Date);
  if (!bracketed) return false;
  // The engine's own order (strings by UTF-8 bytes, as MongoDB's simple collation).
  const order = compareValues(value, bound);
  switch (op) {
    case "$gt":
      return order > 0;
    case "$gte":
      return order >= 0;
    case "$lt":
      return order < 0;
    default:
      return order <= 0;
  }
}

/** Stands for a value behind an array on the way down a dotted path: mingo's to read. */
const UNREADABLE = Symbol("unreadable");

/** The value at a path through sub-documents, or UNREADABLE when an array is met before its end. */
function valueAt(doc: Document, path: readonly string[]): unknown {
  let current: unknown = doc;
  for (const segment of path) {
    if (Array.isArray(current)) return UNREADABLE;
    if (!isDocument(current)) return undefined;
    current = Object.hasOwn(current, segment) ? current[segment] : undefined;
  }
  return current;
}

/** The values a condition on `path` compares: the value, or each element of an array (undefined: mingo's). */
function candidates(doc: Document, path: readonly string[]): unknown[] | undefined {
  const value = valueAt(doc, path);
  if (Array.isArray(value)) return value.every(comparable) ? value : undefined;
  return comparable(value) ? (value === undefined ? [] : [value]) : undefined;
}

/** A `$regex` (with `$options` of flags JavaScript shares with MongoDB) as a test of values. */
function regexTest(pattern: unknown, options: unknown): ((values: unknown[]) => boolean) | undefined {
  if (typeof pattern !== "string" || (options !== undefined && (typeof options !== "string" || /[^ims]/.test(options))))
    return undefined;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, options ?? "");
  } catch {
    return undefined; // mingo reports it
  }
  return (values) => values.some((value) => typeof value === "string" && regex.test(value));
}

function fieldTest(field: string, condition: unknown): Test | undefined {
  const path = field.split(".");
  if (path.some((segment) => segment === "" || segment.startsWith("$"))) return undefined;
  if (isScalar(condition)) {
    return (doc) => candidates(doc, path)?.some((value) => same(condition, value));
  }
  if (!isDocument(condition)) return undefined;
  const tests: Array<(values: unknown[]) => boolean> = [];
  /** $all on a field that is not an array is left to mingo (MongoDB reads it as equality; mingo does not). */
  let arraysOnly = false;
  for (const [op, operand] of Object.entries(condition)) {
    if (op === "$eq" && isScalar(operand)) tests.push((values) => values.some((value) => same(operand, value)));
    else if (op === "$ne" && isScalar(operand)) tests.push((values) => !values.some((value) => same(operand, value)));
    else if (op === "$in" && Array.isArray(operand) && operand.every(isScalar))
      tests.push((values) => values.some((value) => operand.some((one) => same(one, value))));
    else if (op === "$nin" && Array.isArray(operand) && operand.every(isScalar))
      tests.push((values) => !values.some((value) => operand.some((one) => same(one, value))));
    else if (op === "$regex") {
      const test = regexTest(operand, condition.$options);
      if (test === undefined) return undefined;
      tests.push(test);
    } else if (op === "$options" && Object.hasOwn(condition, "$regex")) continue;
    else if (op === "$all" && Array.isArray(operand) && operand.length > 0 && operand.every(isScalar)) {
      arraysOnly = true;
      tests.push((values) => operand.every((one) => values.some((value) => same(one, value))));
    } else if (RANGE.has(op) && isScalar(operand) && typeof operand !== "boolean")
      // Each bound may be met by a different element of an array, as MongoDB's ranges on arrays are.
      tests.push((values) => values.some((value) => inRange(op, operand, value)));
    else if (op === "$elemMatch" && isDocument(operand)) {
      const bounds = Object.entries(operand);
      if (bounds.length === 0 || !bounds.every(([inner, bound]) => RANGE.has(inner) && isScalar(bound)))
        return undefined;
      const elementMatches = (value: unknown) =>
        bounds.every(([inner, bound]) => inRange(inner, bound as Scalar, value));
      const wholeValue = (doc: Document): Verdict => {
        const value = valueAt(doc, path);
        if (!Array.isArray(value)) return comparable(value) ? false : undefined;
        return value.every(comparable) ? value.some(elementMatches) : undefined;
      };
      return Object.keys(condition).length === 1 ? wholeValue : undefined;
    } else return undefined;
  }
  if (tests.length === 0) return undefined;
  return (doc) => {
    if (arraysOnly && !Array.isArray(valueAt(doc, path))) return undefined;
    const values = candidates(doc, path);
    return values === undefined ? undefined : tests.every((test) => test(values));
  };
}

/** All of `tests` hold (undefined when none fails but one could not tell). */
function all(tests: readonly Test[], doc: Document): Verdict {
  let verdict: Verdict = true;
  for (const test of tests) {
    const one = test(doc);
    if (one === false) return false;
    if (one === undefined) verdict = undefined;
  }
  return verdict;
}

/** `$or` (or, negated, `$nor`) of simple filters, as one test; undefined when a branch is not simple. */
function anyOf(branches: unknown, depth: number, negated: boolean): Test | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const parts: Test[][] = [];
  for (const branch of branches) {
    const tests: Test[] = [];
    if (!isDocument(branch) || !documentTests(branch, tests, depth + 1) || tests.length === 0) return undefined;
    parts.push(tests);
  }
  return (doc) => {
    let verdict: Verdict = false;
    for (const tests of parts) {
      const one = all(tests, doc);
      if (one === true) return !negated;
      if (one === undefined) verdict = undefined;
    }
    return verdict === undefined ? undefined : negated;
  };
}

function documentTests(filter: Document, out: Test[], depth: number): boolean {
  if (depth > 20) return false;
  for (const [key, condition] of Object.entries(filter)) {
    if (key === "$and") {
      if (!Array.isArray(condition) || condition.length === 0) return false;
      for (const part of condition) if (!isDocument(part) || !documentTests(part, out, depth + 1)) return false;
      continue;
    }
    if (key === "$or" || key === "$nor") {
      const test = anyOf(condition, depth, key === "$nor");
      if (test === undefined) return false;
      out.push(test);
      continue;
    }
    if (key.startsWith("$") || key === "") return false;
    const test = fieldTest(key, condition);
    if (test === undefined) return false;
    out.push(test);
  }
  return true;
}

/**
 * A matcher for `filter` when it is of the simple shape: true or false per document, or undefined when that
 * document holds a value only mingo compares. Undefined when the filter is not simple.
 */
export function simpleMatcher(filter: Document): ((doc: Document) => Verdict) | undefined {
  const tests: Test[] = [];
  if (!documentTests(filter, tests, 0) || tests.length === 0) return undefined;
  return (doc) => all(tests, doc);
}
