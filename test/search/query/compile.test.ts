// The anchor a compiled query leads with: the word keys every match holds one of, which the store walks. With the
// keys' counts, the rarest required choice; without them, the one of fewest keys.
import { describe, expect, it } from "@jest/globals";
import { QueryCompiler } from "../../../src/search/compile.js";
import { parseQuery } from "../../../src/search/query/parser.js";

const compiler = new QueryCompiler(new Set(["keyword", "title", "identifier", "notes"]));
const counts = new Map([
  ["keyword:north", 34_000],
  ["keyword:cover", 9_000],
  ["keyword:counter", 1_200],
  ["keyword:trace", 800],
  ["keyword:paper", 20_000],
]);
const frequency = (key: string) => counts.get(key) ?? 100_000;
const anchorOf = (q: string, weigh?: (key: string) => number) => {
  const filter = compiler.compile(parseQuery(q), weigh) as { $and?: Array<{ words?: unknown }>; words?: unknown };
  return filter.$and?.[0]?.words ?? filter.words;
};

describe("the compiled query's anchor", () => {
  it("is the rarest required term, wherever it stands", () => {
    expect(anchorOf("north AND cover AND counter", frequency)).toBe("keyword:counter");
    expect(anchorOf("counter AND north", frequency)).toBe("keyword:counter");
    expect(anchorOf("+north +(cover OR counter)", frequency)).toEqual({ $in: ["keyword:cover", "keyword:counter"] });
  });

  it("is a phrase's rarest word", () => {
    expect(anchorOf('"tracing paper"', frequency)).toBe("keyword:trace");
    expect(anchorOf('"paper tracing"', frequency)).toBe("keyword:trace");
  });

  it("without counts, is the first of the fewest keys", () => {
    expect(anchorOf("north AND cover AND counter")).toBe("keyword:north");
  });

  it("lists the keys to count: every term's of the query, excluded ones aside", () => {
    expect(compiler.anchorKeys(parseQuery('north AND "tracing paper" -cover title:counter'))).toEqual([
      "keyword:north",
      "keyword:trace",
      "keyword:paper",
      "title:counter",
    ]);
  });
});
