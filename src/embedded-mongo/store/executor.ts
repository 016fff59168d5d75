// Runs a plan: which records match a filter, in sort order, after skip and limit. Exact
// index plans skip and count by rank; other index plans fetch and re-check candidates;
// without a usable index the collection is scanned.
import type { Document } from "bson";
import { checkFilter, compileFilter } from "../query/filter.js";
import { sortRecords, type SortKey } from "../query/sort.js";
import type { Collection } from "./collection.js";
import { planQuery, rangeTotal, uniqueKeyLookup, type Plan, type RankRange } from "./planner.js";

export interface ReadRequest {
  filter: Document;
  sort: SortKey[];
  skip: number;
  /** 0 means no limit. */
  limit: number;
  hint?: unknown;
}

function* entriesOf(plan: Plan): Generator<number> {
  const tree = plan.index!.tree;
  const ranges = plan.reverse ? [...plan.ranges].reverse() : plan.ranges;
  for (const { start, end } of ranges) for (const entry of tree.range(start, end, plan.reverse)) yield entry.r;
}

/** The records with an entry in `ranges` of the plan's index. */
function recordsIn(plan: Plan, ranges: readonly RankRange[]): Set<number> {
  const records = new Set<number>();
  for (const { start, end } of ranges) for (const entry of plan.index!.tree.range(start, end)) records.add(entry.r);
  return records;
}

/** Rank arithmetic over exact ranges: the records at positions [skip, skip+limit). */
function sliceExact(plan: Plan, skip: number, limit: number): number[] {
  const tree = plan.index!.tree;
  const ranges = plan.reverse ? [...plan.ranges].reverse() : plan.ranges;
  const out: number[] = [];
  let toSkip = skip;
  for (const { start, end } of ranges) {
    const size = end - start;
    if (toSkip >= size) {
      toSkip -= size;
      continue;
    }
    const [from, to] = plan.reverse ? [start, end - toSkip] : [start + toSkip, end];
    toSkip = 0;
    const wanted = limit > 0 ? limit - out.length : Infinity;
    const [a, b] = plan.reverse ? [Math.max(from, to - wanted), to] : [from, Math.min(to, from + wanted)];
    tree.pushRids(a, b, plan.reverse, out);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

export function selectRecords(collection: Collection, request: ReadRequest): number[] {
  // An exact plan answers from the index without compiling the filter: validate it anyway.
  checkFilter(request.filter);
  const { skip, limit } = request;
  // A hint names the index to use (and must be checked): only unhinted lookups take the hash.
  const unique = request.hint === undefined ? uniqueKeyLookup(collection, request.filter) : undefined;
  if (unique) return skip > 0 ? [] : unique;
  const plan = planQuery(collection, request.filter, request.sort, request.hint);
  if (plan.index && plan.exact && plan.sorted) return sliceExact(plan, skip, limit);

  // Only what the index bounds do not decide is re-checked, and nothing when they decide it all: no filter to
  // compile (mingo's compiling costs a GET's link lookup more than its index walk), no array of a hundred search
  // words searched again for the word its entry was found under.
  const matches = plan.residual === undefined ? undefined : compileFilter(plan.residual);
  const alsoIn = plan.alsoIn?.map((ranges) => recordsIn(plan, ranges));
  const candidates: Iterable<number> = plan.index ? entriesOf(plan) : collection.docs.keys();
  const seen = plan.index?.multikey && !plan.exact ? new Set<number>() : undefined;
  const out: number[] = [];
  // In sort order already: stop as soon as the page is full.
  const streaming = plan.sorted;
  let skipped = 0;
  for (const rid of candidates) {
    if (seen) {
      if (seen.has(rid)) continue;
      seen.add(rid);
    }
    if (alsoIn !== undefined && !alsoIn.every((records) => records.has(rid))) continue;
    if (matches !== undefined && !matches(collection.docs.get(rid)!)) continue;
    if (streaming && skipped < skip) {
      skipped++;
      continue;
    }
    out.push(rid);
    if (streaming && limit > 0 && out.length >= limit) break;
  }
  if (streaming) return out;
  const ordered = request.sort.length > 0 ? sortRecords(out, (rid) => collection.docs.get(rid)!, request.sort) : out;
  return ordered.slice(skip, limit > 0 ? skip + limit : undefined);
}

export function countRecords(collection: Collection, filter: Document, skip = 0, limit = 0, hint?: unknown): number {
  checkFilter(filter);
  const plan = planQuery(collection, filter, [], hint);
  let total: number;
  if (plan.index && plan.exact) total = rangeTotal(plan.ranges);
  else if (!plan.index && Object.keys(filter).length === 0) total = collection.docs.size;
  // A limited count stops once it has found skip + limit (countDocuments with a limit: "at least this many?").
  else
    total = selectRecords(collection, { filter, sort: [], skip: 0, limit: limit > 0 ? skip + limit : 0, hint }).length;
  const afterSkip = Math.max(0, total - skip);
  return limit > 0 ? Math.min(afterSkip, limit) : afterSkip;
}
