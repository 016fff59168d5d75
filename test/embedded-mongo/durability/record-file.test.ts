import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32c } from "../../../src/embedded-mongo/durability/crc32c.js";
import {
  MAX_RECORD_BYTES,
  RECORD_HEADER_BYTES,
  frameRecord,
  scanRecordFile,
  writeRecordFile,
} from "../../../src/embedded-mongo/durability/record-file.js";
import type { ScanResult } from "../../../src/embedded-mongo/durability/record-file.js";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "arca-record-file-"));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Payloads of varied sizes, including some larger than the small scan chunks used below. */
function samplePayloads(): Buffer[] {
  return Array.from({ length: 40 }, (_, i) => Buffer.alloc(1 + ((i * 37) % 300), `payload-${i}|`));
}

async function scanAll(
  path: string,
  chunkBytes?: number,
): Promise<{ payloads: Buffer[]; offsets: number[]; result: ScanResult }> {
  const payloads: Buffer[] = [];
  const offsets: number[] = [];
  const result = await scanRecordFile(
    path,
    (payload, offset) => {
      payloads.push(Buffer.from(payload));
      offsets.push(offset);
    },
    chunkBytes === undefined ? {} : { chunkBytes },
  );
  return { payloads, offsets, result };
}

describe("frameRecord", () => {
  it("writes length, crc32c and payload", () => {
    const payload = Buffer.from("hello");
    const framed = frameRecord(payload);
    expect(framed.length).toBe(RECORD_HEADER_BYTES + 5);
    expect(framed.readUInt32LE(0)).toBe(5);
    expect(framed.readUInt32LE(4)).toBe(crc32c(payload));
    expect(framed.subarray(8).toString()).toBe("hello");
  });

  it("copies the payload", () => {
    const payload = Buffer.from("abc");
    const framed = frameRecord(payload);
    payload[0] = 0x7a;
    expect(framed.subarray(8).toString()).toBe("abc");
  });

  it("rejects empty and oversized payloads", () => {
    expect(() => frameRecord(new Uint8Array(0))).toThrow(/empty/);
    // A fake view with an impossible length, so no 256 MiB allocation is needed.
    const huge = { length: MAX_RECORD_BYTES + 1 } as unknown as Uint8Array;
    expect(() => frameRecord(huge)).toThrow(/exceeds/);
  });
});

describe("scanRecordFile", () => {
  it("round-trips framed records with any chunk size", async () => {
    const dir = await tempDir();
    const path = join(dir, "records");
    const payloads = samplePayloads();
    await writeFile(path, Buffer.concat(payloads.map(frameRecord)));
    for (const chunkBytes of [undefined, 8, 13, 64, 1000]) {
      const { payloads: read, offsets, result } = await scanAll(path, chunkBytes);
      expect(read).toEqual(payloads);
      expect(offsets[0]).toBe(0);
      expect(offsets[1]).toBe(RECORD_HEADER_BYTES + payloads[0].length);
      expect(result).toEqual({
        records: payloads.length,
        validBytes: result.fileBytes,
        fileBytes: result.fileBytes,
        tail: "clean",
      });
    }
  });

  it("hands out payloads that stay valid after the scan", async () => {
    const dir = await tempDir();
    const path = join(dir, "records");
    await writeFile(path, Buffer.concat([frameRecord(Buffer.from("first")), frameRecord(Buffer.from("second"))]));
    const kept: Uint8Array[] = [];
    await scanRecordFile(path, (payload) => kept.push(payload), { chunkBytes: 8 });
    expect(kept.map((p) => Buffer.from(p).toString())).toEqual(["first", "second"]);
  });

  it("reports an empty file as clean", async () => {
    const dir = await tempDir();
    const path = join(dir, "empty");
    await writeFile(path, "");
    const { result } = await scanAll(path);
    expect(result).toEqual({ records: 0, validBytes: 0, fileBytes: 0, tail: "clean" });
  });

  describe("damaged tails", () => {
    const good = [Buffer.from("one"), Buffer.from("two"), Buffer.from("three")];
    const goodBytes = Buffer.concat(good.map(frameRecord));
    const last = frameRecord(Buffer.from("the last record"));

    async function scanWithTail(
      tail: Buffer,
      chunkBytes?: number,
    ): Promise<{ payloads: Buffer[]; result: ScanResult }> {
      const dir = await tempDir();
      const path = join(dir, "records");
      await writeFile(path, Buffer.concat([goodBytes, tail]));
      return scanAll(path, chunkBytes);
    }

    it.each([
      ["a partial header", last.subarray(0, 5)],
      ["a partial payload", last.subarray(0, last.length - 1)],
      ["a length running past the end of the file", Buffer.from([0xff, 0xff, 0x00, 0x00, 1, 2, 3, 4, 5])],
    ])("stops at %s as torn", async (_name, tail) => {
      for (const chunkBytes of [undefined, 8, 9]) {
        const { payloads, result } = await scanWithTail(tail, chunkBytes);
        expect(payloads).toEqual(good);
        expect(result.tail).toBe("torn");
        expect(result.validBytes).toBe(goodBytes.length);
        expect(result.fileBytes).toBe(goodBytes.length + tail.length);
      }
    });

    it("stops at a checksum mismatch as corrupt", async () => {
      const flipped = Buffer.from(last);
      flipped[flipped.length - 2] ^= 0x01;
      const { payloads, result } = await scanWithTail(flipped);
      expect(payloads).toEqual(good);
      expect(result.tail).toBe("corrupt");
      expect(result.validBytes).toBe(goodBytes.length);
      expect(result.problem).toMatch(new RegExp(`checksum mismatch at offset ${goodBytes.length}`));
    });

    it("treats zero-filled space as corrupt, not as empty records", async () => {
      const { payloads, result } = await scanWithTail(Buffer.alloc(4096));
      expect(payloads).toEqual(good);
      expect(result.tail).toBe("corrupt");
      expect(result.validBytes).toBe(goodBytes.length);
    });

    it("treats an insane length as corrupt without trying to read it", async () => {
      const header = Buffer.alloc(8);
      header.writeUInt32LE(MAX_RECORD_BYTES + 1, 0);
      const { result } = await scanWithTail(header);
      expect(result.tail).toBe("corrupt");
      expect(result.problem).toMatch(/invalid record length/);
    });
  });

  it("propagates errors from the callback", async () => {
    const dir = await tempDir();
    const path = join(dir, "records");
    await writeFile(path, frameRecord(Buffer.from("x")));
    await expect(
      scanRecordFile(path, () => {
        throw new Error("apply failed");
      }),
    ).rejects.toThrow("apply failed");
  });
});

describe("writeRecordFile", () => {
  it("writes records that scan back identically, across chunk boundaries", async () => {
    const dir = await tempDir();
    const path = join(dir, "snapshot");
    const payloads = samplePayloads();
    const { records, bytes } = await writeRecordFile(path, payloads, { chunkBytes: 100 });
    expect(records).toBe(payloads.length);
    const contents = await readFile(path);
    expect(bytes).toBe(contents.length);
    expect(contents.equals(Buffer.concat(payloads.map(frameRecord)))).toBe(true);
    expect((await scanAll(path)).payloads).toEqual(payloads);
  });

  it("consumes a lazy iterable and removes the partial file if it throws", async () => {
    const dir = await tempDir();
    const path = join(dir, "snapshot.tmp");
    function* failing(): Generator<Uint8Array> {
      for (let i = 0; i < 100; i++) yield Buffer.alloc(50, i);
      throw new Error("serialisation failed");
    }
    await expect(writeRecordFile(path, failing(), { chunkBytes: 64 })).rejects.toThrow("serialisation failed");
    expect(await readdir(dir)).toEqual([]);
  });
});
