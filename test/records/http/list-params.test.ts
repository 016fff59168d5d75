// List parameters (docs/api.md §1, §5), parsed as express's "simple" query parser hands
// them over: querystring.parse keeps keys literal and turns a repeated key into an array.
import { describe, expect, it } from "@jest/globals";
import { parse } from "node:querystring";
import { ApiError } from "../../../src/errors/api-error.js";
import { parameterValues, parseListQuery, parseResolve } from "../../../src/records/http/list-params.js";
import type { ListQuery } from "../../../src/records/operations/index.js";

const REQUIRED = "Parameter required but no value provided";

function query(text: string): ListQuery {
  return parseListQuery(parameterValues(parse(text)));
}

function rejection(text: string): { status: number; body: Record<string, unknown> } {
  try {
    query(text);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error(`expected "${text}" to be refused`);
}

/** The parameters a 400 names. */
function named(text: string): string[] {
  const { status, body } = rejection(text);
  expect(status).toBe(400);
  return Object.keys(body.error as Record<string, string[]>).sort();
}

describe("list modes", () => {
  it("page mode with the default page size", () => {
    expect(query("page=2")).toEqual({ mode: { kind: "page", page: 2, pageSize: 10 } });
  });

  it("id_set mode, comma-separated or as an array parameter, or repeated", () => {
    expect(query("id_set=3,1,2")).toEqual({ mode: { kind: "idSet", ids: [3, 1, 2] } });
    expect(query("id_set[]=4&id_set[]=5")).toEqual({ mode: { kind: "idSet", ids: [4, 5] } });
    expect(query("id_set=6&id_set=7")).toEqual({ mode: { kind: "idSet", ids: [6, 7] } });
  });

  it.each(["true", "True", "TRUE", "tRuE"])("all_ids=%s is the all-ids mode", (value) => {
    expect(query(`all_ids=${value}`)).toEqual({ mode: { kind: "allIds" } });
  });

  it("page wins over id_set and all_ids; id_set wins over all_ids", () => {
    expect(query("all_ids=True&page=1").mode).toEqual({ kind: "page", page: 1, pageSize: 10 });
    expect(query("id_set=1&page=3&page_size=5").mode).toEqual({ kind: "page", page: 3, pageSize: 5 });
    expect(query("all_ids=true&id_set=9").mode).toEqual({ kind: "idSet", ids: [9] });
  });

  it.each(["", "page_size=5", "all_ids=false", "all_ids=FALSE", "page[$gt]=1", "page[]=1", "modified_since=0"])(
    "no mode (%p) answers 400 naming all three modes",
    (text) => {
      expect(rejection(text)).toEqual({
        status: 400,
        body: { error: { page: [REQUIRED], id_set: [REQUIRED], all_ids: [REQUIRED] } },
      });
    },
  );
});

describe("page and page_size", () => {
  it.each(["page=0", "page=-1", "page=abc", "page=1.5", "page=", "page=1e3", "page=%201", "page=99999999999999999999"])(
    "%s answers 400 naming page",
    (text) => {
      expect(named(text)).toEqual(["page"]);
    },
  );

  it.each(["page_size=0", "page_size=-5", "page_size=ten", "page_size="])(
    "page=1&%s answers 400 naming page_size",
    (text) => {
      expect(named(`page=1&${text}`)).toEqual(["page_size"]);
    },
  );

  it.each([
    ["250", 250],
    ["251", 250],
    ["100000", 250],
    ["99999999999999999999", 250],
    ["1", 1],
  ])("page_size=%s becomes %i (larger values are clamped, not refused)", (size, expected) => {
    expect(query(`page=1&page_size=${size}`).mode).toEqual({ kind: "page", page: 1, pageSize: expected });
  });

  it("a scalar given twice answers 400 naming it", () => {
    const { body } = rejection("page=1&page=2");
    expect(body.error).toEqual({ page: [expect.stringMatching(/more than once/)] });
    expect(named("page=1&page_size=5&page_size=6")).toEqual(["page_size"]);
    expect(named("all_ids=true&all_ids=true")).toEqual(["all_ids"]);
  });

  it("the message names the bad value", () => {
    expect(rejection("page=abc").body.error).toEqual({ page: ['Must be a whole number of at least 1, not "abc"'] });
  });
});

describe("id_set", () => {
  it("accepts exactly 250 ids and refuses 251", () => {
    const ids = Array.from({ length: 251 }, (_, i) => i + 1);
    expect(query(`id_set=${ids.slice(0, 250).join(",")}`).mode).toEqual({ kind: "idSet", ids: ids.slice(0, 250) });
    expect(named(`id_set=${ids.join(",")}`)).toEqual(["id_set"]);
    expect(named(ids.map((id) => `id_set[]=${id}`).join("&"))).toEqual(["id_set"]);
  });

  it.each([
    "id_set=1,abc",
    "id_set=0",
    "id_set=-1",
    "id_set=1,,2",
    "id_set=",
    "id_set[]=1.5",
    "id_set=99999999999999999999",
  ])("%s answers 400 naming id_set", (text) => {
    expect(named(text)).toEqual(["id_set"]);
  });

  it("is checked even when page wins: a bad value is a mistake wherever it is", () => {
    expect(named("page=1&id_set=x")).toEqual(["id_set"]);
  });
});

describe("all_ids", () => {
  it.each(["all_ids=yes", "all_ids=1", "all_ids="])("%s answers 400 naming all_ids", (text) => {
    expect(named(text)).toEqual(["all_ids"]);
  });
});

describe("modified_since, sorting and resolve[]", () => {
  it("passes them on in every mode", () => {
    expect(
      query(
        "page=1&modified_since=1700000000&sort_field=title&sort_direction=desc&resolve[]=subjects&resolve[]=linked_agents::agent",
      ),
    ).toEqual({
      mode: { kind: "page", page: 1, pageSize: 10 },
      modifiedSince: 1700000000,
      sortField: "title",
      sortDirection: "desc",
      resolve: ["subjects", "linked_agents::agent"],
    });
    expect(query("all_ids=true&modified_since=0")).toEqual({ mode: { kind: "allIds" }, modifiedSince: 0 });
    expect(query("id_set=1&sort_direction=asc&resolve=subjects")).toEqual({
      mode: { kind: "idSet", ids: [1] },
      sortDirection: "asc",
      resolve: ["subjects"],
    });
  });

  it.each(["modified_since=-1", "modified_since=yesterday", "modified_since=1.5", "modified_since="])(
    "page=1&%s answers 400 naming modified_since",
    (text) => {
      expect(named(`page=1&${text}`)).toEqual(["modified_since"]);
    },
  );

  it.each(["sort_direction=up", "sort_direction=ASC", "sort_direction=", "sort_direction=asc&sort_direction=desc"])(
    "page=1&%s answers 400 naming sort_direction",
    (text) => {
      expect(named(`page=1&${text}`)).toEqual(["sort_direction"]);
    },
  );

  it.each([
    "sort_field=$where",
    "sort_field=a.b",
    "sort_field=Title",
    "sort_field=1abc",
    "sort_field=",
    "sort_field=__proto__x.y",
  ])("page=1&%s answers 400 naming sort_field", (text) => {
    expect(named(`page=1&${text}`)).toEqual(["sort_field"]);
  });

  it("sort_field takes any field name", () => {
    expect(query("page=1&sort_field=_id_0").sortField).toBe("_id_0");
  });

  it.each(["resolve[]=$where", "resolve[]=a.b", "resolve[]=a::", "resolve[]=::a", "resolve[]=a:b", "resolve[]="])(
    "page=1&%s answers 400 naming resolve[]",
    (text) => {
      expect(named(`page=1&${text}`)).toEqual(["resolve[]"]);
    },
  );

  it("names every bad parameter at once", () => {
    expect(named("page=0&page_size=0&modified_since=-1&sort_direction=sideways")).toEqual([
      "modified_since",
      "page",
      "page_size",
      "sort_direction",
    ]);
  });

  it("ignores parameters it does not know", () => {
    expect(query("page=1&includes=x&page[$gt]=1")).toEqual({ mode: { kind: "page", page: 1, pageSize: 10 } });
  });
});

describe("parameter sources", () => {
  it("merges a query string and a form body; a scalar in both is given twice", () => {
    expect(parseListQuery(parameterValues(parse("page=2"), { page_size: "3" })).mode).toEqual({
      kind: "page",
      page: 2,
      pageSize: 3,
    });
    expect(parseListQuery(parameterValues({}, { "id_set[]": ["1", "2"] })).mode).toEqual({
      kind: "idSet",
      ids: [1, 2],
    });
    expect(() => parseListQuery(parameterValues(parse("page=2"), { page: "3" }))).toThrow(ApiError);
  });

  it("a nested value (from a parser that builds objects) is a bad value, not silently ignored", () => {
    expect(() => parseListQuery(parameterValues({ page: { $gt: "1" } }))).toThrow(
      expect.objectContaining({ status: 400, detail: { page: [expect.any(String)] } }),
    );
  });
});

describe("parseResolve (item reads)", () => {
  it("reads resolve[] or a repeated resolve, and nothing else", () => {
    expect(parseResolve(parameterValues(parse("resolve[]=a&resolve[]=b::c&page=0")))).toEqual(["a", "b::c"]);
    expect(parseResolve(parameterValues(parse("resolve=a")))).toEqual(["a"]);
    expect(parseResolve(parameterValues({}))).toEqual([]);
  });

  it("refuses a key that is not a field name", () => {
    expect(() => parseResolve(parameterValues(parse("resolve[]=$ne")))).toThrow(
      expect.objectContaining({ status: 400, detail: { "resolve[]": [expect.any(String)] } }),
    );
  });
});
