// JSON bodies from text (src/http/json-body.ts): what each refusal names.
import { describe, expect, it } from "@jest/globals";
import { ApiError } from "../../src/errors/api-error.js";
import { jsonFieldAt, parseJsonText, utf8Text } from "../../src/http/json-body.js";

function refusal(run: () => unknown): { status: number; body: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error("not refused");
}

describe("parseJsonText", () => {
  it("parses an ordinary record", () => {
    expect(parseJsonText('{"title":"Papers","dates":[{"begin":"1900"}],"n":[1,2,3]}')).toEqual({
      title: "Papers",
      dates: [{ begin: "1900" }],
      n: [1, 2, 3],
    });
  });

  it.each([
    [
      "a NUL deep in a record",
      '{"a":[{"b":"x\\u0000"}]}',
      { error: { "a/0/b": ["Must not contain the NUL character (U+0000)"] } },
    ],
    [
      "a lone surrogate in an array element",
      '["ok","\\udc00"]',
      { error: { "1": ["Must be valid Unicode text: holds a lone surrogate"] } },
    ],
    [
      "a NUL in a key",
      '{"ti\\u0000tle":"x"}',
      { error: { "ti\u0000tle": ["Field name: Must not contain the NUL character (U+0000)"] } },
    ],
    [
      "a NUL in a top-level string",
      '"\\u0000"',
      { error: "Had some trouble parsing your request: Must not contain the NUL character (U+0000)" },
    ],
    [
      "two bad fields",
      '{"a":"\\u0000","b":"\\ud800"}',
      {
        error: {
          a: ["Must not contain the NUL character (U+0000)"],
          b: ["Must be valid Unicode text: holds a lone surrogate"],
        },
      },
    ],
  ])("refuses %s, naming it", (_name, text, body) => {
    expect(refusal(() => parseJsonText(text))).toEqual({ status: 400, body });
  });

  it("accepts surrogate pairs", () => {
    expect(parseJsonText('{"clef":"\\ud834\\udd1e"}')).toEqual({ clef: "𝄞" });
  });
});

describe("utf8Text", () => {
  it("names the field holding a bad byte, or the byte when no field holds it", () => {
    const inField = Buffer.concat([
      Buffer.from('{"dates":[{"expression":"ca'),
      Buffer.from([0xff]),
      Buffer.from('"}]}'),
    ]);
    expect(refusal(() => utf8Text(inField, jsonFieldAt))).toEqual({
      status: 400,
      body: { error: { "dates/0/expression": ["Must be valid UTF-8 text (invalid byte at offset 27)"] } },
    });
    const atTop = Buffer.from([0xff, 0x7b, 0x7d]);
    expect(refusal(() => utf8Text(atTop, jsonFieldAt))).toEqual({
      status: 400,
      body: { error: "Had some trouble parsing your request: invalid UTF-8 at byte 0" },
    });
  });
});
