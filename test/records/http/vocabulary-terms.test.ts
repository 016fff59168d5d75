// ArchivesSpace's term reads over HTTP against the real service: GET /vocabularies/:id/terms (vocabulary.rb) and
// GET /terms?q= (term.rb), over the terms the subjects embed.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Reply, type Service } from "../../support/service.js";

/** VOCABULARY_TERMS_MAX here: both sides of it are tried. */
const TERMS_MAX = 5;

let service: Service;
let vocabulary: string;
let other: string;

/** `token` null: no session. */
const send = (method: string, path: string, token: string | null = service.adminToken): Promise<Reply> =>
  service.send(method, path, token === null ? {} : { token });

async function create(path: string, body: unknown): Promise<string> {
  const reply = await service.send("POST", path, { token: service.adminToken, body });
  expect([path, reply.status]).toEqual([path, 200]);
  return (reply.body as { uri: string }).uri;
}

function subject(vocab: string, ...terms: Array<[string, string]>): Promise<string> {
  return create("/subjects", {
    source: "local",
    vocabulary: vocab,
    terms: terms.map(([term, term_type]) => ({ term, term_type, vocabulary: vocab })),
  });
}

const term = (text: string, type: string, vocab: string) => ({
  jsonmodel_type: "term",
  term: text,
  term_type: type,
  vocabulary: vocab,
});

beforeAll(async () => {
  service = await startService({ env: { VOCABULARY_TERMS_MAX: String(TERMS_MAX) } });
  vocabulary = await create("/vocabularies", { name: "Terms test", ref_id: "terms-test" });
  other = await create("/vocabularies", { name: "Other terms", ref_id: "other-terms" });
  await subject(vocabulary, ["Railroads", "topical"], ["Ohio", "geographic"]);
  await subject(vocabulary, ["Railroads", "topical"], ["Photographs", "genre_form"]);
  // The same words as another type are another term; %-and-regex characters are plain text.
  await subject(vocabulary, ["Railroads", "uniform_title"], ["Rail (100%) .* cars", "topical"]);
  await subject(other, ["railways", "topical"]);
}, 60_000);

afterAll(() => service.stop());

describe("GET /vocabularies/:id/terms", () => {
  it("answers each distinct term of the vocabulary's subjects once, by term then type", async () => {
    const reply = await send("GET", `${vocabulary}/terms`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      term("Ohio", "geographic", vocabulary),
      term("Photographs", "genre_form", vocabulary),
      term("Rail (100%) .* cars", "topical", vocabulary),
      term("Railroads", "topical", vocabulary),
      term("Railroads", "uniform_title", vocabulary),
    ]);
    expect((await send("GET", `${other}/terms`)).body).toEqual([term("railways", "topical", other)]);
  });

  it("a vocabulary no subject uses has none; a deleted subject's terms go with it", async () => {
    const empty = await create("/vocabularies", { name: "Empty", ref_id: "empty-terms" });
    expect((await send("GET", `${empty}/terms`)).body).toEqual([]);
    const only = await subject(empty, ["Passing", "topical"]);
    expect((await send("GET", `${empty}/terms`)).body).toEqual([term("Passing", "topical", empty)]);
    expect((await send("DELETE", only)).status).toBe(200);
    expect((await send("GET", `${empty}/terms`)).body).toEqual([]);
  });

  it("answers up to VOCABULARY_TERMS_MAX terms, and past it a 400 pointing at GET /terms", async () => {
    expect(((await send("GET", `${vocabulary}/terms`)).body as unknown[]).length).toBe(TERMS_MAX);
    const bigger = await create("/vocabularies", { name: "Bigger", ref_id: "bigger-terms" });
    for (let i = 0; i <= TERMS_MAX; i++) await subject(bigger, [`Term ${i}`, "topical"]);
    const reply = await send("GET", `${bigger}/terms`);
    expect([reply.status, reply.body]).toEqual([
      400,
      { error: expect.stringContaining("more than 5 terms (VOCABULARY_TERMS_MAX)") },
    ]);
  });

  it("404 for a vocabulary that does not exist (or an id that is no id); 403 without a session", async () => {
    expect([
      (await send("GET", "/vocabularies/9999/terms")).status,
      (await send("GET", "/vocabularies/9999/terms")).body,
    ]).toEqual([404, { error: "Vocabulary not found" }]);
    expect((await send("GET", "/vocabularies/x1/terms")).status).toBe(404);
    const anonymous = await send("GET", `${vocabulary}/terms`, null);
    expect([anonymous.status, anonymous.body]).toEqual([403, { error: "Access denied" }]);
  });
});

describe("GET /terms?q=", () => {
  it("answers the terms starting with the prefix, in any case, as one page of ArchivesSpace's listing", async () => {
    const reply = await send("GET", "/terms?q=RAIL");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      first_page: 1,
      last_page: 1,
      this_page: 1,
      total: 4,
      results: [
        term("Rail (100%) .* cars", "topical", vocabulary),
        term("Railroads", "topical", vocabulary),
        term("Railroads", "uniform_title", vocabulary),
        term("railways", "topical", other),
      ],
    });
  });

  it("takes the prefix literally: regex characters match themselves, % is dropped as ArchivesSpace drops it", async () => {
    const literal = (await send("GET", `/terms?q=${encodeURIComponent("Rail (100")}`)).body as { results: unknown[] };
    expect(literal.results).toEqual([term("Rail (100%) .* cars", "topical", vocabulary)]);
    expect(((await send("GET", "/terms?q=.*")).body as { total: number }).total).toBe(0);
    expect(((await send("GET", "/terms?q=%25oh")).body as { results: unknown[] }).results).toEqual([
      term("Ohio", "geographic", vocabulary),
    ]);
  });

  it("answers at most 20, with the total of all", async () => {
    const many = await create("/vocabularies", { name: "Many", ref_id: "many-terms" });
    for (let i = 0; i < 25; i++) await subject(many, [`Zebra ${String(i).padStart(2, "0")}`, "topical"]);
    const page = (await send("GET", "/terms?q=zebra")).body as { total: number; results: Array<{ term: string }> };
    expect(page.total).toBe(25);
    expect(page.results.map((one) => one.term)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Zebra ${String(i).padStart(2, "0")}`),
    );
  }, 60_000);

  it("400 naming q when it is missing, repeated or too long; 403 without a session", async () => {
    const problems = ["/terms", "/terms?q=a&q=b", `/terms?q=${"a".repeat(256)}`];
    for (const path of problems) {
      const reply = await send("GET", path);
      expect([path, reply.status, reply.body]).toEqual([path, 400, { error: { q: [expect.any(String)] } }]);
    }
    expect((await send("GET", "/terms?q=a", null)).status).toBe(403);
  });
});
