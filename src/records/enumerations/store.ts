// Where enumerations live: one document per enumeration in `arca_enumerations`, its values
// embedded in position order, so that a write to an enumeration (or to one of its values) is one
// atomic, lock_version-guarded document update. Ids of enumerations and of their values are a
// stock ArchivesSpace install's where stock has them (stock.ts); the others come from the record
// store's counters, moved past the stock range first, and are never reused.
//
// At start-up `seed`:
// - re-ids a store whose ids are not stock's (one written by an Arca that numbered enumerations
//   in its own order; see `renumber`), in one transaction;
// - creates every enumeration it lacks (stock's, then the schemas' own), with stock's values,
//   ids and positions followed by the schema's seed values stock lacks;
// - gives an existing enumeration the seed values it never had (an upgrade that brings new ones);
//   a seed value is added at most once (`seeded` remembers which were), so a value an
//   administrator removed does not come back at the next start, but a read-only one always does.
import type { ClientSession, Collection, Connection } from "mongoose";
import { advanceCounter, duplicateKeyPattern, nextIds } from "../../storage/record-store.js";
import { createStamp, type UpdateStamp } from "../operations/stamps.js";
import { trusted } from "../types.js";
import type { EnumerationDefinition } from "./definition.js";
import type { StockEnumerations } from "./stock.js";

export const ENUMERATIONS_COLLECTION = "arca_enumerations";
// Sequences of the record store's counters: seeding hundreds of values takes one write.
const ENUMERATION_SEQUENCE = "enumeration";
const VALUE_SEQUENCE = "enumeration_value";

export interface StoredValue {
  id: number;
  value: string;
  /** Its place in the list. Stores written before positions were kept lack it: then its index. */
  position?: number;
  /** Hidden from `values` (what editors offer); records may still hold it, as in ArchivesSpace. */
  suppressed?: boolean;
  /** Bumped by each change of this value alone (`POST /config/enumeration_values/:id`); absent is 0. */
  lock_version?: number;
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

/** A value with its position filled in. */
export type PlacedValue = StoredValue & { position: number };

/** An enumeration's values in order (position, then value, as ArchivesSpace sorts them), each with its position. */
export function placedValues(doc: Pick<StoredEnumeration, "values">): PlacedValue[] {
  return doc.values
    .map((value, index) => ({ ...value, position: value.position ?? index }))
    .sort((a, b) => a.position - b.position || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/** The values numbered 0, 1, 2... in the order given, as ArchivesSpace leaves a list after an edit. */
export function renumbered(values: readonly StoredValue[]): PlacedValue[] {
  return values.map((value, position) => ({ ...value, position }));
}

// Start-up seeds what the schemas declare, as the admin.
const SEED_ACTOR = trusted("admin");

/** Ids handed out in ascending order, from a reservation made for a known count. */
class IdPool {
  private next: number;
  constructor(
    first: number,
    private readonly end: number,
  ) {
    this.next = first;
  }
  take(): number {
    if (this.next >= this.end) throw new Error("enumeration id pool exhausted");
    return this.next++;
  }
}

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

  private async pool(sequence: string, count: number): Promise<IdPool> {
    if (count === 0) return new IdPool(0, 0);
    const first = await nextIds(this.connection, sequence, count);
    return new IdPool(first, first + count);
  }

  enumerationIds(count: number): Promise<number[]> {
    return this.reserveIds(ENUMERATION_SEQUENCE, count);
  }

  valueIds(count: number): Promise<number[]> {
    return this.reserveIds(VALUE_SEQUENCE, count);
  }

  all(session?: ClientSession): Promise<StoredEnumeration[]> {
    return this.collection
      .find({}, { projection: { _id: 0 }, session })
      .sort({ id: 1 })
      .toArray();
  }

  byId(id: number, session?: ClientSession): Promise<StoredEnumeration | null> {
    return this.collection.findOne({ id }, { projection: { _id: 0 }, session });
  }

  byName(name: string): Promise<StoredEnumeration | null> {
    return this.collection.findOne({ name }, { projection: { _id: 0 } });
  }

  byValueId(valueId: number, session?: ClientSession): Promise<StoredEnumeration | null> {
    return this.collection.findOne({ "values.id": valueId }, { projection: { _id: 0 }, session });
  }

  /** Every enumeration's values in order, by name: what validation reads (suppressed ones too, as ArchivesSpace). */
  async valuesByName(): Promise<Map<string, string[]>> {
    const docs = await this.collection.find({}, { projection: { _id: 0, name: 1, values: 1 } }).toArray();
    return new Map(docs.map((doc) => [doc.name, placedValues(doc).map((value) => value.value)]));
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

  /**
   * Replaces the values (and default) if the stored lock_version is still `lockVersion`.
   * `keepDefault`: leave the default as it is (a change of values alone); otherwise an absent
   * default clears it. @returns false when the lock_version moved on.
   */
  async update(
    id: number,
    lockVersion: number,
    change: EnumerationChange,
    stamp: UpdateStamp,
    options: { session?: ClientSession; keepDefault?: boolean } = {},
  ): Promise<boolean> {
    const set: Partial<StoredEnumeration> = { values: change.values, lock_version: lockVersion + 1, ...stamp };
    if (change.default_value !== undefined) set.default_value = change.default_value;
    const clear = change.default_value === undefined && options.keepDefault !== true;
    const unset = clear ? { $unset: { default_value: "" as const } } : {};
    const result = await this.collection.updateOne(
      { id, lock_version: lockVersion },
      { $set: set, ...unset },
      { session: options.session },
    );
    return result.matchedCount === 1;
  }

  /**
   * Creates the enumerations a store lacks and gives the others their new seed values (see the
   * top of this file), after re-iding a store numbered otherwise than stock.
   */
  async seed(definitions: Iterable<EnumerationDefinition>, stock: StockEnumerations, now: Date): Promise<void> {
    // Stock ids are taken by hand: the counters hand out only ids after them.
    await advanceCounter(this.connection, ENUMERATION_SEQUENCE, stock.maxEnumerationId);
    await advanceCounter(this.connection, VALUE_SEQUENCE, stock.maxValueId);
    await this.renumber(stock);
    const stored = await this.all();
    const byName = new Map(stored.map((doc) => [doc.name, doc]));
    const used = new Set(stored.flatMap((doc) => doc.values.map((value) => value.id)));
    const missing: EnumerationDefinition[] = [];
    for (const definition of definitions) {
      const existing = byName.get(definition.name);
      if (existing === undefined) missing.push(definition);
      else await this.upgrade(existing, definition, used, now);
    }
    if (missing.length > 0) await this.create(missing, used, now);
  }

  private async create(missing: EnumerationDefinition[], used: Set<number>, now: Date): Promise<void> {
    const enumerationIds = await this.pool(
      ENUMERATION_SEQUENCE,
      missing.filter((definition) => definition.stockId === undefined).length,
    );
    const freeStockId = (id: number | undefined) => id !== undefined && !used.has(id);
    const valueIds = await this.pool(
      VALUE_SEQUENCE,
      missing.reduce((sum, definition) => sum + definition.values.filter((v) => !freeStockId(v.stockId)).length, 0),
    );
    const docs = missing.map((definition): StoredEnumeration => {
      // Stock's positions for stock's values (they may skip a number, as in a stock install), the
      // schema's own values after the last of them.
      let position = definition.values.reduce((last, value) => Math.max(last, value.stockPosition ?? -1), -1);
      const values = definition.values.map((value): StoredValue => {
        const id = freeStockId(value.stockId) ? value.stockId! : valueIds.take();
        used.add(id);
        return { id, value: value.value, position: value.stockPosition ?? (position += 1) };
      });
      return {
        id: definition.stockId ?? enumerationIds.take(),
        name: definition.name,
        ...(definition.defaultValue === undefined ? {} : { default_value: definition.defaultValue }),
        values,
        seeded: definition.values.map((value) => value.value),
        lock_version: 0,
        ...createStamp(SEED_ACTOR, now),
      };
    });
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

  private async upgrade(
    existing: StoredEnumeration,
    definition: EnumerationDefinition,
    used: Set<number>,
    now: Date,
  ): Promise<void> {
    const present = new Set(existing.values.map((value) => value.value));
    const seeded = new Set(existing.seeded);
    const added = definition.values.filter(
      (value) => !present.has(value.value) && (!seeded.has(value.value) || definition.readonlyValues.has(value.value)),
    );
    const newlySeeded = definition.values.filter((value) => !seeded.has(value.value)).map((value) => value.value);
    if (added.length === 0 && newlySeeded.length === 0) return;
    const freeStockId = (id: number | undefined) => id !== undefined && !used.has(id);
    const ids = await this.pool(VALUE_SEQUENCE, added.filter((value) => !freeStockId(value.stockId)).length);
    const current = placedValues(existing);
    let position = current.reduce((last, value) => Math.max(last, value.position), -1);
    const values: StoredValue[] = [
      ...current,
      ...added.map((value): StoredValue => {
        const id = freeStockId(value.stockId) ? value.stockId! : ids.take();
        used.add(id);
        position += 1;
        return { id, value: value.value, position };
      }),
    ];
    // Not matched: someone changed it meanwhile; the next start tries again.
    await this.collection.updateOne(
      { id: existing.id, lock_version: existing.lock_version },
      {
        $set: { values, seeded: [...existing.seeded, ...newlySeeded], system_mtime: now },
        ...(added.length > 0 ? { $inc: { lock_version: 1 } } : {}),
      },
    );
  }

  /**
   * Gives a store numbered otherwise than stock (written by an Arca that numbered enumerations in
   * the order it created them) the stock ids: each enumeration stock has takes its stock id, each
   * value stock has its stock value id, every other enumeration and value a fresh id after the
   * stock range. Records hold values, never their ids, so nothing else changes; the order and
   * the rest of each enumeration stay as they are. One transaction: a start that fails leaves the
   * store as it was, and two processes starting at once renumber it once.
   * @returns whether the store was renumbered
   */
  async renumber(stock: StockEnumerations): Promise<boolean> {
    if (!numberedOtherwise(await this.all(), stock)) return false;
    const session = await this.connection.startSession();
    try {
      return await session.withTransaction(async () => {
        const docs = await this.all(session);
        if (!numberedOtherwise(docs, stock)) return false;
        const plan = docs.map((doc) => {
          const entry = stock.byName.get(doc.name);
          const stockIds = new Map((entry?.values ?? []).map((value) => [value.value, value.id]));
          return { doc, id: entry?.id, valueIds: placedValues(doc).map((value) => stockIds.get(value.value)) };
        });
        const enumerationIds = await this.pool(ENUMERATION_SEQUENCE, plan.filter((p) => p.id === undefined).length);
        const valueIds = await this.pool(
          VALUE_SEQUENCE,
          plan.reduce((sum, p) => sum + p.valueIds.filter((id) => id === undefined).length, 0),
        );
        const renumberedDocs = plan.map(({ doc, id, valueIds: stockValueIds }) => ({
          ...doc,
          id: id ?? enumerationIds.take(),
          values: placedValues(doc).map((value, i) => ({ ...value, id: stockValueIds[i] ?? valueIds.take() })),
        }));
        await this.collection.deleteMany({}, { session });
        if (renumberedDocs.length > 0) await this.collection.insertMany(renumberedDocs, { session });
        return true;
      });
    } finally {
      await session.endSession();
    }
  }
}

/**
 * Whether a store's ids are not stock's: an enumeration stock has under another id, another one
 * in the stock range, or a value in the stock value range that is not stock's value of that id.
 */
export function numberedOtherwise(docs: readonly StoredEnumeration[], stock: StockEnumerations): boolean {
  return docs.some((doc) => {
    const entry = stock.byName.get(doc.name);
    if (entry === undefined ? doc.id <= stock.maxEnumerationId : doc.id !== entry.id) return true;
    const stockIds = new Map((entry?.values ?? []).map((value) => [value.value, value.id]));
    return doc.values.some((value) => value.id <= stock.maxValueId && stockIds.get(value.value) !== value.id);
  });
}
