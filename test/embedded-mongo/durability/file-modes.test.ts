// The data directory holds every record, password hash and session hash, and the engine asks
// local clients for no password: it must be the engine's user's alone (0700, files 0600),
// whatever the umask, and a directory left wider by an earlier version is narrowed at open.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DataDirectory,
  LOCK_FILE_NAME,
  journalFileName,
  snapshotFileName,
} from "../../../src/embedded-mongo/durability/data-directory.js";
import { startEngine } from "../../../src/embedded-mongo/index.js";
import mongoose from "mongoose";

const onPosix = process.platform === "win32" ? describe.skip : describe;

let root: string;
let savedUmask: number;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "arca-modes-"));
  // The widest umask: any mode below comes from the code, none from the environment.
  savedUmask = process.umask(0);
});
afterEach(async () => {
  process.umask(savedUmask);
  await rm(root, { recursive: true, force: true });
});

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

async function modesIn(dir: string): Promise<Map<string, number>> {
  const modes = new Map<string, number>();
  for (const name of await readdir(dir)) modes.set(name, await modeOf(join(dir, name)));
  return modes;
}

const record = (label: string): Buffer => Buffer.from(label);

onPosix("data directory file modes", () => {
  it("creates the directory 0700 and the lock, journal and snapshot 0600 under a umask of 0", async () => {
    const dir = join(root, "data", "engine");
    const directory = await DataDirectory.open(dir, { fsync: "always" });
    try {
      expect(await modeOf(dir)).toBe(0o700);
      expect(await modeOf(join(root, "data"))).toBe(0o700); // created on the way, by the same mkdir
      await directory.recover(
        () => undefined,
        () => undefined,
      );
      await directory.append(record("one"));
      await directory.compact(() => [record("one")]);
      await directory.append(record("two"));
      const modes = await modesIn(dir);
      expect([...modes.keys()].sort()).toEqual([LOCK_FILE_NAME, journalFileName(2), snapshotFileName(2)].sort());
      for (const [name, mode] of modes) expect([name, mode.toString(8)]).toEqual([name, "600"]);
    } finally {
      await directory.close();
    }
  });

  it("narrows a directory and files an earlier version left world-readable, and leaves other files alone", async () => {
    const dir = join(root, "engine");
    await mkdir(dir, { mode: 0o755 });
    await writeFile(join(dir, journalFileName(1)), "", { mode: 0o644 });
    await writeFile(join(dir, "notes.txt"), "not the engine's", { mode: 0o644 });
    await chmod(dir, 0o755);
    const directory = await DataDirectory.open(dir, { fsync: "always" });
    try {
      expect(await modeOf(dir)).toBe(0o700);
      expect(await modeOf(join(dir, journalFileName(1)))).toBe(0o600);
      expect(await modeOf(join(dir, LOCK_FILE_NAME))).toBe(0o600);
      expect(await modeOf(join(dir, "notes.txt"))).toBe(0o644);
    } finally {
      await directory.close();
    }
  });

  it("keeps an engine's directory private through writes and restarts", async () => {
    const dir = join(root, "engine");
    for (let run = 0; run < 2; run++) {
      const engine = await startEngine({ dataDir: dir, port: 0, compactAfterBytes: 1024 });
      const connection = await mongoose.createConnection(engine.uri, { dbName: "modes" }).asPromise();
      try {
        // Enough to pass compactAfterBytes, so a snapshot is written too.
        await connection
          .collection("things")
          .insertMany(Array.from({ length: 50 }, (_, i) => ({ run, i, text: "x".repeat(100) })));
      } finally {
        await connection.close();
        await engine.close();
      }
      expect(await modeOf(dir)).toBe(0o700);
      const modes = await modesIn(dir);
      expect([...modes.keys()].some((name) => name.startsWith("snapshot."))).toBe(true);
      for (const [name, mode] of modes) expect([name, mode.toString(8)]).toEqual([name, "600"]);
    }
  });
});
