// Computed fields that read other records (x-computed incoming, uses, restrictions, ancestors:
// registry/computed-fields.ts), produced on a read, a list page, resolved targets and tree children, for the whole
// batch of records at once: one indexed query per referring type and rule (the registry indexes the link paths these
// rules follow), one per tree level for ancestors. So a renamed or deleted record shows in what refers to it on the
// next read, with nothing stored to keep in step.
import type { JsonObject, JsonValue, RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { incoming } from "./incoming.js";
import { ancestors, matches, pickFields } from "./linked-lookups.js";
import { localComputer } from "./local-fields.js";
import { restrictions } from "./restrictions.js";
import { publishedRepositories, uses, yieldOf, type Use } from "./uses.js";

type Shown = Record<string, JsonValue>;

/** Fills the linked computed fields of `shown` (the shown forms of `docs`, same order), in place. */
export async function addLinkedFields(
  deps: OperationDeps,
  type: RecordType,
  docs: StoredRecord[],
  shown: readonly JsonObject[],
  /** Linking records read with the records themselves (operations/read-with-links.ts), by prefetchKey. */
  prefetched?: ReadonlyMap<string, StoredRecord[]>,
): Promise<void> {
  // shapeRecord's own fresh objects: filled in place, as shape.ts fills them.
  const records = shown as Shown[];
  const linked = type.computed.filter(({ rule }) => ["incoming", "uses", "restrictions"].includes(rule.kind));
  const climbing = type.computed.filter(({ rule }) => rule.kind === "ancestors");
  if (records.length === 0 || linked.length + climbing.length === 0) return;
  const uris = records.map((record) => record.uri as string);
  // One store round per via list, shared by the rules that read it (an agent's roles, repositories, published).
  const usesByVia = new Map<string, Promise<Use[]>>();
  for (const { field, rule } of linked) {
    if (rule.kind === "incoming") {
      const found = await incoming(deps, type, rule, uris, prefetched);
      for (const record of records) record[field] = found.get(record.uri as string) ?? [];
    } else if (rule.kind === "restrictions") {
      const found = await restrictions(deps, type, rule, uris);
      for (const record of records) record[field] = found.get(record.uri as string) ?? [];
    } else if (rule.kind === "uses") {
      let rows = usesByVia.get(rule.via);
      if (rows === undefined) usesByVia.set(rule.via, (rows = uses(deps, type, rule.via, uris)));
      const all = await rows;
      const published: ReadonlySet<number> =
        rule.yield === "used_within_published" ? await publishedRepositories(deps, all) : new Set<number>();
      for (const record of records) {
        const own = all.filter((row) => row.ref === record.uri);
        record[field] = yieldOf(deps, rule, own, published);
      }
    }
  }
  for (const { field, rule } of climbing) {
    if (rule.kind !== "ancestors") continue;
    const chains = await ancestors(deps, type, rule.fields, docs);
    const { unless } = rule;
    docs.forEach((doc, i) => {
      const record = records[i];
      if (record === undefined) return;
      const chain = chains.get(doc) ?? [];
      if (unless !== null) {
        record[field] = chain.some((ancestor) => !matches(ancestor, unless));
        return;
      }
      const path = rule.fromRoot ? [...chain].reverse() : [...chain];
      if (rule.self) path.push(pickFields(doc, record.uri as string, rule.fields));
      record[field] = rule.ref ? path : path.map(({ ref: _ref, ...fields }) => fields);
    });
  }
  // Local fields may read linked ones (a top container's display string names its series): worked out again.
  const local = localComputer(type);
  if (local !== undefined) for (const record of records) local(record);
}
