/**
 * When compactions run: a compaction writes the whole state again, so once there is a snapshot the engine waits for
 * the journal to grow by as much as that snapshot holds (or compactAfterBytes, whichever is larger), after a restart
 * too: writes then cost at most twice over, instead of the whole state once per compactAfterBytes of journal.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import { MongoClient } from "mongodb";
import { startEngine, type RunningEngine } from "../../../src/embedded-mongo/index.js";
import { closeQuietly, freshDir, removeDir } from "./helpers.js";

const KIB = 1024;

let dataDir: string | undefined;
let running: RunningEngine | undefined;
let client: MongoClient | undefined;

afterEach(async () => {
  await closeQuietly(client);
  await running?.close();
  await removeDir(dataDir);
  running = undefined;
  client = undefined;
});

/** The engine on `dir`, counting the compactions it starts (and keeping the last, to wait for it). */
async function open(dir: string) {
  running = await startEngine({ port: 0, dataDir: dir, fsync: "always", compactAfterBytes: 16 * KIB });
  const engine = running.engine;
  const compact = engine.compact.bind(engine);
  const started = { count: 0, last: Promise.resolve() };
  engine.compact = () => {
    started.count++;
    started.last = compact();
    return started.last;
  };
  client = new MongoClient(running.uri, { serverSelectionTimeoutMS: 3000 });
  const docs = client.db("t").collection<{ _id: number; pad: string }>("c");
  let next = 0;
  /** Inserts `count` documents of about `bytes` each, one write each. */
  const insert = async (count: number, bytes: number) => {
    for (let i = 0; i < count; i++) await docs.insertOne({ _id: next++, pad: "p".repeat(bytes) });
  };
  return { started, docs, insert, skipTo: (id: number) => (next = id) };
}

describe("compaction threshold", () => {
  it("waits for the journal to grow by the last snapshot's size, before and after a restart", async () => {
    dataDir = await freshDir("compaction-threshold");
    const first = await open(dataDir);
    await first.insert(1, 256 * KIB);
    expect(first.started.count).toBe(1);
    await first.started.last;
    // 160 KiB of journal: ten times compactAfterBytes, less than the snapshot's 256 KiB.
    await first.insert(40, 4 * KIB);
    expect(first.started.count).toBe(1);
    await first.insert(30, 4 * KIB);
    expect(first.started.count).toBe(2);
    await first.started.last;

    await closeQuietly(client);
    await running?.close();
    const second = await open(dataDir);
    second.skipTo(71);
    expect(await second.docs.countDocuments()).toBe(71);
    // The snapshot read at start (about 530 KiB) sets the threshold as the one written did.
    await second.insert(60, 4 * KIB);
    expect(second.started.count).toBe(0);
    await second.insert(100, 4 * KIB);
    expect(second.started.count).toBe(1);
    await second.started.last;
    expect(await second.docs.countDocuments()).toBe(231);
  });
});
