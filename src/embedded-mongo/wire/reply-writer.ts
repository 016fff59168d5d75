// Reply messages written in one pass into one buffer.
//
// bson's serializer is general: it looks for toBSON hooks and _bsontype tags on every value,
// records every object it enters in a Set to detect cycles, writes into a 17 MiB scratch
// buffer that is then copied out, and the message header is concatenated after that. On a
// lookup by key that was the largest piece of the engine's own time (~9 µs of ~50 µs per
// reply in the server, against 2.6 µs in a warm loop: most of it cache misses on a cold
// document). Replies hold plain documents, arrays, strings, numbers, booleans, null, dates
// and a few bson classes (ObjectId, Long, Timestamp); those are written here, byte for byte as
// bson writes them (test/embedded-mongo/wire/reply-writer.test.ts compares the two). Any other
// value makes the writer give up, and the reply goes through bson's serializer instead.
import { Long } from "bson";
import { hasWords, type ObjectIdLike } from "../bson-values.js";

/** Thrown when a value is not one the writer handles: the caller falls back to bson. */
export class Unwritable extends Error {}
const UNWRITABLE = new Unwritable("not a plain BSON value");

/** Deeper nesting than any stored document (MongoDB allows 100 levels) means a cycle. */
const MAX_DEPTH = 200;
/** bson's own limit for one serialised document; past it, bson reports the error. */
const MAX_BYTES = 17 * 1024 * 1024;

/** Longer values are encoded natively: the byte loop wins below ~24 characters, loses 5x at 128 and 16x at 512. */
const LOOP_MAX_CHARS = 24;

/** Array element names, made once: arrays are written with "0", "1", ... as names. */
const INDEX_NAMES = Array.from({ length: 1024 }, (_, i) => String(i));

interface LongBits {
  getLowBits(): number;
  getHighBits(): number;
}

/** Buffers kept for reuse, at most, and the largest kept (a larger one served one rare reply). */
const MAX_SPARE_BUFFERS = 8;
const MAX_KEPT_BYTES = 2 * 1024 * 1024;

/** A written reply: its bytes, on a buffer lent by the writer until `release()`. */
export interface WrittenReply {
  bytes: Buffer;
  /** Gives the buffer back once nothing reads `bytes` any more (the socket has written them). */
  release(): void;
}

export class ReplyWriter {
  // Replies are written into buffers that come back once the socket is done with them, rather
  // than each copied out into a new one: a reply of a megabyte used to allocate four (the
  // doublings) and copy one, and that churn of memory outside the heap made V8 run a full
  // collection every few such replies (~7 ms each, with every query behind it waiting).
  private readonly spare: Buffer[] = [];
  private buf: Buffer;
  private pos = 0;

  constructor(private readonly initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes);
    this.spare.push(this.buf);
  }

  /** `prefix` bytes (the message header and section markers), then `doc`. */
  write(prefix: Uint8Array, doc: object): WrittenReply {
    this.buf = this.spare.pop() ?? Buffer.allocUnsafe(this.initialBytes);
    this.pos = 0;
    try {
      this.ensure(prefix.length);
      this.buf.set(prefix, 0);
      this.pos = prefix.length;
      this.document(doc, false, 0);
    } catch (error) {
      this.giveBack(this.buf);
      throw error;
    }
    const buf = this.buf;
    let released = false;
    return {
      bytes: buf.subarray(0, this.pos),
      release: () => {
        if (released) return;
        released = true;
        this.giveBack(buf);
      },
    };
  }

  /** Buffers ready for the next replies (tests: they are bounded). */
  get spareBuffers(): readonly Buffer[] {
    return this.spare;
  }

  private giveBack(buf: Buffer): void {
    if (buf.length <= MAX_KEPT_BYTES && this.spare.length < MAX_SPARE_BUFFERS) this.spare.push(buf);
  }

  private ensure(bytes: number): void {
    const needed = this.pos + bytes;
    if (needed <= this.buf.length) return;
    if (needed > MAX_BYTES) throw UNWRITABLE;
    const grown = Buffer.allocUnsafe(Math.min(MAX_BYTES, Math.max(needed, this.buf.length * 2)));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  private document(doc: object, isArray: boolean, depth: number): void {
    if (depth > MAX_DEPTH) throw UNWRITABLE;
    this.ensure(4);
    const start = this.pos;
    this.pos += 4;
    if (isArray) {
      const array = doc as unknown[];
      for (let i = 0; i < array.length; i++)
        this.element(i < INDEX_NAMES.length ? INDEX_NAMES[i] : String(i), array[i], depth);
    } else {
      const record = doc as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const value = record[key];
        if (value !== undefined) this.element(key, value, depth); // bson leaves undefined fields out
      }
    }
    this.ensure(1);
    this.buf[this.pos++] = 0;
    this.buf.writeInt32LE(this.pos - start, start);
  }

  private element(key: string, value: unknown, depth: number): void {
    switch (typeof value) {
      case "string": {
        this.head(0x02, key);
        this.ensure(4);
        const lengthAt = this.pos;
        this.pos += 4;
        const bytes = this.utf8(value);
        this.ensure(1);
        this.buf[this.pos++] = 0;
        this.buf.writeInt32LE(bytes + 1, lengthAt);
        return;
      }
      case "number":
        // bson's rule: integers in int32 range (but not -0) are int32, the rest doubles.
        if (Number.isSafeInteger(value) && value <= 0x7fffffff && value >= -0x80000000 && !Object.is(value, -0)) {
          this.head(0x10, key);
          this.ensure(4);
          this.pos = this.buf.writeInt32LE(value, this.pos);
        } else {
          this.head(0x01, key);
          this.ensure(8);
          this.pos = this.buf.writeDoubleLE(value, this.pos);
        }
        return;
      case "boolean":
        this.head(0x08, key);
        this.ensure(1);
        this.buf[this.pos++] = value ? 1 : 0;
        return;
      case "undefined": // only array elements get here: bson writes them as null
        this.head(0x0a, key);
        return;
      case "object":
        return this.object(key, value, depth);
      default: // functions (which bson skips), symbols, bigints
        throw UNWRITABLE;
    }
  }

  private object(key: string, value: object | null, depth: number): void {
    if (value === null) return this.head(0x0a, key);
    if (Array.isArray(value)) {
      this.head(0x04, key);
      return this.document(value, true, depth + 1);
    }
    const proto: unknown = Object.getPrototypeOf(value);
    const tagged = value as { _bsontype?: unknown; toBSON?: unknown };
    if (
      (proto === Object.prototype || proto === null) &&
      tagged._bsontype === undefined &&
      tagged.toBSON === undefined
    ) {
      this.head(0x03, key);
      return this.document(value, false, depth + 1);
    }
    if (value instanceof Date) return this.int64(0x09, key, Long.fromNumber(value.getTime()));
    switch (tagged._bsontype) {
      case "ObjectId":
        return this.objectId(key, value as ObjectIdLike);
      case "Long":
        return this.int64(0x12, key, value as LongBits);
      case "Timestamp":
        return this.int64(0x11, key, value as LongBits);
      default:
        throw UNWRITABLE;
    }
  }

  private objectId(key: string, oid: ObjectIdLike): void {
    this.head(0x07, key);
    this.ensure(12);
    if (hasWords(oid)) {
      this.pos = this.buf.writeUIntBE(oid.i0, this.pos, 3);
      this.pos = this.buf.writeUIntBE(oid.i1, this.pos, 3);
      this.pos = this.buf.writeUIntBE(oid.i2, this.pos, 3);
      this.pos = this.buf.writeUIntBE(oid.i3, this.pos, 3);
    } else {
      this.buf.set(oid.id.subarray(0, 12), this.pos);
      this.pos += 12;
    }
  }

  private int64(type: number, key: string, value: LongBits): void {
    this.head(type, key);
    this.ensure(8);
    this.pos = this.buf.writeInt32LE(value.getLowBits(), this.pos);
    this.pos = this.buf.writeInt32LE(value.getHighBits(), this.pos);
  }

  /** An element's type byte and name. */
  private head(type: number, key: string): void {
    this.ensure(1);
    this.buf[this.pos++] = type;
    this.utf8(key, true);
    this.ensure(1);
    this.buf[this.pos++] = 0;
  }

  /** Writes `text` as UTF-8 at the current position; returns the byte count. */
  private utf8(text: string, isName = false): number {
    const length = text.length;
    this.ensure(length * 3);
    const buf = this.buf;
    let pos = this.pos;
    // A long value (a note, a description) is encoded natively: a byte loop over a 1 MiB note
    // held the engine ~5 ms, and every query behind it waited (bench:load, H3).
    if (!isName && length > LOOP_MAX_CHARS) {
      const written = buf.write(text, pos, "utf8");
      this.pos += written;
      return written;
    }
    // Names and most values are short and ASCII: a byte loop beats a native call for them.
    for (let i = 0; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0 && isName) throw UNWRITABLE; // bson refuses such names; let it say so
      if (code >= 0x80) {
        if (isName && text.includes("\0", i)) throw UNWRITABLE;
        pos = this.pos + buf.write(text, this.pos, "utf8");
        break;
      }
      buf[pos++] = code;
    }
    const written = pos - this.pos;
    this.pos = pos;
    return written;
  }
}
