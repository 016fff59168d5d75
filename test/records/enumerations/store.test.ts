// The enumerations' storage and cache over a real (embedded) store: seeding at start-up and on
// an upgrade, and how soon a change made by another process sharing the store is seen.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import { startEngine, type RunningEngine } from "../../../src/embedded-mongo/index.js";
import {
  defineEnumerations,
  EnumerationCache,
  EnumerationStore,
  NO_STOCK,
  stockEnumerations,
  type StockEnumerations,
} from "../../../src/records/enumerations/index.js";
import {
  numberedOtherwise,
  placedValues,
  renumbered,
  type StoredEnumeration,
} from "../../../src/records/enumerations/store.js";
import type { EnumerationSeed } from "../../../src/registry/enumerations.js";
import { trusted } from "../../../src/auth/actor.js";
import { updateStamp } from "../../../src/records/operations/stamps.js";

let engine: RunningEngine;
let connection: Connection;
let dbCount = 0;

beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0 });
  connection = await mongoose.createConnection(engine.uri, { dbName: "enumeration_store" }).asPromise();
});
afterAll(async () => {
  await connection.close();
  await engine.close();
});

/** A store on a database of its own. */
async function freshStore(): Promise<EnumerationStore> {
  dbCount += 1;
  const store = new EnumerationStore(connection.useDb(`enumeration_store_${dbCount}`));
  await store.syncIndexes();
  return store;
}

function seed(name: string, values: string[], readonlyValues: string[] = []): EnumerationSeed {
  return { name, values, readonlyValues, editable: true, usedBy: [] };
}

/** Start-up's seeding of `store` with these schema seeds and stock data (none by default). */
function seedStore(
  store: EnumerationStore,
  seeds: EnumerationSeed[],
  now: Date,
  stock: StockEnumerations = NO_STOCK,
): Promise<void> {
  return store.seed(defineEnumerations(seeds, stock).values(), stock, now);
}

const when = new Date("2026-01-02T03:04:05Z");

describe("seeding", () => {
  it("creates each missing enumeration with its values in order, their ids never repeated", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["red", "green"]), seed("size", ["s", "m", "l"])], when);
    const all = await store.all();
    expect(all.map((doc) => [doc.name, doc.values.map((value) => value.value), doc.lock_version])).toEqual([
      ["colour", ["red", "green"], 0],
      ["size", ["s", "m", "l"], 0],
    ]);
    const ids = all.flatMap((doc) => doc.values.map((value) => value.id));
    expect(new Set(ids).size).toBe(5);
  });

  it("changes nothing when run again", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["red", "green"])], when);
    const before = await store.all();
    await seedStore(store, [seed("colour", ["red", "green"])], new Date());
    expect(await store.all()).toEqual(before);
  });

  it("on an upgrade, appends new seed values once; a seed value an administrator removed stays removed", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["red", "green"])], when);
    const stored = (await store.byName("colour"))!;
    // An administrator removes "green" and adds "teal".
    const teal = (await store.valueIds(1))[0]!;
    expect(
      await store.update(
        stored.id,
        0,
        { values: [stored.values[0]!, { id: teal, value: "teal" }] },
        updateStamp(trusted("admin"), when),
      ),
    ).toBe(true);

    await seedStore(store, [seed("colour", ["red", "green", "blue"])], when);
    const upgraded = (await store.byName("colour"))!;
    expect(upgraded.values.map((value) => value.value)).toEqual(["red", "teal", "blue"]);
    expect(upgraded.lock_version).toBe(2);
    await seedStore(store, [seed("colour", ["red", "green", "blue"])], when);
    expect((await store.byName("colour"))!.lock_version).toBe(2);
  });

  it("puts back a read-only value missing from the store", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["red", "green"])], when);
    const stored = (await store.byName("colour"))!;
    await store.update(stored.id, 0, { values: [stored.values[0]!] }, updateStamp(trusted("admin"), when));
    await seedStore(store, [seed("colour", ["red", "green"], ["green"])], when);
    expect((await store.byName("colour"))!.values.map((value) => value.value)).toEqual(["red", "green"]);
  });

  it("two processes seeding the same new store at once both succeed, with one copy of each", async () => {
    const store = await freshStore();
    const other = new EnumerationStore(connection.useDb(`enumeration_store_${dbCount}`));
    await Promise.all([
      seedStore(store, [seed("colour", ["red"])], when),
      seedStore(other, [seed("colour", ["red"])], when),
    ]);
    expect((await store.all()).map((doc) => doc.name)).toEqual(["colour"]);
  });
});

// A small stock: enumeration 2 and value 5 are gone (as 63 and 961 are from a real install), the
// positions of colour are not its id order, and size has a default.
const STOCK = stockEnumerations([
  {
    id: 1,
    name: "colour",
    editable: true,
    values: [
      { id: 3, value: "red", position: 0 },
      { id: 2, value: "blue", position: 1, readonly: true },
      { id: 1, value: "green", position: 3 },
    ],
  },
  {
    id: 3,
    name: "size",
    editable: false,
    default_value: "m",
    values: [
      { id: 4, value: "s", position: 0 },
      { id: 6, value: "m", position: 1 },
    ],
  },
]);

/** name → [id, [value, id, position]...], a store's numbering at a glance. */
function numbering(docs: StoredEnumeration[]): Record<string, [number, Array<[string, number, number]>]> {
  return Object.fromEntries(
    docs.map((doc) => [
      doc.name,
      [doc.id, placedValues(doc).map((value): [string, number, number] => [value.value, value.id, value.position])],
    ]),
  );
}

describe("stock ids", () => {
  it("a new store takes stock's ids, values, positions and defaults; the schemas' own come after stock's range", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["red", "pink"]), seed("shape", ["round"])], when, STOCK);
    const all = await store.all();
    expect(numbering(all)).toEqual({
      colour: [
        1,
        [
          ["red", 3, 0],
          ["blue", 2, 1],
          ["green", 1, 3],
          ["pink", 7, 4],
        ],
      ],
      size: [
        3,
        [
          ["s", 4, 0],
          ["m", 6, 1],
        ],
      ],
      shape: [4, [["round", 8, 0]]],
    });
    expect(all.find((doc) => doc.name === "size")?.default_value).toBe("m");
    expect(all.find((doc) => doc.name === "colour")?.seeded).toEqual(["red", "blue", "green", "pink"]);
    // The counters go on after stock's range and what was taken.
    expect(await store.enumerationIds(1)).toEqual([5]);
    expect(await store.valueIds(1)).toEqual([9]);
  });

  it("re-ids a store an older Arca numbered in its own order, in place: stock's ids, fresh ones for the rest", async () => {
    const store = await freshStore();
    // What an Arca without stock ids wrote: colour 1, shape 2, values 1-4 in seed order...
    await seedStore(store, [seed("colour", ["red", "green", "pink"]), seed("shape", ["round"])], when);
    // ... then an administrator's own enumeration (id 3, value 5) and a reordered colour list.
    const [customId] = await store.enumerationIds(1);
    const [xId] = await store.valueIds(1);
    expect([customId, xId]).toEqual([3, 5]);
    await store.insert({
      ...(await store.byName("shape"))!,
      id: customId!,
      name: "custom",
      values: [{ id: xId!, value: "x" }],
      seeded: [],
    });
    const colour = (await store.byName("colour"))!;
    const [red, green, pink] = colour.values;
    await store.update(
      colour.id,
      0,
      { values: renumbered([pink!, green!, red!]) },
      updateStamp(trusted("admin"), when),
    );
    expect(numberedOtherwise(await store.all(), STOCK)).toBe(true);

    const later = new Date("2026-06-01T00:00:00Z");
    await seedStore(store, [seed("colour", ["red", "green", "pink"]), seed("shape", ["round"])], later, STOCK);
    const all = await store.all();
    expect(numbering(all)).toEqual({
      // Its order is the administrator's, its ids stock's (pink, which stock lacks, after stock's range), and
      // the stock value it never had (blue) added once, at the end.
      colour: [
        1,
        [
          ["pink", 7, 0],
          ["green", 1, 1],
          ["red", 3, 2],
          ["blue", 2, 3],
        ],
      ],
      size: [
        3,
        [
          ["s", 4, 0],
          ["m", 6, 1],
        ],
      ],
      shape: [4, [["round", 8, 0]]],
      custom: [5, [["x", 9, 0]]],
    });
    // The rest of each enumeration is as it was: the administrator's edit stands, what was seeded is remembered.
    expect(all.find((doc) => doc.name === "colour")).toMatchObject({
      last_modified_by: "admin",
      seeded: ["red", "green", "pink", "blue"],
    });
    expect(numberedOtherwise(all, STOCK)).toBe(false);

    // A second start changes nothing.
    await seedStore(store, [seed("colour", ["red", "green", "pink"]), seed("shape", ["round"])], new Date(), STOCK);
    expect(await store.all()).toEqual(all);
  });

  it("leaves a store numbered as stock alone", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["red"])], when, STOCK);
    const before = await store.all();
    expect(await store.renumber(STOCK)).toBe(false);
    expect(await store.all()).toEqual(before);
  });

  it("two processes starting on an old store at once renumber it once", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["green", "red"]), seed("shape", ["round"])], when);
    const other = new EnumerationStore(connection.useDb(`enumeration_store_${dbCount}`));
    await Promise.all([
      seedStore(store, [seed("colour", ["green", "red"]), seed("shape", ["round"])], when, STOCK),
      seedStore(other, [seed("colour", ["green", "red"]), seed("shape", ["round"])], when, STOCK),
    ]);
    const all = await store.all();
    expect(all.map((doc) => doc.name)).toEqual(["colour", "size", "shape"]);
    expect(numberedOtherwise(all, STOCK)).toBe(false);
    expect(placedValues(all[0]!).map((value) => [value.value, value.id])).toEqual([
      ["green", 1],
      ["red", 3],
      ["blue", 2],
    ]);
  });

  it("refuses stock data with a repeated id or a default that is not a value", () => {
    const value = (id: number, text: string) => ({ id, value: text, position: 0 });
    expect(() =>
      stockEnumerations([
        { id: 1, name: "a", editable: true, values: [value(1, "x")] },
        { id: 2, name: "b", editable: true, values: [value(1, "y")] },
      ]),
    ).toThrow("stock enumeration b: value y (1) repeated");
    expect(() => stockEnumerations([{ id: 1, name: "a", editable: true, default_value: "z", values: [] }])).toThrow(
      "stock enumeration a: default z is not a value",
    );
  });
});

describe("the values cache", () => {
  it("sees its own process's writes at once, another's after its time to live", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["red", "green"])], when);
    let clock = 1_000_000;
    const mine = new EnumerationCache(store, new Map(), { ttlMs: 10_000, now: () => clock });
    const theirs = new EnumerationCache(store, new Map(), { ttlMs: 10_000, now: () => clock });
    await Promise.all([mine.ready(), theirs.ready()]);
    expect(mine.valuesOf("colour")).toEqual(["red", "green"]);

    // This process adds "blue" and invalidates its cache.
    const doc = (await store.byName("colour"))!;
    const [blue] = await store.valueIds(1);
    await store.update(
      doc.id,
      doc.lock_version,
      { values: [...doc.values, { id: blue!, value: "blue" }] },
      updateStamp(trusted("admin"), when),
    );
    mine.invalidate();
    await Promise.all([mine.ready(), theirs.ready()]);
    expect(mine.valuesOf("colour")).toEqual(["red", "green", "blue"]);
    expect(theirs.valuesOf("colour")).toEqual(["red", "green"]);

    clock += 10_001;
    await theirs.ready();
    expect(theirs.valuesOf("colour")).toEqual(["red", "green", "blue"]);
  });

  it("answers the schemas' seed values for an enumeration the store does not hold, and nothing for an unknown one", async () => {
    const store = await freshStore();
    const cache = new EnumerationCache(store, defineEnumerations([seed("colour", ["red"])], NO_STOCK));
    await cache.ready();
    expect(cache.valuesOf("colour")).toEqual(["red"]);
    expect(cache.valuesOf("unknown")).toBeUndefined();
  });

  it("loads once for concurrent callers", async () => {
    const store = await freshStore();
    await seedStore(store, [seed("colour", ["red"])], when);
    let loads = 0;
    const counting = Object.create(store) as EnumerationStore;
    counting.valuesByName = async () => {
      loads += 1;
      return store.valuesByName();
    };
    const cache = new EnumerationCache(counting, new Map());
    await Promise.all([cache.ready(), cache.ready(), cache.ready()]);
    expect(loads).toBe(1);
    await cache.ready();
    expect(loads).toBe(1);
  });
});
