// Rebuilding the search index from the records (`npm run reindex`), and checking that it agrees with them. The
// index is written with every change, so neither is part of normal running: a rebuild is for an index from before
// a change of x-search (or of how text is analysed), the check for confidence after a restore or a crash.
import type { OperationDeps } from "../deps.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { entriesOf, searchCollection } from "./index-writer.js";

const BATCH = 500;

export interface ReindexSummary {
  /** Entries written, by type. */
  entries: Record<string, number>;
}

/** Rewrites every searchable record's entry, and removes entries whose record is gone. */
export async function reindex(deps: OperationDeps): Promise<ReindexSummary> {
  const index = searchCollection(deps.store.connection);
  const entries = new Map<string, number>();
  const searchable = deps.registry.types.filter((type) => type.search !== null);
  for (const type of searchable) {
    let count = 0;
    let batch: StoredRecord[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const built = await entriesOf(deps.store, deps.registry, type, batch);
      await index.bulkWrite(
        built.map((entry) => ({ replaceOne: { filter: { _id: entry._id }, replacement: entry, upsert: true } })),
        { ordered: false },
      );
      count += built.length;
      batch = [];
    };
    for await (const doc of deps.store.collection(type.name).find({})) {
      batch.push(doc);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    entries.set(type.name, count);
  }
  const stale = await inconsistencies(deps);
  if (stale.orphans.length > 0) await index.deleteMany({ _id: { $in: stale.orphans } });
  return { entries: Object.fromEntries(entries) };
}

export interface IndexCheck {
  /** Searchable records without an entry. */
  missing: string[];
  /** Entries whose record does not exist. */
  orphans: string[];
}

/** Compares the index's entries with the records, uri by uri (each side read once, in order). */
export async function inconsistencies(deps: OperationDeps): Promise<IndexCheck> {
  const index = searchCollection(deps.store.connection);
  const indexed = new Set<string>();
  for await (const entry of index.find({}, { projection: { _id: 1 } })) indexed.add(entry._id);
  const missing: string[] = [];
  for (const type of deps.registry.types.filter((one) => one.search !== null)) {
    for await (const doc of deps.store.collection(type.name).find({}, { projection: { id: 1, repo_id: 1 } })) {
      const uri = deps.registry.uriFor(type.name, doc.id, doc.repo_id);
      if (!indexed.delete(uri)) missing.push(uri);
    }
  }
  return { missing, orphans: [...indexed] };
}
