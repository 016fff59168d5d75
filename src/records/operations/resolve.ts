// resolve[] (contract §6): next to each matching `ref`, at any depth, `_resolved` holds the
// target record exactly as its own GET returns it. `a::b` resolves `a`, then `b` inside the
// records resolved for `a`. One query per target type per level, never one per ref; at most
// `resolveMaxRefs` refs per response, past which the rest carry no `_resolved` and the
// response says `_resolve_truncated: true`. A broken ref simply has no `_resolved`.
import type { JsonObject, JsonValue } from "../../registry/index.js";
import type { OperationDeps } from "./deps.js";
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
    budget -= sites.length;
    // One query per target type (and repository) for the whole level.
    const groups = new Map<string, { type: string; repoId?: number; ids: Set<number> }>();
    for (const site of sites) {
      const parsed = deps.registry.parseUri(site.uri);
      if (!parsed) continue;
      const key = `${parsed.type}:${parsed.repoId ?? ""}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { type: parsed.type, repoId: parsed.repoId, ids: new Set() }));
      group.ids.add(parsed.id);
    }
    const byUri = new Map<string, JsonObject>();
    for (const group of groups.values()) {
      const type = deps.registry.get(group.type);
      const filter: Record<string, unknown> = { id: { $in: [...group.ids] } };
      if (group.repoId !== undefined) filter.repo_id = group.repoId;
      for (const stored of await deps.store.collection(type.name).find(filter).toArray()) {
        const shaped = shapeRecord(deps.registry, type, stored);
        byUri.set(shaped.uri as string, shaped);
      }
    }
    const nextLevel: Array<{ value: JsonValue; tree: ResolveTree }> = [];
    for (const site of sites) {
      const target = byUri.get(site.uri);
      if (!target) continue;
      // Each site gets its own copy: deeper resolution must not leak between sites.
      const copy = structuredClone(target) as JsonObject;
      site.holder._resolved = copy;
      if (Object.keys(site.next).length > 0) nextLevel.push({ value: copy, tree: site.next });
    }
    level = budget > 0 ? nextLevel : [];
    if (budget <= 0 && nextLevel.length > 0) truncated = true;
  }
  return truncated;
}
