/**
 * The framed record format shared by journals and snapshots.
 *
 * A file is a sequence of records, each
 *
 *     [u32 LE payload length][u32 LE crc32c(payload)][payload bytes]
 *
 * with no file header, so appending is a plain write at the end and a torn
 * append can only damage the tail. Payloads are opaque to this layer.
 *
 * Zero-length payloads are not allowed: eight zero bytes would otherwise be a
 * valid record (length 0, crc32c of nothing is 0), and some filesystems expose
 * zero-filled blocks at the end of a file after a crash. Rejecting them makes a
 * zeroed tail read as corruption instead of as a run of phantom records.
 */

import { open, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { crc32c } from "./crc32c.js";

export const RECORD_HEADER_BYTES = 8;

/** Journals, snapshots and the lock: readable and writable by the engine's user only (umask aside). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Upper bound on a payload. A length above this in a header is treated as
 * corruption rather than an instruction to allocate and read that much.
 */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** Read size for scans: large enough to amortise syscalls, small enough to bound memory. */
const DEFAULT_SCAN_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Size of each write when producing a whole record file (snapshots). Each
 * chunk is serialised and checksummed synchronously before its write is
 * awaited, so this bounds how long the event loop is held: at 1 MiB that is a
 * few milliseconds, where 4 MiB chunks measured 20-60 ms stalls.
 */
const DEFAULT_WRITE_CHUNK_BYTES = 1024 * 1024;

function checkPayloadLength(length: number): void {
  if (length === 0) {
    throw new RangeError("record payload must not be empty");
  }
  if (length > MAX_RECORD_BYTES) {
    throw new RangeError(`record payload of ${length} bytes exceeds the ${MAX_RECORD_BYTES} byte limit`);
  }
}

/** Writes the header for `payload` at `offset` of `target`. */
function writeHeader(target: Buffer, offset: number, payload: Uint8Array): void {
  target.writeUInt32LE(payload.length, offset);
  target.writeUInt32LE(crc32c(payload), offset + 4);
}

/**
 * Returns a new buffer holding `payload` framed as one record. The payload is
 * copied, so the caller may reuse its buffer as soon as this returns.
 */
export function frameRecord(payload: Uint8Array): Buffer {
  checkPayloadLength(payload.length);
  const framed = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
  writeHeader(framed, 0, payload);
  framed.set(payload, RECORD_HEADER_BYTES);
  return framed;
}

/** Past this, a payload is written where it lies (after its own header) rather than copied behind one. */
const COPY_LIMIT_BYTES = 64 * 1024;

/**
 * `payload` framed as one record, as the pieces to write in order: a small payload copied behind its header (one
 * piece), a large one left where it is (its header, then the payload itself: the caller must not change it until it
 * is written). A journal record of a 1 MiB document was copied once more here, into memory never touched before.
 */
export function framedPieces(payload: Uint8Array): Uint8Array[] {
  if (payload.length <= COPY_LIMIT_BYTES) return [frameRecord(payload)];
  checkPayloadLength(payload.length);
  const header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
  writeHeader(header, 0, payload);
  return [header, payload];
}

/** Writes `pieces` one after the other at the handle's current (or append) position, in one writev when it can. */
export async function writeAllPieces(handle: FileHandle, pieces: readonly Uint8Array[]): Promise<void> {
  if (pieces.length === 1) return writeFully(handle, pieces[0]!);
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const { bytesWritten } = await handle.writev(pieces as Uint8Array[]);
  // A short write (rare on a regular file): the rest, from where it stopped, as one buffer.
  if (bytesWritten < total) await writeFully(handle, Buffer.concat(pieces).subarray(bytesWritten));
}

/** Writes all of `data` at the handle's current (or append) position, looping over short writes. */
export async function writeFully(handle: FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten <= 0) {
      throw new Error(`write made no progress (${offset} of ${data.length} bytes written)`);
    }
    offset += bytesWritten;
  }
}

/**
 * fsyncs a directory so that entries created, renamed or removed in it are
 * durable. Without this a file that was itself fsynced can still vanish after
 * a power failure because its directory entry was never persisted.
 *
 * Windows cannot open directories; there the rename/create durability is the
 * filesystem's business and this is a no-op.
 */
export async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export type ScanTail =
  /** The file ends exactly after the last record. */
  | "clean"
  /** The file ends part-way through a header or payload (an interrupted append). */
  | "torn"
  /** A record failed validation: bad checksum, zero or insane length. */
  | "corrupt";

export interface ScanResult {
  /** Number of valid records delivered to the callback. */
  records: number;
  /** Offset just past the last valid record: where a damaged file should be truncated. */
  validBytes: number;
  /** Size of the file when the scan started. */
  fileBytes: number;
  tail: ScanTail;
  /** Why the scan stopped early, when `tail` is not "clean". */
  problem?: string;
}

export interface ScanOptions {
  /** Bytes requested per read(2). Records larger than this are still handled. */
  chunkBytes?: number;
}

/**
 * Reads the records of a file in order, calling `onRecord` with each payload
 * (a private copy that the callee may keep) and its record's byte offset.
 *
 * The file is read sequentially in large chunks into one reusable buffer, so
 * memory use is bounded by max(chunk, largest record) regardless of file size.
 * The scan stops at the first invalid or incomplete record; the result says
 * where the valid prefix ends and what was wrong. It never modifies the file.
 * Errors thrown by `onRecord` or by I/O propagate.
 */
export async function scanRecordFile(
  path: string,
  onRecord: (payload: Uint8Array, offset: number) => void,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const chunkBytes = Math.max(RECORD_HEADER_BYTES, options.chunkBytes ?? DEFAULT_SCAN_CHUNK_BYTES);
  const handle = await open(path, "r");
  try {
    const fileBytes = (await handle.stat()).size;
    let buffer = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(fileBytes, RECORD_HEADER_BYTES)));
    // Unconsumed bytes are buffer[start, end); buffer[start] is at file offset `recordOffset`.
    let start = 0;
    let end = 0;
    let readPosition = 0;
    let recordOffset = 0;
    let records = 0;

    /**
     * Makes at least `needed` unconsumed bytes available from `start`, reading
     * as much as fits on each call. Returns false if the file ends first.
     */
    const fill = async (needed: number): Promise<boolean> => {
      if (end - start >= needed) return true;
      // Move the partial record to the front (growing the buffer for large
      // records) so each read can fill the rest of the buffer in one go.
      if (buffer.length < needed) {
        const grown = Buffer.allocUnsafe(Math.max(needed, chunkBytes));
        buffer.copy(grown, 0, start, end);
        buffer = grown;
      } else if (start > 0) {
        buffer.copyWithin(0, start, end);
      }
      end -= start;
      start = 0;
      while (end < needed) {
        const { bytesRead } = await handle.read(buffer, end, buffer.length - end, readPosition);
        if (bytesRead === 0) return false;
        end += bytesRead;
        readPosition += bytesRead;
      }
      return true;
    };

    const stop = (tail: ScanTail, problem?: string): ScanResult => ({
      records,
      validBytes: recordOffset,
      fileBytes,
      tail,
      ...(problem === undefined ? {} : { problem }),
    });

    for (;;) {
      if (end === start && recordOffset === fileBytes) return stop("clean");
      if (!(await fill(RECORD_HEADER_BYTES))) {
        if (end === start) return stop("clean");
        return stop("torn", `incomplete record header at offset ${recordOffset}`);
      }
      const length = buffer.readUInt32LE(start);
      const expectedCrc = buffer.readUInt32LE(start + 4);
      if (length === 0 || length > MAX_RECORD_BYTES) {
        return stop("corrupt", `invalid record length ${length} at offset ${recordOffset}`);
      }
      // Checked against the size before reading so a garbage length near the
      // limit does not make us allocate hundreds of MB only to hit EOF.
      if (recordOffset + RECORD_HEADER_BYTES + length > fileBytes) {
        return stop("torn", `record at offset ${recordOffset} of ${length} bytes extends past end of file`);
      }
      if (!(await fill(RECORD_HEADER_BYTES + length))) {
        return stop("torn", `record at offset ${recordOffset} is incomplete`);
      }
      const payloadStart = start + RECORD_HEADER_BYTES;
      const payload = buffer.subarray(payloadStart, payloadStart + length);
      const actualCrc = crc32c(payload);
      if (actualCrc !== expectedCrc) {
        return stop(
          "corrupt",
          `checksum mismatch at offset ${recordOffset} (stored ${hex(expectedCrc)}, computed ${hex(actualCrc)})`,
        );
      }
      // Copy: the scan buffer is reused, and callers commonly keep payloads.
      onRecord(new Uint8Array(payload), recordOffset);
      records++;
      start = payloadStart + length;
      recordOffset += RECORD_HEADER_BYTES + length;
    }
  } finally {
    await handle.close();
  }
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, "0")}`;
}

export interface WriteRecordFileOptions {
  /** Bytes per write(2). Each write is awaited, which also yields to the event loop. */
  chunkBytes?: number;
}

/**
 * Creates (or truncates) `path`, writes `payloads` to it as framed records,
 * and fsyncs it. Used for snapshots, which are written once to a temporary
 * name and then renamed into place.
 *
 * Records are packed into chunk-sized writes; awaiting each write lets the
 * event loop run between chunks, so a large snapshot does not monopolise the
 * process. The iterable is consumed lazily, one chunk at a time. On failure the
 * partial file is removed and the error rethrown.
 *
 * @returns the number of records and bytes written.
 */
export async function writeRecordFile(
  path: string,
  payloads: Iterable<Uint8Array>,
  options: WriteRecordFileOptions = {},
): Promise<{ records: number; bytes: number }> {
  const chunkBytes = Math.max(RECORD_HEADER_BYTES + 1, options.chunkBytes ?? DEFAULT_WRITE_CHUNK_BYTES);
  const handle = await open(path, "w", PRIVATE_FILE_MODE);
  let records = 0;
  let bytes = 0;
  try {
    const chunk = Buffer.allocUnsafe(chunkBytes);
    let used = 0;
    for (const payload of payloads) {
      checkPayloadLength(payload.length);
      const framedLength = RECORD_HEADER_BYTES + payload.length;
      if (used > 0 && used + framedLength > chunk.length) {
        await writeFully(handle, chunk.subarray(0, used));
        used = 0;
      }
      if (framedLength > chunk.length) {
        await writeFully(handle, frameRecord(payload));
      } else {
        writeHeader(chunk, used, payload);
        chunk.set(payload, used + RECORD_HEADER_BYTES);
        used += framedLength;
      }
      records++;
      bytes += framedLength;
    }
    if (used > 0) await writeFully(handle, chunk.subarray(0, used));
    // fsync rather than fdatasync: the file is new, so its metadata matters too.
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return { records, bytes };
}
