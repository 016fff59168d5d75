// The linear pre-scan of JSON bodies (src/http/json-scan.ts): depth and duplicate keys found
// without parsing, and a deep body refused where its depth passes the limit, not at its end.
import { describe, expect, it } from "@jest/globals";
import { DepthGuard, jsonPathAt, scanJson } from "../../src/http/json-scan.js";

describe("scanJson", () => {
  it("stops at the first bracket past the limit, whatever follows (H4: 9 MB of `[`)", () => {
    const text = "[".repeat(9 * 1024 * 1024);
    expect(scanJson(text, 64)).toEqual({ problem: { kind: "depth", limit: 64 }, scanned: 65 });
  });

  it("accepts nesting up to the limit", () => {
    expect(scanJson("[".repeat(64) + "]".repeat(64), 64).problem).toBeUndefined();
    expect(scanJson(`${'{"a":'.repeat(64)}1${"}".repeat(64)}`, 64).problem).toBeUndefined();
    expect(scanJson(`${'{"a":'.repeat(65)}1${"}".repeat(65)}`, 64).problem).toEqual({ kind: "depth", limit: 64 });
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(scanJson(`{"a":"${"[".repeat(100)}\\"${"{".repeat(100)}"}`, 2).problem).toBeUndefined();
    expect(scanJson(`["\\\\", [[1]]]`, 3).problem).toBeUndefined();
  });

  it("finds a duplicate key, escapes resolved, with the path of the object holding it", () => {
    expect(scanJson('{"a":1,"\\u0061":2}', 64).problem).toEqual({ kind: "duplicateKey", path: ["a"] });
    expect(scanJson('{"x":[{"b":1},{"c":{"d":1,"d":2}}]}', 64).problem).toEqual({
      kind: "duplicateKey",
      path: ["x", "1", "c", "d"],
    });
  });

  it("takes the same key in sibling objects and a key equal to a value as distinct", () => {
    expect(scanJson('[{"a":1},{"a":2},{"b":"a","a":"b"}]', 64).problem).toBeUndefined();
    expect(scanJson('{"a":{"a":{"a":1}}}', 64).problem).toBeUndefined();
  });

  it("leaves malformed text to JSON.parse", () => {
    expect(scanJson('{"a', 64).problem).toBeUndefined();
    expect(scanJson('{"\\u00zz":1}', 64).problem).toBeUndefined();
  });
});

describe("DepthGuard", () => {
  /** Whether the guard accepts `text` fed in chunks of `size` bytes. */
  const accepts = (text: string, limit: number, size: number) => {
    const guard = new DepthGuard(limit);
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += size) if (!guard.accept(bytes.subarray(at, at + size))) return false;
    return true;
  };

  it("agrees with scanJson on depth, whatever the chunking", () => {
    const texts = [
      "[".repeat(64) + "]".repeat(64),
      "[".repeat(65) + "]".repeat(65),
      `${'{"a":'.repeat(64)}1${"}".repeat(64)}`,
      `${'{"a":'.repeat(65)}1${"}".repeat(65)}`,
      `{"a":"${"[".repeat(100)}\\"${"{".repeat(3)}`,
      `{"a":"${"[".repeat(100)}"${"{".repeat(100)}"}`,
      `["\\", [[1]]]`,
      `{"é档":"${"[".repeat(70)}", "b":[[[["📜"]]]]}`,
    ];
    for (const text of texts) {
      for (const limit of [3, 64]) {
        const expected = scanJson(text, limit).problem?.kind !== "depth";
        for (const size of [1, 2, 3, 7, 1024])
          expect([text.slice(0, 30), limit, size, accepts(text, limit, size)]).toEqual([
            text.slice(0, 30),
            limit,
            size,
            expected,
          ]);
      }
    }
  });

  it("stops within the chunk where the nesting passes the limit", () => {
    const guard = new DepthGuard(64);
    expect(guard.accept(Buffer.from("[".repeat(64)))).toBe(true);
    expect(guard.accept(Buffer.from("["))).toBe(false);
  });
});

describe("jsonPathAt", () => {
  const text = '{"title":"x","dates":[{"begin":"1900"},{"expression":"ca. 1900"}]}';
  it("names the field a character falls in", () => {
    expect(jsonPathAt(text, text.indexOf("ca. 1900"))).toEqual(["dates", "1", "expression"]);
    expect(jsonPathAt(text, text.indexOf('"x"') + 1)).toEqual(["title"]);
    expect(jsonPathAt(text, text.indexOf("begin") + 1)).toEqual(["dates", "0", "begin"]);
  });

  it("names nothing at the top level", () => {
    expect(jsonPathAt('"just a string"', 3)).toEqual([]);
  });
});
