// Collection and database lifecycle: create, list, drop, rename, dropDatabase.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import type { Document } from "mongodb";
import { openTarget, type Target } from "../target.js";
import { expectCode, namer, type Loose } from "./helpers.js";

let t: Target;
const next = namer("coll");
beforeAll(async () => {
  t = await openTarget();
});
afterAll(() => t.stop());

const listed = async (filter = {}) =>
  (await t.db.listCollections(filter, { nameOnly: true }).toArray()).map((c) => c.name).sort();

describe("create and list", () => {
  it("createCollection creates an empty collection that is listed", async () => {
    const name = next();
    const coll = await t.db.createCollection(name);
    expect(coll.collectionName).toBe(name);
    expect(await listed()).toContain(name);
    expect(await coll.countDocuments()).toBe(0);
  });

  it("create on an existing collection fails with 48 (NamespaceExists)", async () => {
    const name = next();
    await t.db.command({ create: name });
    const err = await expectCode(t.db.command({ create: name }), 48);
    expect(err.codeName).toBe("NamespaceExists");
  });

  it("the first insert implicitly creates the collection", async () => {
    const name = next();
    expect(await listed({ name })).toEqual([]);
    await t.db.collection<Loose>(name).insertOne({ a: 1 });
    expect(await listed({ name })).toEqual([name]);
  });

  it("listCollections returns full entries with type, options, info and idIndex", async () => {
    const name = next();
    await t.db.createCollection(name);
    const [entry] = (await t.db.listCollections({ name }, { nameOnly: false }).toArray()) as Document[];
    expect(entry.name).toBe(name);
    expect(entry.type).toBe("collection");
    expect(entry.options).toEqual({});
    expect(entry.info).toEqual(expect.objectContaining({ readOnly: false }));
    expect(entry.idIndex).toEqual(expect.objectContaining({ key: { _id: 1 }, name: "_id_" }));
  });

  it("listCollections with nameOnly returns only name and type", async () => {
    const name = next();
    await t.db.createCollection(name);
    const entries = await t.db.listCollections({ name }, { nameOnly: true }).toArray();
    expect(entries).toEqual([{ name, type: "collection" }]);
  });

  it("listCollections filters by name with operators", async () => {
    const base = next();
    await t.db.createCollection(`${base}_x`);
    await t.db.createCollection(`${base}_y`);
    await t.db.createCollection(`${base}_z`);
    expect(await listed({ name: { $in: [`${base}_x`, `${base}_z`] } })).toEqual([`${base}_x`, `${base}_z`]);
    expect(await listed({ name: new RegExp(`^${base}_[xy]$`) })).toEqual([`${base}_x`, `${base}_y`]);
    expect(await listed({ name: "does_not_exist" })).toEqual([]);
  });

  it("collections in different databases are isolated", async () => {
    const other = t.client.db(`${t.db.databaseName}_iso`);
    try {
      const name = next();
      await other.collection<Loose>(name).insertOne({ where: "other" });
      expect(await listed({ name })).toEqual([]);
      expect(await t.db.collection<Loose>(name).countDocuments()).toBe(0);
      expect(await other.collection<Loose>(name).countDocuments()).toBe(1);
    } finally {
      await other.dropDatabase();
    }
  });

  it("collection names may contain dots", async () => {
    const name = `${next()}.sub.part`;
    await t.db.collection<Loose>(name).insertOne({ a: 1 });
    expect(await listed({ name })).toEqual([name]);
    expect(await t.db.collection<Loose>(name).countDocuments()).toBe(1);
  });
});

describe("drop", () => {
  it("drop removes the collection, its documents and its indexes", async () => {
    const name = next();
    const coll = t.db.collection<Loose>(name);
    await coll.insertMany([{ a: 1 }, { a: 2 }]);
    await coll.createIndex({ a: 1 });
    expect(await coll.drop()).toBe(true);
    expect(await listed({ name })).toEqual([]);
    expect(await coll.countDocuments()).toBe(0);
    await coll.insertOne({ a: 3 });
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);
  });

  it("dropping a missing collection does not throw and creates nothing", async () => {
    const name = next();
    const res = await t.db.collection<Loose>(name).drop();
    expect(typeof res).toBe("boolean");
    expect(await listed({ name })).toEqual([]);
  });

  it("dropDatabase removes every collection and the database listing", async () => {
    const db = t.client.db(`${t.db.databaseName}_drop`);
    await db.collection<Loose>("a").insertOne({ x: 1 });
    await db.collection<Loose>("b").insertOne({ x: 1 });
    expect(await db.dropDatabase()).toBe(true);
    expect(await db.listCollections().toArray()).toEqual([]);
    const dbs = await t.client.db("admin").admin().listDatabases();
    expect(dbs.databases.map((d) => d.name)).not.toContain(db.databaseName);
    expect(await db.collection<Loose>("a").countDocuments()).toBe(0);
  });
});

describe("renameCollection", () => {
  it("rename moves documents and indexes to the new name", async () => {
    const from = next();
    const to = next();
    const coll = t.db.collection<Loose>(from);
    await coll.insertMany([{ _id: 1 }, { _id: 2 }]);
    await coll.createIndex({ k: 1 });
    const renamed = await coll.rename(to);
    expect(renamed.collectionName).toBe(to);
    expect(await listed({ name: { $in: [from, to] } })).toEqual([to]);
    expect(await t.db.collection<Loose>(to).countDocuments()).toBe(2);
    expect((await t.db.collection<Loose>(to).listIndexes().toArray()).map((i) => i.name).sort()).toEqual([
      "_id_",
      "k_1",
    ]);
  });

  it("rename onto an existing collection fails with 48 unless dropTarget", async () => {
    const a = next();
    const b = next();
    await t.db.collection<Loose>(a).insertOne({ from: "a" });
    await t.db.collection<Loose>(b).insertOne({ from: "b" });
    await expectCode(t.db.collection<Loose>(a).rename(b), 48);
    expect(await t.db.collection<Loose>(b).findOne({}, { projection: { _id: 0 } })).toEqual({ from: "b" });
    await t.db.collection<Loose>(a).rename(b, { dropTarget: true });
    expect(
      await t.db
        .collection<Loose>(b)
        .find({}, { projection: { _id: 0 } })
        .toArray(),
    ).toEqual([{ from: "a" }]);
    expect(await listed({ name: a })).toEqual([]);
  });

  it("renaming a missing collection fails with 26 (NamespaceNotFound)", async () => {
    await expectCode(t.db.collection<Loose>(next()).rename(next()), 26);
  });

  it("renameCollection admin command across databases moves the data", async () => {
    const other = t.client.db(`${t.db.databaseName}_ren`);
    try {
      const name = next();
      await t.db.collection<Loose>(name).insertOne({ _id: "moved" });
      const res = await t.client.db("admin").command({
        renameCollection: `${t.db.databaseName}.${name}`,
        to: `${other.databaseName}.${name}`,
      });
      expect(res.ok).toBe(1);
      expect(await t.db.collection<Loose>(name).countDocuments()).toBe(0);
      expect(await other.collection<Loose>(name).find().toArray()).toEqual([{ _id: "moved" }]);
    } finally {
      await other.dropDatabase();
    }
  });
});
