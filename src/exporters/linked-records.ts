// The records a described record links to and EAD shows inline: agents (origination,
// controlaccess), subjects (controlaccess), top containers (container) and digital objects
// (dao). They are loaded for a whole batch of records at once, one store query per target
// type, and kept in a bounded cache: the same box or agent recurs across thousands of
// components, and is fetched once.
import type { DigitalObject, Subject, TopContainer } from "../../generated/types/index.js";
import type { OperationDeps } from "../records/deps.js";
import type { Actor } from "../records/types.js";
import { shapeRecord } from "../records/operations/shape.js";
import { isAgent } from "./ead-terms.js";
import { linkedRecord, type DescribedRecord, type LinkedAgentRecord, type LinkedRecord } from "./export-records.js";

/** Past this many cached records the cache starts again (memory stays bounded on huge trees). */
const CACHE_LIMIT = 20_000;

/**
 * What a record that links to agents, subjects and instances looks like here: a resource or
 * archival object (EAD), a digital object or component (MODS, METS, Dublin Core).
 */
export interface LinkingRecord {
  linked_agents?: ReadonlyArray<{ ref: string }>;
  subjects?: ReadonlyArray<{ ref: string }>;
  instances?: DescribedRecord["instances"];
}

/** The uris of the records `record` shows inline in an export. */
export function linkedUris(record: LinkingRecord): string[] {
  return [
    ...(record.linked_agents ?? []).map((link) => link.ref),
    ...(record.subjects ?? []).map((link) => link.ref),
    ...(record.instances ?? []).flatMap((instance) => [
      ...(instance.digital_object ? [instance.digital_object.ref] : []),
      ...(instance.sub_container ? [instance.sub_container.top_container.ref] : []),
    ]),
  ];
}

export class LinkedRecords {
  private readonly cache = new Map<string, LinkedRecord>();
  /** Moves on each time the cache is emptied: records loaded before may need loading again. */
  generation = 0;

  constructor(
    private readonly deps: OperationDeps,
    /** Whom the export is for: linked records are shown as they may see them. */
    private readonly viewer: Actor,
  ) {}

  /** Loads every record the given records link to that is not cached yet: one query per target type. */
  async load(records: readonly LinkingRecord[]): Promise<void> {
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
        const shaped = shapeRecord(this.deps.registry, type, stored, this.viewer);
        const linked = linkedRecord(type.name, shaped);
        if (linked !== undefined) this.cache.set(shaped.uri as string, linked);
      }
    }
  }

  /**
   * The records of a batch one by one, each with what it links to loaded: the batch's links in one go, and again from
   * where a record is reached if visiting the ones before it (their subtrees) emptied the cache meanwhile.
   */
  async *withLinks<T extends LinkingRecord>(batch: readonly T[]): AsyncGenerator<T, void, undefined> {
    await this.load(batch);
    let generation = this.generation;
    for (const [index, record] of batch.entries()) {
      if (this.generation !== generation) {
        await this.load(batch.slice(index));
        generation = this.generation;
      }
      yield record;
    }
  }

  /** A loaded agent; undefined for a broken link (the target is gone) or a link to something else. */
  agent(uri: string): LinkedAgentRecord | undefined {
    const linked = this.cache.get(uri);
    return linked !== undefined && isAgent(linked) ? linked : undefined;
  }

  subject(uri: string): Subject | undefined {
    const linked = this.cache.get(uri);
    return linked?.type === "subject" ? linked.record : undefined;
  }

  topContainer(uri: string): TopContainer | undefined {
    const linked = this.cache.get(uri);
    return linked?.type === "top_container" ? linked.record : undefined;
  }

  digitalObject(uri: string): DigitalObject | undefined {
    const linked = this.cache.get(uri);
    return linked?.type === "digital_object" ? linked.record : undefined;
  }
}
