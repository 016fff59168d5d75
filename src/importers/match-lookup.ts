// The stored records that a batch of pending records match (PendingRecord.match), found in a
// few queries instead of one per record: a 5,000-row CSV names 5,000 accessions and hundreds of
// agents and subjects, and a query per record cost a round trip each (agents' sort names and
// subjects' first terms are indexed, x-indexes, so these lookups do not scan).
//
// Each record's filter gives the same answer as `find(filter).limit(1)` did:
// - Filters with the same fields, null in the same fields, are looked up together, a chunk at a
//   time, by one query that asks each field for any of the chunk's values (`{f: {$in: [...]}}`, or
//   `{f: null}` for the null fields, as each filter asks). Every record a filter matches matches
//   that query; beyond those, it finds only records that mix one filter's value of a field with
//   another's of another field. A top-level `$in` rather than an `$or` of the filters: the
//   embedded engine's planner uses an index for `$in` (the accession identifier's, say) but
//   scans the collection for `$or`.
// - Which of those records each filter matches is decided by the filter itself, tested with
//   mingo, the embedded engine's own matcher: null matches an absent field, a dotted path reaches
//   into arrays (`names.sort_name`, `terms.0.term`), exactly as the engine answered the filter.
// - When several stored records match one filter, the one with the lowest id is taken: the first
//   the old query found, both in an index of the filter's fields ending in id (ties in id order)
//   and in a collection scan (the engine's natural order is insertion order, which is id order
//   unless two processes' inserts interleaved).
//
// Records of one batch are looked up before any of them is written, as before: two records of a
// batch that would match each other are both created.
import type { Collection } from "mongoose";
import { Query } from "mingo";
import type { StoredRecord } from "../storage/record-store.js";

export type MatchValue = string | number | boolean | null;
/** A record's whole filter: its match, with `repo_id` for a repository-scoped type. */
export type MatchFilter = Readonly<Record<string, MatchValue>>;

/** A stored record a filter matched. */
export interface MatchedRecord {
  id: number;
  repo_id?: number;
}

/**
 * Filters per query at most: the query stays small, and a compound index plan of `$in`s on two
 * fields probes at most this squared (the engine's planner probes every combination of values).
 */
export const FILTERS_PER_QUERY = 100;

/** The values a dotted path may reach in a document, arrays entered both as lists and by position: a superset. */
function reachable(value: unknown, segments: readonly string[], out: Set<unknown>): void {
  if (Array.isArray(value)) {
    for (const element of value) reachable(element, segments, out);
    const [first, ...rest] = segments;
    if (first !== undefined && /^\d+$/.test(first)) reachable(value[Number(first)], rest, out);
    if (segments.length === 0) out.add(value);
    return;
  }
  if (segments.length === 0) {
    out.add(value);
    return;
  }
  if (value !== null && typeof value === "object") {
    const [first, ...rest] = segments;
    const holder = value as Record<string, unknown>;
    if (Object.hasOwn(holder, first as string)) reachable(holder[first as string], rest, out);
  }
}

const matched = (record: StoredRecord): MatchedRecord =>
  record.repo_id === undefined ? { id: record.id } : { id: record.id, repo_id: record.repo_id };

/** Same fields, null in the same fields: the filters one query can look up. */
function shapeOf(filter: MatchFilter): string {
  return JSON.stringify(
    Object.keys(filter)
      .sort()
      .map((field) => [field, filter[field] === null]),
  );
}

/** One filter of a batch, with its place in the batch. */
interface Wanted {
  index: number;
  filter: MatchFilter;
}

/** Looks up one chunk of filters of one shape; sets `found[index]` for each filter that matches. */
async function lookUpChunk(
  collection: Collection<StoredRecord>,
  chunk: readonly Wanted[],
  found: Array<MatchedRecord | undefined>,
): Promise<void> {
  const sample = (chunk[0] as Wanted).filter;
  const fields = Object.keys(sample);
  if (fields.length === 0) {
    // An empty filter matches any record (never one a parser makes): the first, without reading them all.
    const [first] = await collection
      .find({}, { projection: { id: 1, repo_id: 1 } })
      .sort({ id: 1 })
      .limit(1)
      .toArray();
    for (const { index } of chunk) found[index] = first && matched(first);
    return;
  }
  const valuesOf = (field: string) => [...new Set(chunk.map(({ filter }) => filter[field] as MatchValue))];
  const query = Object.fromEntries(
    fields.map((field) => {
      const values = valuesOf(field);
      return [field, values.length === 1 ? values[0] : { $in: values }];
    }),
  );
  // The filters by their value of the field with the most distinct values, so that each record
  // found is tested only against the filters it may match (every field null: each filter is the same).
  let pivot: { field: string; count: number } | undefined;
  for (const field of fields) {
    const count = valuesOf(field).length;
    if (sample[field] !== null && (pivot === undefined || count > pivot.count)) pivot = { field, count };
  }
  const byPivot = new Map<unknown, Wanted[]>();
  if (pivot !== undefined)
    for (const wanted of chunk) {
      const value = wanted.filter[pivot.field];
      const list = byPivot.get(value);
      if (list === undefined) byPivot.set(value, [wanted]);
      else list.push(wanted);
    }
  const tests = new Map<Wanted, Query>();
  const projection = Object.fromEntries(
    [...new Set(["id", "repo_id", ...fields.map((field) => field.split(".")[0] as string)])].map((field) => [field, 1]),
  );
  for await (const record of collection.find(query, { projection })) {
    let candidates: Iterable<Wanted> = chunk;
    if (pivot !== undefined) {
      const values = new Set<unknown>();
      reachable(record, pivot.field.split("."), values);
      candidates = [...values].flatMap((value) => byPivot.get(value) ?? []);
    }
    for (const wanted of candidates) {
      const best = found[wanted.index];
      if (best !== undefined && best.id <= record.id) continue;
      let test = tests.get(wanted);
      // Compiled only for a filter a record may match: most filters of a first import match none.
      if (test === undefined) tests.set(wanted, (test = new Query(wanted.filter, {})));
      if (test.test(record)) found[wanted.index] = matched(record);
    }
  }
}

/**
 * For each filter, the stored record it matches (the one with the lowest id when several do), or undefined when none
 * does or the filter is undefined (a record that never matches).
 */
export async function findMatches(
  collection: Collection<StoredRecord>,
  filters: ReadonlyArray<MatchFilter | undefined>,
): Promise<Array<MatchedRecord | undefined>> {
  const found: Array<MatchedRecord | undefined> = filters.map(() => undefined);
  const shapes = new Map<string, Wanted[]>();
  filters.forEach((filter, index) => {
    if (filter === undefined) return;
    const shape = shapeOf(filter);
    const list = shapes.get(shape);
    if (list === undefined) shapes.set(shape, [{ index, filter }]);
    else list.push({ index, filter });
  });
  for (const wanted of shapes.values())
    for (let start = 0; start < wanted.length; start += FILTERS_PER_QUERY)
      await lookUpChunk(collection, wanted.slice(start, start + FILTERS_PER_QUERY), found);
  return found;
}
