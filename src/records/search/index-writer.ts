// Keeps the search index in step with the records: told every change of a searchable type inside the transaction
// that makes it (RecordChanges.writeWith), it rewrites those records' entries in the same transaction, so a search
// sees exactly what is committed, a record the moment it is, and never one that is gone. A write of a batch is one
// read of its records and one bulk write of their entries.
import type { AnyBulkWriteOperation, ClientSession, Collection } from "mongodb";
import type { Connection } from "mongoose";
import type { Change, ChangeWriter } from "../changes.js";
import type { Registry, RecordType } from "../../registry/index.js";
import type { RecordStore } from "../../storage/record-store.js";
import { searchEntry, SEARCH_COLLECTION, type SearchEntry } from "./entries.js";

/** The index's indexes: terms (multikey), and what filters and sorts lean on beside them. */
export const SEARCH_INDEXES: ReadonlyArray<{ name: string; key: Record<string, 1> }> = [
  { name: "words", key: { words: 1 } },
  { name: "repository_type", key: { repository: 1, primary_type: 1 } },
  { name: "title_sort", key: { title_sort: 1 } },
  { name: "primary_type_record_id", key: { primary_type: 1, record_id: 1 } },
];

export function searchCollection(connection: Connection): Collection<SearchEntry> {
  return connection.collection<SearchEntry>(SEARCH_COLLECTION);
}

export async function ensureSearchIndexes(connection: Connection): Promise<void> {
  const collection = searchCollection(connection);
  for (const { name, key } of SEARCH_INDEXES) await collection.createIndex(key, { name });
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
    const byType = new Map<string, Change[]>();
    for (const change of changes) byType.set(change.type, [...(byType.get(change.type) ?? []), change]);
    for (const [typeName, ofType] of byType) await this.writeType(this.registry.get(typeName), ofType, session);
  }

  private async writeType(type: RecordType, changes: readonly Change[], session: ClientSession | undefined) {
    const index = searchCollection(this.store.connection);
    const operations: AnyBulkWriteOperation<SearchEntry>[] = [];
    const written = new Map<number | undefined, number[]>();
    for (const change of changes) {
      if (!("id" in change)) {
        // Records deleted together (a repository's, an import undone): their entries go the same way.
        const inRepository = change.scope.repoId === undefined ? {} : { repository: this.repositoryUri(change) };
        const ids = change.ids === "all" ? {} : { record_id: { $gte: change.ids.first, $lt: change.ids.end } };
        operations.push({ deleteMany: { filter: { primary_type: type.name, ...inRepository, ...ids } } });
      } else if (change.operation === "delete") {
        const uri = this.registry.uriFor(type.name, change.id, change.scope.repoId);
        operations.push({ deleteOne: { filter: { _id: uri } } });
      } else written.set(change.scope.repoId, [...(written.get(change.scope.repoId) ?? []), change.id]);
    }
    const records = this.store.collection(type.name);
    for (const [repoId, ids] of written) {
      const inScope = type.scope === "repository" ? { repo_id: repoId } : {};
      const stored = await records.find({ ...inScope, id: { $in: ids } }, { session }).toArray();
      for (const doc of stored) {
        const entry = searchEntry(this.registry, type, doc);
        operations.push({ replaceOne: { filter: { _id: entry._id }, replacement: entry, upsert: true } });
      }
      // Written and gone again within the same transaction: no entry.
      const found = new Set(stored.map((doc) => doc.id));
      for (const id of ids.filter((one) => !found.has(one)))
        operations.push({ deleteOne: { filter: { _id: this.registry.uriFor(type.name, id, repoId) } } });
    }
    if (operations.length > 0) await index.bulkWrite(operations, { session, ordered: true });
  }

  private repositoryUri(change: Change): string {
    return this.registry.uriFor(this.registry.scopeHolderType().name, change.scope.repoId ?? 0);
  }
}
