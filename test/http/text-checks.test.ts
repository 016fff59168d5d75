// The text rules every body and parameter obeys (src/http/text-checks.ts): UTF-8, no NUL, no
// lone surrogate; and query strings checked on their raw bytes (src/http/query-check.ts).
import { describe, expect, it } from "@jest/globals";
import { queryProblem } from "../../src/http/query-check.js";
import {
  decodeComponent,
  firstInvalidUtf8,
  HAS_NUL,
  LONE_SURROGATE,
  NOT_UTF8,
  textProblem,
} from "../../src/http/text-checks.js";

describe("firstInvalidUtf8", () => {
  it.each([
    ["valid text", Buffer.from("café ☃ 𝄞"), -1],
    ["a latin1 byte", Buffer.from([0x61, 0xe9, 0x62]), 1],
    ["a truncated sequence at the end", Buffer.from([0x61, 0x62, 0xe2, 0x98]), 2],
    ["an overlong slash", Buffer.from([0x61, 0xc0, 0xaf]), 1],
    ["an encoded surrogate", Buffer.from([0x61, 0xed, 0xa0, 0x80]), 1],
    ["a code point past U+10FFFF", Buffer.from([0xf4, 0x90, 0x80, 0x80]), 0],
  ])("%s", (_name, bytes, offset) => {
    expect(firstInvalidUtf8(bytes)).toBe(offset);
  });
});

describe("textProblem", () => {
  it.each([
    ["plain text", "Papers of A. Person", undefined],
    ["a pair of surrogates", "𝄞", undefined],
    ["NUL", "a\0b", HAS_NUL],
    ["a lone high surrogate", "a\ud800b", LONE_SURROGATE],
    ["a lone low surrogate", "\udc00", LONE_SURROGATE],
    ["a high surrogate at the end", "a\ud83d", LONE_SURROGATE],
  ])("%s", (_name, text, problem) => {
    expect(textProblem(text)).toBe(problem);
  });
});

describe("decodeComponent", () => {
  it("decodes + and percent escapes", () => {
    expect(decodeComponent("caf%C3%A9+au+lait", false)).toEqual({ text: "café au lait" });
  });

  it("keeps a % that escapes nothing, as node's querystring does", () => {
    expect(decodeComponent("100%+sure%zz", false)).toEqual({ text: "100% sure%zz" });
    expect(decodeComponent("100%+sure%zz%ff", false)).toEqual({ problem: NOT_UTF8 });
  });

  it("refuses bytes that are not UTF-8, and NUL", () => {
    expect(decodeComponent("%ff", false)).toEqual({ problem: NOT_UTF8 });
    expect(decodeComponent("%ed%a0%80", false)).toEqual({ problem: NOT_UTF8 });
    expect(decodeComponent("a%00", false)).toEqual({ problem: HAS_NUL });
  });

  it("reads a request target's own characters as bytes", () => {
    expect(decodeComponent("caf\xc3\xa9", true)).toEqual({ text: "café" });
    expect(decodeComponent("caf\xe9", true)).toEqual({ problem: NOT_UTF8 });
  });
});

describe("queryProblem", () => {
  it("names the first parameter with a problem", () => {
    expect(queryProblem("page=1&resolve[]=subjects&title=caf%C3%A9")).toBeUndefined();
    expect(queryProblem("page=1&q=%ff&r=%00")).toEqual(["q", NOT_UTF8]);
    expect(queryProblem("page=1&%ff=1")).toEqual(["%ff", `Parameter name: ${NOT_UTF8}`]);
  });
});
