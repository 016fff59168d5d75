// ArchivesSpace's advanced query JSON (aq, filter): each kind of subquery and option checked against the exact
// tree, every refusal against the path it names, and the promise that any text ends in a tree or an
// AdvancedQueryError.
import { describe, expect, it } from "@jest/globals";
import {
  ADVANCED_MAX_BYTES,
  ADVANCED_MAX_DEPTH,
  ADVANCED_MAX_NODES,
  AdvancedQueryError,
  parseAdvancedQuery,
} from "../../../src/search/query/advanced.js";
import type { QueryNode } from "../../../src/search/query/parser.js";

const ALL: QueryNode = { kind: "all" };
const term = (text: string, field: string | null = null): QueryNode => ({ kind: "term", field, text });
const phrase = (text: string, field: string | null = null): QueryNode => ({ kind: "phrase", field, text });
const prefix = (p: string, field: string | null = null): QueryNode => ({ kind: "prefix", field, prefix: p });
const exists = (field: string): QueryNode => ({ kind: "exists", field });
const range = (
  field: string | null,
  from: string | null,
  to: string | null,
  includeFrom = true,
  includeTo = true,
): QueryNode => ({ kind: "range", field, from, to, includeFrom, includeTo });
const bool = (parts: { must?: QueryNode[]; should?: QueryNode[]; mustNot?: QueryNode[] }): QueryNode => ({
  kind: "bool",
  must: parts.must ?? [],
  should: parts.should ?? [],
  mustNot: parts.mustNot ?? [],
});
const not = (node: QueryNode): QueryNode => bool({ must: [ALL], mustNot: [node] });

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const parse = (query: Json, options?: { literal?: boolean }): QueryNode =>
  parseAdvancedQuery(JSON.stringify({ query }), options);
const fq = (field: string, value: string, extra: { [key: string]: Json } = {}): Json => ({
  jsonmodel_type: "field_query",
  field,
  value,
  ...extra,
});
const dq = (field: string, value: string, extra: { [key: string]: Json } = {}): Json => ({
  jsonmodel_type: "date_field_query",
  field,
  value,
  ...extra,
});
const bq = (op: string, ...subqueries: Json[]): Json => ({ jsonmodel_type: "boolean_query", op, subqueries });

/** The AdvancedQueryError the text gets: its path and message. */
function refusal(text: string, options?: { literal?: boolean }): { path: string; message: string } {
  try {
    parseAdvancedQuery(text, options);
  } catch (error) {
    if (error instanceof AdvancedQueryError) return { path: error.path, message: error.message };
    throw error;
  }
  throw new Error(`Accepted: ${text.slice(0, 200)}`);
}
const refusalOf = (query: Json): { path: string; message: string } => refusal(JSON.stringify({ query }));

describe("field_query", () => {
  it("reads the value as Lucene text in the field", () => {
    expect(parse(fq("title", "paper"))).toEqual(term("paper", "title"));
    expect(parse(fq("title", "a b"))).toEqual(bool({ should: [term("a", "title"), term("b", "title")] }));
    expect(parse(fq("title", '"a b"'))).toEqual(phrase("a b", "title"));
    expect(parse(fq("title", "F*"))).toEqual(prefix("F", "title"));
    expect(parse(fq("title", "[a TO b}"))).toEqual(range("title", "a", "b", true, false));
    expect(parse(fq("title", "a AND b"))).toEqual(bool({ must: [term("a", "title"), term("b", "title")] }));
    expect(parse(fq("title", "(a OR b) -c"))).toEqual(
      bool({ should: [bool({ should: [term("a", "title"), term("b", "title")] })], mustNot: [term("c", "title")] }),
    );
  });

  it("reads a bare * as the field having a value, and a prohibited-only group as everything but", () => {
    expect(parse(fq("title", "*"))).toEqual(exists("title"));
    expect(parse(fq("title", "-x"))).toEqual(bool({ must: [ALL], mustNot: [term("x", "title")] }));
    expect(parse(fq("title", "a (-x)"))).toEqual(
      bool({ should: [term("a", "title"), bool({ must: [ALL], mustNot: [term("x", "title")] })] }),
    );
    expect(parse(fq("keyword", "*"))).toEqual(ALL);
  });

  it("turns every ':' into a space, as ArchivesSpace does, so a value names no other field", () => {
    expect(parse(fq("title", "notes:secret"))).toEqual(
      bool({ should: [term("notes", "title"), term("secret", "title")] }),
    );
    expect(parse(fq("keyword", "title:x"))).toEqual(bool({ should: [term("title"), term("x")] }));
    expect(parse(fq("keyword", "*:*"))).toEqual(bool({ should: [ALL, ALL] }));
  });

  it("maps ArchivesSpace's advanced search names and passes others through", () => {
    expect(parse(fq("keyword", "x"))).toEqual(term("x"));
    for (const name of ["title", "identifier", "creators", "notes", "subjects", "suppressed"]) {
      expect(parse(fq(name, "x"))).toEqual(term("x", name));
    }
    expect(parse(fq("published", "x"))).toEqual(term("x", "publish"));
    expect(parse(fq("level", "x"))).toEqual(term("x", "level"));
    expect(parse(fq("constructor", "x"))).toEqual(term("x", "constructor"));
    expect(parse(fq("__proto__", "x"))).toEqual(term("x", "__proto__"));
  });

  it("reads a literal value, an equals comparator and the filter parameter's values as one exact phrase", () => {
    const value = 'a:b (c) "d" *';
    expect(parse(fq("title", value, { literal: true }))).toEqual(phrase(value, "title"));
    expect(parse(fq("title", value, { comparator: "equals" }))).toEqual(phrase(value, "title"));
    expect(parse(fq("title", value), { literal: true })).toEqual(phrase(value, "title"));
    expect(parse(fq("keyword", value), { literal: true })).toEqual(phrase(value));
    expect(parse(fq("title", "a b", { literal: false }), { literal: false })).toEqual(
      bool({ should: [term("a", "title"), term("b", "title")] }),
    );
    expect(parse(fq("title", "", { literal: true }))).toEqual(phrase("", "title"));
  });

  it("negates", () => {
    expect(parse(fq("title", "x", { negated: true }))).toEqual(not(term("x", "title")));
    expect(parse(fq("title", "x", { negated: false }))).toEqual(term("x", "title"));
    expect(parse(fq("title", "x", { negated: true, literal: true }))).toEqual(not(phrase("x", "title")));
  });

  it("tests for an empty field", () => {
    const empty = { jsonmodel_type: "field_query", field: "notes", comparator: "empty" };
    expect(parse(empty)).toEqual(bool({ must: [ALL], mustNot: [exists("notes")] }));
    expect(parse({ ...empty, negated: true })).toEqual(exists("notes"));
    expect(parse({ ...empty, value: "ignored" })).toEqual(bool({ must: [ALL], mustNot: [exists("notes")] }));
    expect(parse({ ...empty, field: "published" })).toEqual(bool({ must: [ALL], mustNot: [exists("publish")] }));
  });

  it("takes null for an optional property as its absence", () => {
    expect(parse(fq("title", "x", { negated: null, literal: null, comparator: null }))).toEqual(term("x", "title"));
  });
});

describe("date_field_query", () => {
  const day = (from: string, to: string): QueryNode =>
    range("create_time", `${from}T00:00:00.000Z`, `${to}T00:00:00.000Z`, true, false);

  it("matches within the precision's unit for equal (the default)", () => {
    expect(parse(dq("create_time", "2020-05-10", { comparator: "equal" }))).toEqual(day("2020-05-10", "2020-05-11"));
    expect(parse(dq("create_time", "2020-05-10"))).toEqual(day("2020-05-10", "2020-05-11"));
    expect(parse(dq("create_time", "2020-05-10", { precision: "day" }))).toEqual(day("2020-05-10", "2020-05-11"));
    expect(parse(dq("create_time", "2020-05-10", { precision: "month" }))).toEqual(day("2020-05-01", "2020-06-01"));
    expect(parse(dq("create_time", "2020-05", { precision: "month" }))).toEqual(day("2020-05-01", "2020-06-01"));
    expect(parse(dq("create_time", "2020-12-31", { precision: "month" }))).toEqual(day("2020-12-01", "2021-01-01"));
    expect(parse(dq("create_time", "2020-05-10", { precision: "year" }))).toEqual(day("2020-01-01", "2021-01-01"));
    expect(parse(dq("create_time", "2020"))).toEqual(day("2020-01-01", "2020-01-02"));
    expect(parse(dq("create_time", "2020", { precision: "year" }))).toEqual(day("2020-01-01", "2021-01-01"));
    expect(parse(dq("create_time", "2020-12-31"))).toEqual(day("2020-12-31", "2021-01-01"));
  });

  it("matches after the unit for greater_than and before it for lesser_than", () => {
    expect(parse(dq("create_time", "2020-05-10", { comparator: "greater_than" }))).toEqual(
      range("create_time", "2020-05-11T00:00:00.000Z", null, true, true),
    );
    expect(parse(dq("create_time", "2020-05-10", { comparator: "greater_than", precision: "year" }))).toEqual(
      range("create_time", "2021-01-01T00:00:00.000Z", null, true, true),
    );
    expect(parse(dq("create_time", "2020-05-10", { comparator: "lesser_than" }))).toEqual(
      range("create_time", null, "2020-05-10T00:00:00.000Z", true, false),
    );
    expect(parse(dq("create_time", "2020-05-10", { comparator: "lesser_than", precision: "month" }))).toEqual(
      range("create_time", null, "2020-05-01T00:00:00.000Z", true, false),
    );
  });

  it("reads full ISO 8601 times, in UTC", () => {
    expect(parse(dq("user_mtime", "2020-05-10T15:30:00Z"))).toEqual(
      range("user_mtime", "2020-05-10T00:00:00.000Z", "2020-05-11T00:00:00.000Z", true, false),
    );
    expect(parse(dq("user_mtime", "2020-05-10T23:30:00.123-05:00"))).toEqual(
      range("user_mtime", "2020-05-11T00:00:00.000Z", "2020-05-12T00:00:00.000Z", true, false),
    );
    expect(parse(dq("user_mtime", "2020-05-10T00:30+0100"))).toEqual(
      range("user_mtime", "2020-05-09T00:00:00.000Z", "2020-05-10T00:00:00.000Z", true, false),
    );
    expect(parse(dq("user_mtime", "2020-02-29"))).toEqual(
      range("user_mtime", "2020-02-29T00:00:00.000Z", "2020-03-01T00:00:00.000Z", true, false),
    );
    expect(parse(dq("user_mtime", "0050-01-01"))).toEqual(
      range("user_mtime", "0050-01-01T00:00:00.000Z", "0050-01-02T00:00:00.000Z", true, false),
    );
  });

  it("negates and tests for an empty field", () => {
    expect(parse(dq("create_time", "2020-05-10", { negated: true }))).toEqual(not(day("2020-05-10", "2020-05-11")));
    const empty = { jsonmodel_type: "date_field_query", field: "create_time", comparator: "empty" };
    expect(parse(empty)).toEqual(bool({ must: [ALL], mustNot: [exists("create_time")] }));
    expect(parse({ ...empty, negated: true })).toEqual(exists("create_time"));
  });

  it("refuses what is not a date, naming the value", () => {
    for (const value of [
      "yesterday",
      "2020-13",
      "2020-02-30",
      "2021-02-29",
      "2020-5-1",
      "20200",
      "2020-05-10T25:00",
      "",
    ]) {
      expect(refusalOf(dq("create_time", value))).toMatchObject({ path: "query/value" });
    }
    expect(refusalOf(dq("create_time", "2020-05-10T10:00+24:00")).path).toBe("query/value");
    expect(refusalOf(dq("create_time", "1".repeat(100))).path).toBe("query/value");
    expect(refusalOf({ jsonmodel_type: "date_field_query", field: "create_time" }).path).toBe("query/value");
    expect(refusalOf({ jsonmodel_type: "date_field_query", field: "create_time", value: 2020 }).path).toBe(
      "query/value",
    );
    expect(refusalOf(dq("create_time", "2020", { precision: "week" })).path).toBe("query/precision");
    expect(refusalOf(dq("create_time", "2020", { comparator: "after" })).path).toBe("query/comparator");
  });
});

describe("boolean_field_query and range_query", () => {
  it("matches a boolean field's value", () => {
    const bf = { jsonmodel_type: "boolean_field_query", field: "published" };
    expect(parse({ ...bf, value: true })).toEqual(term("true", "publish"));
    expect(parse({ ...bf, value: false })).toEqual(term("false", "publish"));
    expect(parse(bf)).toEqual(term("true", "publish"));
    expect(parse({ ...bf, field: "suppressed", value: false, negated: true })).toEqual(
      not(term("false", "suppressed")),
    );
  });

  it("matches a range, inclusive, open where an end is absent", () => {
    const rq = { jsonmodel_type: "range_query", field: "title_sort" };
    expect(parse({ ...rq, from: "a", to: "m" })).toEqual(range("title_sort", "a", "m"));
    expect(parse({ ...rq, from: "a" })).toEqual(range("title_sort", "a", null));
    expect(parse({ ...rq, to: "m" })).toEqual(range("title_sort", null, "m"));
    expect(parse({ ...rq, from: "*", to: null })).toEqual(range("title_sort", null, null));
    expect(parse(rq)).toEqual(range("title_sort", null, null));
    expect(parse({ ...rq, field: "keyword", from: "a" })).toEqual(range(null, "a", null));
  });
});

describe("boolean_query", () => {
  const a = fq("title", "a");
  const b = fq("title", "b");
  const c = fq("title", "c");

  it("requires every subquery with AND and any with OR", () => {
    expect(parse(bq("AND", a, b, c))).toEqual(
      bool({ must: [term("a", "title"), term("b", "title"), term("c", "title")] }),
    );
    expect(parse(bq("OR", a, b))).toEqual(bool({ should: [term("a", "title"), term("b", "title")] }));
  });

  it("requires the first subquery of a NOT and prohibits the rest", () => {
    // ArchivesSpace's "(a NOT b NOT c)": Lucene's should[a] mustNot[b, c], where a is in fact required.
    expect(parse(bq("NOT", a, b, c))).toEqual(
      bool({ must: [term("a", "title")], mustNot: [term("b", "title"), term("c", "title")] }),
    );
    expect(parse(bq("AND", fq("title", "x"), bq("NOT", a, b)))).toEqual(
      bool({ must: [term("x", "title"), bool({ must: [term("a", "title")], mustNot: [term("b", "title")] })] }),
    );
  });

  it("is its subquery when it has only one", () => {
    for (const op of ["AND", "OR", "NOT"]) expect(parse(bq(op, a))).toEqual(term("a", "title"));
  });

  it("nests, as ArchivesSpace's AdvancedQueryBuilder builds it", () => {
    const query = bq(
      "AND",
      bq("OR", fq("keyword", "paper"), fq("title", "letters", { negated: true })),
      { jsonmodel_type: "boolean_field_query", field: "published", value: true },
      bq("NOT", dq("create_time", "2020", { comparator: "greater_than", precision: "year" }), {
        jsonmodel_type: "field_query",
        field: "notes",
        comparator: "empty",
      }),
    );
    expect(parse(query)).toEqual(
      bool({
        must: [
          bool({ should: [term("paper"), not(term("letters", "title"))] }),
          term("true", "publish"),
          bool({
            must: [range("create_time", "2021-01-01T00:00:00.000Z", null)],
            mustNot: [bool({ must: [ALL], mustNot: [exists("notes")] })],
          }),
        ],
      }),
    );
  });
});

describe("the document", () => {
  it("takes an optional jsonmodel_type and ignores unknown properties", () => {
    const query = fq("title", "x", { extra: { deep: [1, 2] }, constructor: "y", toString: 1 });
    expect(parseAdvancedQuery(JSON.stringify({ jsonmodel_type: "advanced_query", query }))).toEqual(term("x", "title"));
    expect(parseAdvancedQuery(JSON.stringify({ query, other: 1 }))).toEqual(term("x", "title"));
    expect(
      parseAdvancedQuery('{"__proto__": {"query": 1}, "query": {"jsonmodel_type": "range_query", "field": "f"}}'),
    ).toEqual(range("f", null, null));
  });

  it("reads properties only as the object's own", () => {
    expect(refusal('{"__proto__": {"query": {"jsonmodel_type": "range_query", "field": "f"}}}').path).toBe("query");
    expect(refusalOf({ __proto__: { jsonmodel_type: "range_query", field: "f" } }).path).toBe("query/jsonmodel_type");
  });
});

describe("refusals", () => {
  const cases: Array<[string, string, string]> = [
    ["invalid JSON", "{", ""],
    ["empty text", "", ""],
    ["not an object", "[]", ""],
    ["a string", '"query"', ""],
    ["null", "null", ""],
    ["a wrong jsonmodel_type", '{"jsonmodel_type": "boolean_query", "query": {}}', "jsonmodel_type"],
    ["no query", '{"jsonmodel_type": "advanced_query"}', "query"],
    ["a query that is not an object", '{"query": []}', "query"],
    ["a query that is a string", '{"query": "title:x"}', "query"],
    ["no jsonmodel_type", '{"query": {"field": "title", "value": "x"}}', "query/jsonmodel_type"],
    ["a jsonmodel_type not a string", '{"query": {"jsonmodel_type": 1}}', "query/jsonmodel_type"],
    ["an unknown jsonmodel_type", '{"query": {"jsonmodel_type": "series_system_query"}}', "query/jsonmodel_type"],
    ["an inherited jsonmodel_type", '{"query": {"jsonmodel_type": "toString"}}', "query/jsonmodel_type"],
  ];
  it.each(cases)("refuses %s", (_name, text, path) => {
    expect(refusal(text).path).toBe(path);
  });

  const subqueryCases: Array<[string, Json, string]> = [
    ["a boolean_query without op", { jsonmodel_type: "boolean_query", subqueries: [fq("t", "x")] }, "query/op"],
    ["an unknown op", bq("XOR", fq("t", "x")), "query/op"],
    ["a lower-case op", bq("and", fq("t", "x")), "query/op"],
    ["an op not a string", { jsonmodel_type: "boolean_query", op: 1, subqueries: [fq("t", "x")] }, "query/op"],
    ["no subqueries", { jsonmodel_type: "boolean_query", op: "AND" }, "query/subqueries"],
    ["empty subqueries", bq("AND"), "query/subqueries"],
    ["subqueries not an array", { jsonmodel_type: "boolean_query", op: "AND", subqueries: {} }, "query/subqueries"],
    ["a subquery not an object", bq("AND", fq("t", "x"), 3), "query/subqueries/1"],
    [
      "a subquery's missing field",
      bq("OR", fq("t", "x"), { jsonmodel_type: "field_query" }),
      "query/subqueries/1/field",
    ],
    ["a field not a string", { jsonmodel_type: "field_query", field: 1, value: "x" }, "query/field"],
    ["an empty field", fq("", "x"), "query/field"],
    ["a field_query without value", { jsonmodel_type: "field_query", field: "title" }, "query/value"],
    ["a value not a string", { jsonmodel_type: "field_query", field: "title", value: 1 }, "query/value"],
    ["an empty value", fq("title", ""), "query/value"],
    ["a blank value", fq("title", " : \t"), "query/value"],
    ["a value Lucene cannot read", fq("title", "(a"), "query/value"],
    ["a value with a misplaced wildcard", bq("AND", fq("title", "x"), fq("title", "a*b")), "query/subqueries/1/value"],
    ["a value too long for the q parser", fq("title", "a ".repeat(3000)), "query/value"],
    ["negated not a boolean", fq("title", "x", { negated: "true" }), "query/negated"],
    ["literal not a boolean", fq("title", "x", { literal: 1 }), "query/literal"],
    ["an unknown comparator", fq("title", "x", { comparator: "starts_with" }), "query/comparator"],
    ["an empty keyword", { jsonmodel_type: "field_query", field: "keyword", comparator: "empty" }, "query/field"],
    [
      "a boolean_field_query value not a boolean",
      { jsonmodel_type: "boolean_field_query", field: "f", value: "true" },
      "query/value",
    ],
    ["a boolean_field_query without field", { jsonmodel_type: "boolean_field_query", value: true }, "query/field"],
    ["a range_query without field", { jsonmodel_type: "range_query", from: "a" }, "query/field"],
    ["a range end not a string", { jsonmodel_type: "range_query", field: "f", from: 1 }, "query/from"],
    ["an empty range end", { jsonmodel_type: "range_query", field: "f", to: "" }, "query/to"],
    ["a date_field_query without field", { jsonmodel_type: "date_field_query", value: "2020" }, "query/field"],
  ];
  it.each(subqueryCases)("refuses %s", (_name, query, path) => {
    expect(refusalOf(query).path).toBe(path);
  });

  it("says what is wrong, showing at most a little of the input", () => {
    expect(refusalOf(bq("XOR", fq("t", "x"))).message).toBe('query/op must be one of AND, OR, NOT, not "XOR"');
    expect(refusalOf({ jsonmodel_type: "field_query", field: "title" }).message).toBe("query/value is required");
    expect(refusalOf(fq("title", "(a")).message).toMatch(/^query\/value: Unbalanced parentheses/);
    expect(refusalOf({ jsonmodel_type: "x".repeat(1000) }).message.length).toBeLessThan(200);
    expect(refusal("{").message).toMatch(/^The advanced query is not valid JSON/);
  });

  it("refuses input that is not a string", () => {
    expect(() => parseAdvancedQuery(undefined as unknown as string)).toThrow(AdvancedQueryError);
    expect(() => parseAdvancedQuery({} as unknown as string)).toThrow(AdvancedQueryError);
  });
});

describe("limits", () => {
  const leaf = { jsonmodel_type: "range_query", field: "f" };
  const nested = (levels: number): Json => {
    let query: Json = leaf;
    for (let i = 0; i < levels; i++) query = bq("AND", query, leaf);
    return query;
  };

  it(`nests boolean_queries ${ADVANCED_MAX_DEPTH} deep and no deeper`, () => {
    expect(() => parse(nested(ADVANCED_MAX_DEPTH))).not.toThrow();
    expect(refusalOf(nested(ADVANCED_MAX_DEPTH + 1)).path).toBe(`query${"/subqueries/0".repeat(ADVANCED_MAX_DEPTH)}`);
  });

  it(`takes ${ADVANCED_MAX_NODES} subqueries and no more`, () => {
    const many = (n: number): Json => bq("OR", ...Array.from({ length: n }, () => leaf));
    const result = parse(many(ADVANCED_MAX_NODES - 1));
    expect(result.kind === "bool" && result.should.length).toBe(ADVANCED_MAX_NODES - 1);
    expect(refusalOf(many(ADVANCED_MAX_NODES)).path).toBe(`query/subqueries/${ADVANCED_MAX_NODES - 1}`);
  });

  it(`takes ${ADVANCED_MAX_BYTES} bytes of text and no more`, () => {
    const text = (size: number): string => {
      const start = '{"query": {"jsonmodel_type": "range_query", "field": "f"}, "pad": "';
      return `${start}${"x".repeat(size - start.length - 2)}"}`;
    };
    expect(text(ADVANCED_MAX_BYTES).length).toBe(ADVANCED_MAX_BYTES);
    expect(parseAdvancedQuery(text(ADVANCED_MAX_BYTES))).toEqual(range("f", null, null));
    expect(refusal(text(ADVANCED_MAX_BYTES + 1)).path).toBe("");
    // Counted in UTF-8 bytes: 30,000 three-byte characters are 90,000 bytes.
    const wide = `{"query": {"jsonmodel_type": "range_query", "field": "f"}, "pad": "${"€".repeat(30000)}"}`;
    expect(wide.length).toBeLessThan(ADVANCED_MAX_BYTES);
    expect(refusal(wide).path).toBe("");
  });

  it("reads a deeply nested unknown property without trouble", () => {
    const deep = `{"query": {"jsonmodel_type": "range_query", "field": "f", "x": ${"[".repeat(20000)}${"]".repeat(20000)}}}`;
    expect(parseAdvancedQuery(deep)).toEqual(range("f", null, null));
  });
});

describe("any input", () => {
  // A seeded generator, so a failure is reproducible.
  function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it("ends in a tree or an AdvancedQueryError for 1,000 random structures", () => {
    const next = random(20240611);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const keys = [
      "jsonmodel_type",
      "query",
      "op",
      "subqueries",
      "field",
      "value",
      "negated",
      "literal",
      "comparator",
      "precision",
      "from",
      "to",
      "__proto__",
      "constructor",
    ];
    const strings = [
      "advanced_query",
      "boolean_query",
      "field_query",
      "date_field_query",
      "boolean_field_query",
      "range_query",
      "AND",
      "OR",
      "NOT",
      "contains",
      "empty",
      "equals",
      "equal",
      "greater_than",
      "lesser_than",
      "day",
      "month",
      "year",
      "keyword",
      "title",
      "published",
      "2020",
      "2020-02-30",
      "2020-05-10T10:00:00+02:00",
      "a b",
      '"a b',
      "F*",
      "*",
      "-x",
      "(a",
      "[a TO",
      "a:b",
      "\\",
      "",
      "toString",
      "\u0000",
    ];
    const value = (depth: number): Json => {
      const roll = next();
      if (depth > 4 || roll < 0.35) {
        const kind = Math.floor(next() * 5);
        if (kind === 0) return null;
        if (kind === 1) return next() < 0.5;
        if (kind === 2) return Math.floor(next() * 100) - 50;
        return pick(strings);
      }
      if (roll < 0.5) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      if (roll < 0.8) return subquery(depth);
      const object: { [key: string]: Json } = {};
      for (let i = Math.floor(next() * 4); i > 0; i--) {
        const key = pick(keys);
        if (key !== "__proto__") object[key] = value(depth + 1);
      }
      return object;
    };
    // Query-shaped: a subquery of each kind, mostly well formed, then now and then a property dropped, added
    // or replaced by any value.
    const subquery = (depth: number): Json => {
      const type = pick(strings.slice(1, 6));
      const query: { [key: string]: Json } = { jsonmodel_type: type, field: pick(["title", "keyword", "f"]) };
      if (type === "boolean_query") {
        query.op = pick(["AND", "OR", "NOT"]);
        query.subqueries = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
          depth > 4 ? { jsonmodel_type: "range_query", field: "f" } : subquery(depth + 1),
        );
      } else if (type === "field_query") {
        query.value = pick(strings.slice(18));
        query.comparator = pick(["contains", "equals", "empty"]);
        query.literal = next() < 0.3;
      } else if (type === "date_field_query") {
        query.value = pick(["2020", "2020-05", "2020-02-29", "2020-05-10T10:00:00+02:00", "x"]);
        query.comparator = pick(["equal", "greater_than", "lesser_than", "empty"]);
        query.precision = pick(["day", "month", "year"]);
      } else if (type === "boolean_field_query") {
        query.value = next() < 0.5;
      } else {
        query.from = pick(["a", "*", "2020"]);
      }
      if (next() < 0.5) query.negated = next() < 0.5;
      for (let i = next() < 0.25 ? 1 + Math.floor(next() * 2) : 0; i > 0; i--) {
        const key = pick(keys);
        if (key === "__proto__") continue;
        if (next() < 0.3) delete query[key];
        else query[key] = value(depth + 1);
      }
      return query;
    };
    let trees = 0;
    let refusals = 0;
    for (let run = 0; run < 1000; run++) {
      const roll = next();
      let text = JSON.stringify(roll < 0.6 ? { query: subquery(0) } : roll < 0.9 ? { query: value(0) } : value(0));
      if (next() < 0.1) text = text.slice(0, Math.floor(next() * text.length));
      try {
        const node = parseAdvancedQuery(text, { literal: next() < 0.2 });
        expect(typeof node.kind).toBe("string");
        trees++;
      } catch (error) {
        if (!(error instanceof AdvancedQueryError)) throw new Error(`${String(error)} for ${text}`, { cause: error });
        expect(typeof error.path).toBe("string");
        refusals++;
      }
    }
    expect(trees + refusals).toBe(1000);
    expect(trees).toBeGreaterThan(200);
    expect(refusals).toBeGreaterThan(200);
  });
});
