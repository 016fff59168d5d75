import { describe, expect, it } from "@jest/globals";
import { crc32c } from "../../../src/embedded-mongo/durability/crc32c.js";

/** Bit-at-a-time reference implementation, to cross-check the table-driven one. */
function referenceCrc32c(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return ~crc >>> 0;
}

function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

describe("crc32c", () => {
  it("matches the standard check value", () => {
    expect(crc32c(Buffer.from("123456789", "ascii"))).toBe(0xe3069283);
  });

  it("matches the RFC 3720 (iSCSI) test vectors", () => {
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c);
    const iscsiReadPdu = Uint8Array.from([
      0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]);
    expect(crc32c(iscsiReadPdu)).toBe(0xd9963a56);
  });

  it("returns 0 for empty input and unsigned results", () => {
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(Buffer.from("The quick brown fox jumps over the lazy dog"))).toBe(0x22620404);
    for (let seed = 1; seed < 50; seed++) {
      const value = crc32c(pseudoRandomBytes(seed, seed));
      expect(Number.isInteger(value) && value >= 0 && value <= 0xffffffff).toBe(true);
    }
  });

  it("agrees with a bitwise reference for every length around the 8-byte stride", () => {
    for (let length = 0; length <= 80; length++) {
      const data = pseudoRandomBytes(length, length + 7);
      expect(crc32c(data)).toBe(referenceCrc32c(data));
    }
    const large = pseudoRandomBytes(100_003, 99);
    expect(crc32c(large)).toBe(referenceCrc32c(large));
  });

  it("handles unaligned subarray views", () => {
    const data = pseudoRandomBytes(64, 3);
    for (let offset = 0; offset < 8; offset++) {
      const view = data.subarray(offset, offset + 41);
      expect(crc32c(view)).toBe(referenceCrc32c(Uint8Array.from(view)));
    }
  });

  it("continues from a previous value", () => {
    const data = pseudoRandomBytes(1000, 5);
    const whole = crc32c(data);
    for (const split of [0, 1, 7, 8, 9, 500, 999, 1000]) {
      expect(crc32c(data.subarray(split), crc32c(data.subarray(0, split)))).toBe(whole);
    }
  });
});
