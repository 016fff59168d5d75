// Documents past bson's shared buffer: journal records and replies of any size, Binaries whose buffers are longer
// than their bytes included (bson copies such a buffer whole, which overran an exact-size buffer and crashed the
// engine on a large GridFS file).
import { describe, expect, it } from "@jest/globals";
import { Binary, deserialize } from "bson";
import { serializeAnySize } from "../../src/embedded-mongo/bson-large.js";
import { decodeMutations, encodeMutations } from "../../src/embedded-mongo/mutation-codec.js";
import type { Mutation } from "../../src/embedded-mongo/store/catalog.js";

const MIB = 1024 * 1024;

/** A Binary of `bytes` bytes on a buffer twice as long, as deserialising can leave one. */
function slackBinary(bytes: number, fill: number): Binary {
  const binary = new Binary(Buffer.alloc(bytes * 2, fill));
  binary.position = bytes;
  return binary;
}

describe("serializeAnySize", () => {
  it("writes a 20 MiB document of Binaries with slack as their bytes alone", () => {
    const doc = { chunks: Array.from({ length: 20 }, (_, i) => slackBinary(MIB, i)) };
    const bytes = serializeAnySize(doc);
    const back = deserialize(bytes) as { chunks: Binary[] };
    expect(back.chunks).toHaveLength(20);
    back.chunks.forEach((chunk, i) => {
      expect(chunk.length()).toBe(MIB);
      expect(chunk.buffer[MIB - 1]).toBe(i);
    });
    // The original is left as it was.
    expect(doc.chunks[0]!.buffer.length).toBe(2 * MIB);
  });

  it("writes a small document as bson does", () => {
    expect(Buffer.from(serializeAnySize({ a: 1, b: slackBinary(10, 7) }))).toEqual(
      Buffer.from(serializeAnySize({ a: 1, b: new Binary(Buffer.alloc(10, 7)) })),
    );
  });

  it("journals a mutation past 16 MiB and reads it back", () => {
    const mutation = { op: "insert", doc: { _id: 1, parts: Array.from({ length: 18 }, () => slackBinary(MIB, 1)) } };
    const [back] = decodeMutations(encodeMutations([mutation as unknown as Mutation])) as unknown as Array<
      typeof mutation
    >;
    expect(back!.doc.parts).toHaveLength(18);
    expect((back!.doc.parts[17] as unknown as Binary).length()).toBe(MIB);
  });
});
