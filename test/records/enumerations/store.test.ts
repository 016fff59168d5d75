// The enumerations' storage and cache over a real (embedded) store: seeding at start-up and on
// an upgrade, and how soon a change made by another process sharing the store is seen.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import { startEngine, type RunningEngine } from "../../../src/embedded-mongo/index.js";
import { EnumerationCache, EnumerationStore } from "../../../src/records/enumerations/index.js";
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

const when = new Date("2026-01-02T03:04:05Z");

describe("seeding", () => {
  it("creates each missing enumeration with its values in order, their ids never repeated", async () => {
    const store = await freshStore();
    await store.seed([seed("colour", ["red", "green"]), seed("size", ["s", "m", "l"])], when);
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
    await store.seed([seed("colour", ["red", "green"])], when);
    const before = await store.all();
    await store.seed([seed("colour", ["red", "green"])], new Date());
    expect(await store.all()).toEqual(before);
  });

  it("on an upgrade, appends new seed values once; a seed value an administrator removed stays removed", async () => {
    const store = await freshStore();
    await store.seed([seed("colour", ["red", "green"])], when);
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

    await store.seed([seed("colour", ["red", "green", "blue"])], when);
    const upgraded = (await store.byName("colour"))!;
    expect(upgraded.values.map((value) => value.value)).toEqual(["red", "teal", "blue"]);
    expect(upgraded.lock_version).toBe(2);
    await store.seed([seed("colour", ["red", "green", "blue"])], when);
    expect((await store.byName("colour"))!.lock_version).toBe(2);
  });

  it("puts back a read-only value missing from the store", async () => {
    const store = await freshStore();
    await store.seed([seed("colour", ["red", "green"])], when);
    const stored = (await store.byName("colour"))!;
    await store.update(stored.id, 0, { values: [stored.values[0]!] }, updateStamp(trusted("admin"), when));
    await store.seed([seed("colour", ["red", "green"], ["green"])], when);
    expect((await store.byName("colour"))!.values.map((value) => value.value)).toEqual(["red", "green"]);
  });

  it("two processes seeding the same new store at once both succeed, with one copy of each", async () => {
    const store = await freshStore();
    const other = new EnumerationStore(connection.useDb(`enumeration_store_${dbCount}`));
    await Promise.all([store.seed([seed("colour", ["red"])], when), other.seed([seed("colour", ["red"])], when)]);
    expect((await store.all()).map((doc) => doc.name)).toEqual(["colour"]);
  });
});

describe("the values cache", () => {
  it("sees its own process's writes at once, another's after its time to live", async () => {
    const store = await freshStore();
    await store.seed([seed("colour", ["red", "green"])], when);
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
    const cache = new EnumerationCache(store, new Map([["colour", seed("colour", ["red"])]]));
    await cache.ready();
    expect(cache.valuesOf("colour")).toEqual(["red"]);
    expect(cache.valuesOf("unknown")).toBeUndefined();
  });

  it("loads once for concurrent callers", async () => {
    const store = await freshStore();
    await store.seed([seed("colour", ["red"])], when);
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
