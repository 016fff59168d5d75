// Keeps the search index in step with the records: told every change of a searchable type inside the transaction
// that makes it (RecordChanges.writeWith), it rewrites those records' entries in the same transaction, so a search
// sees exactly what is committed, a record the moment it is, and never one that is gone. An entry holds the titles
// of the records it links (a resource's subjects and agents): when one of those changes, the entries linking it
// are rewritten in the same transaction too, so a renamed agent's records are found by the new name at once.
// A write of a batch, or of a whole transaction, is one read of its records, one of their links' records and one
// bulk write of their entries.
import type { AnyBulkWriteOperation, ClientSession, Collection } from "mongodb";
import type { Connection } from "mongoose";
import type { Change, ChangeWriter } from "../changes.js";
import type { Registry, RecordType } from "../../registry/index.js";
import type { RecordStore, StoredRecord } from "../../storage/record-store.js";
import { groupUris, readGroup } from "./uri-groups.js";
import {
  facetPaths,
  indexedView,
  linkedUris,
  searchEntry,
  SEARCH_COLLECTION,
  titleOf,
  type SearchEntry,
} from "./entries.js";

/**
 * The index's indexes: terms and links (multikey), and what filters and sorts lean on beside them. A term's key is
 * followed by the entry's repository and suppression, which every repository's search pins: its matches are then
 * one run of keys per repository, counted by rank without reading an entry.
 */
export const SEARCH_INDEXES: ReadonlyArray<{ name: string; key: Record<string, 1> }> = [
  { name: "words_scope", key: { words: 1, repository: 1, suppressed: 1 } },
  { name: "links", key: { links: 1 } },
  { name: "boosted_scope", key: { boosted: 1, repository: 1, suppressed: 1 } },
  { name: "root_record", key: { root_record: 1 } },
  { name: "repository_type", key: { repository: 1, primary_type: 1 } },
  { name: "title_sort", key: { title_sort: 1 } },
  { name: "primary_type_record_id", key: { primary_type: 1, record_id: 1 } },
];

/** How many linking entries are rewritten per bulk write when a linked record changes. */
const DEPENDENTS_BATCH = 500;

export function searchCollection(connection: Connection): Collection<SearchEntry> {
  return connection.collection<SearchEntry>(SEARCH_COLLECTION);
}

/** Indexes earlier versions made, which the ones above replace. */
const REPLACED_INDEXES = ["words", "boosted"];

/**
 * One sparse index per facet path: a facet over many matches is counted from it (the embedded engine reads each
 * value's records as one array instead of reading every match; MongoDB itself counts from the entries either way).
 */
function facetIndexes(registry: Registry): Array<{ name: string; key: Record<string, 1> }> {
  return [...facetPaths(registry)].map(([name, path]) => ({ name: `facet_${name}`, key: { [path]: 1 } }));
}

export async function ensureSearchIndexes(connection: Connection, registry: Registry): Promise<void> {
  const collection = searchCollection(connection);
  // Created first (a new collection has no indexes to list), then the replaced ones dropped.
  for (const { name, key } of SEARCH_INDEXES) await collection.createIndex(key, { name });
  for (const { name, key } of facetIndexes(registry)) await collection.createIndex(key, { name, sparse: true });
  const existing = new Set((await collection.listIndexes().toArray()).map((index) => String(index.name)));
  for (const name of REPLACED_INDEXES) if (existing.has(name)) await collection.dropIndex(name);
}

/** The entries of stored records of one type: their views, their links' titles (read in `session`), built. */
export async function entriesOf(
  store: RecordStore,
  registry: Registry,
  type: RecordType,
  stored: readonly StoredRecord[],
  session?: ClientSession,
): Promise<SearchEntry[]> {
  const views = stored.map((doc) => indexedView(registry, type, doc));
  const titles = await linkTitles(
    store,
    registry,
    [...new Set(views.flatMap((view) => linkedUris(registry, type, view)))],
    session,
  );
  return stored.map((doc, i) => searchEntry(registry, type, doc, views[i] ?? {}, titles));
}

/** The titles of the records at `uris` (of searchable types), by uri. */
async function linkTitles(
  store: RecordStore,
  registry: Registry,
  uris: readonly string[],
  session?: ClientSession,
): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  for (const group of groupUris(registry, uris)) {
    for (const doc of await readGroup(store, group, session)) {
      const title = titleOf(group.type, indexedView(registry, group.type, doc));
      if (title !== undefined) titles.set(registry.uriFor(group.type.name, doc.id, doc.repo_id), title);
    }
  }
  return titles;
}

function upsert(entry: SearchEntry): AnyBulkWriteOperation<SearchEntry> {
  return { replaceOne: { filter: { _id: entry._id }, replacement: entry, upsert: true } };
}

export class SearchIndexWriter implements ChangeWriter {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: Registry,
  ) {}

  covers(type: string): boolean {
    return this.registry.has(type) && this.registry.get(type).search !== null;
  }

  async write(changes: readonly Change[], session: ClientSession | undefined): Promise<void> {
    // A transaction's changes (a tree move's siblings, a cascade's records) are indexed together as it ends: one
    // read of their records and one bulk write, not one of each per change; a record changed twice, once.
    await this.store.deferUntilCommit(session, this, changes, (all: Change[]) => this.writeNow(all, session));
  }

  private async writeNow(changes: readonly Change[], session: ClientSession | undefined): Promise<void> {
    const byType = new Map<string, Change[]>();
    for (const change of changes) byType.set(change.type, [...(byType.get(change.type) ?? []), change]);
    for (const [typeName, ofType] of byType) await this.writeType(this.registry.get(typeName), ofType, session);
  }

  private async writeType(type: RecordType, changes: readonly Change[], session: ClientSession | undefined) {
    const operations: AnyBulkWriteOperation<SearchEntry>[] = [];
    const held: StoredRecord[] = [];
    const written = new Map<number | undefined, number[]>();
    const updated: string[] = [];
    for (const change of changes) {
      if (!("id" in change)) {
        // Records deleted together (a repository's, an import undone): their entries go the same way.
        const inRepository = change.scope.repoId === undefined ? {} : { repository: this.repositoryUri(change) };
        const ids = change.ids === "all" ? {} : { record_id: { $gte: change.ids.first, $lt: change.ids.end } };
        operations.push({ deleteMany: { filter: { primary_type: type.name, ...inRepository, ...ids } } });
        continue;
      }
      const uri = this.registry.uriFor(type.name, change.id, change.scope.repoId);
      if (change.operation === "delete") operations.push({ deleteOne: { filter: { _id: uri } } });
      else if (change.record !== undefined) held.push(change.record);
      else written.set(change.scope.repoId, [...(written.get(change.scope.repoId) ?? []), change.id]);
      if (change.operation === "update") updated.push(uri);
    }
    for (const entry of await entriesOf(this.store, this.registry, type, held, session)) operations.push(upsert(entry));
    const records = this.store.collection(type.name);
    for (const [repoId, ids] of written) {
      const inScope = type.scope === "repository" ? { repo_id: repoId } : {};
      const stored = await records.find({ ...inScope, id: { $in: ids } }, { session }).toArray();
      for (const entry of await entriesOf(this.store, this.registry, type, stored, session))
        operations.push(upsert(entry));
      // Written and gone again within the same transaction: no entry.
      const found = new Set(stored.map((doc) => doc.id));
      for (const id of ids.filter((one) => !found.has(one)))
        operations.push({ deleteOne: { filter: { _id: this.registry.uriFor(type.name, id, repoId) } } });
    }
    const index = searchCollection(this.store.connection);
    if (operations.length > 0) await index.bulkWrite(operations, { session, ordered: true });
    // (A deleted record needs no such rewrite: its links are removed from the records linking it, whose writes
    // are told on their own.)
    if (updated.length > 0) await this.rewriteLinking(updated, session);
  }

  /** Rewrites the entries that hold the titles of the records at `uris`, in batches. */
  private async rewriteLinking(uris: readonly string[], session: ClientSession | undefined): Promise<void> {
    const index = searchCollection(this.store.connection);
    const linking = index.find({ links: { $in: [...uris] } }, { projection: { _id: 1 }, session });
    let batch: string[] = [];
    const flush = async () => {
      const operations: AnyBulkWriteOperation<SearchEntry>[] = [];
      for (const group of groupUris(this.registry, batch)) {
        const stored = await readGroup(this.store, group, session);
        for (const entry of await entriesOf(this.store, this.registry, group.type, stored, session))
          operations.push(upsert(entry));
      }
      if (operations.length > 0) await index.bulkWrite(operations, { session, ordered: false });
      batch = [];
    };
    // The ids are read first, whole: the rewrites change the entries the cursor walks.
    const ids = (await linking.toArray()).map((entry) => entry._id);
    for (const id of ids) {
      batch.push(id);
      if (batch.length >= DEPENDENTS_BATCH) await flush();
    }
    await flush();
  }

  private repositoryUri(change: Change): string {
    return this.registry.uriFor(this.registry.scopeHolderType().name, change.scope.repoId ?? 0);
  }
}
