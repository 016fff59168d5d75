// x-computed incoming: the records whose `via` list links to each of a batch of records (or, for tree nodes, what
// they stand for: their root or top-level node), as [{ref, ...shown fields}] (linked_events, linked_instances, a
// top container's collection and series).
import {
  linksAt,
  type ComputedRule,
  type JsonObject,
  type JsonValue,
  type RecordType,
  type RefPath,
} from "../../registry/index.js";
import { isJsonObject } from "../../registry/json.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { displayString } from "./display-format.js";
import { ancestors, fetchByUri, matches, MAX_INCOMING, referrers } from "./linked-lookups.js";

export type IncomingRule = Extract<ComputedRule, { kind: "incoming" }>;

/** The record each referring record stands for under `to`: itself, its tree's root, or its top-level node. */
async function standIns(
  deps: OperationDeps,
  referrer: RecordType,
  to: IncomingRule["to"],
  docs: StoredRecord[],
): Promise<Map<StoredRecord, { type: string; doc: StoredRecord }>> {
  const out = new Map<StoredRecord, { type: string; doc: StoredRecord }>();
  const tree = referrer.tree;
  if (to === "self" || tree === null) {
    for (const doc of docs) out.set(doc, { type: referrer.name, doc });
    return out;
  }
  if (to === "root") {
    const rootOf = (doc: StoredRecord) => (doc[tree.root] as { ref?: string } | undefined)?.ref;
    const roots = await fetchByUri(deps, tree.rootType, new Set(docs.flatMap((doc) => rootOf(doc) ?? [])));
    for (const doc of docs) {
      const root = roots.get(rootOf(doc) ?? "");
      if (root !== undefined) out.set(doc, { type: tree.rootType, doc: root });
    }
    return out;
  }
  // The top-level node: the last ancestor before the root, or the node itself at the top.
  const chains = await ancestors(deps, referrer, [], docs);
  const topUri = (doc: StoredRecord) => {
    const chain = chains.get(doc) ?? [];
    return chain.length >= 2 ? (chain[chain.length - 2]?.ref as string) : undefined;
  };
  const tops = await fetchByUri(deps, referrer.name, new Set(docs.flatMap((doc) => topUri(doc) ?? [])));
  for (const doc of docs) {
    const uri = topUri(doc);
    const top = uri === undefined ? doc : tops.get(uri);
    if (top !== undefined) out.set(doc, { type: referrer.name, doc: top });
  }
  return out;
}

/** A rule that lists the linking records themselves, by ref only: what a record's own read can fetch beside it. */
export function isBare(rule: IncomingRule): boolean {
  return rule.to === "self" && rule.where === null && rule.show === null;
}

/** The query of one referring type's links into `uris`: filter and projection (the whole record unless bare). */
export function incomingQuery(rule: IncomingRule, refPath: RefPath, uris: readonly string[]) {
  return {
    filter: { [refPath.mongoPath]: { $in: [...uris] } },
    projection: isBare(rule) ? { id: 1, repo_id: 1, [rule.via]: 1 } : undefined,
  };
}

/** The key of one referring type's link path in `prefetched`. */
export const prefetchKey = (referrer: string, refPath: RefPath): string => `${referrer} ${refPath.path}`;

/**
 * For each uri: [{ref, ...shown fields}] of the records whose `via` list links to it (or what they stand for).
 * `prefetched`: linking records already read with the records themselves (see read.ts), by prefetchKey.
 */
export async function incoming(
  deps: OperationDeps,
  type: RecordType,
  rule: IncomingRule,
  uris: string[],
  prefetched?: ReadonlyMap<string, StoredRecord[]>,
): Promise<Map<string, JsonObject[]>> {
  const found = new Map<string, JsonObject[]>(uris.map((uri) => [uri, []]));
  const listed = new Map<string, Set<string>>(uris.map((uri) => [uri, new Set()]));
  for (const { type: referrer, refPath } of referrers(deps, type, rule.via)) {
    const { filter, projection } = incomingQuery(rule, refPath, uris);
    const docs =
      prefetched?.get(prefetchKey(referrer, refPath)) ??
      (await deps.store
        .collection(referrer)
        .find(filter, projection === undefined ? {} : { projection })
        .sort({ id: 1 })
        .limit(MAX_INCOMING)
        .toArray());
    const stands = await standIns(deps, deps.registry.get(referrer), rule.to, docs);
    for (const doc of docs) {
      const target = stands.get(doc);
      if (target === undefined || !matches(target.doc as JsonObject, rule.where)) continue;
      const ref = deps.registry.uriFor(target.type, target.doc.id, target.doc.repo_id);
      for (const { uri } of linksAt(doc as JsonObject, refPath)) {
        const list = found.get(uri);
        const seen = listed.get(uri);
        if (list === undefined || seen === undefined || seen.has(ref) || list.length >= MAX_INCOMING) continue;
        seen.add(ref);
        const entry: Record<string, JsonValue> = { ref };
        for (const [name, format] of Object.entries(rule.show ?? {})) {
          const value = isJsonObject(format) ? displayString(format, target.doc as JsonObject) : undefined;
          if (value !== undefined) entry[name] = value;
        }
        list.push(entry);
      }
    }
  }
  return found;
}
