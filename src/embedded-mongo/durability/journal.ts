/**
 * Append-only journal of framed records with group commit.
 *
 * Appends are queued and written by a single flush loop: everything queued
 * when a write starts goes out in one write(2) (plus one fdatasync in "always"
 * mode), so N concurrent appenders cost one sync rather than N. Records are
 * written strictly in append order and a record is acknowledged only after it
 * and everything before it has been written, so the acknowledged records are
 * always a prefix of the file.
 *
 * Failure is fail-stop: once a write or sync fails the file's contents past
 * the last acknowledged record are unknown (and after a failed fsync the
 * kernel may have dropped dirty pages), so every queued and future append is
 * rejected. Recovery on the next start truncates whatever partial tail exists.
 */

import { constants as fsConstants } from "node:fs";
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { types } from "node:util";
import { PRIVATE_FILE_MODE, RECORD_HEADER_BYTES, framedPieces, syncDirectory, writeAllPieces } from "./record-file.js";

export type FsyncMode = "always" | "interval";

export interface JournalOptions {
  /**
   * "always": an append resolves after its batch is written and fdatasync'ed.
   * "interval": an append resolves after write(2); a timer fdatasyncs every
   * `fsyncIntervalMs` while there are unsynced writes (survives a process
   * crash, may lose the last interval on power loss or kernel crash).
   */
  fsync: FsyncMode;
  /** Only for "interval" mode. Default 100. */
  fsyncIntervalMs?: number;
}

/** Counters for observability and tests. */
export interface JournalStats {
  /** Records accepted by append(). */
  appends: number;
  /** write batches issued (each one or more write(2) calls for the same bytes). */
  writes: number;
  /** fdatasync calls completed. */
  syncs: number;
}

const DEFAULT_FSYNC_INTERVAL_MS = 100;

/**
 * A batch is capped so that a burst of appends does not turn into one huge
 * concatenated buffer; the remainder goes out in the next loop iteration.
 */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/** O_APPEND: every write lands at the current end, even after a short write. */
const APPEND_FLAGS = fsConstants.O_WRONLY | fsConstants.O_APPEND;

interface PendingRecord {
  /** The framed record, as framedPieces gives it. */
  pieces: Uint8Array[];
  bytes: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class Journal {
  readonly path: string;
  private readonly handle: FileHandle;
  private readonly mode: FsyncMode;
  private readonly intervalMs: number;

  /** File size plus every record accepted but not yet written. */
  private bytes: number;
  private queue: PendingRecord[] = [];
  /** Set while the flush loop runs; cleared synchronously when it finds the queue empty. */
  private writing = false;
  private flushScheduled: NodeJS.Immediate | undefined;
  private idleWaiters: Array<() => void> = [];
  /** Writes are held until this settles (see holdWritesUntil). */
  private barrier: Promise<unknown> | undefined;

  /** Bytes have been written since the last successful fdatasync. */
  private dirty = false;
  private syncTimer: NodeJS.Timeout | undefined;
  private intervalSync: Promise<void> | undefined;

  private failure: Error | undefined;
  private closing: Promise<void> | undefined;
  private readonly counters: JournalStats = { appends: 0, writes: 0, syncs: 0 };

  private constructor(path: string, handle: FileHandle, size: number, options: JournalOptions) {
    this.path = path;
    this.handle = handle;
    this.bytes = size;
    this.mode = options.fsync;
    this.intervalMs = options.fsyncIntervalMs ?? DEFAULT_FSYNC_INTERVAL_MS;
  }

  /**
   * Creates the file, or opens an existing one for appending. The existing
   * contents are not validated: the caller must have recovered (and, if
   * needed, truncated) the file first, or new records would land after a
   * damaged tail and be discarded by the next recovery.
   */
  static async open(path: string, options: JournalOptions): Promise<Journal> {
    validateJournalOptions(options);
    let handle: FileHandle;
    let created = true;
    try {
      // O_EXCL tells us whether we created the file, and therefore whether its
      // directory entry still has to be made durable.
      handle = await open(path, APPEND_FLAGS | fsConstants.O_CREAT | fsConstants.O_EXCL, PRIVATE_FILE_MODE);
    } catch (error) {
      if (!isErrnoException(error) || error.code !== "EEXIST") throw error;
      created = false;
      handle = await open(path, APPEND_FLAGS);
    }
    try {
      if (created) await syncDirectory(dirname(path));
      const { size } = await handle.stat();
      return new Journal(path, handle, size, options);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /** Bytes in the file including records accepted but not yet written. */
  get size(): number {
    return this.bytes;
  }

  get stats(): Readonly<JournalStats> {
    return { ...this.counters };
  }

  /**
   * Resolves once this record, and every record appended before it, has been
   * written (and in "always" mode fdatasync'ed). Records appended in the same
   * tick, or while a write is in flight, share one write and one sync. Rejects
   * if the write fails; after a failure every later append is rejected too.
   * A large payload is written from where it lies: it must not change until
   * the append settles.
   */
  append(payload: Uint8Array): Promise<void> {
    if (this.failure) return Promise.reject(this.failedError());
    if (this.closing) return Promise.reject(new Error(`journal ${this.path} is closed`));
    let pieces: Uint8Array[];
    try {
      pieces = framedPieces(payload);
    } catch (error) {
      return Promise.reject(asError(error));
    }
    const bytes = RECORD_HEADER_BYTES + payload.length;
    this.bytes += bytes;
    this.counters.appends++;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ pieces, bytes, resolve, reject });
      this.scheduleFlush();
    });
  }

  /**
   * Holds back all writes until `barrier` settles; if it rejects, the journal
   * fails. Appends are still accepted (and ordered) meanwhile. Used on
   * rotation so the next journal never becomes durable ahead of the previous
   * one: otherwise a crash could keep a later record while losing an earlier
   * one still in flight in the old file.
   */
  holdWritesUntil(barrier: Promise<unknown>): void {
    // The flush loop observes the rejection; this only stops it being
    // reported as unhandled if no write ever happens.
    barrier.catch(() => undefined);
    this.barrier = barrier;
  }

  /**
   * Writes everything pending, syncs, and closes the file. Idempotent.
   * Rejects with the journal's failure if it has failed (after closing).
   */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    if (this.flushScheduled !== undefined) {
      clearImmediate(this.flushScheduled);
      this.flushScheduled = undefined;
      this.startFlush();
    }
    await this.whenIdle();
    if (this.syncTimer !== undefined) {
      clearTimeout(this.syncTimer);
      this.syncTimer = undefined;
    }
    if (this.intervalSync) await this.intervalSync;

    let error = this.failure ? this.failedError() : undefined;
    if (!error && this.dirty) {
      try {
        await this.handle.datasync();
        this.counters.syncs++;
        this.dirty = false;
      } catch (syncError) {
        this.fail(syncError);
        error = this.failedError();
      }
    }
    try {
      await this.handle.close();
    } catch (closeError) {
      error ??= asError(closeError);
    }
    if (error) throw error;
  }

  private scheduleFlush(): void {
    if (this.writing || this.flushScheduled !== undefined) return;
    // Deferring to setImmediate (rather than a microtask) lets every append
    // made in the current macrotask, including its promise continuations,
    // join the first batch.
    this.flushScheduled = setImmediate(() => {
      this.flushScheduled = undefined;
      this.startFlush();
    });
  }

  private startFlush(): void {
    if (this.writing || this.queue.length === 0) return;
    this.writing = true;
    void this.flushLoop();
  }

  /** Never rejects: failures are turned into rejected appends. */
  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        if (this.failure) {
          this.rejectQueued();
          break;
        }
        if (this.barrier) {
          try {
            await this.barrier;
            this.barrier = undefined;
          } catch (error) {
            this.fail(new Error(`previous journal failed, refusing to write ${this.path}`, { cause: error }));
            continue;
          }
        }
        const batch = this.takeBatch();
        try {
          await writeAllPieces(
            this.handle,
            batch.flatMap((record) => record.pieces),
          );
          this.counters.writes++;
          this.dirty = true;
          if (this.mode === "always") {
            await this.handle.datasync();
            this.counters.syncs++;
            this.dirty = false;
          } else {
            this.armSyncTimer();
          }
        } catch (error) {
          this.fail(error);
        }
        // A sync failure reported by the interval timer while this write was
        // in flight also means the batch must not be acknowledged.
        if (this.failure) {
          const failure = this.failedError();
          for (const record of batch) record.reject(failure);
        } else {
          for (const record of batch) record.resolve();
        }
      }
    } finally {
      // Synchronous with the loop's final queue check, so an append can never
      // observe `writing` still set after the loop has decided to stop.
      this.writing = false;
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private takeBatch(): PendingRecord[] {
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && (count === 0 || bytes + this.queue[count].bytes <= MAX_BATCH_BYTES)) {
      bytes += this.queue[count].bytes;
      count++;
    }
    return this.queue.splice(0, count);
  }

  private whenIdle(): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private armSyncTimer(): void {
    if (this.syncTimer !== undefined || this.closing) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      this.runIntervalSync();
    }, this.intervalMs);
    // A pending background sync must not keep the process alive.
    this.syncTimer.unref();
  }

  private runIntervalSync(): void {
    if (this.intervalSync || this.failure || !this.dirty) return;
    // Cleared before the sync starts: writes completing during it re-arm the timer.
    this.dirty = false;
    this.intervalSync = this.handle.datasync().then(
      () => {
        this.counters.syncs++;
        this.intervalSync = undefined;
      },
      (error: unknown) => {
        this.fail(error);
        this.intervalSync = undefined;
      },
    );
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = asError(error);
    this.rejectQueued();
  }

  private rejectQueued(): void {
    const failure = this.failedError();
    for (const record of this.queue.splice(0)) record.reject(failure);
  }

  private failedError(): Error {
    return new Error(`journal ${this.path} has failed and accepts no more appends: ${this.failure?.message}`, {
      cause: this.failure,
    });
  }
}

/** Throws if the options are unusable; lets owners fail before touching any file. */
export function validateJournalOptions(options: JournalOptions): void {
  if (options.fsync !== "always" && options.fsync !== "interval") {
    throw new TypeError(`unknown fsync mode ${String(options.fsync)}`);
  }
  const interval = options.fsyncIntervalMs ?? DEFAULT_FSYNC_INTERVAL_MS;
  if (!Number.isFinite(interval) || interval <= 0) {
    throw new RangeError(`fsyncIntervalMs must be a positive number, got ${interval}`);
  }
}

// util.types.isNativeError also recognises errors from other realms (vm
// contexts, as under jest), where `instanceof Error` is false.
function asError(value: unknown): Error {
  return value instanceof Error || types.isNativeError(value) ? value : new Error(String(value));
}

function isErrnoException(value: unknown): value is NodeJS.ErrnoException {
  return (value instanceof Error || types.isNativeError(value)) && "code" in value;
}
