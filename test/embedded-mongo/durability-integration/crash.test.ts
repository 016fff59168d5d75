/**
 * The crash test, against the engine as a separate process (the compiled CLI,
 * fsync "always"): concurrent writers on separate connections, a committed and an open
 * transaction, then SIGKILL mid-stream. After a restart on the same data directory (the
 * dead process's lock is taken over) every acknowledged write is there, the committed
 * transaction is there, the open one is not, and the unique index still holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { MongoClient, type ClientSession, type Collection, type Document } from "mongodb";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { spawnEngine, type EngineProcess } from "../../../src/embedded-mongo/launcher.js";
import { LOCK_FILE_NAME } from "../../../src/embedded-mongo/durability/data-directory.js";
import { closeQuietly, errorCodeOf, freshDir, removeDir, sleep, stopQuietly } from "./helpers.js";

const WRITERS = 4;
const WRITE_MS = 1200;
const DB = "crashdb";
const COLL = "items";

const clientOptions = { retryWrites: false, serverSelectionTimeoutMS: 2000, connectTimeoutMS: 2000 } as const;

let dataDir: string;
const engines: EngineProcess[] = [];
const clients: MongoClient[] = [];

async function connect(uri: string): Promise<MongoClient> {
  const client = new MongoClient(uri, clientOptions);
  clients.push(client);
  await client.connect();
  return client;
}

beforeAll(async () => {
  dataDir = await freshDir("crash");
});

afterAll(async () => {
  for (const client of clients) await closeQuietly(client);
  for (const engine of engines) await stopQuietly(engine);
  await removeDir(dataDir);
});

interface WriterResult {
  /** Every n whose insert resolved, in order. */
  acknowledged: number[];
  /** The error that ended the loop (expected: the kill). */
  ended?: unknown;
}

/** Inserts `{k: "w<i>-<n>", w: i, n}` for n = 0, 1, ... one at a time until an insert fails. */
async function writer(coll: Collection<Document>, i: number, stop: { requested: boolean }): Promise<WriterResult> {
  const result: WriterResult = { acknowledged: [] };
  for (let n = 0; !stop.requested; n++) {
    try {
      await coll.insertOne({ k: `w${i}-${n}`, w: i, n });
    } catch (error) {
      result.ended = error;
      break;
    }
    result.acknowledged.push(n);
  }
  return result;
}

describe("SIGKILL during concurrent writes (fsync: always)", () => {
  const committedKeys = ["txc-0", "txc-1", "txc-2"];
  const openKeys = ["txo-0", "txo-1"];
  let results: WriterResult[] = [];
  let killedPid = 0;
  let recovered: MongoClient;

  beforeAll(async () => {
    const first = await spawnEngine({ dataDir, port: 0, fsync: "always" });
    engines.push(first);
    killedPid = first.pid;

    const admin = await connect(first.uri);
    const coll = admin.db(DB).collection(COLL);
    await coll.createIndex({ k: 1 }, { unique: true, name: "k_unique" });

    // A committed transaction, before the kill.
    const committedSession = admin.startSession();
    committedSession.startTransaction();
    for (const k of committedKeys) await coll.insertOne({ k, txn: "committed" }, { session: committedSession });
    await committedSession.commitTransaction();
    await committedSession.endSession();

    // Writers, each on its own client (its own connections).
    const writerClients = await Promise.all(Array.from({ length: WRITERS }, () => connect(first.uri)));
    const stop = { requested: false };
    const running = writerClients.map((client, i) => writer(client.db(DB).collection(COLL), i, stop));

    // A transaction left open at kill time, on yet another client.
    const openClient = await connect(first.uri);
    const openSession: ClientSession = openClient.startSession();
    openSession.startTransaction();
    for (const k of openKeys)
      await openClient.db(DB).collection(COLL).insertOne({ k, txn: "open" }, { session: openSession });

    await sleep(WRITE_MS);
    await first.kill();
    expect(first.child.signalCode).toBe("SIGKILL");
    stop.requested = true;
    results = await Promise.all(running);

    for (const client of clients) await closeQuietly(client);
    clients.length = 0;

    // The dead process's lock is still on disk: the restart has to take it over.
    expect((await readFile(join(dataDir, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(killedPid));

    const second = await spawnEngine({ dataDir, port: 0, fsync: "always" });
    engines.push(second);
    recovered = await connect(second.uri);
  }, 30_000);

  it("killed the engine while every writer was still writing", () => {
    expect(results).toHaveLength(WRITERS);
    for (const result of results) {
      // Each loop ended because of the kill, not because it was asked to stop.
      expect(result.ended).toBeDefined();
      expect(result.acknowledged.length).toBeGreaterThan(10);
    }
  });

  it("took over the stale lock", async () => {
    const owner = (await readFile(join(dataDir, LOCK_FILE_NAME), "utf8")).trim();
    expect(owner).toBe(String(engines[1].pid));
    expect(owner).not.toBe(String(killedPid));
  });

  it("keeps every acknowledged insert, and nothing but a possible last in-flight one per writer", async () => {
    const docs = await recovered
      .db(DB)
      .collection(COLL)
      .find({ w: { $exists: true } })
      .toArray();
    const present = new Set(docs.map((d) => d.k as string));
    const missing: string[] = [];
    for (let i = 0; i < WRITERS; i++) {
      for (const n of results[i].acknowledged) if (!present.has(`w${i}-${n}`)) missing.push(`w${i}-${n}`);
    }
    expect(missing).toEqual([]);

    // Writers insert one at a time, so writer i's recovered numbers are 0..m-1 where m is
    // its acknowledged count, or one more if the insert in flight at the kill was durable.
    for (let i = 0; i < WRITERS; i++) {
      const ns = docs
        .filter((d) => d.w === i)
        .map((d) => d.n as number)
        .sort((a, b) => a - b);
      const acked = results[i].acknowledged.length;
      expect(ns.length === acked || ns.length === acked + 1).toBe(true);
      expect(ns).toEqual(Array.from({ length: ns.length }, (_, n) => n));
      for (const d of docs.filter((x) => x.w === i)) expect(d.k).toBe(`w${i}-${d.n as number}`);
    }
  });

  it("keeps the committed transaction and drops the open one", async () => {
    const coll = recovered.db(DB).collection(COLL);
    const committed = await coll
      .find({ txn: "committed" }, { projection: { _id: 0 } })
      .sort({ k: 1 })
      .toArray();
    expect(committed).toEqual(committedKeys.map((k) => ({ k, txn: "committed" })));
    expect(await coll.countDocuments({ txn: "open" })).toBe(0);
    expect(await coll.countDocuments({ k: { $in: openKeys } })).toBe(0);
  });

  it("counts at least every acknowledged document", async () => {
    const acknowledged = results.reduce((sum, r) => sum + r.acknowledged.length, 0) + committedKeys.length;
    const count = await recovered.db(DB).collection(COLL).countDocuments({});
    expect(count).toBeGreaterThanOrEqual(acknowledged);
    expect(count).toBeLessThanOrEqual(acknowledged + WRITERS);
    expect(await recovered.db(DB).collection(COLL).estimatedDocumentCount()).toBe(count);
  });

  it("still enforces the unique index after recovery", async () => {
    const coll = recovered.db(DB).collection(COLL);
    const indexes = await coll.listIndexes().toArray();
    const unique = indexes.find((ix) => ix.name === "k_unique");
    expect(unique).toMatchObject({ key: { k: 1 }, unique: true });

    const n = results[0].acknowledged.at(-1)!;
    expect(await errorCodeOf(coll.insertOne({ k: `w0-${n}`, w: 0, n }))).toBe(11000);
    expect(await errorCodeOf(coll.insertOne({ k: committedKeys[0] }))).toBe(11000);
    // The open transaction's keys were never committed, so they are free.
    await coll.insertOne({ k: openKeys[0], after: "recovery" });
    expect(await coll.countDocuments({ k: openKeys[0] })).toBe(1);
  });
});
