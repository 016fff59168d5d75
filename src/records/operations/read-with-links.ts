// Records read together with the records that link to them for their bare incoming fields (an accession's
// linked_events): one aggregate whose $unionWith stages each read one linking type by its link index, so a GET (or a
// set of records by id, as search results are read) costs one store round trip, as it did before computed fields,
// instead of one more per linking type (BENCHMARKS.md).
import type { RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { findStored, recordFilter } from "./locate.js";
import type { Actor, Scope } from "../types.js";
import { hiddenFrom } from "./suppression.js";
import { notFound } from "../../errors/api-error.js";
import { incomingQuery, isBare, prefetchKey } from "../computed/incoming.js";
import { MAX_INCOMING, referrers } from "../computed/linked-lookups.js";

/** Tags each linking record with the link path it was read for (removed before use). */
const LINK_TAG = "_linked_by";

/** The stages reading the records that link to `uris` for `type`'s bare incoming fields, each tagged with its key. */
function incomingUnions(
  deps: OperationDeps,
  type: RecordType,
  uris: readonly string[],
): { key: string; stage: object }[] {
  const unions: { key: string; stage: object }[] = [];
  for (const { rule } of type.computed) {
    if (rule.kind !== "incoming" || !isBare(rule)) continue;
    for (const { type: referrer, refPath } of referrers(deps, type, rule.via)) {
      const key = prefetchKey(referrer, refPath);
      if (unions.some((union) => union.key === key)) continue;
      const { filter, projection } = incomingQuery(rule, refPath, uris);
      // The tag rides in the projection: one stage past the index-served ones, not two.
      const tagged = { ...projection, [LINK_TAG]: { $literal: key } };
      const pipeline = [{ $match: filter }, { $sort: { id: 1 } }, { $limit: MAX_INCOMING }, { $project: tagged }];
      unions.push({ key, stage: { $unionWith: { coll: deps.registry.get(referrer).collection, pipeline } } });
    }
  }
  return unions;
}

/**
 * The stored records matching `filter` (in `sort` order, when given), read (by `read`, which may bound them; else
 * whole) in one aggregate with the records linking to `uris` (theirs) for `type`'s bare incoming fields, by
 * prefetchKey; undefined when the type has none (read them as usual).
 */
export async function readManyWithLinks(
  deps: OperationDeps,
  type: RecordType,
  filter: object,
  uris: readonly string[],
  sort?: Record<string, 1 | -1>,
  read?: (rows: AsyncIterable<StoredRecord>) => Promise<StoredRecord[]>,
): Promise<{ docs: StoredRecord[]; prefetched: Map<string, StoredRecord[]> } | undefined> {
  const unions = incomingUnions(deps, type, uris);
  if (unions.length === 0) return undefined;
  const cursor = deps.store
    .collection(type.name)
    .aggregate<StoredRecord>([
      { $match: filter },
      ...(sort === undefined ? [] : [{ $sort: sort }]),
      ...unions.map((union) => union.stage),
    ]);
  const rows = read === undefined ? await cursor.toArray() : await read(cursor);
  const docs: StoredRecord[] = [];
  const prefetched = new Map<string, StoredRecord[]>(unions.map((union) => [union.key, []]));
  for (const { [LINK_TAG]: tag, ...row } of rows) {
    if (typeof tag === "string") prefetched.get(tag)?.push(row as StoredRecord);
    else docs.push(row as StoredRecord);
  }
  return { docs, prefetched };
}

/**
 * The stored record `id` and, by prefetchKey, the records linking to it for its bare incoming fields. 404s as
 * findStored answers them, a record hidden from `viewer` (suppression.ts) included.
 */
export async function readWithLinks(
  deps: OperationDeps,
  type: RecordType,
  id: number,
  scope: Scope,
  viewer: Actor,
): Promise<{ stored: StoredRecord; prefetched?: Map<string, StoredRecord[]> }> {
  const uri = deps.registry.uriFor(type.name, id, scope.repoId);
  const read = await readManyWithLinks(deps, type, recordFilter(type, id, scope), [uri]);
  if (read === undefined) return { stored: await findStored(deps, type, id, scope, undefined, viewer) };
  const [stored] = read.docs;
  // Not found: findStored says which of the record and its repository is missing.
  if (stored === undefined) return { stored: await findStored(deps, type, id, scope, undefined, viewer) };
  if (hiddenFrom(type, stored, viewer)) throw notFound(type.title);
  return { stored, prefetched: read.prefetched };
}
