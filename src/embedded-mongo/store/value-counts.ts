// How many of some records hold each value of a path, read from an index on that path instead of from the records:
// what `{$unwind: "$p"}, {$group: {_id: "$p", n: {$sum: 1}}}` (or the $group alone) over them gives. A facet over a
// search's matches read each matched record (a few scattered objects each, about 1.5 us a record and path at 100,000
// entries); an index holds each distinct value once with its records' ids in one array, so marking the matches and
// reading those arrays costs a pass over the index's ids, in order: cheaper once the matches are more than a small
// share of what the index holds.
import { isGroupKey, type GroupKey } from "../query/group-count.js";
import type { Collection } from "./collection.js";
import type { SecondaryIndex } from "./secondary-index.js";

/**
 * Matches per index entry from which reading the index beats reading each match: a match read costs about 1.5 us a
 * path at 100,000 entries (scattered objects), an id of the index a few ns (arrays read in order).
 */
const MATCHES_PER_ENTRY = 1 / 256;

/**
 * An index whose entries are the (record, value) pairs of `path` the grouping counts: on that one field, without a
 * partial filter (a sparse one leaves out only records without the field, which count nothing when unwound and are
 * the rest when not); when unwinding, never keyed other than one key per element at the path's end; when not, never
 * an array there (the group key would be the whole array).
 */
function countingIndex(collection: Collection, path: string, unwind: boolean): SecondaryIndex | undefined {
  if (path.split(".").some((segment) => /^\d+$/.test(segment))) return undefined;
  for (const index of collection.indexes.values()) {
    if (index.fields.length !== 1 || index.fields[0] !== path || index.spec.partialFilterExpression !== undefined)
      continue;
    if (unwind ? index.unwindsAsKeyed[0] : !index.multikeyFields[0]) return index;
  }
  return undefined;
}

/**
 * The count of each value of `path` over the records `rids` (distinct), as the grouping would give it, or undefined
 * when no index tells it exactly, when reading the records is cheaper, or when a value is one the caller must group
 * itself (not a string, number, boolean or null).
 */
export function countValues(
  collection: Collection,
  path: string,
  rids: readonly number[],
  unwind: boolean,
): Map<GroupKey, number> | undefined {
  const index = countingIndex(collection, path, unwind);
  if (index === undefined || rids.length < index.tree.size * MATCHES_PER_ENTRY) return undefined;
  let top = 0;
  for (const rid of rids) if (rid > top) top = rid;
  const marked = new Uint8Array(top + 1);
  for (const rid of rids) marked[rid] = 1;
  const counts = new Map<GroupKey, number>();
  let keyed = 0;
  for (const { k, rids: holders } of index.tree.postings()) {
    const value = k[0];
    // Null holds the records with null, an empty array or (not sparse) nothing there: none unwinds to a value, and
    // without unwinding each counts as null, which is what is left once every other value is counted.
    if (value === null) continue;
    let n = 0;
    for (const rid of holders) if (rid <= top) n += marked[rid]!;
    if (n === 0) continue;
    if (!isGroupKey(value)) return undefined;
    counts.set(value, n);
    keyed += n;
  }
  if (!unwind && keyed < rids.length) counts.set(null, rids.length - keyed);
  return counts;
}
