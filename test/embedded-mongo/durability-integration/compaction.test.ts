/**
 * Compaction under load, with the engine in this process: inserts, updates, replaces,
 * deletes, transactions and collection create/drop run concurrently with compactions
 * (a small compactAfterBytes, plus explicit engine.compact() calls in a loop). After a
 * close and a reopen on the same directory the state is exactly what the clients last
 * saw, and a compacted directory holds one snapshot and no journal of an older generation.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { BSON, MongoClient, type Collection, type Db, type Document } from "mongodb";
import { readdir } from "node:fs/promises";
import { startEngine, type RunningEngine } from "../../../src/embedded-mongo/index.js";
import {
  LOCK_FILE_NAME,
  journalFileName,
  snapshotFileName,
} from "../../../src/embedded-mongo/durability/data-directory.js";
import { closeQuietly, freshDir, removeDir, sleep } from "./helpers.js";

const DB = "compactdb";
const MAIN = "main";
const TXN = "txn";
const TURNS = "turns";
const COMPACT_AFTER = 64 * 1024;
const WORKERS = 6;
const IDS_PER_WORKER = 40;
const OPS_PER_WORKER = 220;
const PAD = "p".repeat(300);

let dataDir: string;
let running: RunningEngine | undefined;
let client: MongoClient | undefined;

/** Documents here have string _ids. */
type Doc = Document & { _id: string };

function collection(db: Db, name: string): Collection<Doc> {
  return db.collection<Doc>(name);
}

/** Byte-for-byte equality of two states, field order included. */
function sameBytes(a: Document, b: Document): boolean {
  return Buffer.from(BSON.serialize(a)).equals(Buffer.from(BSON.serialize(b)));
}

/** What the clients last saw: collection name -> _id -> document. */
type Model = Map<string, Map<string, Document>>;
const model: Model = new Map();

function coll(name: string): Map<string, Document> {
  let docs = model.get(name);
  if (!docs) model.set(name, (docs = new Map()));
  return docs;
}

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function open(): Promise<Db> {
  running = await startEngine({ port: 0, dataDir, fsync: "always", compactAfterBytes: COMPACT_AFTER });
  client = new MongoClient(running.uri, { serverSelectionTimeoutMS: 3000 });
  await client.connect();
  return client.db(DB);
}

async function close(): Promise<void> {
  await closeQuietly(client);
  client = undefined;
  await running?.close();
  running = undefined;
}

/** Full contents of every collection, sorted by _id, with their index specs. */
async function dump(db: Db): Promise<Document> {
  const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
  const out: Document = {};
  for (const name of names) {
    out[name] = {
      indexes: (await db.collection(name).listIndexes().toArray()).sort((a, b) =>
        String(a.name).localeCompare(String(b.name)),
      ),
      docs: await db.collection(name).find({}).sort({ _id: 1 }).toArray(),
    };
  }
  return out;
}

function expectMatchesModel(state: Document): void {
  const names = [...model.keys()].filter((name) => model.get(name)!.size > 0 || name in state).sort();
  expect(Object.keys(state).sort()).toEqual(names);
  for (const name of names) {
    const expected = [...model.get(name)!.values()].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    expect(state[name].docs).toEqual(expected);
  }
}

/** Random single-document operations on the worker's own ids, mirrored into the model. */
async function crudWorker(db: Db, w: number, ops: number): Promise<void> {
  const random = prng(1000 + w);
  const c = collection(db, MAIN);
  const docs = coll(MAIN);
  for (let op = 0; op < ops; op++) {
    const id = `w${w}-${String(Math.floor(random() * IDS_PER_WORKER)).padStart(3, "0")}`;
    const current = docs.get(id);
    const r = Math.round(random() * 1e6);
    if (!current) {
      const doc = { _id: id, w, u: `u-${id}`, v: r, c: 0, tags: [] as string[], pad: PAD };
      await c.insertOne(doc);
      docs.set(id, structuredClone(doc));
      continue;
    }
    switch (Math.floor(random() * 7)) {
      case 0: {
        const res = await c.updateOne({ _id: id }, { $set: { v: r, "sub.x": op } });
        expect(res.modifiedCount).toBe(1);
        current.v = r;
        current.sub = { ...(current.sub ?? {}), x: op };
        break;
      }
      case 1:
        await c.updateOne({ _id: id }, { $inc: { c: 3 }, $push: { tags: `t${op}` } as Document });
        current.c += 3;
        current.tags.push(`t${op}`);
        break;
      case 2: {
        const replacement = { w, u: `u-${id}`, v: r, c: current.c, tags: [], pad: PAD, replaced: op };
        await c.replaceOne({ _id: id }, replacement);
        docs.set(id, { _id: id, ...replacement });
        break;
      }
      case 3: {
        const res = await c.deleteOne({ _id: id });
        expect(res.deletedCount).toBe(1);
        docs.delete(id);
        break;
      }
      case 4: {
        const after = await c.findOneAndUpdate({ _id: id }, { $inc: { c: 1 } }, { returnDocument: "after" });
        current.c += 1;
        expect(after).toEqual(current);
        break;
      }
      case 5:
        await c.updateOne({ _id: id }, { $unset: { sub: "" }, $set: { pad: PAD.slice(0, 50 + (r % 250)) } });
        delete current.sub;
        current.pad = PAD.slice(0, 50 + (r % 250));
        break;
      default: {
        // A multi-document update over this worker's documents only.
        const threshold = Math.round(random() * 1e6);
        const res = await c.updateMany({ w, v: { $lt: threshold } }, { $inc: { m: 1 } });
        let n = 0;
        for (const doc of docs.values()) {
          if (doc.w === w && doc.v < threshold) {
            doc.m = (doc.m ?? 0) + 1;
            n++;
          }
        }
        expect(res.modifiedCount).toBe(n);
      }
    }
  }
}

/** Transactions that insert two documents and bump a counter; every fourth is aborted. */
async function transactionWorker(db: Db, mongo: MongoClient, rounds: number, start: number): Promise<void> {
  const c = collection(db, TXN);
  const docs = coll(TXN);
  if (!docs.has("counter")) {
    await c.insertOne({ _id: "counter", n: 0 });
    docs.set("counter", { _id: "counter", n: 0 });
  }
  const session = mongo.startSession();
  try {
    for (let round = start; round < start + rounds; round++) {
      session.startTransaction();
      const a = { _id: `r${round}-a`, round, pad: PAD };
      const b = { _id: `r${round}-b`, round, pad: PAD };
      await c.insertMany([a, b], { session });
      await c.updateOne({ _id: "counter" }, { $inc: { n: 1 } }, { session });
      if (round % 4 === 3) {
        await session.abortTransaction();
        continue;
      }
      await session.commitTransaction();
      docs.set(a._id, a);
      docs.set(b._id, b);
      docs.get("counter")!.n += 1;
    }
  } finally {
    await session.endSession();
  }
}

/** Creates indexed side collections, fills them, drops every other one. */
async function collectionsWorker(db: Db, count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const name = `${prefix}${i}`;
    await db.collection(name).createIndex({ a: 1 }, { unique: true, name: "a_unique" });
    const docs = Array.from({ length: 25 }, (_, j) => ({
      _id: `${name}-${String(j).padStart(2, "0")}`,
      a: j,
      pad: PAD,
    }));
    await collection(db, name).insertMany(docs);
    coll(name);
    for (const doc of docs) model.get(name)!.set(doc._id, structuredClone(doc));
    if (i % 2 === 1) {
      await db.collection(name).drop();
      model.delete(name);
    }
  }
}

/** Compacts in a loop until `done` is set; returns how many compactions it ran. */
async function compactor(done: { value: boolean }): Promise<number> {
  let n = 0;
  while (!done.value) {
    await running!.engine.compact();
    n++;
    await sleep(15);
  }
  return n;
}

async function runLoad(db: Db, phase: number): Promise<{ explicit: number }> {
  const done = { value: false };
  const compactions = compactor(done);
  try {
    await Promise.all([
      ...Array.from({ length: WORKERS }, (_, w) => crudWorker(db, w + phase * WORKERS, OPS_PER_WORKER)),
      transactionWorker(db, client!, 40, phase * 100),
      collectionsWorker(db, 6, `side${phase}_`),
    ]);
  } finally {
    done.value = true;
  }
  return { explicit: await compactions };
}

function generations(names: string[], pattern: RegExp): number[] {
  return names
    .map((name) => pattern.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

const SNAPSHOT = /^snapshot\.(\d{12})\.bson$/;
const JOURNAL = /^journal\.(\d{12})\.log$/;

beforeAll(async () => {
  dataDir = await freshDir("compaction");
});

afterAll(async () => {
  await close().catch(() => undefined);
  await removeDir(dataDir);
});

describe("compaction under concurrent writes", () => {
  let lastSeen: Document;

  it("phase 1: a close during load-driven compactions, then a reopen, keeps exactly the last state", async () => {
    const db = await open();
    await db.collection(MAIN).createIndex({ u: 1 }, { unique: true, name: "u_unique" });
    await db.collection(MAIN).createIndex({ w: 1, v: 1 }, { name: "w_v" });
    const { explicit } = await runLoad(db, 0);
    expect(explicit).toBeGreaterThan(2);
    const generationBefore = generations(await readdir(dataDir), JOURNAL).at(-1)!;
    expect(generationBefore).toBeGreaterThan(5);

    lastSeen = await dump(db);
    expectMatchesModel(lastSeen);
    expect(lastSeen[MAIN].docs.length).toBeGreaterThan(50);
    expect(lastSeen[TXN].docs.find((d: Document) => d._id === "counter")).toEqual({ _id: "counter", n: 30 });
    await close();

    const reopened = await open();
    expect(running!.engine.recovery!.snapshotRecords).toBeGreaterThan(0);
    const recovered = await dump(reopened);
    // Byte for byte, field order included.
    expect(sameBytes(recovered, lastSeen)).toBe(true);
    expect(recovered).toEqual(lastSeen);
  });

  it("phase 2: more load on the recovered state; the unique indexes hold through compactions", async () => {
    const db = client!.db(DB);
    await runLoad(db, 1);
    lastSeen = await dump(db);
    expectMatchesModel(lastSeen);
    const anyDoc = lastSeen[MAIN].docs[0] as Document;
    await expect(collection(db, MAIN).insertOne({ _id: "dup", u: anyDoc.u })).rejects.toMatchObject({ code: 11000 });
    await expect(db.collection("side1_0").insertOne({ a: 3 })).rejects.toMatchObject({ code: 11000 });
  });

  it("writes landing in any event-loop turn of a compaction are neither lost nor replayed twice", async () => {
    // Commands go straight to engine.execute, one per event-loop turn, so some land in
    // every step of each compaction: before and right after the journal switch, while the
    // snapshot file is being opened and written, and around the rename.
    const engine = running!.engine;
    const docs = coll(TURNS);
    let n = 0;
    for (let round = 0; round < 12; round++) {
      let finished = false;
      const compaction = engine.compact().finally(() => {
        finished = true;
      });
      const acks: Array<Promise<void>> = [];
      while (!finished) {
        const doc = { _id: `t-${String(n++).padStart(6, "0")}`, round };
        acks.push(
          engine.execute({ insert: TURNS, documents: [doc], ordered: true }, DB, 0).then((reply) => {
            expect(reply).toMatchObject({ ok: 1, n: 1 });
            docs.set(doc._id, doc);
          }),
        );
        await new Promise((resolve) => setImmediate(resolve));
      }
      await compaction;
      await Promise.all(acks);
    }
    expect(n).toBeGreaterThan(12);

    const db = client!.db(DB);
    lastSeen = await dump(db);
    expectMatchesModel(lastSeen);
    // Recover from the last snapshot plus the journal written during its creation.
    await close();
    const reopened = await open();
    expect(running!.engine.recovery!.journalRecords).toBeGreaterThan(0);
    const recovered = await dump(reopened);
    expect(recovered[TURNS].docs).toHaveLength(docs.size);
    expect(sameBytes(recovered, lastSeen)).toBe(true);
    // _id stays unique after recovering from a snapshot.
    await expect(collection(reopened, TURNS).insertOne({ _id: "t-000000" })).rejects.toMatchObject({ code: 11000 });
    await expect(
      collection(reopened, MAIN).insertOne({ _id: (lastSeen[MAIN].docs[0] as Doc)._id }),
    ).rejects.toMatchObject({ code: 11000 });
  });

  it("after a compaction the directory holds one snapshot and only the current journal", async () => {
    await running!.engine.compact();
    const names = (await readdir(dataDir)).sort();
    const snapshots = generations(names, SNAPSHOT);
    const journals = generations(names, JOURNAL);
    expect(snapshots).toHaveLength(1);
    const g = snapshots[0];
    expect(journals).toEqual([g]);
    expect(names).toEqual([journalFileName(g), LOCK_FILE_NAME, snapshotFileName(g)].sort());

    await close();
    const closedNames = (await readdir(dataDir)).sort();
    // A graceful close releases the lock and adds nothing else.
    expect(closedNames).toEqual([journalFileName(g), snapshotFileName(g)].sort());

    const db = await open();
    const stats = running!.engine.recovery!;
    expect(stats.generation).toBe(g);
    expect(stats.journalRecords).toBe(0);
    expect(stats.truncatedBytes).toBe(0);
    expect(stats.snapshotRecords).toBeGreaterThan(0);
    const recovered = await dump(db);
    expect(sameBytes(recovered, lastSeen)).toBe(true);
    expectMatchesModel(recovered);
  });
});
