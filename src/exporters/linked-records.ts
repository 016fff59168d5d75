// The records a described record links to and EAD shows inline: agents (origination,
// controlaccess), subjects (controlaccess), top containers (container) and digital objects
// (dao). They are loaded for a whole batch of records at once, one store query per target
// type, and kept in a bounded cache: the same box or agent recurs across thousands of
// components, and is fetched once.
import type { JsonObject, JsonValue } from "../registry/index.js";
import { isJsonObject } from "../registry/json.js";
import type { OperationDeps } from "../records/deps.js";
import { shapeRecord } from "../records/operations/shape.js";

/** Past this many cached records the cache starts again (memory stays bounded on huge trees). */
const CACHE_LIMIT = 20_000;

function refOf(value: JsonValue | undefined): string | undefined {
  return isJsonObject(value) && typeof value.ref === "string" ? value.ref : undefined;
}

function objects(value: JsonValue | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

/** The uris of the records `record` shows inline in EAD. */
export function linkedUris(record: JsonObject): string[] {
  const uris: string[] = [];
  const add = (uri: string | undefined) => {
    if (uri !== undefined) uris.push(uri);
  };
  for (const link of objects(record.linked_agents)) add(refOf(link));
  for (const link of objects(record.subjects)) add(refOf(link));
  for (const instance of objects(record.instances)) {
    add(refOf(instance.digital_object));
    const sub = instance.sub_container;
    if (isJsonObject(sub)) add(refOf(sub.top_container));
  }
  return uris;
}

export class LinkedRecords {
  private readonly cache = new Map<string, JsonObject>();
  /** Moves on each time the cache is emptied: records loaded before may need loading again. */
  generation = 0;

  constructor(private readonly deps: OperationDeps) {}

  /** Loads every record the given records link to that is not cached yet: one query per target type. */
  async load(records: readonly JsonObject[]): Promise<void> {
    const wanted = new Set<string>();
    for (const record of records) for (const uri of linkedUris(record)) if (!this.cache.has(uri)) wanted.add(uri);
    if (wanted.size === 0) return;
    if (this.cache.size + wanted.size > CACHE_LIMIT) {
      this.cache.clear();
      this.generation += 1;
      for (const record of records) for (const uri of linkedUris(record)) wanted.add(uri);
    }
    const groups = new Map<string, { type: string; repoId?: number; ids: Set<number> }>();
    for (const uri of wanted) {
      const parsed = this.deps.registry.parseUri(uri);
      if (!parsed) continue;
      const key = `${parsed.type}:${parsed.repoId ?? ""}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { type: parsed.type, repoId: parsed.repoId, ids: new Set() }));
      group.ids.add(parsed.id);
    }
    for (const group of groups.values()) {
      const type = this.deps.registry.get(group.type);
      const filter: Record<string, unknown> = { id: { $in: [...group.ids] } };
      if (group.repoId !== undefined) filter.repo_id = group.repoId;
      for (const stored of await this.deps.store.collection(type.name).find(filter).toArray()) {
        const shaped = shapeRecord(this.deps.registry, type, stored);
        this.cache.set(shaped.uri as string, shaped);
      }
    }
  }

  /** A loaded record; undefined for a broken link (the target is gone). */
  get(uri: string | undefined): JsonObject | undefined {
    return uri === undefined ? undefined : this.cache.get(uri);
  }
}
