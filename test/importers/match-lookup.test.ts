// Matches looked up a batch at a time (src/importers/match-lookup.ts) give each pending record
// the answer its own `find(filter).limit(1)` gave: checked against that query over stored
// records that make the difference (absent, null and present parts of an identifier, names and
// terms in arrays, another repository, values of another type), across several queries of one
// batch; then through CSV imports: stored records reused, rows of one file reusing each other as
// before, identifiers with absent parts, and an accession of another repository not reused.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { trusted } from "../../src/auth/actor.js";
import { importFile, type ImportOptions } from "../../src/importers/committer.js";
import { CsvParser, type CsvImportOptions } from "../../src/importers/csv.js";
import { FILTERS_PER_QUERY, findMatches, type MatchFilter } from "../../src/importers/match-lookup.js";
import type { ImportSummary } from "../../src/importers/pending.js";
import type { StoredRecord } from "../../src/storage/record-store.js";
import { startRecordServer, type RecordServer } from "../support/service.js";

const DATA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared", "data", "csv");
const actor = trusted("importer");

let server: RecordServer;
let vocabulary: string;

beforeAll(async () => {
  server = await startRecordServer({ monitorCommands: true });
  vocabulary = (await server.ops.create("vocabulary", {}, { name: "global", ref_id: "global" }, actor)).uri;
  await server.ops.deps.enumerations.ready();
});
afterAll(() => server.stop());

describe("findMatches", () => {
  const probe = () => server.connection.collection<StoredRecord>("match_probe");
  const subject = (...terms: string[]) => ({
    vocabulary: "/vocabularies/1",
    source: "local",
    terms: terms.map((term) => ({ term, term_type: "topical" })),
  });
  /** A subject's match as subject-records.ts makes it: these terms in order, and no more. */
  const subjectMatch = (...terms: string[]): MatchFilter => ({
    vocabulary: "/vocabularies/1",
    source: "local",
    ...Object.fromEntries(
      terms.flatMap((term, i) => [
        [`terms.${i}.term`, term],
        [`terms.${i}.term_type`, "topical"],
      ]),
    ),
    [`terms.${terms.length}`]: null,
  });
  const identifier = (repo: number, ...parts: Array<string | null>): MatchFilter => ({
    id_0: parts[0] ?? null,
    id_1: parts[1] ?? null,
    id_2: parts[2] ?? null,
    id_3: parts[3] ?? null,
    repo_id: repo,
  });

  beforeAll(async () => {
    // In id order, as records are stored: the first a query finds is the lowest id.
    await probe().insertMany([
      { id: 1, repo_id: 2, id_0: "A", id_1: "1" },
      { id: 2, repo_id: 2, id_0: "A", id_1: "1", id_2: "x" },
      { id: 3, repo_id: 3, id_0: "A", id_1: "1" },
      { id: 4, repo_id: 2, id_0: "B", id_1: null },
      { id: 12, repo_id: 2, id_0: "D" },
      { id: 5, names: [{ sort_name: "Smith, Ada" }, { sort_name: "Ada Smith", authority_id: "n1" }] },
      { id: 6, names: [{ sort_name: "Smith, Ada" }] },
      { id: 7, ...subject("Maps") },
      { id: 8, ...subject("Maps", "Ohio") },
      { id: 9, ...subject("Ohio", "Maps") },
      { id: 10, flag: true, n: 3 },
      { id: 11, n: "3" },
      ...Array.from({ length: 150 }, (_, i) => ({ id: 100 + i, repo_id: 2, id_0: "C", id_1: String(i * 2) })),
    ]);
  });

  const filters: Array<MatchFilter | undefined> = [
    identifier(2, "A", "1"),
    identifier(2, "A", "1", "x"),
    identifier(3, "A", "1"),
    identifier(4, "A", "1"),
    identifier(2, "A"),
    identifier(2, "B"),
    identifier(2, "B", "1"),
    undefined,
    { "names.sort_name": "Smith, Ada" },
    { "names.sort_name": "Ada Smith" },
    { "names.sort_name": "Smith, Ada", "names.authority_id": "n1" },
    { "names.sort_name": "Smith, Ada", "names.authority_id": "n2" },
    { "names.sort_name": "Nobody" },
    subjectMatch("Maps"),
    subjectMatch("Maps", "Ohio"),
    subjectMatch("Ohio"),
    subjectMatch("Ohio", "Maps"),
    subjectMatch("Maps", "Ohio", "Iowa"),
    { n: 3 },
    { n: "3" },
    { flag: true },
    { flag: false },
    identifier(2, "A", "1"),
    identifier(2, "D"),
    // 300 filters of one shape, every other one stored: three queries of them.
    ...Array.from({ length: 300 }, (_, i) => identifier(2, "C", String(i))),
  ];

  it("answers every filter as its own query did, in a few queries", async () => {
    server.commands?.clear();
    const found = await findMatches(probe(), filters);
    const queries = server.commands?.finds("match_probe").length;
    const expected: Array<number | undefined> = [];
    for (const filter of filters) {
      const [first] =
        filter === undefined
          ? []
          : await probe()
              .find(filter, { projection: { id: 1 } })
              .limit(1)
              .toArray();
      expected.push(first?.id);
    }
    expect(found.map((record) => record?.id)).toEqual(expected);
    // One query per shape (the same fields, null in the same ones) and chunk, not one per filter: identifiers of one
    // and three parts, of two parts (305 filters), names by sort name and with an authority id, subjects of one to
    // three terms, n, flag.
    expect(queries).toBe(2 + Math.ceil(305 / FILTERS_PER_QUERY) + 2 + 3 + 2);
  });

  it("tells absent, null and present identifier parts apart, repository by repository", async () => {
    const found = (await findMatches(probe(), filters)).map((record) => record?.id);
    expect(found.slice(0, 8)).toEqual([1, 2, 3, undefined, undefined, 4, undefined, undefined]);
    expect(found.slice(22, 24)).toEqual([1, 12]);
    expect(found.slice(24)).toEqual(Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? 100 + i / 2 : undefined)));
  });

  it("matches names and terms inside arrays as MongoDB does: any name, terms by position and count", async () => {
    const found = (await findMatches(probe(), filters)).map((record) => record?.id);
    // Both stored agents are named Smith, Ada: the lowest id. Sort name and authority id may be on different names.
    expect(found.slice(8, 13)).toEqual([5, 5, 5, undefined, undefined]);
    expect(found.slice(13, 18)).toEqual([7, 8, undefined, 9, undefined]);
    expect(found.slice(18, 22)).toEqual([10, 11, 10, undefined]);
  });

  it("takes the lowest id when several stored records match, whatever order they were stored in", async () => {
    await probe().insertMany([
      { id: 31, tag: "twice" },
      { id: 30, tag: "twice" },
    ]);
    const [found] = await findMatches(probe(), [{ tag: "twice" }]);
    expect(found?.id).toBe(30);
  });
});

describe("CSV imports with batched matches", () => {
  const header = readFileSync(join(DATA, "accession_import_template.csv"), "utf8").split("\r\n")[0] as string;
  const columns = header.split(",");
  const accessionFile = (...rows: Array<Record<string, string>>): string =>
    [header, ...rows.map((cells) => columns.map((column) => cells[column] ?? "").join(","))].join("\r\n") + "\r\n";
  const row = (id: string, cells: Record<string, string> = {}): Record<string, string> => {
    const [a = "", b = "", c = "", d = ""] = id.split("-");
    return {
      accession_title: `Accession ${id}`,
      accession_number_1: a,
      accession_number_2: b,
      accession_number_3: c,
      accession_number_4: d,
      ...cells,
    };
  };
  const hollis = (authority?: string): Record<string, string> => ({
    agent_type: "agent_person",
    agent_name_primary_name: "Hollis",
    agent_name_rest_of_name: "Margaret",
    ...(authority !== undefined && { agent_name_authority_id: authority }),
  });
  const run = (repoId: number, text: string, parser: CsvImportOptions = {}, options: Partial<ImportOptions> = {}) =>
    importFile(
      server.ops,
      new CsvParser({ enumerations: server.ops.deps.enumerations, vocabulary, ...parser }),
      { name: "rows.csv", open: () => Readable.from([Buffer.from(text)]) },
      { repoId, actor, ...options },
    );
  const collectionOf = (type: string) => server.ops.deps.registry.get(type).collection;
  const stored = async (type: string, filter: Record<string, unknown>) =>
    server.ops.deps.store.collection(type).find(filter).toArray();
  let repo: number;
  let other: number;

  beforeAll(async () => {
    repo = (await server.ops.create("repository", {}, { repo_code: "matches", name: "Matches" }, actor)).id;
    other = (await server.ops.create("repository", {}, { repo_code: "elsewhere", name: "Elsewhere" }, actor)).id;
  });

  it("reuses stored accessions, agents and subjects, looking them up a batch at a time", async () => {
    const subject = { subject_term: "Shipping", subject_term_type: "topical", subject_source: "local" };
    const first = await run(
      repo,
      accessionFile(...Array.from({ length: 60 }, (_, i) => row(`S-${i}`, { ...hollis(), ...subject }))),
    );
    expect(first).toMatchObject({ errors: [], created: { agent_person: 1, subject: 1, accession: 60 } });
    server.commands?.clear();
    // 150 rows: the 60 stored and 90 new, all naming the stored agent and subject.
    const second = await run(
      repo,
      accessionFile(...Array.from({ length: 150 }, (_, i) => row(`S-${i}`, { ...hollis(), ...subject }))),
    );
    expect(second).toMatchObject({
      errors: [],
      created: { accession: 90 },
      reused: { agent_person: 1, subject: 1, accession: 60 },
    });
    // Two passes (check, write) of one batch of 150 accessions: two queries each, not one per row.
    expect(server.commands?.finds(collectionOf("accession")).length).toBeLessThanOrEqual(4);
    const [agent] = await stored("agent_person", { "names.sort_name": "Hollis, Margaret" });
    const linked = await stored("accession", { repo_id: repo, id_0: "S", id_1: "149" });
    expect(linked[0]?.linked_agents).toEqual([expect.objectContaining({ ref: `/agents/people/${agent?.id}` })]);
    expect(
      await server.ops.deps.store.collection("agent_person").countDocuments({ "names.sort_name": "Hollis, Margaret" }),
    ).toBe(1);
  });

  it("rows of one file: an agent reuses one a batch before it wrote, not one of its own batch", async () => {
    // The same sort name, first with an authority id and then without: two agents to the file, the second
    // matching the first once it is stored.
    const file = (id: string, name: string) =>
      accessionFile(
        row(`${id}-1`, { ...hollis("n100"), agent_name_primary_name: name }),
        row(`${id}-2`, { ...hollis(), agent_name_primary_name: name }),
      );
    const apart = await run(repo, file("W", "Whitfield"), { chunkRows: 1 });
    expect(apart).toMatchObject({
      errors: [],
      created: { agent_person: 1, accession: 2 },
      reused: { agent_person: 1 },
    });
    const together = await run(repo, file("V", "Wagner"));
    expect(together).toMatchObject({ errors: [], created: { agent_person: 2, accession: 2 } });
    expect(together.reused).toEqual({});
  });

  it("an identifier with absent parts matches only an identifier with the same parts absent", async () => {
    const first = await run(repo, accessionFile(row("N-1"), row("N-2-b"), row("N-4-c-d")));
    expect(first.created).toEqual({ accession: 3 });
    const second = await run(
      repo,
      accessionFile(row("N-1"), row("N-1-a"), row("N-2"), row("N-2-b"), row("N-3"), row("N-4-c"), row("N-4-c-d")),
    );
    expect(second).toMatchObject({ errors: [], created: { accession: 4 }, reused: { accession: 3 } });
    const titles = (await stored("accession", { repo_id: repo, id_0: "N" })).map((record) => record.title).sort();
    expect(titles).toEqual(
      ["N-1", "N-1-a", "N-2", "N-2-b", "N-3", "N-4-c", "N-4-c-d"].map((id) => `Accession ${id}`).sort(),
    );
  });

  it("an accession of another repository is not reused; an agent, shared by all, is", async () => {
    const elsewhere: ImportSummary = await run(other, accessionFile(row("R-1", hollis("n200"))));
    expect(elsewhere.created).toEqual({ agent_person: 1, accession: 1 });
    const here = await run(repo, accessionFile(row("R-1", hollis("n200"))));
    expect(here).toMatchObject({ errors: [], created: { accession: 1 }, reused: { agent_person: 1 } });
    expect((await stored("accession", { id_0: "R", id_1: "1" })).map((record) => record.repo_id).sort()).toEqual(
      [repo, other].sort(),
    );
  });
});
