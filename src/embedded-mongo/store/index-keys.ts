// Index keys of a document, with MongoDB's multikey rules: arrays met along a path fan out
// into one key per element, a missing field indexes as null, and at most one field of a
// compound key may be an array ("parallel arrays" cannot be indexed).
import type { Document } from "bson";
import { isDocument } from "../bson-values.js";
import { CommandError, ErrorCodes } from "../errors.js";
import { compareValues } from "../bson-order.js";
import { pathValues, type PathState } from "../query/path-values.js";

export interface ExtractedKeys {
  keys: unknown[][];
  /** true when an array was traversed for any field, which makes bounds inexact. */
  multikey: boolean;
  /** Per field of the key: whether an array was traversed for it (MongoDB's multikey paths). */
  arrayFields: boolean[];
  /**
   * Per field: whether its keys are not one per element of an array at the path's end: an array met before it, an
   * element null, or a value held twice (keys are distinct) (store/value-counts.ts counts only fields never so).
   */
  unlikeUnwind: boolean[];
}

function dedupe(values: unknown[]): unknown[] {
  if (values.length < 2) return values;
  const sorted = [...values].sort(compareValues);
  return sorted.filter((value, i) => i === 0 || compareValues(sorted[i - 1], value) !== 0);
}

export function extractKeys(doc: Document, paths: string[][]): ExtractedKeys {
  const arrayFields = paths.map(() => false);
  const unlikeUnwind = paths.map(() => false);
  const perField = paths.map((path, i) => {
    const state: PathState = { arrays: false };
    const reached = pathValues(doc, path, state);
    const values = dedupe(reached);
    arrayFields[i] = state.arrays;
    unlikeUnwind[i] = state.unusualArrays === true || values.length !== reached.length;
    return values;
  });
  const multikey = arrayFields.includes(true);
  const multiFields = perField.filter((values) => values.length > 1);
  // Every field one value (a path reaches at least one, null when missing): the one key, without the general
  // product below (which copies the key once per field); every write of every indexed document comes here.
  if (multiFields.length === 0)
    return { keys: [perField.map((values) => values[0])], multikey, arrayFields, unlikeUnwind };
  if (multiFields.length > 1) {
    throw new CommandError(
      ErrorCodes.CannotIndexParallelArrays,
      `cannot index parallel arrays [${paths.map((p) => p.join(".")).join("] [")}]`,
    );
  }
  // One key per value of the one array field, each the exact size of the key: an index holds one per value of
  // every indexed document (a search entry's words: a hundred), and a spread copy reserves room it never uses.
  const spread = multiFields[0]!;
  const at = perField.indexOf(spread);
  const keys = spread.map((value) => perField.map((values, i) => (i === at ? value : values[0])));
  return { keys, multikey, arrayFields, unlikeUnwind };
}

/** True when the document has no value at any of the paths (sparse indexes skip it). */
export function missingAll(doc: Document, paths: string[][]): boolean {
  return paths.every((path) => {
    const state = { arrays: false };
    return pathValues(doc, path, state).every((value) => value === null) && !hasPath(doc, path);
  });
}

function hasPath(doc: unknown, path: string[]): boolean {
  let current: unknown = doc;
  for (const segment of path) {
    if (Array.isArray(current)) return current.some((element) => hasPath(element, [segment]));
    if (!isDocument(current) || !Object.hasOwn(current, segment)) return false;
    current = current[segment];
  }
  return current !== undefined;
}
