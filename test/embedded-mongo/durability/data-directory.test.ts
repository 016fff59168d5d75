import { afterEach, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { appendFile, mkdtemp, readFile, readdir, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DataDirectory,
  LOCK_FILE_NAME,
  journalFileName,
  snapshotFileName,
} from "../../../src/embedded-mongo/durability/data-directory.js";
import type { RecoveryStats } from "../../../src/embedded-mongo/durability/data-directory.js";
import { Journal } from "../../../src/embedded-mongo/durability/journal.js";
import type { JournalOptions } from "../../../src/embedded-mongo/durability/journal.js";
import {
  RECORD_HEADER_BYTES,
  frameRecord,
  writeRecordFile,
} from "../../../src/embedded-mongo/durability/record-file.js";

const ALWAYS: JournalOptions = { fsync: "always" };

const cleanups: Array<() => Promise<void>> = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "arca-datadir-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
/** Opens a directory and makes sure it is closed (lock released) after the test. */
async function openDir(dir: string, options: JournalOptions = ALWAYS): Promise<DataDirectory> {
  const dd = await DataDirectory.open(dir, options);
  cleanups.unshift(() => dd.close().catch(() => undefined));
  return dd;
}
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const rec = (label: string | number): Buffer => Buffer.from(`r${label}`);
const text = (payload: Uint8Array): string => Buffer.from(payload).toString();

interface Recovered {
  snapshot: string[];
  journal: string[];
  all: string[];
  stats: RecoveryStats;
}
async function recoverAll(dd: DataDirectory): Promise<Recovered> {
  const snapshot: string[] = [];
  const journal: string[] = [];
  const stats = await dd.recover(
    (payload) => snapshot.push(text(payload)),
    (payload) => journal.push(text(payload)),
  );
  return { snapshot, journal, all: [...snapshot, ...journal], stats };
}

/** Opens, recovers, closes: what a restart would see. */
async function reopenAndRecover(dir: string): Promise<Recovered> {
  const dd = await DataDirectory.open(dir, ALWAYS);
  try {
    return await recoverAll(dd);
  } finally {
    await dd.close();
  }
}

const labels = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `r${from + i}`);

/** pid of a process that has certainly exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  if (child.pid === undefined) throw new Error("spawn failed");
  return child.pid;
}

describe("DataDirectory: files and recovery", () => {
  it("starts a fresh directory at generation 1 with an empty journal", async () => {
    const dir = join(await tempDir(), "nested", "data");
    const dd = await openDir(dir);
    const { all, stats } = await recoverAll(dd);
    expect(all).toEqual([]);
    expect(stats).toMatchObject({ snapshotRecords: 0, journalRecords: 0, truncatedBytes: 0, generation: 1 });
    expect(stats.millis).toBeGreaterThanOrEqual(0);
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE_NAME, "journal.000000000001.log"]);
    expect(dd.journalBytes).toBe(0);
    await dd.close();
  });

  it("names generations so they sort numerically", () => {
    expect(journalFileName(1)).toBe("journal.000000000001.log");
    expect(snapshotFileName(12)).toBe("snapshot.000000000012.bson");
    const names = [journalFileName(10), journalFileName(9), journalFileName(100)].sort();
    expect(names).toEqual([journalFileName(9), journalFileName(10), journalFileName(100)]);
  });

  it("replays appended records in order after reopening", async () => {
    const dir = await tempDir();
    const dd = await openDir(dir);
    await recoverAll(dd);
    await Promise.all(Array.from({ length: 100 }, (_, i) => dd.append(rec(i))));
    expect(dd.journalBytes).toBe(100 * RECORD_HEADER_BYTES + labels(0, 100).join("").length);
    await dd.close();

    const again = await openDir(dir);
    const recovered = await recoverAll(again);
    expect(recovered.all).toEqual(labels(0, 100));
    expect(recovered.stats).toMatchObject({ journalRecords: 100, truncatedBytes: 0, generation: 1 });
    expect(again.journalBytes).toBeGreaterThan(0);
    await again.append(rec(100));
    await again.close();
    expect((await reopenAndRecover(dir)).all).toEqual(labels(0, 101));
  });

  it("refuses append before recover, and a second recover", async () => {
    const dd = await openDir(await tempDir());
    await expect(dd.append(rec(0))).rejects.toThrow(/cannot append/);
    await recoverAll(dd);
    await expect(recoverAll(dd)).rejects.toThrow(/recover\(\) must be called once/);
    await dd.close();
    await expect(dd.append(rec(0))).rejects.toThrow(/closed/);
  });

  describe("damaged tail of the last journal", () => {
    async function damaged(
      damage: (path: string, size: number) => Promise<void>,
    ): Promise<{ dir: string; sizeBefore: number }> {
      const dir = await tempDir();
      const dd = await openDir(dir);
      await recoverAll(dd);
      for (let i = 0; i < 20; i++) await dd.append(rec(i));
      await dd.close();
      const path = join(dir, journalFileName(1));
      const { size } = await stat(path);
      await damage(path, size);
      return { dir, sizeBefore: size };
    }

    async function expectTruncatedTo(dir: string, expected: string[], validBytes: number): Promise<void> {
      const path = join(dir, journalFileName(1));
      const damagedSize = (await stat(path)).size;
      const dd = await openDir(dir);
      const { all, stats } = await recoverAll(dd);
      expect(all).toEqual(expected);
      expect(stats.truncatedBytes).toBe(damagedSize - validBytes);
      expect((await stat(path)).size).toBe(validBytes);
      // New records land right after the valid prefix and survive another restart.
      await dd.append(rec("new"));
      await dd.close();
      const after = await reopenAndRecover(dir);
      expect(after.all).toEqual([...expected, "rnew"]);
      expect(after.stats.truncatedBytes).toBe(0);
    }

    const lastRecordBytes = RECORD_HEADER_BYTES + "r19".length;

    it("truncates a record cut off mid-payload", async () => {
      const { dir, sizeBefore } = await damaged((path, size) => truncate(path, size - 1));
      await expectTruncatedTo(dir, labels(0, 19), sizeBefore - lastRecordBytes);
    });

    it("truncates a record cut off mid-header", async () => {
      const { dir, sizeBefore } = await damaged((path, size) => truncate(path, size - lastRecordBytes + 3));
      await expectTruncatedTo(dir, labels(0, 19), sizeBefore - lastRecordBytes);
    });

    it("truncates garbage appended after the last record", async () => {
      const { dir, sizeBefore } = await damaged((path) =>
        appendFile(path, Buffer.from("\x07garbage that is not a record")),
      );
      await expectTruncatedTo(dir, labels(0, 20), sizeBefore);
    });

    it("truncates zeros appended after the last record", async () => {
      const { dir, sizeBefore } = await damaged((path) => appendFile(path, Buffer.alloc(4096)));
      await expectTruncatedTo(dir, labels(0, 20), sizeBefore);
    });

    it("truncates a last record with a flipped byte", async () => {
      const { dir, sizeBefore } = await damaged(async (path, size) => {
        const bytes = await readFile(path);
        bytes[size - 1] ^= 0x40;
        await writeFile(path, bytes);
      });
      await expectTruncatedTo(dir, labels(0, 19), sizeBefore - lastRecordBytes);
    });
  });

  it("throws, naming file and offset, on a corrupt record in a journal that is not the last", async () => {
    const dir = await tempDir();
    const first = Buffer.concat(labels(0, 10).map((l) => frameRecord(Buffer.from(l))));
    const corruptOffset = 3 * (RECORD_HEADER_BYTES + 2);
    first[corruptOffset + RECORD_HEADER_BYTES] ^= 0xff;
    await writeFile(join(dir, journalFileName(1)), first);
    await writeFile(join(dir, journalFileName(2)), frameRecord(rec(10)));

    const dd = await openDir(dir);
    const error = await recoverAll(dd).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(join(dir, journalFileName(1)));
    expect((error as Error).message).toContain(`offset ${corruptOffset}`);
    await expect(dd.append(rec(0))).rejects.toThrow(/failed/);
    await dd.close();
    // Nothing was truncated or deleted.
    expect((await stat(join(dir, journalFileName(1)))).size).toBe(first.length);
  });

  it("truncates a torn older journal when every later journal is empty (crash right after rotation)", async () => {
    const dir = await tempDir();
    const first = Buffer.concat(labels(0, 5).map((l) => frameRecord(Buffer.from(l))));
    await writeFile(join(dir, journalFileName(1)), Buffer.concat([first, frameRecord(rec(5)).subarray(0, 6)]));
    await writeFile(join(dir, journalFileName(2)), "");
    const { all, stats } = await reopenAndRecover(dir);
    expect(all).toEqual(labels(0, 5));
    expect(stats).toMatchObject({ truncatedBytes: 6, generation: 2 });
  });

  it("refuses a directory with a missing journal", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, journalFileName(1)), frameRecord(rec(0)));
    await writeFile(join(dir, journalFileName(3)), frameRecord(rec(1)));
    await expect(reopenAndRecover(dir)).rejects.toThrow(/missing journal\.000000000002\.log/);

    const other = await tempDir();
    await writeRecordFile(join(other, snapshotFileName(4)), [rec(0)]);
    await expect(reopenAndRecover(other)).rejects.toThrow(/no journal\.000000000004\.log/);
  });

  it("refuses a damaged snapshot", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, snapshotFileName(2)), Buffer.concat([frameRecord(rec(0)), Buffer.from("xyz")]));
    await writeFile(join(dir, journalFileName(2)), "");
    await expect(reopenAndRecover(dir)).rejects.toThrow(
      /snapshot .*snapshot\.000000000002\.bson is damaged at offset 10/,
    );
  });
});

describe("DataDirectory: lock", () => {
  it("rejects a second open of the same directory, naming the pid and lock file", async () => {
    const dir = await tempDir();
    await openDir(dir);
    const error = await DataDirectory.open(dir, ALWAYS).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain("in use");
    expect(error?.message).toContain(String(process.pid));
    expect(error?.message).toContain(join(dir, LOCK_FILE_NAME));
  });

  it("recognises its own lock through a symlinked path", async () => {
    const root = await tempDir();
    const dir = join(root, "real");
    await openDir(dir);
    await symlink(dir, join(root, "link"));
    await expect(DataDirectory.open(join(root, "link"), ALWAYS)).rejects.toThrow(`in use by process ${process.pid}`);
    expect(await readFile(join(dir, LOCK_FILE_NAME), "utf8")).toBe(`${process.pid}\n`);
  });

  it("rejects a directory locked by another live process", async () => {
    const dir = await tempDir();
    const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    const exited = new Promise((resolve) => sleeper.once("exit", resolve));
    try {
      await writeFile(join(dir, LOCK_FILE_NAME), `${sleeper.pid}\n`);
      await expect(DataDirectory.open(dir, ALWAYS)).rejects.toThrow(new RegExp(`in use by process ${sleeper.pid}\\b`));
      expect(await readFile(join(dir, LOCK_FILE_NAME), "utf8")).toBe(`${sleeper.pid}\n`);
    } finally {
      sleeper.kill("SIGKILL");
      await exited;
    }
  });

  it("takes over a stale lock left by a dead process", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, LOCK_FILE_NAME), `${await deadPid()}\n`);
    await openDir(dir);
    expect(await readFile(join(dir, LOCK_FILE_NAME), "utf8")).toBe(`${process.pid}\n`);
  });

  it("takes over an unreadable lock", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, LOCK_FILE_NAME), "not a pid");
    await openDir(dir);
    expect(await readFile(join(dir, LOCK_FILE_NAME), "utf8")).toBe(`${process.pid}\n`);
  });

  it("takes over a lock naming our own pid that this process does not hold (pid reuse after restart)", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, LOCK_FILE_NAME), `${process.pid}\n`);
    await openDir(dir);
  });

  it("releases the lock on close", async () => {
    const dir = await tempDir();
    const dd = await DataDirectory.open(dir, ALWAYS);
    await recoverAll(dd);
    await dd.close();
    expect(await readdir(dir)).not.toContain(LOCK_FILE_NAME);
    const again = await openDir(dir);
    await again.close();
    expect(await readdir(dir)).not.toContain(LOCK_FILE_NAME);
    // Even when recover() was never called.
    const unrecovered = await DataDirectory.open(dir, ALWAYS);
    await unrecovered.close();
    expect(await readdir(dir)).toEqual([journalFileName(1)]);
  });
});

describe("DataDirectory: compaction", () => {
  /** A toy engine: its state is the list of records applied so far. */
  class ToyEngine {
    state: string[] = [];
    constructor(readonly dd: DataDirectory) {}
    apply(label: string): Promise<void> {
      // Apply and append in the same synchronous step, as the real engine does.
      this.state.push(label);
      return this.dd.append(Buffer.from(label));
    }
    compact(): Promise<void> {
      return this.dd.compact(() => {
        const frozen = [...this.state];
        return (function* () {
          for (const label of frozen) yield Buffer.from(label);
        })();
      });
    }
  }

  it("keeps appends made before, during and after compaction, and removes old files", async () => {
    const dir = await tempDir();
    const dd = await openDir(dir);
    await recoverAll(dd);
    const engine = new ToyEngine(dd);
    const acks: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) acks.push(engine.apply(`r${i}`));
    const bytesBefore = dd.journalBytes;
    expect(bytesBefore).toBeGreaterThan(0);

    const compaction = engine.compact();
    // Appends interleaved with every stage of the compaction.
    let i = 200;
    let done = false;
    void compaction.finally(() => (done = true));
    while (!done) {
      for (let k = 0; k < 10; k++, i++) acks.push(engine.apply(`r${i}`));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await compaction;
    for (let k = 0; k < 50; k++, i++) acks.push(engine.apply(`r${i}`));
    await Promise.all(acks);
    expect(i).toBeGreaterThan(250);
    expect(dd.generation).toBe(2);
    // Only what went to the new journal counts now.
    expect(dd.journalBytes).toBe((await stat(join(dir, journalFileName(2)))).size);
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE_NAME, journalFileName(2), snapshotFileName(2)].sort());
    await dd.close();

    const { snapshot, all, stats } = await reopenAndRecover(dir);
    expect(all).toEqual(labels(0, i));
    expect(snapshot.length).toBeGreaterThanOrEqual(200);
    expect(stats.generation).toBe(2);
  });

  it("calls capture in the same tick as the switch: nothing is duplicated or lost", async () => {
    const dir = await tempDir();
    const dd = await openDir(dir);
    await recoverAll(dd);
    const engine = new ToyEngine(dd);
    const acks: Promise<void>[] = [];
    // Keep appending from timers and immediates while several compactions run back to back.
    let i = 0;
    let stop = false;
    const pump = (async () => {
      while (!stop) {
        acks.push(engine.apply(`r${i++}`));
        await new Promise((resolve) => (i % 2 ? setImmediate(resolve) : queueMicrotask(() => resolve(undefined))));
      }
    })();
    for (let c = 0; c < 5; c++) await engine.compact();
    stop = true;
    await pump;
    await Promise.all(acks);
    expect(dd.generation).toBe(6);
    await dd.close();
    expect((await reopenAndRecover(dir)).all).toEqual(labels(0, i));
  });

  it("starts a generator-function capture in the switch tick, so its state read is not deferred", async () => {
    const dir = await tempDir();
    const dd = await openDir(dir);
    await recoverAll(dd);
    const engine = new ToyEngine(dd);
    const acks: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) acks.push(engine.apply(`r${i}`));
    // The body (and so the read of engine.state) runs only on the first next().
    const compaction = dd.compact(function* () {
      const frozen = [...engine.state];
      for (const label of frozen) yield Buffer.from(label);
    });
    let i = 50;
    let done = false;
    void compaction.finally(() => (done = true));
    while (!done) {
      acks.push(engine.apply(`r${i++}`));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await compaction;
    await Promise.all(acks);
    await dd.close();
    expect((await reopenAndRecover(dir)).all).toEqual(labels(0, i));
  });

  it("serialises concurrent compact() calls", async () => {
    const dir = await tempDir();
    const dd = await openDir(dir);
    await recoverAll(dd);
    const engine = new ToyEngine(dd);
    await engine.apply("r0");
    const first = engine.compact();
    const appended = engine.apply("r1");
    const second = engine.compact();
    await Promise.all([first, second, appended]);
    expect(dd.generation).toBe(3);
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE_NAME, journalFileName(3), snapshotFileName(3)].sort());
    await dd.close();
    const { snapshot, journal } = await reopenAndRecover(dir);
    expect(snapshot).toEqual(["r0", "r1"]);
    expect(journal).toEqual([]);
  });

  it("survives a snapshot that fails mid-write: nothing lost, the next compaction cleans up", async () => {
    const dir = await tempDir();
    const dd = await openDir(dir);
    await recoverAll(dd);
    const engine = new ToyEngine(dd);
    for (let i = 0; i < 20; i++) await engine.apply(`r${i}`);
    const failing = dd.compact(() =>
      (function* () {
        yield rec(0);
        throw new Error("serialisation exploded");
      })(),
    );
    const during = engine.apply("r20");
    await expect(failing).rejects.toThrow("serialisation exploded");
    await during;
    await engine.apply("r21");
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE_NAME, journalFileName(1), journalFileName(2)].sort());
    await dd.close();

    expect((await reopenAndRecover(dir)).all).toEqual(labels(0, 22));

    const again = await openDir(dir);
    const engine2 = new ToyEngine(again);
    engine2.state = (await recoverAll(again)).all;
    await engine2.compact();
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE_NAME, journalFileName(3), snapshotFileName(3)].sort());
    await again.close();
    expect((await reopenAndRecover(dir)).all).toEqual(labels(0, 22));
  });

  it("rejects compaction when capture throws, and keeps working", async () => {
    const dir = await tempDir();
    const dd = await openDir(dir);
    await recoverAll(dd);
    await dd.append(rec(0));
    await expect(
      dd.compact(() => {
        throw new Error("cannot capture");
      }),
    ).rejects.toThrow("cannot capture");
    await dd.append(rec(1));
    await dd.close();
    expect((await reopenAndRecover(dir)).all).toEqual(["r0", "r1"]);
  });

  describe("recovery after a crash mid-compaction", () => {
    /** Builds generation 1 (records r0..r9) the normal way. */
    async function generationOne(): Promise<string> {
      const dir = await tempDir();
      const dd = await DataDirectory.open(dir, ALWAYS);
      await recoverAll(dd);
      for (let i = 0; i < 10; i++) await dd.append(rec(i));
      await dd.close();
      return dir;
    }

    /** Journal 2 as it would be after the switch, holding r10..r14. */
    async function writeJournalTwo(dir: string): Promise<void> {
      const journal = await Journal.open(join(dir, journalFileName(2)), ALWAYS);
      for (let i = 10; i < 15; i++) await journal.append(rec(i));
      await journal.close();
    }

    it("crash after the switch, while the snapshot was being written (temp file left behind)", async () => {
      const dir = await generationOne();
      await writeJournalTwo(dir);
      await writeFile(
        join(dir, `${snapshotFileName(2)}.tmp`),
        Buffer.concat([frameRecord(rec(0)), Buffer.from("torn")]),
      );
      const { snapshot, all, stats } = await reopenAndRecover(dir);
      expect(snapshot).toEqual([]);
      expect(all).toEqual(labels(0, 15));
      expect(stats).toMatchObject({ generation: 2, journalRecords: 15 });
      expect((await readdir(dir)).sort()).toEqual([journalFileName(1), journalFileName(2)]);
    });

    it("crash after the switch, before anything reached journal 2", async () => {
      const dir = await generationOne();
      await writeFile(join(dir, journalFileName(2)), "");
      const { all, stats } = await reopenAndRecover(dir);
      expect(all).toEqual(labels(0, 10));
      expect(stats.generation).toBe(2);
    });

    it("crash after the snapshot rename, before the old files were deleted", async () => {
      const dir = await generationOne();
      await writeJournalTwo(dir);
      await writeRecordFile(
        join(dir, snapshotFileName(2)),
        labels(0, 10).map((l) => Buffer.from(l)),
      );
      const { snapshot, journal, stats } = await reopenAndRecover(dir);
      expect(snapshot).toEqual(labels(0, 10));
      expect(journal).toEqual(labels(10, 15));
      expect(stats).toMatchObject({ snapshotRecords: 10, journalRecords: 5, generation: 2 });
      expect((await readdir(dir)).sort()).toEqual([journalFileName(2), snapshotFileName(2)]);
    });

    it("crash part-way through deleting old files (older snapshot also present)", async () => {
      const dir = await generationOne();
      await writeJournalTwo(dir);
      await writeRecordFile(
        join(dir, snapshotFileName(2)),
        labels(0, 10).map((l) => Buffer.from(l)),
      );
      // A third generation whose compaction got as far as renaming its snapshot.
      await writeRecordFile(
        join(dir, snapshotFileName(3)),
        labels(0, 15).map((l) => Buffer.from(l)),
      );
      await writeFile(join(dir, journalFileName(3)), frameRecord(rec(15)));
      const { snapshot, journal, stats } = await reopenAndRecover(dir);
      expect(snapshot).toEqual(labels(0, 15));
      expect(journal).toEqual(["r15"]);
      expect(stats.generation).toBe(3);
      expect((await readdir(dir)).sort()).toEqual([journalFileName(3), snapshotFileName(3)]);
    });
  });
});
