// The q parameter's Lucene syntax: each rule the parser follows, checked against the exact tree,
// and the promise that any string ends in a tree or a QueryParseError.
import { describe, expect, it } from "@jest/globals";
import {
  QUERY_MAX_CLAUSES,
  QUERY_MAX_DEPTH,
  QUERY_MAX_LENGTH,
  QueryParseError,
  parseQuery,
  type QueryNode,
} from "../../../src/search/query/parser.js";

const ALL: QueryNode = { kind: "all" };
const term = (text: string, field: string | null = null): QueryNode => ({ kind: "term", field, text });
const phrase = (text: string, field: string | null = null): QueryNode => ({ kind: "phrase", field, text });
const prefix = (p: string, field: string | null = null): QueryNode => ({ kind: "prefix", field, prefix: p });
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

/** The error parseQuery throws for `q`, failing the test if it throws none. */
function parseError(q: string): QueryParseError {
  try {
    parseQuery(q);
  } catch (error) {
    if (error instanceof QueryParseError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(q)} not to parse`);
}

describe("parseQuery: what clients send", () => {
  it("reads agentarchives' escaped-backslash title as Lucene does: term `Test\\` and a default-field `fonds`", () => {
    expect(parseQuery("primary_type:resource AND title:Test\\\\ fonds AND identifier:F1")).toEqual(
      bool({
        must: [term("resource", "primary_type"), term("Test\\", "title"), term("fonds"), term("F1", "identifier")],
      }),
    );
  });

  it("keeps an escaped space inside a prefix", () => {
    expect(parseQuery("primary_type:resource AND title:Papers\\ of*")).toEqual(
      bool({ must: [term("resource", "primary_type"), prefix("Papers of", "title")] }),
    );
  });

  it("reads an escaped hyphen in an identifier prefix", () => {
    expect(parseQuery("identifier:F\\-1*")).toEqual(prefix("F-1", "identifier"));
  });

  it("reads a phrase, a prohibited and a required clause", () => {
    expect(parseQuery('title:"a b" -notes:c +d')).toEqual(
      bool({ must: [term("d")], should: [phrase("a b", "title")], mustNot: [term("c", "notes")] }),
    );
  });

  it("reads a group and NOT", () => {
    expect(parseQuery("(a OR b) AND NOT c")).toEqual(
      bool({ must: [bool({ should: [term("a"), term("b")] })], mustNot: [term("c")] }),
    );
  });
});

describe("parseQuery: operators", () => {
  it("treats the empty and blank query as everything", () => {
    expect(parseQuery("")).toEqual(ALL);
    expect(parseQuery(" \t\n ")).toEqual(ALL);
  });

  it("combines bare terms with OR by default, or AND when asked", () => {
    expect(parseQuery("a b")).toEqual(bool({ should: [term("a"), term("b")] }));
    expect(parseQuery("a b", { defaultOperator: "AND" })).toEqual(bool({ must: [term("a"), term("b")] }));
    expect(parseQuery("a b", { defaultOperator: "OR" })).toEqual(bool({ should: [term("a"), term("b")] }));
  });

  it("makes both neighbours of AND required, as Lucene's classic parser does", () => {
    expect(parseQuery("a AND b c")).toEqual(bool({ must: [term("a"), term("b")], should: [term("c")] }));
    expect(parseQuery("a OR b AND c")).toEqual(bool({ must: [term("b"), term("c")], should: [term("a")] }));
    expect(parseQuery("a && b || c")).toEqual(bool({ must: [term("a"), term("b")], should: [term("c")] }));
  });

  it("makes the clause after NOT, ! or - prohibited", () => {
    expect(parseQuery("a NOT b")).toEqual(bool({ should: [term("a")], mustNot: [term("b")] }));
    expect(parseQuery("a !b")).toEqual(bool({ should: [term("a")], mustNot: [term("b")] }));
    expect(parseQuery("a AND NOT b")).toEqual(bool({ must: [term("a")], mustNot: [term("b")] }));
    expect(parseQuery("a - b")).toEqual(bool({ should: [term("a")], mustNot: [term("b")] }));
  });

  it("does not make a prohibited clause required when AND follows it", () => {
    expect(parseQuery("-a AND b")).toEqual(bool({ must: [term("b")], mustNot: [term("a")] }));
  });

  it("with AND as default, OR makes both neighbours optional", () => {
    expect(parseQuery("a b OR c", { defaultOperator: "AND" })).toEqual(
      bool({ must: [term("a")], should: [term("b"), term("c")] }),
    );
    expect(parseQuery("a -b OR c", { defaultOperator: "AND" })).toEqual(
      bool({ must: [term("a")], should: [term("c")], mustNot: [term("b")] }),
    );
    expect(parseQuery("a OR +b", { defaultOperator: "AND" })).toEqual(bool({ should: [term("a"), term("b")] }));
  });

  it("reads only prohibited clauses as everything except them", () => {
    expect(parseQuery("-a")).toEqual(bool({ must: [ALL], mustNot: [term("a")] }));
    expect(parseQuery("NOT a -b")).toEqual(bool({ must: [ALL], mustNot: [term("a"), term("b")] }));
    expect(parseQuery("x (-a)")).toEqual(bool({ should: [term("x"), bool({ must: [ALL], mustNot: [term("a")] })] }));
  });

  it("treats lowercase operator words and words that only start like them as terms", () => {
    expect(parseQuery("a and b or not c")).toEqual(
      bool({ should: ["a", "and", "b", "or", "not", "c"].map((t) => term(t)) }),
    );
    expect(parseQuery("ANDY ORE")).toEqual(bool({ should: [term("ANDY"), term("ORE")] }));
    expect(parseQuery("A\\ND")).toEqual(term("AND"));
    expect(parseQuery("a&&b")).toEqual(term("a&&b"));
  });

  it("leaves a single required clause a bool but unwraps a single optional one", () => {
    expect(parseQuery("+a")).toEqual(bool({ must: [term("a")] }));
    expect(parseQuery("((a))")).toEqual(term("a"));
  });
});

describe("parseQuery: fields and groups", () => {
  it("reads field:value with dotted and underscored names", () => {
    expect(parseQuery("dates.begin:1990 _x:y")).toEqual(
      bool({ should: [term("1990", "dates.begin"), term("y", "_x")] }),
    );
    expect(parseQuery("title: Papers")).toEqual(term("Papers", "title"));
  });

  it("applies a group's field to the clauses without one of their own", () => {
    expect(parseQuery("title:(a OR b)")).toEqual(bool({ should: [term("a", "title"), term("b", "title")] }));
    expect(parseQuery('title:("a b" c*)')).toEqual(bool({ should: [phrase("a b", "title"), prefix("c", "title")] }));
    expect(parseQuery("title:(a notes:b (c d))")).toEqual(
      bool({
        should: [term("a", "title"), term("b", "notes"), bool({ should: [term("c", "title"), term("d", "title")] })],
      }),
    );
  });

  it("nests groups", () => {
    expect(parseQuery("a AND (b OR (c AND d))")).toEqual(
      bool({ must: [term("a"), bool({ should: [term("b"), bool({ must: [term("c"), term("d")] })] })] }),
    );
  });

  it("does not split on an escaped colon or a colon after something that is not a field name", () => {
    expect(parseQuery("title\\:x")).toEqual(term("title:x"));
    expect(parseQuery("12:30")).toEqual(term("12:30"));
    expect(parseQuery("time:12:30 id:a:b")).toEqual(bool({ should: [term("12:30", "time"), term("a:b", "id")] }));
  });
});

describe("parseQuery: terms, phrases and escapes", () => {
  it("keeps punctuation inside a term", () => {
    expect(parseQuery("MSS-060 a+b c!d x[1] 1990.2.3 A/B")).toEqual(
      bool({ should: ["MSS-060", "a+b", "c!d", "x[1]", "1990.2.3", "A/B"].map((t) => term(t)) }),
    );
  });

  it("resolves escapes in terms", () => {
    expect(parseQuery("Test\\ fonds")).toEqual(term("Test fonds"));
    expect(parseQuery("\\-a \\(b\\) c\\\\d e\\*f \\+g")).toEqual(
      bool({ should: [term("-a"), term("(b)"), term("c\\d"), term("e*f"), term("+g")] }),
    );
  });

  it("resolves escapes in phrases", () => {
    expect(parseQuery('"say \\"hi\\" \\\\ now"')).toEqual(phrase('say "hi" \\ now'));
    expect(parseQuery('""')).toEqual(phrase(""));
  });

  it("accepts and ignores proximity, fuzziness and boosts", () => {
    expect(parseQuery('"a b"~2^3 c~ d~0.8 e^2.5 (f g)^2 h*^2')).toEqual(
      bool({
        should: [phrase("a b"), term("c"), term("d"), term("e"), bool({ should: [term("f"), term("g")] }), prefix("h")],
      }),
    );
  });
});

describe("parseQuery: wildcards", () => {
  it("reads a suffix wildcard as a prefix", () => {
    expect(parseQuery("abc*")).toEqual(prefix("abc"));
    expect(parseQuery("abc**")).toEqual(prefix("abc"));
    expect(parseQuery("a\\**")).toEqual(prefix("a*"));
  });

  it("reads *, *:* and field:*", () => {
    expect(parseQuery("*")).toEqual(ALL);
    expect(parseQuery("*:*")).toEqual(ALL);
    expect(parseQuery("title:*")).toEqual({ kind: "exists", field: "title" });
    expect(parseQuery("title:(a *)")).toEqual(
      bool({ should: [term("a", "title"), { kind: "exists", field: "title" }] }),
    );
    expect(parseQuery("*:* -a")).toEqual(bool({ should: [ALL], mustNot: [term("a")] }));
  });

  it("refuses wildcards anywhere but the end", () => {
    for (const [q, at] of [
      ["a*b", 1],
      ["*a", 0],
      ["te?t", 2],
      ["title:*:*", 6],
    ] as const) {
      const error = parseError(q);
      expect(error.message).toContain("Wildcards are supported only at the end of a term");
      expect(error.position).toBe(at);
    }
  });
});

describe("parseQuery: ranges", () => {
  it("reads inclusive, exclusive, mixed and open ranges", () => {
    expect(parseQuery("year:[1990 TO 2000]")).toEqual(range("year", "1990", "2000"));
    expect(parseQuery("year:{1990 TO 2000}")).toEqual(range("year", "1990", "2000", false, false));
    expect(parseQuery("year:[1990 TO 2000}")).toEqual(range("year", "1990", "2000", true, false));
    expect(parseQuery("year:{* TO 2000]")).toEqual(range("year", null, "2000", false, true));
    expect(parseQuery("[a TO *]")).toEqual(range(null, "a", null));
  });

  it("reads quoted and escaped range values", () => {
    expect(parseQuery('title:["a b" TO "*"]')).toEqual(range("title", "a b", "*"));
    expect(parseQuery("x:[a\\] TO \\*]")).toEqual(range("x", "a]", "*"));
    expect(parseQuery("d:[2000-01-01T00:00:00Z TO NOW]^2")).toEqual(range("d", "2000-01-01T00:00:00Z", "NOW"));
  });

  it("refuses malformed ranges", () => {
    for (const [q, at] of [
      ["[a b]", 3],
      ["[a to b]", 3],
      ["[a TO]", 5],
      ["[TO b]", 4],
      ["[a TO b c]", 8],
      ["[a TO b", 0],
      ["x:[a", 2],
      ["[]", 1],
    ] as const) {
      const error = parseError(q);
      expect([q, error.position]).toEqual([q, at]);
      expect(error.message).toMatch(/range/i);
    }
  });
});

describe("parseQuery: errors", () => {
  const cases: [q: string, position: number, message: RegExp][] = [
    ["(a", 0, /Unbalanced parentheses/],
    ["a)", 1, /Unbalanced parentheses/],
    ["(a))", 3, /Unbalanced parentheses/],
    ["()", 0, /Empty parentheses/],
    [")", 0, /Unexpected '\)'/],
    ['"abc', 0, /Unbalanced quotes/],
    ['a "b', 2, /Unbalanced quotes/],
    ["a AND", 5, /Expected a clause after 'AND'/],
    ["a OR", 4, /Expected a clause after 'OR'/],
    ["a NOT", 5, /Expected a clause after 'NOT'/],
    ["a -", 3, /Expected a clause after '-'/],
    ["a AND OR b", 6, /Expected a clause after 'AND'.*found 'OR'/],
    ["a (b AND)", 8, /Expected a clause after 'AND'/],
    ["+-a", 1, /Expected a clause after '\+'/],
    ["AND b", 0, /no clause before it/],
    ["OR b", 0, /no clause before it/],
    ["title:", 6, /Expected a value for the field 'title'/],
    ["title: OR b", 7, /Expected a value for the field 'title'/],
    ["title:-a", 6, /Expected a value for the field 'title'/],
    ["a \\", 2, /unfinished escape/],
    ["a^", 2, /Expected a number after '\^'/],
    ["^2", 0, /Unexpected '\^2'/],
    ["(a)~2", 3, /applies only to a term or a phrase/],
    [":a", 0, /Unexpected ':'/],
    ["a ]", 2, /Unexpected '\]'/],
  ];
  it.each(cases)("refuses %j at %d", (q, position, message) => {
    const error = parseError(q);
    expect(error).toBeInstanceOf(QueryParseError);
    expect(error.message).toMatch(message);
    expect(error.position).toBe(position);
  });
});

describe("parseQuery: bounds", () => {
  it(`refuses a query longer than ${QUERY_MAX_LENGTH} characters`, () => {
    expect(parseQuery("a".repeat(QUERY_MAX_LENGTH))).toEqual(term("a".repeat(QUERY_MAX_LENGTH)));
    const error = parseError("a".repeat(QUERY_MAX_LENGTH + 1));
    expect(error.position).toBe(QUERY_MAX_LENGTH);
    expect(error.message).toMatch(/longer than 4096/);
  });

  it(`accepts ${QUERY_MAX_CLAUSES} clauses and refuses one more`, () => {
    const many = parseQuery("a ".repeat(QUERY_MAX_CLAUSES));
    expect(many.kind === "bool" && many.should.length).toBe(QUERY_MAX_CLAUSES);
    const error = parseError("a ".repeat(QUERY_MAX_CLAUSES + 1));
    expect(error.position).toBe(2 * QUERY_MAX_CLAUSES);
    expect(error.message).toMatch(/more than 1024 clauses/);
  });

  it(`accepts parentheses nested ${QUERY_MAX_DEPTH} deep and refuses one more`, () => {
    const nest = (depth: number) => `${"(".repeat(depth)}a${")".repeat(depth)}`;
    expect(parseQuery(nest(QUERY_MAX_DEPTH))).toEqual(term("a"));
    const error = parseError(nest(QUERY_MAX_DEPTH + 1));
    expect(error.position).toBe(QUERY_MAX_DEPTH);
    expect(error.message).toMatch(/nested more than 32 deep/);
  });

  it("ends every 4,096-character pathological query in a tree or a QueryParseError", () => {
    const half = QUERY_MAX_LENGTH / 2;
    const inputs = [
      "(".repeat(QUERY_MAX_LENGTH),
      ")".repeat(QUERY_MAX_LENGTH),
      "\\".repeat(QUERY_MAX_LENGTH),
      '"'.repeat(QUERY_MAX_LENGTH),
      "[".repeat(QUERY_MAX_LENGTH),
      "*".repeat(QUERY_MAX_LENGTH),
      "-".repeat(QUERY_MAX_LENGTH),
      "a:".repeat(half),
      "1:".repeat(half),
      "a*".repeat(half),
      "a ".repeat(half),
      "(a".repeat(half),
      "a^".repeat(half),
      "~".repeat(QUERY_MAX_LENGTH),
      `[${"a ".repeat(half - 1)}]`,
      `"${"\\\\".repeat(half - 1)}"`,
      "AND ".repeat(QUERY_MAX_LENGTH / 4),
      "NOT ".repeat(QUERY_MAX_LENGTH / 4),
    ];
    for (const q of inputs) {
      expect(q.length).toBe(QUERY_MAX_LENGTH);
      expect(outcome(q)).toMatch(/^(tree|QueryParseError)$/);
    }
  });
});

/** "tree" when `q` parses, "QueryParseError" when it is refused; anything else thrown escapes. */
function outcome(q: string): string {
  let tree: QueryNode;
  try {
    tree = parseQuery(q);
  } catch (error) {
    if (!(error instanceof QueryParseError)) throw error;
    expect(Number.isInteger(error.position) && error.position >= 0 && error.position <= q.length).toBe(true);
    return "QueryParseError";
  }
  checkTree(tree);
  return "tree";
}

function checkTree(node: QueryNode): void {
  if (node.kind === "bool") {
    if (node.must.length + node.should.length === 0) throw new Error("a bool with no positive clause");
    for (const child of [...node.must, ...node.should, ...node.mustNot]) checkTree(child);
  } else if (!["all", "term", "phrase", "prefix", "exists", "range"].includes(node.kind)) {
    throw new Error(`unknown node ${JSON.stringify(node)}`);
  }
}

describe("parseQuery: fuzz", () => {
  it("ends 2,000 random queries in a tree or a QueryParseError", () => {
    const pieces = ["a", "b", ":", "(", ")", '"', "\\", "*", "-", "+", "!", "[", "]", "{", "}", "~", "^"];
    pieces.push(" ", " ", "AND", "OR", "NOT", " AND ", " OR ", " NOT ", " TO ", "2");
    // A fixed-seed generator (mulberry32), so a failure is reproducible.
    let seed = 0x5eed;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const seen = { tree: 0, QueryParseError: 0 };
    for (let run = 0; run < 2000; run++) {
      let q = "";
      const length = Math.floor(random() * 30);
      for (let k = 0; k < length; k++) q += pieces[Math.floor(random() * pieces.length)];
      const result = outcome(q);
      expect([q, result]).toEqual([q, expect.stringMatching(/^(tree|QueryParseError)$/)]);
      seen[result as keyof typeof seen]++;
    }
    // Both outcomes come up, so the generator exercises the parser rather than only its errors.
    expect(seen.tree).toBeGreaterThan(100);
    expect(seen.QueryParseError).toBeGreaterThan(100);
  });
});
