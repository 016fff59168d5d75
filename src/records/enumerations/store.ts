// Where enumerations live: one document per enumeration in `arca_enumerations`, its values
// embedded in order (a value's position is its index), so that a write to an enumeration is
// one atomic, lock_version-guarded document update. Ids of enumerations and of their values
// come from the record store's counters and are never reused.
//
// At start-up `seed` creates every enumeration the schemas declare that the store lacks, with
// the schemas' values. On an upgrade whose schemas bring new seed values to an existing
// enumeration, those values are appended; a seed value is added at most once (`seeded`
// remembers which were), so a value an administrator removed does not come back at the next
// start. A read-only value (one the schemas rely on) missing from the store is always put back.
import type { Collection, Connection } from "mongoose";
import type { EnumerationSeed } from "../../registry/enumerations.js";
import { duplicateKeyPattern, nextIds } from "../../storage/record-store.js";
import { createStamp, type UpdateStamp } from "../operations/stamps.js";
import { trusted } from "../types.js";

export const ENUMERATIONS_COLLECTION = "arca_enumerations";
// Sequences of the record store's counters: seeding hundreds of values takes one write.
const ENUMERATION_SEQUENCE = "enumeration";
const VALUE_SEQUENCE = "enumeration_value";

export interface StoredValue {
  id: number;
  value: string;
}

export interface StoredEnumeration {
  id: number;
  name: string;
  default_value?: string;
  /** In position order. */
  values: StoredValue[];
  /** Every seed value ever added, so that a removed one is not added again. */
  seeded: string[];
  lock_version: number;
  created_by: string;
  last_modified_by: string;
  create_time: Date;
  system_mtime: Date;
  user_mtime: Date;
}

/** The fields an update replaces. */
export interface EnumerationChange {
  values: StoredValue[];
  default_value?: string;
}

// Start-up seeds what the schemas declare, as the admin.
const SEED_ACTOR = trusted("admin");

export class EnumerationStore {
  private readonly collection: Collection<StoredEnumeration>;

  constructor(private readonly connection: Connection) {
    this.collection = connection.collection<StoredEnumeration>(ENUMERATIONS_COLLECTION);
  }

  async syncIndexes(): Promise<void> {
    await this.collection.createIndex({ id: 1 }, { name: "id_unique", unique: true });
    await this.collection.createIndex({ name: 1 }, { name: "name_unique", unique: true });
    await this.collection.createIndex({ "values.id": 1 }, { name: "value_id_index" });
  }

  /** `count` fresh ids of a sequence, in ascending order. */
  private async reserveIds(sequence: string, count: number): Promise<number[]> {
    if (count === 0) return [];
    const first = await nextIds(this.connection, sequence, count);
    return Array.from({ length: count }, (_, i) => first + i);
  }

  enumerationIds(count: number): Promise<number[]> {
    return this.reserveIds(ENUMERATION_SEQUENCE, count);
  }

  valueIds(count: number): Promise<number[]> {
    return this.reserveIds(VALUE_SEQUENCE, count);
  }

  all(): Promise<StoredEnumeration[]> {
    return this.collection
      .find({}, { projection: { _id: 0 } })
      .sort({ id: 1 })
      .toArray();
  }

  byId(id: number): Promise<StoredEnumeration | null> {
    return this.collection.findOne({ id }, { projection: { _id: 0 } });
  }

  byName(name: string): Promise<StoredEnumeration | null> {
    return this.collection.findOne({ name }, { projection: { _id: 0 } });
  }

  byValueId(valueId: number): Promise<StoredEnumeration | null> {
    return this.collection.findOne({ "values.id": valueId }, { projection: { _id: 0 } });
  }

  /** Every enumeration's values in order, by name: what validation reads. */
  async valuesByName(): Promise<Map<string, string[]>> {
    const docs = await this.collection.find({}, { projection: { _id: 0, name: 1, "values.value": 1 } }).toArray();
    return new Map(docs.map((doc) => [doc.name, doc.values.map((value) => value.value)]));
  }

  /** @returns false when the name is taken. */
  async insert(doc: StoredEnumeration): Promise<boolean> {
    try {
      await this.collection.insertOne({ ...doc });
      return true;
    } catch (error) {
      if (duplicateKeyPattern(error)?.name !== undefined) return false;
      throw error;
    }
  }

  /** Replaces the values (and default) if the stored lock_version is still `lockVersion`. @returns false otherwise. */
  async update(id: number, lockVersion: number, change: EnumerationChange, stamp: UpdateStamp): Promise<boolean> {
    const set: Partial<StoredEnumeration> = { values: change.values, lock_version: lockVersion + 1, ...stamp };
    if (change.default_value !== undefined) set.default_value = change.default_value;
    const unset = change.default_value === undefined ? { $unset: { default_value: "" as const } } : {};
    const result = await this.collection.updateOne({ id, lock_version: lockVersion }, { $set: set, ...unset });
    return result.matchedCount === 1;
  }

  /** Creates the enumerations the schemas declare and the store lacks; adds new seed values to the others. */
  async seed(seeds: Iterable<EnumerationSeed>, now: Date): Promise<void> {
    const stored = new Map((await this.all()).map((doc) => [doc.name, doc]));
    const missing: EnumerationSeed[] = [];
    for (const seed of seeds) {
      const existing = stored.get(seed.name);
      if (existing === undefined) missing.push(seed);
      else await this.upgrade(existing, seed, now);
    }
    if (missing.length === 0) return;
    const ids = await this.enumerationIds(missing.length);
    const valueIds = await this.valueIds(missing.reduce((sum, seed) => sum + seed.values.length, 0));
    const docs = missing.map((seed, i): StoredEnumeration => ({
      id: ids[i]!,
      name: seed.name,
      values: seed.values.map((value) => ({ id: valueIds.shift()!, value })),
      seeded: [...seed.values],
      lock_version: 0,
      ...createStamp(SEED_ACTOR, now),
    }));
    try {
      await this.collection.insertMany(docs, { ordered: false });
    } catch (error) {
      // Another process starting on the same store seeded some of them first: theirs stand.
      const writeErrors = (error as { writeErrors?: unknown[] }).writeErrors;
      const onlyDuplicates =
        Array.isArray(writeErrors) &&
        writeErrors.length > 0 &&
        writeErrors.every((entry) => (entry as { code?: number }).code === 11000);
      if (!onlyDuplicates && duplicateKeyPattern(error) === undefined) throw error;
    }
  }

  private async upgrade(existing: StoredEnumeration, seed: EnumerationSeed, now: Date): Promise<void> {
    const present = new Set(existing.values.map((value) => value.value));
    const seeded = new Set(existing.seeded);
    const added = seed.values.filter(
      (value) => !present.has(value) && (!seeded.has(value) || seed.readonlyValues.includes(value)),
    );
    const newlySeeded = seed.values.filter((value) => !seeded.has(value));
    if (added.length === 0 && newlySeeded.length === 0) return;
    const ids = await this.valueIds(added.length);
    const values = [...existing.values, ...added.map((value, i) => ({ id: ids[i]!, value }))];
    // Not matched: someone changed it meanwhile; the next start tries again.
    await this.collection.updateOne(
      { id: existing.id, lock_version: existing.lock_version },
      {
        $set: { values, seeded: [...existing.seeded, ...newlySeeded], system_mtime: now },
        ...(added.length > 0 ? { $inc: { lock_version: 1 } } : {}),
      },
    );
  }
}
