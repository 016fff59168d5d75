// Sort specifications compared with MongoDB's BSON order. An array field sorts by its
// smallest element ascending and its largest descending, as in MongoDB.
import type { Document } from "bson";
import { badValue } from "../errors.js";
import { compareValues } from "../store/bson-order.js";
import { pathValues } from "../store/index-keys.js";

export interface SortKey {
  path: string[];
  field: string;
  direction: 1 | -1;
}

export function parseSort(spec: unknown): SortKey[] {
  if (spec === undefined || spec === null) return [];
  if (typeof spec !== "object" || Array.isArray(spec)) throw badValue("sort must be an object");
  return Object.entries(spec as Document).map(([field, value]) => {
    if (value !== 1 && value !== -1) {
      if (value && typeof value === "object" && "$meta" in value) throw badValue("$meta sort is not supported by the embedded engine");
      throw badValue(`Illegal key in $sort specification: ${field}: ${JSON.stringify(value)}`);
    }
    return { field, path: field.split("."), direction: value };
  });
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

export function sortComparator(keys: SortKey[]): (a: Document, b: Document) => number {
  return (a, b) => {
    for (const key of keys) {
      const c = compareValues(sortValue(a, key), sortValue(b, key));
      if (c !== 0) return c * key.direction;
    }
    return 0;
  };
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
