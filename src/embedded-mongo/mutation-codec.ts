// Journal and snapshot records: a run of BSON-encoded mutations back to back (each BSON
// document carries its own length), so a record never has to fit one 16 MiB document.
import { deserialize, type Document } from "bson";
import { serializeAnySize } from "./bson-large.js";
import type { Mutation } from "./store/catalog.js";

export function encodeMutations(mutations: Mutation[]): Uint8Array {
  const parts = mutations.map((m): Uint8Array => {
    const doc: Document = m;
    return serializeAnySize(doc);
  });
  // One mutation (a single write outside a transaction) is its own BSON: not copied again.
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

export function decodeMutations(payload: Uint8Array): Mutation[] {
  const buf = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength) as Buffer;
  const out: Mutation[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const size = buf.readInt32LE(offset);
    // Our own format, written by encodeMutations: trusted to have a Mutation's shape.
    out.push(deserialize(buf.subarray(offset, offset + size), { promoteValues: true, promoteLongs: true }) as Mutation);
    offset += size;
  }
  return out;
}
