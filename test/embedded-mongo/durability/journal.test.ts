import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Journal } from "../../../src/embedded-mongo/durability/journal.js";
import { RECORD_HEADER_BYTES, scanRecordFile } from "../../../src/embedded-mongo/durability/record-file.js";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "arca-journal-"));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const record = (i: number): Buffer => Buffer.from(`record-${i}`);

async function replay(path: string): Promise<string[]> {
  const out: string[] = [];
  const result = await scanRecordFile(path, (payload) => out.push(Buffer.from(payload).toString()));
  expect(result.tail).toBe("clean");
  return out;
}

/** Lets several event-loop turns pass, so anything that was going to be written has been. */
async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("Journal", () => {
  it("appends, reopens, and replays in order", async () => {
    const path = join(await tempDir(), "journal.log");
    const first = await Journal.open(path, { fsync: "always" });
    for (let i = 0; i < 10; i++) await first.append(record(i));
    await first.close();

    const second = await Journal.open(path, { fsync: "always" });
    expect(second.size).toBe((await stat(path)).size);
    await Promise.all([second.append(record(10)), second.append(record(11))]);
    await second.close();

    expect(await replay(path)).toEqual(Array.from({ length: 12 }, (_, i) => `record-${i}`));
  });

  it("counts pending records in size", async () => {
    const path = join(await tempDir(), "journal.log");
    const journal = await Journal.open(path, { fsync: "always" });
    const pending = journal.append(Buffer.from("12345"));
    expect(journal.size).toBe(RECORD_HEADER_BYTES + 5);
    await pending;
    await journal.close();
    expect((await stat(path)).size).toBe(RECORD_HEADER_BYTES + 5);
  });

  it("group-commits concurrent appends into few writes and syncs", async () => {
    const path = join(await tempDir(), "journal.log");
    const journal = await Journal.open(path, { fsync: "always" });
    const count = 2000;
    const acknowledged: number[] = [];
    await Promise.all(
      Array.from({ length: count }, (_, i) => journal.append(record(i)).then(() => acknowledged.push(i))),
    );
    const stats = journal.stats;
    await journal.close();

    expect(stats.appends).toBe(count);
    expect(stats.writes).toBeLessThan(count / 10);
    expect(stats.syncs).toBe(stats.writes);
    // Acknowledgements arrive in append order.
    expect(acknowledged).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(await replay(path)).toEqual(Array.from({ length: count }, (_, i) => `record-${i}`));
  });

  it("batches appends made while a write is in flight", async () => {
    const path = join(await tempDir(), "journal.log");
    const journal = await Journal.open(path, { fsync: "always" });
    const waves: Promise<void>[] = [];
    // Each wave is appended after the previous wave's first write has started.
    for (let wave = 0; wave < 5; wave++) {
      for (let i = 0; i < 100; i++) waves.push(journal.append(record(wave * 100 + i)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(waves);
    expect(journal.stats.writes).toBeLessThan(50);
    await journal.close();
    expect(await replay(path)).toHaveLength(500);
  });

  it("in interval mode acknowledges after write and syncs in the background", async () => {
    const path = join(await tempDir(), "journal.log");
    const journal = await Journal.open(path, { fsync: "interval", fsyncIntervalMs: 5 });
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append(record(i))));
    expect(journal.stats.writes).toBeGreaterThan(0);
    // Wait (generously, without asserting how long it takes) for the timer.
    for (let waited = 0; journal.stats.syncs === 0 && waited < 10_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(journal.stats.syncs).toBeGreaterThan(0);
    await journal.append(record(50));
    await journal.close();
    expect(await replay(path)).toHaveLength(51);
  });

  it("flushes pending appends on close", async () => {
    const path = join(await tempDir(), "journal.log");
    const journal = await Journal.open(path, { fsync: "interval", fsyncIntervalMs: 60_000 });
    const appends = Array.from({ length: 20 }, (_, i) => journal.append(record(i)));
    await journal.close();
    await Promise.all(appends);
    expect(journal.stats.syncs).toBeGreaterThan(0);
    expect(await replay(path)).toHaveLength(20);
    // close() is idempotent
    await journal.close();
  });

  it("rejects appends after close and empty payloads", async () => {
    const path = join(await tempDir(), "journal.log");
    const journal = await Journal.open(path, { fsync: "always" });
    await expect(journal.append(new Uint8Array(0))).rejects.toThrow(/empty/);
    await journal.close();
    await expect(journal.append(record(1))).rejects.toThrow(/closed/);
    expect((await stat(path)).size).toBe(0);
  });

  it("rejects invalid options before creating anything", async () => {
    const dir = await tempDir();
    await expect(Journal.open(join(dir, "j.log"), { fsync: "interval", fsyncIntervalMs: 0 })).rejects.toThrow(
      RangeError,
    );
    await expect(Journal.open(join(dir, "j.log"), { fsync: "never" as "always" })).rejects.toThrow(TypeError);
    expect(await readdir(dir)).toEqual([]);
  });

  const linuxFull = process.platform === "linux" && existsSync("/dev/full");
  (linuxFull ? it : it.skip)(
    "is fail-stop: a failed write rejects it, everything queued, and every later append",
    async () => {
      // Every write(2) to /dev/full fails with ENOSPC.
      const journal = await Journal.open("/dev/full", { fsync: "always" });
      const first = Array.from({ length: 10 }, (_, i) => journal.append(record(i)));
      const results = await Promise.allSettled(first);
      expect(results.every((r) => r.status === "rejected")).toBe(true);
      await expect(journal.append(record(11))).rejects.toThrow(/has failed/);
      expect(journal.stats.writes).toBe(0);
      await expect(journal.close()).rejects.toThrow(/ENOSPC/);
    },
  );

  describe("holdWritesUntil", () => {
    it("writes nothing until the barrier resolves, then writes in order", async () => {
      const path = join(await tempDir(), "journal.log");
      const journal = await Journal.open(path, { fsync: "always" });
      let release!: () => void;
      journal.holdWritesUntil(new Promise<void>((resolve) => (release = resolve)));
      let acknowledged = false;
      const appends = [journal.append(record(0)), journal.append(record(1))];
      void appends[1].then(() => (acknowledged = true));
      await settle(20);
      expect(acknowledged).toBe(false);
      expect((await stat(path)).size).toBe(0);
      release();
      await Promise.all(appends);
      await journal.close();
      expect(await replay(path)).toEqual(["record-0", "record-1"]);
    });

    it("fails the journal if the barrier rejects", async () => {
      const path = join(await tempDir(), "journal.log");
      const journal = await Journal.open(path, { fsync: "always" });
      let fail!: (error: Error) => void;
      journal.holdWritesUntil(new Promise<void>((_, reject) => (fail = reject)));
      const pending = journal.append(record(0));
      fail(new Error("previous journal lost a write"));
      await expect(pending).rejects.toThrow(/previous journal failed/);
      await expect(journal.append(record(1))).rejects.toThrow(/has failed/);
      await expect(journal.close()).rejects.toThrow();
      expect((await stat(path)).size).toBe(0);
    });
  });
});
