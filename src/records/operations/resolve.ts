// resolve[] (docs/api.md §6): next to each matching `ref`, at any depth, `_resolved` holds the
// target record exactly as its own GET returns it. `a::b` resolves `a`, then `b` inside the
// records resolved for `a`. One store query per level (one per target type at most), never one
// per ref.
//
// Bounded two ways, level by level and in record order: at most `resolveMaxRefs` ref
// occurrences and `resolveMaxBytes` bytes of resolved records per response. The first ref that
// does not fit stops resolution there: it and every ref after it (deeper levels included) carry
// no `_resolved`, and the response says `_resolve_truncated: true`. A broken ref simply has no
// `_resolved`.
//
// Targets are shared, not copied per ref: each distinct (target, resolve subtree below it) is
// resolved once and the same object is attached at every ref to it. The response serializes a
// shared object once per place it appears, so a ref is charged for every occurrence of the
// object holding it: its "count", 1 in the records themselves, and for a ref inside a resolved
// target the number of times that target appears. The subtree strictly shrinks from one level
// to the next, so the shared objects form no cycle.
import type { JsonObject, JsonValue } from "../../registry/index.js";
import { calculateObjectSize } from "bson";
import type { OperationDeps } from "../deps.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { addLinkedFields } from "../computed/linked-fields.js";
import { shapeRecord } from "./shape.js";
import { hiddenFilter } from "./suppression.js";
import type { Actor } from "../types.js";

/**
 * The fields to resolve, each with what to resolve inside its targets (`a::b` gives `a` the
 * subtree {b}). A Map, never a plain object: its keys are the caller's strings.
 */
type ResolveTree = ReadonlyMap<string, ResolveTree>;

/**
 * Equal subtrees as one object, so that a target reached through `a::c` and through `b::c`
 * is resolved once: an interned tree's identity stands for its content.
 */
class TreeInterner {
  private readonly byShape = new Map<string, { tree: ResolveTree; id: number }>();

  intern(tree: ReadonlyMap<string, ResolveTree>): { tree: ResolveTree; id: number } {
    const children = [...tree.keys()].sort().map((key) => ({ key, ...this.intern(tree.get(key) as ResolveTree) }));
    // Children by their interned ids: the shape stays linear in the tree's size at any depth.
    const shape = JSON.stringify(children.map(({ key, id }) => [key, id]));
    let interned = this.byShape.get(shape);
    if (interned === undefined) {
      interned = { tree: new Map(children.map(({ key, tree: child }) => [key, child])), id: this.byShape.size };
      this.byShape.set(shape, interned);
    }
    return interned;
  }
}

function parseKeys(keys: readonly string[]): ResolveTree {
  const root = new Map<string, ResolveTree>();
  for (const key of keys) {
    let node = root;
    for (const part of key.split("::").filter(Boolean)) {
      let child = node.get(part) as Map<string, ResolveTree> | undefined;
      if (child === undefined) node.set(part, (child = new Map()));
      node = child;
    }
  }
  return new TreeInterner().intern(root).tree;
}

interface RefSite {
  holder: Record<string, JsonValue>;
  uri: string;
  /** Keys to resolve inside the target, for `a::b`. */
  next: ResolveTree;
  /** How many times the holder appears in the response. */
  count: number;
}

function isRefHolder(value: JsonValue | undefined): value is JsonObject & { ref: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return Object.hasOwn(value, "ref") && typeof (value as JsonObject).ref === "string";
}

/** Every `{ref}` object held, directly or in a list, by a property named in `tree`, at any depth. */
function collectSites(value: JsonValue, tree: ResolveTree, count: number, sites: RefSite[]): void {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) collectSites(item, tree, count, sites);
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key === "_resolved") continue;
    const next = tree.get(key);
    if (next !== undefined) {
      for (const candidate of Array.isArray(inner) ? inner : [inner]) {
        if (isRefHolder(candidate)) sites.push({ holder: candidate, uri: candidate.ref, next, count });
      }
    }
    collectSites(inner, tree, count, sites);
  }
}

interface TargetGroup {
  type: string;
  repoId?: number;
  ids: Set<number>;
}

interface Target {
  record: JsonObject;
  /** Its JSON's size in bytes, measured once. */
  bytes: number;
}

/** What `"_resolved":` and its separating comma add to the response at each site, beyond the target. */
const RESOLVED_KEY_BYTES = Buffer.byteLength(',"_resolved":');

/** Tags each document of a union with the group it answers (removed before shaping). */
const GROUP_TAG = "_resolve_group";

/**
 * The stored records of every group in one store query: a find for one group, else one
 * aggregate whose $unionWith stages reach the other groups' collections (each group's $match
 * served by its id index). One round trip per level, whatever the number of target types,
 * read batch by batch.
 */
function queryGroups(
  deps: OperationDeps,
  groups: readonly TargetGroup[],
  viewer: Actor,
): AsyncIterable<{ group: TargetGroup; doc: StoredRecord }> {
  // A target the viewer may not see (suppressed) is read as missing: its ref gets no _resolved.
  const filterOf = (group: TargetGroup): Record<string, unknown> => ({
    id: { $in: [...group.ids] },
    ...(group.repoId !== undefined && { repo_id: group.repoId }),
    ...hiddenFilter(deps.registry.get(group.type), viewer, group.repoId),
  });
  const [first, ...others] = groups as [TargetGroup, ...TargetGroup[]];
  if (others.length === 0) {
    const cursor = deps.store.collection(first.type).find(filterOf(first));
    return (async function* () {
      for await (const doc of cursor) yield { group: first, doc };
    })();
  }
  const pipeline = [
    { $match: filterOf(first) },
    { $addFields: { [GROUP_TAG]: 0 } },
    ...others.map((group, i) => ({
      $unionWith: {
        coll: deps.registry.get(group.type).collection,
        pipeline: [{ $match: filterOf(group) }, { $addFields: { [GROUP_TAG]: i + 1 } }],
      },
    })),
  ];
  const cursor = deps.store.collection(first.type).aggregate<StoredRecord>(pipeline);
  return (async function* () {
    for await (const { [GROUP_TAG]: tag, ...doc } of cursor)
      yield { group: groups[tag as number] as TargetGroup, doc: doc as StoredRecord };
  })();
}

/**
 * The targets of `sites`, shaped and measured, by uri. Reading stops once the distinct targets
 * read exceed `byteBudget` (then `complete` is false): each one resolved costs at least its own
 * size, so they could not all be attached, and a response's store reads stay bounded too.
 */
async function fetchTargets(
  deps: OperationDeps,
  sites: readonly RefSite[],
  byteBudget: number,
  viewer: Actor,
): Promise<{ targets: Map<string, Target>; complete: boolean }> {
  const groups = new Map<string, TargetGroup>();
  for (const site of sites) {
    const parsed = deps.registry.parseUri(site.uri);
    if (!parsed) continue;
    const key = `${parsed.type}:${parsed.repoId ?? ""}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { type: parsed.type, repoId: parsed.repoId, ids: new Set() }));
    group.ids.add(parsed.id);
  }
  const targets = new Map<string, Target>();
  if (groups.size === 0) return { targets, complete: true };
  let bytes = 0;
  let complete = true;
  // Each group's records, to add their linked computed fields once all are read: a target is shown as its GET shows it.
  const read = new Map<TargetGroup, { docs: StoredRecord[]; records: JsonObject[] }>();
  for await (const { group, doc } of queryGroups(deps, [...groups.values()], viewer)) {
    // The stored (BSON) size stands in for the JSON size, as for RESPONSE_MAX_BYTES: it is
    // known without shaping or serializing, so a target too large to attach costs no more work.
    const size = calculateObjectSize(doc);
    bytes += size;
    // Leaving the loop closes the cursor.
    if (bytes > byteBudget) {
      complete = false;
      break;
    }
    const record = shapeRecord(deps.registry, deps.registry.get(group.type), doc, viewer);
    targets.set(record.uri as string, { record, bytes: size });
    let batch = read.get(group);
    if (batch === undefined) read.set(group, (batch = { docs: [], records: [] }));
    batch.docs.push(doc);
    batch.records.push(record);
  }
  for (const [group, { docs, records }] of read)
    await addLinkedFields(deps, deps.registry.get(group.type), docs, records);
  return { targets, complete };
}

/** One level's values to look for refs in: the records, then the targets resolved with a subtree. */
interface LevelValue {
  value: JsonObject;
  tree: ResolveTree;
  count: number;
}

/**
 * Resolves refs in `records` (modified in place), each target shown as `viewer` may see it. Returns whether a bound cut
 * resolution short.
 */
export async function resolveRefs(
  deps: OperationDeps,
  records: JsonObject[],
  keys: readonly string[],
  viewer: Actor,
): Promise<boolean> {
  if (keys.length === 0 || records.length === 0) return false;
  let refsLeft = deps.resolveMaxRefs;
  let bytesLeft = deps.resolveMaxBytes;
  const tree = parseKeys(keys);
  let level: LevelValue[] = records.map((value) => ({ value, tree, count: 1 }));
  while (level.length > 0) {
    const sites: RefSite[] = [];
    for (const { value, tree: below, count } of level) collectSites(value, below, count, sites);
    if (sites.length === 0) return false;

    // The ref bound first, so that only refs within it are looked up.
    let within = 0;
    while (within < sites.length && sites[within]!.count <= refsLeft) refsLeft -= sites[within++]!.count;
    const cut = within < sites.length;
    sites.length = within;
    if (within === 0) return true;

    const { targets, complete } = await fetchTargets(deps, sites, bytesLeft, viewer);
    // One shared object per distinct (subtree, target) that has more to resolve inside it.
    const resolving = new Map<ResolveTree, Map<string, LevelValue>>();
    const nextLevel: LevelValue[] = [];
    for (const site of sites) {
      const target = targets.get(site.uri);
      if (target === undefined) {
        // Broken, unless reading stopped before reaching it.
        if (complete) continue;
        return true;
      }
      const cost = (target.bytes + RESOLVED_KEY_BYTES) * site.count;
      if (cost > bytesLeft) return true;
      bytesLeft -= cost;
      if (site.next.size === 0) {
        site.holder._resolved = target.record;
        continue;
      }
      let byUri = resolving.get(site.next);
      if (byUri === undefined) resolving.set(site.next, (byUri = new Map()));
      let shared = byUri.get(site.uri);
      if (shared === undefined) {
        // Its own copy: the next level writes `_resolved` into it, which the plain target
        // (attached where nothing deeper is asked) must not show.
        shared = { value: structuredClone(target.record), tree: site.next, count: 0 };
        byUri.set(site.uri, shared);
        nextLevel.push(shared);
      }
      shared.count += site.count;
      site.holder._resolved = shared.value;
    }
    if (cut) return true;
    level = nextLevel;
  }
  return false;
}
