// Handshake and administrative commands a driver or shell issues on connect.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import { MongoClient, ObjectId } from "mongodb";
import os from "node:os";
import { openTarget, type Target } from "../target.js";
import { expectCode, namer, type Loose } from "./helpers.js";

let t: Target;
const next = namer("conn");
beforeAll(async () => {
  t = await openTarget();
});
afterAll(() => t.stop());

describe("connection and handshake", () => {
  it("ping answers ok: 1", async () => {
    const res = await t.client.db("admin").command({ ping: 1 });
    expect(res.ok).toBe(1);
  });

  it("ping works against the test database too", async () => {
    const res = await t.db.command({ ping: 1 });
    expect(res.ok).toBe(1);
  });

  it("hello describes a writable replica-set primary", async () => {
    const res = await t.client.db("admin").command({ hello: 1 });
    expect(res.ok).toBe(1);
    expect(res.isWritablePrimary).toBe(true);
    expect(res.secondary).toBe(false);
    expect(typeof res.setName).toBe("string");
    expect(res.setName.length).toBeGreaterThan(0);
    expect(Array.isArray(res.hosts)).toBe(true);
    expect(res.hosts.length).toBeGreaterThanOrEqual(1);
    expect(typeof res.primary).toBe("string");
    expect(res.hosts).toContain(res.primary);
    expect(res.maxWireVersion).toBeGreaterThanOrEqual(9);
    expect(res.minWireVersion).toBeLessThanOrEqual(res.maxWireVersion);
    expect(res.logicalSessionTimeoutMinutes).toEqual(expect.any(Number));
    expect(res.logicalSessionTimeoutMinutes).toBeGreaterThan(0);
  });

  it("hello reports the wire limits MongoDB uses", async () => {
    const res = await t.client.db("admin").command({ hello: 1 });
    expect(res.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    expect(res.maxMessageSizeBytes).toBe(48_000_000);
    expect(res.maxWriteBatchSize).toBe(100_000);
    expect(res.localTime).toBeInstanceOf(Date);
    expect(Math.abs(res.localTime.getTime() - Date.now())).toBeLessThan(60_000);
    expect(res.readOnly).toBe(false);
    expect(res.connectionId).toEqual(expect.any(Number));
  });

  it("legacy isMaster answers with ismaster: true", async () => {
    const res = await t.client.db("admin").command({ isMaster: 1 });
    expect(res.ok).toBe(1);
    expect(res.ismaster).toBe(true);
    expect(typeof res.setName).toBe("string");
    expect(res.maxWireVersion).toBeGreaterThanOrEqual(9);
  });

  it("buildInfo carries a semantic version string and versionArray", async () => {
    const res = await t.client.db("admin").command({ buildInfo: 1 });
    expect(res.ok).toBe(1);
    expect(res.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Array.isArray(res.versionArray)).toBe(true);
    expect(res.versionArray.length).toBe(4);
    const [major, minor] = String(res.version).split(".").map(Number);
    expect(res.versionArray[0]).toBe(major);
    expect(res.versionArray[1]).toBe(minor);
    expect(res.maxBsonObjectSize).toBe(16 * 1024 * 1024);
  });

  it("serverStatus answers ok with host, version and uptime", async () => {
    const res = await t.client.db("admin").command({ serverStatus: 1 });
    expect(res.ok).toBe(1);
    expect(typeof res.host).toBe("string");
    expect(typeof res.version).toBe("string");
    expect(res.uptime).toEqual(expect.any(Number));
    expect(res.uptime).toBeGreaterThanOrEqual(0);
    expect(res.localTime).toBeInstanceOf(Date);
  });

  it("connectionStatus answers ok with authInfo", async () => {
    const res = await t.client.db("admin").command({ connectionStatus: 1 });
    expect(res.ok).toBe(1);
    expect(res.authInfo).toEqual(expect.objectContaining({ authenticatedUsers: expect.any(Array) }));
  });

  it("listDatabases includes the test database after a write", async () => {
    await t.db.collection<Loose>(next()).insertOne({ x: 1 });
    const res = await t.client.db("admin").admin().listDatabases();
    const names = res.databases.map((d) => d.name);
    expect(names).toContain(t.db.databaseName);
    const mine = res.databases.find((d) => d.name === t.db.databaseName)!;
    expect(mine.empty).toBe(false);
  });

  it("listDatabases with nameOnly returns names only", async () => {
    await t.db.collection<Loose>(next()).insertOne({ x: 1 });
    const res = await t.client.db("admin").command({ listDatabases: 1, nameOnly: true });
    expect(res.ok).toBe(1);
    const mine = res.databases.find((d: { name: string }) => d.name === t.db.databaseName);
    expect(mine).toEqual({ name: t.db.databaseName });
  });

  it("listDatabases does not list a database that was never written", async () => {
    const ghost = `${t.db.databaseName}_ghost`;
    t.client.db(ghost); // a handle alone creates nothing
    const res = await t.client.db("admin").admin().listDatabases();
    expect(res.databases.map((d) => d.name)).not.toContain(ghost);
  });

  it("an unknown command fails with 59 CommandNotFound", async () => {
    const err = await expectCode(t.db.command({ noSuchCommand: 1 }), 59);
    expect(err.codeName).toBe("CommandNotFound");
    expect(err.message).toContain("noSuchCommand");
  });

  it("dbStats reports collection and object counts", async () => {
    const db = t.client.db(`${t.db.databaseName}_stats`);
    try {
      await db.collection<Loose>("a").insertMany([{ i: 1 }, { i: 2 }, { i: 3 }]);
      await db.collection<Loose>("b").insertOne({ i: 1 });
      const res = await db.command({ dbStats: 1 });
      expect(res.ok).toBe(1);
      expect(res.db).toBe(db.databaseName);
      expect(res.collections).toBe(2);
      expect(res.objects).toBe(4);
    } finally {
      await db.dropDatabase();
    }
  });

  it("a second client sees the first client's committed writes", async () => {
    const name = next();
    const id = new ObjectId();
    await t.db.collection<Loose>(name).insertOne({ _id: id, v: "hello" });
    const other = await MongoClient.connect(t.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const doc = await other.db(t.db.databaseName).collection<Loose>(name).findOne({ _id: id });
      expect(doc).toEqual({ _id: id, v: "hello" });
    } finally {
      await other.close();
    }
  });

  it("many concurrent operations on a pooled client all succeed", async () => {
    const coll = t.db.collection<Loose>(next());
    await Promise.all(Array.from({ length: 50 }, (_, i) => coll.insertOne({ i })));
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => coll.findOne({ i })));
    expect(results.every((d, i) => d?.i === i)).toBe(true);
    expect(await coll.countDocuments()).toBe(50);
  });

  it("endSessions is accepted", async () => {
    const session = t.client.startSession();
    await t.db.collection<Loose>(next()).insertOne({ a: 1 }, { session });
    const res = await t.client.db("admin").command({ endSessions: [session.id] });
    expect(res.ok).toBe(1);
    await session.endSession();
  });

  it("refreshSessions is accepted for a live session", async () => {
    const session = t.client.startSession();
    try {
      await t.db.collection<Loose>(next()).insertOne({ a: 1 }, { session });
      expect((await t.client.db("admin").command({ refreshSessions: [session.id] })).ok).toBe(1);
    } finally {
      await session.endSession();
    }
  });

  it("buildinfo (lower case) is an alias of buildInfo", async () => {
    const [upper, lower] = await Promise.all([
      t.client.db("admin").command({ buildInfo: 1 }),
      t.client.db("admin").command({ buildinfo: 1 }),
    ]);
    expect(lower.version).toBe(upper.version);
  });

  it("hostInfo describes the machine", async () => {
    const res = await t.client.db("admin").command({ hostInfo: 1 });
    expect(res.system.numCores).toBeGreaterThan(0);
    expect(typeof res.system.hostname).toBe("string");
    expect(res.system.currentTime).toBeInstanceOf(Date);
    // The embedded engine runs on this machine.
    if (t.embedded) expect(res.system.numCores).toBe(os.cpus().length);
  });

  it("getParameter returns what was asked for and rejects unknown parameters with 72", async () => {
    const res = await t.client.db("admin").command({ getParameter: 1, featureCompatibilityVersion: 1 });
    expect(res.featureCompatibilityVersion.version).toMatch(/^\d+\.\d+$/);
    await expectCode(t.client.db("admin").command({ getParameter: 1, noSuchParameterAtAll: 1 }), 72);
  });

  it("getCmdLineOpts reports the process arguments", async () => {
    const res = await t.client.db("admin").command({ getCmdLineOpts: 1 });
    expect(Array.isArray(res.argv)).toBe(true);
    expect(res.argv.length).toBeGreaterThan(0);
    expect(typeof res.parsed).toBe("object");
  });

  it("getLog lists its logs and returns startupWarnings as an array", async () => {
    const names = await t.client.db("admin").command({ getLog: "*" });
    expect(names.names).toContain("startupWarnings");
    const warnings = await t.client.db("admin").command({ getLog: "startupWarnings" });
    expect(Array.isArray(warnings.log)).toBe(true);
  });
});
