/**
 * A data directory: an exclusive lock, and generations of snapshot + journal
 * files from which the engine's state is rebuilt.
 *
 * Layout (generation G is zero-padded so names sort numerically):
 *
 *     arca-engine.lock                 pid of the owning process
 *     snapshot.<G>.bson                full state as of the start of journal G
 *     journal.<G>.log                  operations appended during generation G
 *     snapshot.<G>.bson.tmp            snapshot being written (deleted on recovery)
 *
 * The directory is the engine's user's alone (0700, its files 0600): it holds every record,
 * password hash and session hash, and the engine asks no password of local clients.
 *
 * The state is the newest snapshot (or nothing, if none) followed by every
 * journal of the same or a later generation, in order. Compaction keeps this
 * true at every instant: it opens journal G+1 and switches appends to it, then
 * writes snapshot G+1 to a temporary name, fsyncs and renames it, and only
 * then deletes generation G and older. A crash before the rename leaves
 * snapshot <= G + journals G, G+1; after it, snapshot G+1 + journal G+1.
 */

import { randomBytes } from "node:crypto";
import {
  chmod,
  link,
  mkdir,
  open,
  readFile,
  readdir,
  realpath,
  rename,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { types } from "node:util";
import { Journal, validateJournalOptions } from "./journal.js";
import type { JournalOptions } from "./journal.js";
import { PRIVATE_FILE_MODE, scanRecordFile, syncDirectory, writeRecordFile } from "./record-file.js";

export interface RecoveryStats {
  /** Records replayed from the snapshot (0 if there was none). */
  snapshotRecords: number;
  /** Records replayed from all journals. */
  journalRecords: number;
  /** Bytes cut from damaged journal tails. Non-zero means an interrupted append was discarded. */
  truncatedBytes: number;
  /** Generation of the journal that appends now go to. */
  generation: number;
  /** Wall-clock duration of recovery. */
  millis: number;
}

export const LOCK_FILE_NAME = "arca-engine.lock";

/** The data directory's mode: owner only. Set explicitly, whatever the umask. */
export const PRIVATE_DIRECTORY_MODE = 0o700;

const GENERATION_DIGITS = 12;
const JOURNAL_NAME = /^journal\.(\d{12})\.log$/;
const SNAPSHOT_NAME = /^snapshot\.(\d{12})\.bson$/;
const SNAPSHOT_TEMP_NAME = /^snapshot\.\d{12}\.bson\.tmp$/;

function padGeneration(generation: number): string {
  if (!Number.isSafeInteger(generation) || generation < 1 || generation >= 10 ** GENERATION_DIGITS) {
    throw new RangeError(`invalid generation ${generation}`);
  }
  return String(generation).padStart(GENERATION_DIGITS, "0");
}

export function journalFileName(generation: number): string {
  return `journal.${padGeneration(generation)}.log`;
}

export function snapshotFileName(generation: number): string {
  return `snapshot.${padGeneration(generation)}.bson`;
}

function snapshotTempFileName(generation: number): string {
  return `${snapshotFileName(generation)}.tmp`;
}

type State = "locked" | "recovering" | "ready" | "failed" | "closed";

export class DataDirectory {
  readonly dir: string;
  private readonly options: JournalOptions;
  private readonly lock: DirectoryLock;
  private state: State = "locked";
  private recovery: Promise<RecoveryStats> | undefined;
  private journal: Journal | undefined;
  private currentGeneration = 0;
  /**
   * Bytes of journals older than the current one that still count towards
   * journalBytes: those replayed at startup, or left behind by a failed
   * compaction. Both will be replayed again unless a compaction succeeds.
   */
  private carriedJournalBytes = 0;
  private latestSnapshotBytes = 0;
  /** Tail of the chain that serialises compactions; never rejects. */
  private compactions: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;

  private constructor(dir: string, options: JournalOptions, lock: DirectoryLock) {
    this.dir = dir;
    this.options = options;
    this.lock = lock;
  }

  /**
   * Creates the directory if needed and takes its lock. Throws if another live
   * process (or this one) holds it; takes over a lock left by a dead process.
   */
  static async open(dir: string, options: JournalOptions): Promise<DataDirectory> {
    validateJournalOptions(options);
    const absolute = resolve(dir);
    await mkdir(absolute, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    // mkdir leaves an existing directory's mode alone, and a new one's is narrowed by the umask only.
    await makePrivate(absolute, PRIVATE_DIRECTORY_MODE);
    const lock = await DirectoryLock.acquire(absolute);
    try {
      await tightenFiles(absolute);
    } catch (error) {
      await lock.release();
      throw error;
    }
    return new DataDirectory(absolute, { ...options }, lock);
  }

  /** Generation of the journal currently appended to (0 before recovery). */
  get generation(): number {
    return this.currentGeneration;
  }

  /**
   * Bytes appended to the current journal since the last compaction switched
   * to it. After startup this includes the journals that were just replayed,
   * so a large replay backlog prompts a compaction.
   */
  get journalBytes(): number {
    return this.carriedJournalBytes + (this.journal?.size ?? 0);
  }

  /** Bytes of the newest snapshot (0 before the first): about what a compaction now writes again. */
  get snapshotBytes(): number {
    return this.latestSnapshotBytes;
  }

  /**
   * Replays the newest snapshot, then every journal of the same or a later
   * generation, in order. A damaged tail of the last non-empty journal (an
   * interrupted append) is truncated; damage anywhere else throws, naming the
   * file and offset. Must be called exactly once, before append or compact.
   */
  recover(
    onSnapshotRecord: (payload: Uint8Array) => void,
    onJournalRecord: (payload: Uint8Array) => void,
  ): Promise<RecoveryStats> {
    if (this.state !== "locked") {
      return Promise.reject(
        new Error(`recover() must be called once, on an open data directory (state: ${this.state})`),
      );
    }
    this.state = "recovering";
    this.recovery = this.recoverOnce(onSnapshotRecord, onJournalRecord).then(
      (stats) => {
        // close() may have been called meanwhile; it then closes the journal.
        if (this.state === "recovering") this.state = "ready";
        return stats;
      },
      (error: unknown) => {
        if (this.state === "recovering") this.state = "failed";
        throw error;
      },
    );
    return this.recovery;
  }

  private async recoverOnce(
    onSnapshotRecord: (payload: Uint8Array) => void,
    onJournalRecord: (payload: Uint8Array) => void,
  ): Promise<RecoveryStats> {
    const started = performance.now();
    const listing = await this.list();
    const snapshotGeneration = listing.snapshots.at(-1);
    const baseGeneration = snapshotGeneration ?? 1;
    const journals = listing.journals.filter((generation) => generation >= baseGeneration);
    this.checkJournalSequence(journals, snapshotGeneration);

    let snapshotRecords = 0;
    if (snapshotGeneration !== undefined) {
      const path = join(this.dir, snapshotFileName(snapshotGeneration));
      // A snapshot is fsynced before it is renamed into place, so unlike a
      // journal tail it can never legitimately be incomplete.
      const result = await scanRecordFile(path, (payload) => onSnapshotRecord(payload));
      if (result.tail !== "clean") {
        throw new Error(`snapshot ${path} is damaged at offset ${result.validBytes}: ${result.problem}`);
      }
      snapshotRecords = result.records;
      this.latestSnapshotBytes = (await stat(path)).size;
    }

    const sizes = await Promise.all(journals.map(async (g) => (await stat(this.journalPath(g))).size));
    let journalRecords = 0;
    let truncatedBytes = 0;
    let olderJournalBytes = 0;
    for (let i = 0; i < journals.length; i++) {
      const path = this.journalPath(journals[i]);
      const result = await scanRecordFile(path, (payload) => onJournalRecord(payload));
      journalRecords += result.records;
      if (result.tail !== "clean") {
        // Journal G+1 is never written before journal G is flushed and
        // closed, so a damaged journal followed by a non-empty one is not an
        // interrupted append; replaying past it would silently lose records.
        if (!sizes.slice(i + 1).every((size) => size === 0)) {
          throw new Error(
            `journal ${path} is corrupt at offset ${result.validBytes} (${result.problem}) ` +
              `but later journals contain records; refusing to discard data`,
          );
        }
        await truncateFile(path, result.validBytes);
        truncatedBytes += result.fileBytes - result.validBytes;
      }
      if (i < journals.length - 1) olderJournalBytes += result.validBytes;
    }

    // Files superseded by the newest snapshot may be removed, but only once
    // that snapshot's rename is certainly durable: if the previous process
    // died between rename and directory fsync, it is not yet.
    await syncDirectory(this.dir);
    const obsolete = [
      ...listing.tempFiles,
      ...listing.snapshots.filter((g) => g < baseGeneration).map(snapshotFileName),
      ...listing.journals.filter((g) => g < baseGeneration).map(journalFileName),
    ];
    if (obsolete.length > 0) {
      await Promise.all(obsolete.map((name) => removeIfExists(join(this.dir, name))));
      await syncDirectory(this.dir);
    }

    const generation = journals.at(-1) ?? baseGeneration;
    this.journal = await Journal.open(this.journalPath(generation), this.options);
    this.currentGeneration = generation;
    this.carriedJournalBytes = olderJournalBytes;
    return {
      snapshotRecords,
      journalRecords,
      truncatedBytes,
      generation,
      millis: performance.now() - started,
    };
  }

  /** Refuses to start from a directory whose journals show a gap: records would be missing. */
  private checkJournalSequence(journals: readonly number[], snapshotGeneration: number | undefined): void {
    const expectedFirst = snapshotGeneration ?? 1;
    if (journals.length === 0) {
      if (snapshotGeneration !== undefined) {
        throw new Error(
          `data directory ${this.dir} has ${snapshotFileName(snapshotGeneration)} ` +
            `but no ${journalFileName(snapshotGeneration)}`,
        );
      }
      return;
    }
    if (journals[0] !== expectedFirst) {
      throw new Error(
        `data directory ${this.dir} is missing ${journalFileName(expectedFirst)}` +
          (snapshotGeneration === undefined ? " (and has no snapshot)" : ""),
      );
    }
    for (let i = 1; i < journals.length; i++) {
      if (journals[i] !== journals[i - 1] + 1) {
        throw new Error(`data directory ${this.dir} is missing ${journalFileName(journals[i - 1] + 1)}`);
      }
    }
  }

  /** Appends a record to the current journal; see Journal.append for when it resolves. */
  append(payload: Uint8Array): Promise<void> {
    if (this.state !== "ready" || !this.journal) {
      return Promise.reject(new Error(`cannot append to data directory ${this.dir} (state: ${this.state})`));
    }
    return this.journal.append(payload);
  }

  /**
   * Replaces the snapshot and journals with a snapshot of the current state.
   * `capture` is called synchronously, in the same tick in which appends
   * switch to the next journal, and must return records describing the state
   * exactly as of then; the iterable is consumed later, while appends go on.
   * Calls are serialised.
   */
  compact(capture: () => Iterable<Uint8Array>): Promise<void> {
    if (this.state !== "ready") {
      return Promise.reject(new Error(`cannot compact data directory ${this.dir} (state: ${this.state})`));
    }
    const run = this.compactions.then(() => this.compactOnce(capture));
    this.compactions = run.catch(() => undefined);
    return run;
  }

  private async compactOnce(capture: () => Iterable<Uint8Array>): Promise<void> {
    // Queued behind another compaction that close() has since waited for.
    if (this.state !== "ready") throw new Error(`compaction of ${this.dir} aborted: data directory is ${this.state}`);
    const oldGeneration = this.currentGeneration;
    const newGeneration = oldGeneration + 1;
    const nextJournal = await Journal.open(this.journalPath(newGeneration), this.options);
    if (this.state !== "ready" || nextJournal.size !== 0) {
      const reason =
        this.state !== "ready" ? `data directory is ${this.state}` : `${nextJournal.path} unexpectedly has data`;
      await nextJournal.close().catch(() => undefined);
      if (nextJournal.size === 0) await removeIfExists(nextJournal.path);
      throw new Error(`compaction of ${this.dir} aborted: ${reason}`);
    }
    const oldJournal = this.journal;
    if (!oldJournal) throw new Error("no current journal"); // unreachable while "ready"

    // Step 1, in one synchronous block: no append can land between the switch
    // and the capture, so the snapshot plus journal G+1 is exactly the state.
    this.journal = nextJournal;
    this.currentGeneration = newGeneration;
    const previousCarried = this.carriedJournalBytes;
    this.carriedJournalBytes = 0;
    const oldJournalClosed = oldJournal.close();
    nextJournal.holdWritesUntil(oldJournalClosed);

    try {
      const records = startIterating(capture());

      // Step 2: make the snapshot durable under its final name...
      const finalPath = join(this.dir, snapshotFileName(newGeneration));
      const tempPath = join(this.dir, snapshotTempFileName(newGeneration));
      const written = await writeRecordFile(tempPath, records);
      await rename(tempPath, finalPath);
      this.latestSnapshotBytes = written.bytes;
      await syncDirectory(this.dir);
      // ...and only then delete what it supersedes, once nothing more can be
      // written to the old journal.
      await oldJournalClosed;
    } catch (error) {
      // Generation G is still needed for recovery, so it still counts.
      this.carriedJournalBytes += previousCarried + oldJournal.size;
      throw error;
    }
    const listing = await this.list();
    const obsolete = [
      ...listing.snapshots.filter((g) => g < newGeneration).map(snapshotFileName),
      ...listing.journals.filter((g) => g < newGeneration).map(journalFileName),
    ];
    await Promise.all(obsolete.map((name) => removeIfExists(join(this.dir, name))));
    await syncDirectory(this.dir);
  }

  /** Waits for compactions, flushes and closes the journal, releases the lock. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    this.state = "closed";
    let failure: unknown;
    try {
      if (this.recovery) await this.recovery.catch(() => undefined);
      await this.compactions;
      await this.journal?.close();
    } catch (error) {
      failure = error;
    } finally {
      await this.lock.release();
    }
    if (failure !== undefined) throw failure;
  }

  private journalPath(generation: number): string {
    return join(this.dir, journalFileName(generation));
  }

  private async list(): Promise<{ journals: number[]; snapshots: number[]; tempFiles: string[] }> {
    const journals: number[] = [];
    const snapshots: number[] = [];
    const tempFiles: string[] = [];
    for (const name of await readdir(this.dir)) {
      let match: RegExpExecArray | null;
      if ((match = JOURNAL_NAME.exec(name))) journals.push(Number(match[1]));
      else if ((match = SNAPSHOT_NAME.exec(name))) snapshots.push(Number(match[1]));
      else if (SNAPSHOT_TEMP_NAME.test(name)) tempFiles.push(name);
    }
    const ascending = (a: number, b: number): number => a - b;
    return { journals: journals.sort(ascending), snapshots: snapshots.sort(ascending), tempFiles };
  }
}

/**
 * Takes the first record now, in the caller's tick. A generator function's
 * body does not run until its first next(); without this, a capture written
 * as `function* () { const state = read(); ... }` would read the state only
 * after the snapshot file was opened, by which time later appends (already
 * in the next journal) would be in it too and be replayed twice.
 */
function startIterating(records: Iterable<Uint8Array>): Iterable<Uint8Array> {
  const iterator = records[Symbol.iterator]();
  const first = iterator.next();
  return (function* (): Generator<Uint8Array> {
    let finished = false;
    try {
      for (let step = first; !step.done; step = iterator.next()) yield step.value;
      finished = true;
    } finally {
      // Abandoned early (write failed): let the source run its cleanup.
      if (!finished) iterator.return?.();
    }
  })();
}

/**
 * Files written by a version that created them world-readable (0644) become 0600. Only the
 * engine's own names: a --dbpath shared with other files is not the engine's to change.
 */
async function tightenFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!(
      JOURNAL_NAME.test(name) ||
      SNAPSHOT_NAME.test(name) ||
      SNAPSHOT_TEMP_NAME.test(name) ||
      name.startsWith(LOCK_FILE_NAME)
    ))
      continue;
    await makePrivate(join(dir, name), PRIVATE_FILE_MODE);
  }
}

/**
 * chmod, except where it cannot apply: a file gone meanwhile, or one owned by another user (a
 * mount point provisioned by root), whose owner chose its mode.
 */
async function makePrivate(path: string, mode: number): Promise<void> {
  try {
    await chmod(path, mode);
  } catch (error) {
    const code = errorCode(error);
    if (code !== "ENOENT" && code !== "EPERM") throw error;
  }
}

async function truncateFile(path: string, length: number): Promise<void> {
  const handle = await open(path, "r+");
  try {
    await handle.truncate(length);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function removeIfExists(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  // isNativeError: fs errors may come from another realm (vm contexts, jest).
  if ((error instanceof Error || types.isNativeError(error)) && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return undefined;
}

/** Lock paths held by this process, so a second open in-process is refused even though our pid is alive. */
const heldLocks = new Set<string>();

/**
 * A pid lock file. Node has no flock(2), so liveness is judged by signalling
 * the recorded pid. Creation publishes a fully written file with link(2),
 * which like O_EXCL fails if the name exists, so a reader never sees an empty
 * lock that is merely being written and mistakes it for a stale one.
 */
class DirectoryLock {
  private constructor(
    private readonly path: string,
    private readonly key: string,
    private readonly content: string,
  ) {}

  static async acquire(dir: string): Promise<DirectoryLock> {
    const path = join(dir, LOCK_FILE_NAME);
    // Keyed by the real path so that a second open through a symlink is
    // recognised as this process's own lock rather than a stale one.
    const key = join(await realpath(dir), LOCK_FILE_NAME);
    const content = `${process.pid}\n`;
    if (heldLocks.has(key)) throw inUseError(dir, process.pid, path);
    // Each retry follows a lock that vanished or was replaced under us; a
    // handful is plenty unless something is fighting over the directory.
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await createExclusive(path, content)) {
        heldLocks.add(key);
        return new DirectoryLock(path, key, content);
      }
      const existing = await readIfExists(path);
      if (existing === undefined) continue;
      const pid = parsePid(existing);
      // Our own pid in a lock we do not hold is a previous incarnation's
      // (containers restart with the same pid), so it is stale too.
      if (pid !== undefined && pid !== process.pid && isProcessAlive(pid)) {
        throw inUseError(dir, pid, path);
      }
      await removeStaleLock(path, existing);
    }
    throw new Error(`could not acquire lock ${path}: it kept changing while we tried`);
  }

  async release(): Promise<void> {
    if (!heldLocks.delete(this.key)) return;
    // Only remove the file if it is still ours.
    if ((await readIfExists(this.path)) === this.content) await removeIfExists(this.path);
  }
}

function inUseError(dir: string, pid: number, lockPath: string): Error {
  return new Error(
    `data directory ${dir} is in use by process ${pid} (lock file ${lockPath}); ` +
      `if that process is not an Arca engine, delete the lock file`,
  );
}

function uniqueSuffix(): string {
  return `${process.pid}.${randomBytes(6).toString("hex")}`;
}

/** Creates `path` holding `content` iff it does not exist. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  const temp = `${path}.${uniqueSuffix()}.tmp`;
  await writeFile(temp, content, { flag: "wx", mode: PRIVATE_FILE_MODE });
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    await removeIfExists(temp);
  }
}

/**
 * Removes a stale lock without clobbering a fresh one: another process may
 * have replaced the stale file since we read it. Renaming is atomic, so we
 * move whatever is there aside, and put it back if it was not what we judged.
 */
async function removeStaleLock(path: string, staleContent: string): Promise<void> {
  const aside = `${path}.${uniqueSuffix()}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return;
    throw error;
  }
  try {
    if ((await readFile(aside, "utf8")) !== staleContent) {
      await link(aside, path).catch((error: unknown) => {
        if (errorCode(error) !== "EEXIST") throw error;
      });
    }
  } finally {
    await removeIfExists(aside);
  }
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

function parsePid(content: string): number | undefined {
  const match = /^\s*(\d{1,10})\s*$/.exec(content);
  if (!match) return undefined;
  const pid = Number(match[1]);
  // 0 and negative values would signal process groups, not a process.
  return pid >= 1 && pid <= 0x7fffffff ? pid : undefined;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else. Anything but ESRCH is
    // treated as alive, since wrongly taking over a lock corrupts data.
    return errorCode(error) !== "ESRCH";
  }
}
