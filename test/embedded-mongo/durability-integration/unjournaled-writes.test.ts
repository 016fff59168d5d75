/**
 * A write with `writeConcern: {j: false}` is answered once applied, before its journal record is written, as
 * MongoDB answers it; the record is still queued in order, so the next write that waits for the journal is durable
 * only with it, and a kill after that write loses neither. (Arca's id counters are written so.)
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import { MongoClient } from "mongodb";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Engine } from "../../../src/embedded-mongo/engine.js";
import { spawnEngine, type EngineProcess } from "../../../src/embedded-mongo/launcher.js";
import { closeQuietly, freshDir, removeDir, stopQuietly } from "./helpers.js";

const dirs: string[] = [];
const engines: EngineProcess[] = [];
const clients: MongoClient[] = [];

afterAll(async () => {
  for (const client of clients) await closeQuietly(client);
  for (const engine of engines) await stopQuietly(engine);
  for (const dir of dirs) await removeDir(dir);
});

/** Read synchronously: an asynchronous read would give the journal's queued write its turn first. */
function journalBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir))
    if (name.startsWith("journal.") && name.endsWith(".log")) total += statSync(join(dir, name)).size;
  return total;
}

const insert = (k: string, j?: boolean) => ({
  insert: "items",
  documents: [{ _id: k }],
  ...(j !== undefined && { writeConcern: { j } }),
});

describe("writes with j: false", () => {
  it("are answered before their journal record is written, and made durable by the next write that waits", async () => {
    const dir = await freshDir("unjournaled");
    dirs.push(dir);
    const engine = await Engine.open({ dataDir: dir, fsync: "always" });
    try {
      const empty = journalBytes(dir);
      expect((await engine.execute(insert("a", false), "db", 1)).ok).toBe(1);
      // Answered, and its record not yet in the file.
      expect(journalBytes(dir)).toBe(empty);
      const found = await engine.execute({ find: "items", filter: { _id: "a" } }, "db", 1);
      expect((found.cursor as { firstBatch: unknown[] }).firstBatch).toEqual([{ _id: "a" }]);

      expect((await engine.execute(insert("b", true), "db", 1)).ok).toBe(1);
      const withBoth = journalBytes(dir);
      expect(withBoth).toBeGreaterThan(empty);
      // A write without a write concern waits too: once answered, its record is in the file.
      expect((await engine.execute(insert("c"), "db", 1)).ok).toBe(1);
      expect(journalBytes(dir)).toBeGreaterThan(withBoth);
    } finally {
      await engine.close();
    }
  });

  it("survive a kill after a later acknowledged write, in order", async () => {
    const dir = await freshDir("unjournaled-kill");
    dirs.push(dir);
    const first = await spawnEngine({ dataDir: dir, port: 0, fsync: "always" });
    engines.push(first);
    const client = new MongoClient(first.uri, { retryWrites: false, serverSelectionTimeoutMS: 2000 });
    clients.push(client);
    const counters = client.db("db").collection<{ _id: string; seq: number }>("counters");
    const records = client.db("db").collection<{ _id: number }>("records");
    for (let i = 0; i < 20; i++) {
      const counter = await counters.findOneAndUpdate(
        { _id: "records" },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: "after", writeConcern: { j: false } },
      );
      await records.insertOne({ _id: counter?.seq ?? -1 });
    }
    await first.kill();
    await closeQuietly(client);

    const second = await spawnEngine({ dataDir: dir, port: 0, fsync: "always" });
    engines.push(second);
    const reopened = new MongoClient(second.uri, { serverSelectionTimeoutMS: 2000 });
    clients.push(reopened);
    const db = reopened.db("db");
    expect((await db.collection("records").find().sort({ _id: 1 }).toArray()).map((doc) => doc._id)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    // The counter is at least where the last durable record says: no id handed out again.
    expect((await db.collection("counters").findOne({ _id: "records" as never }))?.seq).toBe(20);
  }, 30_000);
});
