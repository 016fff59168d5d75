// Serialising a document larger than bson's shared 17 MiB buffer (a journal record of a large transaction, a reply
// holding a 16 MiB batch), which bson does only into that buffer, grown to fit. A Binary whose buffer is longer than
// its `position` (what deserialising can produce) is copied by bson whole, buffer and all, before it steps back to
// the Binary's end: harmless with slack after the document, past the end of a buffer of the document's exact size.
// Those Binaries are trimmed first (the containers on the way copied, the caller's document left as it was).
import { Binary, calculateObjectSize, serialize, setInternalBufferSize, type Document } from "bson";

/** What bson's shared buffer holds with room to spare. */
const SHARED_BYTES = 16 * 1024 * 1024;

const isBinary = (value: unknown): value is Binary =>
  typeof value === "object" && value !== null && (value as { _bsontype?: unknown })._bsontype === "Binary";

function trimmed(value: unknown): unknown {
  // By its tag, not instanceof: a Binary may come from another copy of bson (the driver's, in one process with ours).
  if (isBinary(value)) {
    return value.buffer.length > value.position
      ? new Binary(value.buffer.subarray(0, value.position), value.sub_type)
      : value;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = trimmed(item);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const next = trimmed(item);
      if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
    }
    return copy ?? value;
  }
  return value;
}

/** The document's BSON, of any size: bson's own for what fits its shared buffer, else in a buffer of its own. */
export function serializeAnySize(doc: Document, size = calculateObjectSize(doc)): Uint8Array {
  if (size <= SHARED_BYTES) return serialize(doc);
  const safe = trimmed(doc) as Document;
  // bson serialises into its shared buffer whatever the output buffer (serializeWithBufferAndIndex copies out of
  // it): that buffer is grown to the document, and kept at the largest size seen.
  setInternalBufferSize(calculateObjectSize(safe));
  return serialize(safe);
}
