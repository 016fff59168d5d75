// resolve[] (contract §6): next to each matching `ref`, at any depth, `_resolved` holds the
// target record exactly as its own GET returns it. `a::b` resolves `a`, then `b` inside the
// records resolved for `a`. One store query per level (one per target type at most), never one per ref; at most
// `resolveMaxRefs` refs per response, past which the rest carry no `_resolved` and the
// response says `_resolve_truncated: true`. A broken ref simply has no `_resolved`.
import type { JsonObject, JsonValue } from "../../registry/index.js";
import type { OperationDeps } from "./deps.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { shapeRecord } from "./shape.js";

interface ResolveTree {
  [key: string]: ResolveTree;
}

function parseKeys(keys: readonly string[]): ResolveTree {
  const tree: ResolveTree = {};
  for (const key of keys) {
    let node = tree;
    for (const part of key.split("::").filter(Boolean)) node = node[part] ??= {};
  }
  return tree;
}

interface RefSite {
  holder: Record<string, JsonValue>;
  uri: string;
  /** Keys to resolve inside the target, for `a::b`. */
  next: ResolveTree;
}

/** Every `{ref}` object held, directly or in a list, by a property named in `tree`, at any depth. */
function collectSites(value: JsonValue, tree: ResolveTree, sites: RefSite[]): void {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) collectSites(item, tree, sites);
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key === "_resolved") continue;
    const next = tree[key];
    if (next) {
      for (const candidate of Array.isArray(inner) ? inner : [inner]) {
        if (candidate && typeof candidate === "object" && !Array.isArray(candidate) && typeof (candidate as JsonObject).ref === "string") {
          sites.push({ holder: candidate as Record<string, JsonValue>, uri: (candidate as JsonObject).ref as string, next });
        }
      }
    }
    collectSites(inner, tree, sites);
  }
}

interface TargetGroup {
  type: string;
  repoId?: number;
  ids: Set<number>;
}

/** Tags each document of a union with the group it answers (removed before shaping). */
const GROUP_TAG = "_resolve_group";

/**
 * The stored records of every group in one store query: a find for one group, else one
 * aggregate whose $unionWith stages reach the other groups' collections (each group's $match
 * served by its id index). One round trip per level, whatever the number of target types.
 */
async function fetchGroups(deps: OperationDeps, groups: readonly TargetGroup[]): Promise<Array<{ group: TargetGroup; doc: StoredRecord }>> {
  const filterOf = (group: TargetGroup): Record<string, unknown> => ({ id: { $in: [...group.ids] }, ...(group.repoId !== undefined && { repo_id: group.repoId }) });
  const [first, ...others] = groups;
  if (first === undefined) return [];
  if (others.length === 0) return (await deps.store.collection(first.type).find(filterOf(first)).toArray()).map((doc) => ({ group: first, doc }));
  const pipeline = [
    { $match: filterOf(first) },
    { $addFields: { [GROUP_TAG]: 0 } },
    ...others.map((group, i) => ({
      $unionWith: { coll: deps.registry.get(group.type).collection, pipeline: [{ $match: filterOf(group) }, { $addFields: { [GROUP_TAG]: i + 1 } }] },
    })),
  ];
  const docs = await deps.store.collection(first.type).aggregate<StoredRecord>(pipeline).toArray();
  return docs.map(({ [GROUP_TAG]: tag, ...doc }) => ({ group: groups[tag as number] as TargetGroup, doc: doc as StoredRecord }));
}

/** Resolves refs in `records` (modified in place). Returns whether the bound cut resolution short. */
export async function resolveRefs(deps: OperationDeps, records: JsonObject[], keys: readonly string[]): Promise<boolean> {
  if (keys.length === 0 || records.length === 0) return false;
  let budget = deps.resolveMaxRefs;
  let truncated = false;
  let level: Array<{ value: JsonValue; tree: ResolveTree }> = records.map((record) => ({ value: record, tree: parseKeys(keys) }));
  while (level.length > 0) {
    const sites: RefSite[] = [];
    for (const { value, tree } of level) collectSites(value, tree, sites);
    if (sites.length > budget) {
      truncated = true;
      sites.length = budget;
    }
    if (sites.length === 0) break;
    budget -= sites.length;
    // One query for the whole level, grouped by target type (and repository).
    const groups = new Map<string, TargetGroup>();
    for (const site of sites) {
      const parsed = deps.registry.parseUri(site.uri);
      if (!parsed) continue;
      const key = `${parsed.type}:${parsed.repoId ?? ""}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { type: parsed.type, repoId: parsed.repoId, ids: new Set() }));
      group.ids.add(parsed.id);
    }
    const byUri = new Map<string, JsonObject>();
    for (const { group, doc } of await fetchGroups(deps, [...groups.values()])) {
      const shaped = shapeRecord(deps.registry, deps.registry.get(group.type), doc);
      byUri.set(shaped.uri as string, shaped);
    }
    const nextLevel: Array<{ value: JsonValue; tree: ResolveTree }> = [];
    for (const site of sites) {
      const target = byUri.get(site.uri);
      if (!target) continue;
      if (Object.keys(site.next).length === 0) {
        // Nothing deeper to resolve: sites may share one copy.
        site.holder._resolved = target;
        continue;
      }
      // Deeper resolution writes into the copy: each site gets its own.
      const copy = structuredClone(target) as JsonObject;
      site.holder._resolved = copy;
      nextLevel.push({ value: copy, tree: site.next });
    }
    level = nextLevel;
  }
  return truncated;
}
