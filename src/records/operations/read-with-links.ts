// One record read together with the records that link to it for its bare incoming fields (an accession's
// linked_events): one aggregate whose $unionWith stages each read one linking type by its link index, so a GET costs
// one store round trip, as it did before computed fields, instead of one more per linking type (BENCHMARKS.md).
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
  const unions: { key: string; stage: object }[] = [];
  for (const { rule } of type.computed) {
    if (rule.kind !== "incoming" || !isBare(rule)) continue;
    for (const { type: referrer, refPath } of referrers(deps, type, rule.via)) {
      const key = prefetchKey(referrer, refPath);
      if (unions.some((union) => union.key === key)) continue;
      const { filter, projection } = incomingQuery(rule, refPath, [uri]);
      // The tag rides in the projection: one stage past the index-served ones, not two.
      const tagged = { ...projection, [LINK_TAG]: { $literal: key } };
      const pipeline = [{ $match: filter }, { $sort: { id: 1 } }, { $limit: MAX_INCOMING }, { $project: tagged }];
      unions.push({ key, stage: { $unionWith: { coll: deps.registry.get(referrer).collection, pipeline } } });
    }
  }
  if (unions.length === 0) return { stored: await findStored(deps, type, id, scope, undefined, viewer) };
  const rows = await deps.store
    .collection(type.name)
    .aggregate<StoredRecord>([{ $match: recordFilter(type, id, scope) }, ...unions.map((union) => union.stage)])
    .toArray();
  let stored: StoredRecord | undefined;
  const prefetched = new Map<string, StoredRecord[]>(unions.map((union) => [union.key, []]));
  for (const { [LINK_TAG]: tag, ...row } of rows) {
    if (typeof tag === "string") prefetched.get(tag)?.push(row as StoredRecord);
    else stored = row as StoredRecord;
  }
  // Not found: findStored says which of the record and its repository is missing.
  if (stored === undefined) return { stored: await findStored(deps, type, id, scope, undefined, viewer) };
  if (hiddenFrom(type, stored, viewer)) throw notFound(type.title);
  return { stored, prefetched };
}
