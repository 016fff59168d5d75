import { describe, expect, it } from "@jest/globals";
import { MAX_MESSAGE_SIZE, ProtocolError } from "../../../src/embedded-mongo/wire/message.js";
import { MessageFramer } from "../../../src/embedded-mongo/wire/message-framer.js";

/** A message of `length` bytes (its length first, then a pattern that tells messages and offsets apart). */
function message(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 4; i < length; i++) bytes[i] = (seed * 31 + i) & 0xff;
  bytes.writeInt32LE(length, 0);
  return bytes;
}

/** Feeds `stream` in pieces of `size` bytes; the messages framed. */
function frame(stream: Buffer, size: number): Buffer[] {
  const framer = new MessageFramer();
  const out: Buffer[] = [];
  for (let at = 0; at < stream.length; at += size) out.push(...framer.push(stream.subarray(at, at + size)));
  return out;
}

describe("MessageFramer", () => {
  const messages = [message(16, 1), message(40, 2), message(70_000, 3), message(17, 4), message(300_000, 5)];
  const stream = Buffer.concat(messages);

  it.each([1, 3, 4, 5, 16, 1000, 65_536, stream.length])("gives each message whole, fed %i bytes at a time", (size) => {
    const framed = frame(stream, size);
    expect(framed.map((one) => one.length)).toEqual(messages.map((one) => one.length));
    framed.forEach((one, i) => expect(one.equals(messages[i]!)).toBe(true));
  });

  it("gives nothing until a message's last byte, and keeps the bytes after it for the next", () => {
    const framer = new MessageFramer();
    const [first, second] = [message(100, 6), message(50, 7)];
    expect(framer.push(first.subarray(0, 2))).toEqual([]);
    expect(framer.push(first.subarray(2, 99))).toEqual([]);
    const both = Buffer.concat([first.subarray(99), second.subarray(0, 10)]);
    expect(framer.push(both).map((one) => one.equals(first))).toEqual([true]);
    expect(framer.push(Buffer.alloc(0))).toEqual([]);
    expect(framer.push(second.subarray(10)).map((one) => one.equals(second))).toEqual([true]);
  });

  it.each([
    ["shorter than a header", 15],
    ["negative", -1],
    ["past the largest message", MAX_MESSAGE_SIZE + 1],
  ])("refuses a length %s", (_case, length) => {
    const head = Buffer.alloc(4);
    head.writeInt32LE(length, 0);
    const framer = new MessageFramer();
    expect(() => framer.push(head.subarray(0, 3))).not.toThrow();
    expect(() => framer.push(head.subarray(3))).toThrow(ProtocolError);
  });
});
