// Where records live: one MongoDB collection per record type (the registry's collection
// name), documents holding the record's fields plus its numeric `id` (and `repo_id` for
// repository-scoped types), ids from an atomic per-type counter that never hands out a
// number twice, and the indexes the registry declares.
import mongoose, { type Collection as MongoCollection, type Connection } from "mongoose";
import type { Document as BsonDocument } from "mongodb";
import type { Registry } from "../registry/index.js";

/** Stored beside the record's own fields. */
export interface StorageFields {
  id: number;
  repo_id?: number;
}

export type StoredRecord = BsonDocument & StorageFields;

const COUNTERS = "arca_counters";

export class RecordStore {
  constructor(
    readonly connection: Connection,
    private readonly registry: Registry,
  ) {}

  /** The raw collection of a type (lean reads, no mongoose document overhead). */
  collection(type: string): MongoCollection<StoredRecord> {
    return this.connection.collection<StoredRecord>(this.registry.get(type).collection);
  }

  /** The next id of a type: allocated atomically, never reused even after deletes. */
  async nextId(type: string): Promise<number> {
    const counters = this.connection.collection<{ _id: string; seq: number }>(COUNTERS);
    const result = await counters.findOneAndUpdate({ _id: type }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: "after" });
    if (!result) throw new Error(`id counter for ${type} did not answer`);
    return result.seq;
  }

  /** Creates every index the registry declares, plus the one modified_since lists use. */
  async syncIndexes(): Promise<void> {
    for (const type of this.registry.types) {
      const collection = this.collection(type.name);
      for (const spec of type.indexes) {
        await collection.createIndex({ ...spec.keys }, {
          name: spec.name,
          unique: spec.unique,
          ...(spec.partialFilterExpression ? { partialFilterExpression: { ...spec.partialFilterExpression } } : {}),
        });
      }
      const mtimeKeys: Record<string, 1> = type.scope === "repository" ? { repo_id: 1, system_mtime: 1, id: 1 } : { system_mtime: 1, id: 1 };
      await collection.createIndex(mtimeKeys, { name: "system_mtime_index" });
    }
  }
}

/** A MongoDB duplicate-key error (E11000), with the index's key pattern. */
export function duplicateKeyPattern(error: unknown): Record<string, unknown> | undefined {
  if (error instanceof mongoose.mongo.MongoServerError && error.code === 11000) {
    return (error.keyPattern as Record<string, unknown> | undefined) ?? {};
  }
  return undefined;
}
