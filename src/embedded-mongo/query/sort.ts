// Sort specifications compared with MongoDB's BSON order. An array field sorts by its
// smallest element ascending and its largest descending, as in MongoDB.
import type { Document } from "bson";
import { CommandError, ErrorCodes, typeMismatch } from "../errors.js";
import { compareValues } from "../bson-order.js";
import { pathValues } from "./path-values.js";
import { bsonTypeName, describe, firstKey, isDocument, isNumeric, numericValue } from "../bson-values.js";
import { notSupported } from "./expression-validation.js";

export interface SortKey {
  path: string[];
  field: string;
  direction: 1 | -1;
}

/** MongoDB's location codes for a malformed sort key (sort_pattern.cpp). */
const SortErrors = {
  NotOneOrMinusOne: 15975,
  NotANumber: 15974,
  NotMeta: 17312,
  IllegalMeta: 31138,
} as const;

const META_SORTS = new Set(["textScore", "randVal", "geoNearDistance", "searchScore", "vectorSearchScore", "score"]);

/** {field: {$meta: ...}}: valid for MongoDB, but every meta score needs a feature the engine lacks. */
function refuseMetaSort(spec: Document): never {
  if (firstKey(spec) !== "$meta")
    throw new CommandError(SortErrors.NotMeta, "$meta is the only expression supported by $sort right now");
  if (Object.keys(spec).length !== 1)
    throw new CommandError(ErrorCodes.FailedToParse, "Cannot have additional keys in a $meta sort specification");
  if (typeof spec.$meta !== "string" || !META_SORTS.has(spec.$meta))
    throw new CommandError(SortErrors.IllegalMeta, `Illegal $meta sort: $meta: ${describe(spec.$meta)}`);
  throw notSupported("$meta sort");
}

function parseDirection(field: string, value: unknown): 1 | -1 {
  if (isDocument(value)) refuseMetaSort(value);
  if (!isNumeric(value))
    throw new CommandError(SortErrors.NotANumber, `Illegal key in $sort specification: ${field}: ${describe(value)}`);
  // MongoDB truncates the number to an integer first (safeNumberLong), so 1.5 sorts ascending.
  const direction = Math.trunc(numericValue(value));
  if (direction !== 1 && direction !== -1)
    throw new CommandError(
      SortErrors.NotOneOrMinusOne,
      "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
    );
  return direction;
}

/** A sort specification as the find, findAndModify, update and $sort parsers read it. */
export function parseSort(spec: unknown): SortKey[] {
  if (spec === undefined || spec === null) return [];
  if (!isDocument(spec))
    throw typeMismatch(`BSON field 'sort' is the wrong type '${bsonTypeName(spec)}', expected type 'object'`);
  return Object.entries(spec).map(([field, value]) => ({
    field,
    path: field.split("."),
    direction: parseDirection(field, value),
  }));
}

function sortValue(doc: Document, key: SortKey): unknown {
  const state = { arrays: false };
  const values = pathValues(doc, key.path, state);
  if (values.length === 1) return values[0];
  let best = values[0];
  for (const value of values) {
    const c = compareValues(value, best);
    if ((key.direction === 1 && c < 0) || (key.direction === -1 && c > 0)) best = value;
  }
  return best;
}

/** Sorts items by documents' sort keys, computing each key once (decorate, sort, undecorate). */
export function sortRecords<T>(items: T[], docOf: (item: T) => Document, keys: SortKey[]): T[] {
  const decorated = items.map((item) => {
    const doc = docOf(item);
    return { item, values: keys.map((key) => sortValue(doc, key)) };
  });
  decorated.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareValues(a.values[i], b.values[i]);
      if (c !== 0) return c * keys[i].direction;
    }
    return 0;
  });
  return decorated.map((d) => d.item);
}
