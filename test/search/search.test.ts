// The search endpoints over HTTP against the real service (ArchivesSpace's search.rb): the index written with
// every write, the query language, the envelope, permissions, and the calls Archivematica's client and
// ArchivesSnake make, as their code makes them.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Reply, type Service } from "../support/service.js";

let service: Service;
let repo: string;
let otherRepo: string;
let papers: string;
let ledger: string;
let railroads: string;

/** `token` null: no session. */
const send = (
  method: string,
  path: string,
  body?: unknown,
  token: string | null = service.adminToken,
): Promise<Reply> =>
  service.send(method, path, token === null ? { ...(body !== undefined && { body }) } : { token, body });

async function create(path: string, body: unknown): Promise<string> {
  const reply = await send("POST", path, body);
  expect([path, reply.status, reply.body]).toEqual([path, 200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

interface Page {
  total_hits: number;
  this_page: number;
  last_page: number;
  results: Array<{ uri: string; title: string; json: string; primary_type: string; identifier?: string }>;
}

async function search(path: string): Promise<Page> {
  const reply = await send("GET", path);
  expect([path, reply.status]).toEqual([path, 200]);
  return reply.body as Page;
}

const uris = (page: Page) => page.results.map((result) => result.uri).sort();
const q = (text: string) => encodeURIComponent(text);

const resource = (title: string, id0: string, extra: Record<string, unknown> = {}) => ({
  title,
  id_0: id0,
  level: "collection",
  extents: [{ portion: "whole", number: "1", extent_type: "cubic_feet" }],
  dates: [{ date_type: "single", label: "creation", begin: "1900" }],
  finding_aid_language: "eng",
  finding_aid_script: "Latn",
  lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
  ...extra,
});

beforeAll(async () => {
  service = await startService();
  repo = await create("/repositories", { repo_code: "SEARCH", name: "Search" });
  otherRepo = await create("/repositories", { repo_code: "ELSEWHERE", name: "Elsewhere" });
  papers = await create(
    `${repo}/resources`,
    resource("Test fonds", "F1", {
      notes: [
        {
          jsonmodel_type: "note_multipart",
          type: "scopecontent",
          subnotes: [{ jsonmodel_type: "note_text", content: "Letters about the <emph>railroads</emph> of Ohio." }],
        },
      ],
    }),
  );
  ledger = await create(`${repo}/resources`, resource("Papers of José Martí", "MSS-060"));
  await create(`${repo}/resources`, resource("Photographs", "F10"));
  await create(`${otherRepo}/resources`, resource("Test fonds elsewhere", "F1"));
  railroads = await create("/subjects", {
    source: "local",
    vocabulary: "/vocabularies/1",
    terms: [{ term: "Railroads", term_type: "topical", vocabulary: "/vocabularies/1" }],
  });
}, 60_000);

afterAll(() => service.stop());

describe("the index follows every write", () => {
  it("finds a record in the request after the one that created it, its change after an update, nothing after a delete", async () => {
    const uri = await create(`${repo}/accessions`, {
      title: "Zeppelin log",
      id_0: "A-1",
      accession_date: "2020-01-01",
    });
    expect(uris(await search(`${repo}/search?page=1&q=zeppelin`))).toEqual([uri]);
    const record = (await send("GET", uri)).body as Record<string, unknown>;
    expect((await send("POST", uri, { ...record, title: "Dirigible log" })).status).toBe(200);
    expect((await search(`${repo}/search?page=1&q=zeppelin`)).total_hits).toBe(0);
    expect(uris(await search(`${repo}/search?page=1&q=dirigible`))).toEqual([uri]);
    expect((await send("DELETE", uri)).status).toBe(200);
    expect((await search(`${repo}/search?page=1&q=dirigible`)).total_hits).toBe(0);
  });
});

describe("GET /repositories/:repo_id/search", () => {
  it("answers ArchivesSpace's envelope, each result with its record as a JSON string", async () => {
    const reply = await send("GET", `${repo}/search?page=1&q=${q("primary_type:resource AND title:Test")}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      page_size: 10,
      first_page: 1,
      last_page: 1,
      this_page: 1,
      offset_first: 1,
      offset_last: 1,
      total_hits: 1,
      results: [
        expect.objectContaining({
          id: papers,
          uri: papers,
          title: "Test fonds",
          primary_type: "resource",
          types: ["resource"],
          jsonmodel_type: "resource",
          repository: repo,
          identifier: "F1",
          level: "collection",
          publish: false,
          suppressed: false,
        }),
      ],
      facets: { facet_queries: {}, facet_fields: {}, facet_ranges: {}, facet_intervals: {}, facet_heatmaps: {} },
    });
    const json = JSON.parse((reply.body as Page).results[0]?.json ?? "{}") as Record<string, unknown>;
    expect(json).toEqual(
      expect.objectContaining({ uri: papers, title: "Test fonds", id_0: "F1", level: "collection" }),
    );
  });

  it("runs Archivematica's collection search as its client sends it (double-escaped title, identifier, sort)", async () => {
    // agentarchives find_collection_ids / find_collections: title escaped with a doubled backslash.
    const sent = "primary_type:resource AND title:Test\\\\ fonds AND identifier:F1";
    const found = await search(`${repo}/search?page=1&page_size=30&q=${q(sent)}&sort=${q("title_sort asc")}`);
    expect(uris(found)).toEqual([papers]);
    // Identifiers match whole: F1 is not F10; a trailing wildcard finds both.
    expect((await search(`${repo}/search?page=1&q=${q("identifier:F1")}`)).total_hits).toBe(1);
    const prefixed = await search(`${repo}/search?page=1&q=${q("primary_type:resource AND identifier:F*")}`);
    expect(prefixed.total_hits).toBe(2);
    // count_collections reads total_hits alone; its title is not escaped.
    expect(
      (await search(`${repo}/search?page=1&q=${q("primary_type:resource AND title:Papers of*")}`)).total_hits,
    ).toBe(1);
  });

  it("folds case and diacritics, stems English, keeps identifiers whole as well as split, searches notes", async () => {
    expect(uris(await search(`${repo}/search?page=1&q=jose`))).toEqual([ledger]);
    expect(uris(await search(`${repo}/search?page=1&q=PAPER`))).toEqual([ledger]);
    expect(uris(await search(`${repo}/search?page=1&q=MSS-060`))).toEqual([ledger]);
    expect(uris(await search(`${repo}/search?page=1&q=060`))).toEqual([ledger]);
    expect(uris(await search(`${repo}/search?page=1&q=${q("notes:railroad AND primary_type:resource")}`))).toEqual([
      papers,
    ]);
    expect(uris(await search(`${repo}/search?page=1&q=${q('"railroads of ohio"')}`))).toEqual([papers]);
    expect((await search(`${repo}/search?page=1&q=${q('"ohio railroads"')}`)).total_hits).toBe(0);
  });

  it("includes global records (subjects, agents) and leaves other repositories out (their records and themselves); type[] narrows", async () => {
    const all = await search(`${repo}/search?page=1&q=railroads`);
    expect(all.results.map((result) => result.primary_type).sort()).toEqual(["resource", "subject"]);
    const subjects = await search(`${repo}/search?page=1&q=railroads&type[]=subject`);
    expect(subjects.results.map((result) => result.title)).toEqual(["Railroads"]);
    expect((await search(`${repo}/search?page=1&q=elsewhere`)).total_hits).toBe(0);
    const everywhere = await search(`/search?page=1&q=elsewhere`);
    expect(everywhere.results.map((result) => result.primary_type).sort()).toEqual(["repository", "resource"]);
    expect(uris(everywhere)).toContain(otherRepo);
  });

  it("pages, sorts, excludes and filters as asked; a page past the end is empty", async () => {
    const first = await search(`${repo}/search?page=1&page_size=2&type[]=resource&sort=${q("title_sort desc")}`);
    expect([first.total_hits, first.last_page, first.results.map((result) => result.title)]).toEqual([
      3,
      2,
      ["Test fonds", "Photographs"],
    ]);
    const second = await search(`${repo}/search?page=2&page_size=2&type[]=resource&sort=${q("title_sort desc")}`);
    expect(second.results.map((result) => result.title)).toEqual(["Papers of José Martí"]);
    expect((await search(`${repo}/search?page=9&type[]=resource`)).results).toEqual([]);
    const excluded = await search(`${repo}/search?page=1&type[]=resource&exclude[]=${q(papers)}`);
    expect(uris(excluded)).not.toContain(papers);
    const filtered = await search(`${repo}/search?page=1&q=*&filter_query[]=${q("identifier:F1")}`);
    expect(uris(filtered)).toEqual([papers]);
  });

  it("finds records by their linked agents and subjects, kept current when the agent is renamed", async () => {
    const agent = await create("/agents/people", {
      names: [{ primary_name: "Brunel", rest_of_name: "Isambard", name_order: "inverted", source: "local" }],
    });
    const bridges = await create(
      `${repo}/resources`,
      resource("Bridge drawings", "BR-1", {
        linked_agents: [{ ref: agent, role: "creator" }],
        subjects: [{ ref: railroads }],
      }),
    );
    expect(uris(await search(`${repo}/search?page=1&q=${q("creators:brunel")}`))).toEqual([bridges]);
    expect(uris(await search(`${repo}/search?page=1&q=${q("subjects:railroads AND primary_type:resource")}`))).toEqual([
      bridges,
    ]);
    const record = (await send("GET", agent)).body as Record<string, unknown>;
    const renamed = { ...record, names: [{ primary_name: "Stephenson", name_order: "inverted", source: "local" }] };
    expect((await send("POST", agent, renamed)).status).toBe(200);
    expect(uris(await search(`${repo}/search?page=1&q=${q("creators:stephenson")}`))).toEqual([bridges]);
    expect((await search(`${repo}/search?page=1&q=${q("creators:brunel")}`)).total_hits).toBe(0);
    // As a subject, the agent would be one of the record's agents but not a creator.
    expect((await search(`${repo}/search?page=1&q=${q("agents:stephenson")}`)).total_hits).toBe(1);
  });

  it("counts facets as Solr's flat value, count pairs, by count, over the same matches", async () => {
    const reply = await send(
      "GET",
      `${repo}/search?page=1&type[]=resource&facet[]=primary_type&facet[]=level&facet[]=subjects&facet[]=publish`,
    );
    expect(reply.status).toBe(200);
    const facets = (reply.body as { facets: { facet_fields: Record<string, unknown[]> } }).facets.facet_fields;
    expect(facets).toEqual({
      primary_type: ["resource", 4],
      level: ["collection", 4],
      subjects: ["Railroads", 1],
      publish: [false, 4],
    });
    const unknown = await send("GET", `${repo}/search?page=1&facet[]=colour`);
    expect([unknown.status, unknown.body]).toEqual([400, { error: { "facet[]": [expect.any(String)] } }]);
  });

  it("ranks by relevance unless asked otherwise: identifier, then a short title, a long title, the text", async () => {
    const note = (text: string) => [
      {
        jsonmodel_type: "note_multipart",
        type: "scopecontent",
        subnotes: [{ jsonmodel_type: "note_text", content: text }],
      },
    ];
    const inNotes = await create(`${repo}/resources`, resource("Aardvark survey", "Q-1", { notes: note("A quarry.") }));
    const longTitle = await create(`${repo}/resources`, resource("Maps, plans and records of the old quarry", "Q-2"));
    const shortTitle = await create(`${repo}/resources`, resource("Quarry", "Q-3"));
    const identified = await create(`${repo}/resources`, resource("Zinc", "QUARRY"));
    const ranked = await search(`${repo}/search?page=1&q=quarry`);
    expect(ranked.results.map((result) => result.uri)).toEqual([identified, shortTitle, longTitle, inNotes]);
    expect((await search(`${repo}/search?page=1&q=quarry&sort=${q("score desc")}`)).results.map((r) => r.uri)).toEqual(
      ranked.results.map((result) => result.uri),
    );
    const byTitle = await search(`${repo}/search?page=1&q=quarry&sort=${q("title_sort asc")}`);
    expect(byTitle.results.map((result) => result.uri)).toEqual([inNotes, longTitle, shortTitle, identified]);
    // Pages of a ranked result follow on.
    const second = await search(`${repo}/search?page=2&page_size=3&q=quarry`);
    expect(second.results.map((result) => result.uri)).toEqual([inNotes]);
    for (const uri of [inNotes, longTitle, shortTitle, identified])
      expect((await send("DELETE", uri)).status).toBe(200);
  });

  it("answers POST with a form body as GET, and ArchivesSnake's all_ids probe with a 200", async () => {
    const reply = await service.send("POST", `${repo}/search`, {
      token: service.adminToken,
      form: { page: "1", q: "title:Photographs" },
    });
    expect([reply.status, (reply.body as Page).total_hits]).toEqual([200, 1]);
    expect((await send("GET", `${repo}/search?all_ids=True`)).status).toBe(200);
  });

  it("400 naming the parameter: no page, a malformed query, an unknown field, a bad sort, an unsupported one", async () => {
    const cases: Array<[string, string]> = [
      [`${repo}/search?q=a`, "page"],
      [`${repo}/search?page=0`, "page"],
      [`${repo}/search?page=1&q=${q("(unclosed")}`, "q"],
      [`${repo}/search?page=1&q=${q("nosuchfield:x")}`, "q"],
      [`${repo}/search?page=1&sort=${q("colour asc")}`, "sort"],
      [`${repo}/search?page=1&filter_query[]=${q('"open')}`, "filter_query[]"],
      [`${repo}/search?page=1&aq=${q("{}")}`, "aq"],
    ];
    for (const [path, name] of cases) {
      const reply = await send("GET", path);
      expect([path, reply.status, reply.body]).toEqual([path, 400, { error: { [name]: [expect.any(String)] } }]);
    }
  });

  it("403 without a session or the permission; 404 for a repository that does not exist", async () => {
    expect((await send("GET", `${repo}/search?page=1`, undefined, null)).status).toBe(403);
    expect((await send("GET", `/search?page=1`, undefined, null)).status).toBe(403);
    // The repository is read while the search runs: its absence is the answer, whatever the request's problems.
    for (const path of [
      "/repositories/999/search?page=1",
      "/repositories/999/search?page=1&q=papers",
      "/repositories/999/search?page=1&q=(unclosed",
      "/repositories/999/search?page=1&dt=csv",
      "/repositories/999/top_containers/search?q=box",
    ]) {
      const missing = await send("GET", path);
      expect([path, missing.status, missing.body]).toEqual([path, 404, { error: "Repository not found" }]);
    }
  });
});

describe("the other searches", () => {
  it("root_record narrows to one tree's components; hl=true marks the words that matched", async () => {
    const object = await create(`${repo}/archival_objects`, {
      title: "Survey of canal locks",
      level: "file",
      resource: { ref: ledger },
    });
    await create(`${repo}/archival_objects`, { title: "Canal tolls", level: "file", resource: { ref: papers } });
    const inTree = await search(`${repo}/search?page=1&q=canal&root_record=${q(ledger)}`);
    expect(uris(inTree)).toEqual([object]);
    const reply = await send("GET", `${repo}/search?page=1&q=${q("canals")}&root_record=${q(ledger)}&hl=true`);
    expect((reply.body as { highlighting: unknown }).highlighting).toEqual({
      [object]: { title: ["Survey of <em>canal</em> locks"] },
    });
  });

  it("/search/records answers the records named, in the order named, leaving out what is not there", async () => {
    const reply = await send(
      "GET",
      `/search/records?uri[]=${q(ledger)}&uri[]=${q("/repositories/2/resources/999")}&uri[]=${q(papers)}`,
    );
    expect(reply.status).toBe(200);
    expect((reply.body as Page).results.map((result) => result.uri)).toEqual([ledger, papers]);
    const missing = await send("GET", "/search/records");
    expect([missing.status, missing.body]).toEqual([400, { error: { "uri[]": [expect.any(String)] } }]);
  });

  it("/search/record_types_by_repository counts each type per repository", async () => {
    const one = await send(
      "GET",
      `/search/record_types_by_repository?record_types[]=resource&record_types[]=event&repo_uri=${q(otherRepo)}`,
    );
    expect(one.body).toEqual({ resource: 1, event: 0 });
    const all = (await send("GET", "/search/record_types_by_repository?record_types[]=resource")).body as Record<
      string,
      Record<string, number>
    >;
    expect(all[otherRepo]).toEqual({ resource: 1 });
    expect(all[repo]?.resource).toBeGreaterThanOrEqual(3);
  });

  it("top_containers/search answers every matching container as Solr does", async () => {
    const box = await create(`${repo}/top_containers`, { indicator: "42", type: "box", barcode: "BC-4242" });
    await create(`${repo}/top_containers`, { indicator: "7", type: "box", barcode: "BC-0007" });
    const reply = await send("GET", `${repo}/top_containers/search?q=${q("barcode:BC-4242")}`);
    expect(reply.status).toBe(200);
    const body = reply.body as { response: { numFound: number; start: number; docs: Array<{ uri: string }> } };
    expect([body.response.numFound, body.response.start, body.response.docs.map((doc) => doc.uri)]).toEqual([
      1,
      0,
      [box],
    ]);
    expect((await send("GET", `${repo}/top_containers/search`, undefined, null)).status).toBe(403);
  });

  it("dt=csv streams every result of a repository's search, not only the page, formulas defused", async () => {
    const formula = await create(`${repo}/resources`, resource("=HYPERLINK(1) quarry ledger", "CSV-1"));
    const reply = await send(
      "GET",
      `${repo}/search?page=1&page_size=1&q=${q("title:Papers OR title:ledger")}&dt=csv&sort=${q("title_sort asc")}`,
    );
    expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "text/csv; charset=utf-8"]);
    const lines = reply.text.trim().split("\r\n");
    expect(lines[0]).toBe(
      "uri,title,primary_type,identifier,repository,level,publish,suppressed,create_time,user_mtime",
    );
    expect(lines.slice(1).map((line) => line.split(",").slice(0, 2))).toEqual([
      [formula, "'=HYPERLINK(1) quarry ledger"],
      [ledger, "Papers of José Martí"],
    ]);
    const chosen = await send(
      "GET",
      `${repo}/search?page=1&q=${q("identifier:CSV-1")}&dt=csv&fields[]=uri&fields[]=identifier`,
    );
    expect(chosen.text).toBe(`uri,identifier\r\n${formula},CSV-1\r\n`);
    const elsewhere = await send("GET", `/search?page=1&dt=csv`);
    expect([elsewhere.status, elsewhere.body]).toEqual([400, { error: { dt: [expect.any(String)] } }]);
    expect((await send("DELETE", formula)).status).toBe(200);
  });

  it("resolve[]=repository:id puts each result's repository document beside it", async () => {
    const reply = await send("GET", `${repo}/search?page=1&q=${q("identifier:F1")}&resolve[]=${q("repository:id")}`);
    const [result] = (reply.body as { results: Array<Record<string, unknown>> }).results;
    expect(result?._resolved_repository).toEqual({
      [repo]: [expect.objectContaining({ uri: repo, primary_type: "repository", title: "SEARCH" })],
    });
    const bad = await send("GET", `${repo}/search?page=1&resolve[]=${q("linked_agents:ead_id")}`);
    expect([bad.status, bad.body]).toEqual([400, { error: { "resolve[]": [expect.any(String)] } }]);
  });

  it("takes ArchivesSpace's advanced query JSON as aq (when there is no q) and as a literal filter", async () => {
    const aq = JSON.stringify({
      query: {
        jsonmodel_type: "boolean_query",
        op: "AND",
        subqueries: [
          { jsonmodel_type: "field_query", field: "title", value: "photographs" },
          { jsonmodel_type: "field_query", field: "primary_type", value: "resource" },
        ],
      },
    });
    expect(uris(await search(`${repo}/search?page=1&aq=${q(aq)}`)).length).toBe(1);
    const notTitle = JSON.stringify({
      query: { jsonmodel_type: "field_query", field: "title", value: "photographs", negated: true },
    });
    const rest = await search(`${repo}/search?page=1&type[]=resource&aq=${q(notTitle)}`);
    expect(rest.results.map((result) => result.title)).not.toContain("Photographs");
    const filter = JSON.stringify({ query: { jsonmodel_type: "field_query", field: "identifier", value: "MSS-060" } });
    expect(uris(await search(`${repo}/search?page=1&filter=${q(filter)}`))).toEqual([ledger]);
    const bad = JSON.stringify({ query: { jsonmodel_type: "field_query", value: "x" } });
    const reply = await send("GET", `${repo}/search?page=1&aq=${q(bad)}`);
    expect([reply.status, reply.body]).toEqual([400, { error: { aq: [expect.stringContaining("field")] } }]);
    const unknownField = JSON.stringify({ query: { jsonmodel_type: "field_query", field: "colour", value: "x" } });
    const unknown = await send("GET", `${repo}/search?page=1&aq=${q(unknownField)}`);
    expect([unknown.status, unknown.body]).toEqual([400, { error: { aq: [expect.stringContaining("colour")] } }]);
  });
});
