// Open cursors: the remainder of a result set, handed out batch by batch through getMore.
// Results are materialised as references to immutable stored documents, so a cursor is a
// stable view even while the collection changes.
import { Long, calculateObjectSize, type Document } from "bson";
import { CommandError, ErrorCodes } from "./errors.js";

const MAX_BATCH_BYTES = 16 * 1024 * 1024;
export const DEFAULT_BATCH_SIZE = 101;
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;

interface OpenCursor {
  ns: string;
  docs: Document[];
  position: number;
  lastUsed: number;
}

export type CursorReply = {
  cursor: { id: Long; ns: string; firstBatch?: Document[]; nextBatch?: Document[] };
  ok: 1;
};

export class CursorManager {
  private readonly cursors = new Map<string, OpenCursor>();

  /** The first batch of a result set; opens a cursor when more remains. */
  open(ns: string, docs: Document[], batchSize: number | undefined, singleBatch = false): CursorReply {
    const cursor: OpenCursor = { ns, docs, position: 0, lastUsed: Date.now() };
    const batch = this.take(cursor, batchSize ?? DEFAULT_BATCH_SIZE);
    let id = Long.ZERO;
    if (!singleBatch && cursor.position < docs.length) {
      id = this.newId();
      this.cursors.set(id.toString(), cursor);
    }
    return { cursor: { id, ns, firstBatch: batch }, ok: 1 };
  }

  getMore(id: Long | number, ns: string, batchSize: number | undefined): CursorReply {
    const key = id.toString();
    const cursor = this.cursors.get(key);
    if (!cursor) throw new CommandError(ErrorCodes.CursorNotFound, `cursor id ${key} not found`);
    if (cursor.ns !== ns)
      throw new CommandError(
        ErrorCodes.Unauthorized,
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`,
      );
    cursor.lastUsed = Date.now();
    const batch = this.take(cursor, batchSize ?? Number.MAX_SAFE_INTEGER);
    const exhausted = cursor.position >= cursor.docs.length;
    if (exhausted) this.cursors.delete(key);
    return { cursor: { id: exhausted ? Long.ZERO : Long.fromString(key), ns, nextBatch: batch }, ok: 1 };
  }

  kill(ids: Array<Long | number>): { killed: Long[]; notFound: Long[] } {
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const id of ids) {
      const long = typeof id === "number" ? Long.fromNumber(id) : id;
      (this.cursors.delete(long.toString()) ? killed : notFound).push(long);
    }
    return { killed, notFound };
  }

  /** Cursors idle for ten minutes are closed, as MongoDB does by default. */
  sweep(now = Date.now()): void {
    for (const [key, cursor] of this.cursors) if (now - cursor.lastUsed > IDLE_TIMEOUT_MS) this.cursors.delete(key);
  }

  get size(): number {
    return this.cursors.size;
  }

  private take(cursor: OpenCursor, batchSize: number): Document[] {
    const limit = batchSize > 0 ? batchSize : DEFAULT_BATCH_SIZE;
    const batch: Document[] = [];
    let bytes = 0;
    while (cursor.position < cursor.docs.length && batch.length < limit) {
      const doc = cursor.docs[cursor.position];
      // A batch is at most 16 MiB, the first document included, as MongoDB's are; the first always goes (it is at
      // most 16 MiB itself). A batch of GridFS chunks is what reaches the bound.
      bytes += calculateObjectSize(doc);
      if (batch.length > 0 && bytes > MAX_BATCH_BYTES) break;
      batch.push(doc);
      cursor.position++;
    }
    return batch;
  }

  private newId(): Long {
    // Positive 53-bit ids: unique enough, and safe when a driver turns them into numbers.
    let id: Long;
    do id = Long.fromNumber(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER) + 1);
    while (this.cursors.has(id.toString()));
    return id;
  }
}
