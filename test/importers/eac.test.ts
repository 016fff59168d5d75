// The EAC-CPF importer on the files of ../shared/data/eac-cpf/ (and fixtures for the other
// entity types): each imports through importFile into a real server as one agent, whose names,
// dates and biography the API then serves. Importing again creates nothing; a dry run writes
// nothing; a bad record or malformed XML writes nothing and says where.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createReadStream } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import { importFile, type ImportOptions } from "../../src/importers/committer.js";
import { EacParser } from "../../src/importers/eac.js";
import type { ImportInput, ImportSummary } from "../../src/importers/pending.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const DATA = join(HERE, "..", "..", "..", "shared", "data", "eac-cpf");
const FIXTURES = join(HERE, "fixtures");
const actor = trusted("importer");

/** Records as the API serves them, read loosely: the assertions check their shape. */
type Json = Record<string, any>;

let server: RecordServer;
let repo: number;
let token: string;
let parser: EacParser;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "eac", name: "EAC imports" }, actor)).id;
  token = await server.login("reader", globalGrants([...PERMISSIONS]));
  await server.ops.deps.enumerations.ready();
  parser = new EacParser({ enumerations: server.ops.deps.enumerations });
});
afterAll(() => server.stop());

const fileInput = (path: string): ImportInput => ({ name: basename(path), open: () => createReadStream(path) });
const textInput = (name: string, text: string): ImportInput => ({
  name,
  open: () => Readable.from([Buffer.from(text)]),
});
const run = (input: ImportInput, options: Partial<ImportOptions> = {}): Promise<ImportSummary> =>
  importFile(server.ops, parser, input, { repoId: repo, actor, ...options });
const agentCount = async (): Promise<number> =>
  (
    await Promise.all(
      ["agent_person", "agent_corporate_entity", "agent_family"].map((type) =>
        server.ops.deps.store.collection(type).countDocuments({}),
      ),
    )
  ).reduce((a, b) => a + b, 0);

async function imported(summary: ImportSummary): Promise<Json> {
  expect(summary.errors).toEqual([]);
  expect(summary.uris).toHaveLength(1);
  const reply = await server.send("GET", summary.uris[0] as string, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

describe("yale_cadell.xml", () => {
  const file = join(DATA, "yale_cadell.xml");
  let summary: ImportSummary;
  let agent: Json;

  beforeAll(async () => {
    summary = await run(fileInput(file));
    agent = await imported(summary);
  });

  it("is a person, the authorized name first with the record id as authority id", () => {
    expect(summary).toMatchObject({ outcome: "imported", created: { agent_person: 1 } });
    expect(agent.agent_type).toBe("agent_person");
    expect(agent.names[0]).toMatchObject({
      primary_name: "Cadell",
      rest_of_name: "T.",
      fuller_form: "Thomas",
      dates: "1742-1802",
      name_order: "inverted",
      source: "naf",
      authority_id: "beinecke.j0zpcks",
      authorized: true,
      is_display_name: true,
      sort_name: "Cadell, T. (Thomas), 1742-1802",
    });
    expect(agent.names.slice(1).map((name: Json) => [name.sort_name, name.authorized, name.name_order])).toEqual([
      ["Cadell, Thomas, 1742-1802", false, "inverted"],
      ["Cadel, T. (Thomas), 1742-1802", false, "inverted"],
      ["Thomas Cadell", false, "direct"],
    ]);
  });

  it("keeps the dates of existence, standard and as written", () => {
    expect(agent.dates_of_existence).toEqual([
      expect.objectContaining({
        date_label: "existence",
        date_type_structured: "range",
        structured_date_range: expect.objectContaining({
          begin_date_standardized: "1742-11-12",
          begin_date_expression: "1742 November 12",
          end_date_standardized: "1802-12-27",
          end_date_expression: "1802 December 27",
        }),
      }),
    ]);
  });

  it("keeps both biogHists: abstract, chronology and paragraphs", () => {
    expect(agent.notes).toHaveLength(2);
    const [first, second] = agent.notes as Json[];
    expect(first?.jsonmodel_type).toBe("note_bioghist");
    expect(first?.subnotes.map((subnote: Json) => subnote.jsonmodel_type)).toEqual([
      "note_text",
      "note_chronology",
      "note_text",
      "note_text",
      "note_text",
      "note_text",
    ]);
    expect(first?.subnotes[0].content).toMatch(
      /^Thomas Cadell was born in Bristol on 12 November 1742, but spent most of his life in London\./,
    );
    expect(first?.subnotes[0].content).toContain("Samuel Johnson's Dictionary. After seven years");
    const chronology = first?.subnotes[1].items as Json[];
    expect(chronology).toHaveLength(13);
    expect(chronology[0]).toEqual({ event_date: "1742 November 12", events: ["Born in Bristol."] });
    expect(chronology[9]).toEqual({ event_date: "1798 - 1799", events: ["Master of the Stationers' Company."] });
    expect(chronology[11]).toEqual({
      event_date: "1800 - 1801",
      events: ["Served in the office of the sheriff, Walbrook ward, City of London."],
    });
    expect(second?.subnotes[0]).toMatchObject({
      jsonmodel_type: "note_text",
      content: "Highlights of Cadell's publishing career:",
    });
    expect(second?.subnotes[1].items[1]).toEqual({
      event_date: "circa 1770 - circa 1780",
      events: ["1770s: Samuel Johnson's political tracts."],
    });
  });

  it("warns of each relation it cannot link, and lists what an agent has no field for", () => {
    const relations = summary.warnings.filter((warning) => warning.message.startsWith("cpfRelation"));
    expect(relations).toHaveLength(8);
    expect(relations[0]).toEqual({
      file: "yale_cadell.xml",
      line: 290,
      column: 13,
      path: "/eac-cpf/cpfDescription/relations/cpfRelation",
      message:
        "cpfRelation to 'Burney, Fanny, 1752-1840' (associative) not imported: agents have no relationships here",
    });
    const rest = summary.warnings.find((warning) => warning.message.startsWith("not imported"));
    expect(rest).toMatchObject({ line: 2, path: "/eac-cpf" });
    for (const item of [
      "control/sources",
      "description/places",
      "description/occupations",
      "relations/resourceRelation (11) ('Autograph File: G.'",
    ])
      expect(rest?.message).toContain(item);
  });

  it("imports again without a second agent", async () => {
    const before = await agentCount();
    expect(await run(fileInput(file))).toMatchObject({
      outcome: "imported",
      created: {},
      reused: { agent_person: 1 },
      uris: [],
    });
    expect(await agentCount()).toBe(before);
  });
});

describe("feynman-richard-phillips-1918-1988-cr.xml", () => {
  const file = join(DATA, "feynman-richard-phillips-1918-1988-cr.xml");

  it("a dry run reports one agent and writes nothing", async () => {
    const before = await agentCount();
    expect(await run(fileInput(file), { dryRun: true })).toMatchObject({
      outcome: "imported",
      dryRun: true,
      errors: [],
      created: { agent_person: 1 },
    });
    expect(await agentCount()).toBe(before);
  });

  it("imports the authorized forms first, each distinct name once", async () => {
    const summary = await run(fileInput(file));
    const agent = await imported(summary);
    expect(
      agent.names.slice(0, 3).map((name: Json) => [name.sort_name, name.authorized, name.is_display_name]),
    ).toEqual([
      ["Feynman, Richard Phillips, 1918-1988", true, true],
      ["Feynman, Richard Phillips", true, false],
      ["Feynman, Richard P.", true, false],
    ]);
    expect(agent.names[0]).toMatchObject({
      primary_name: "Feynman",
      rest_of_name: "Richard Phillips",
      dates: "1918-1988",
      authority_id: "OAC.caltech_feynmanr.c",
    });
    const sortNames = agent.names.map((name: Json) => name.sort_name);
    expect(new Set(sortNames).size).toBe(sortNames.length);
    expect(sortNames).toContain("Feĭnman, Richard P.");
    expect(
      agent.names.find((name: Json) =>
        name.sort_name.startsWith(
          "\u05E4\u05D9\u05E0\u05DE\u05DF, \u05E8\u05D9\u05E6'\u05E8\u05D3 \u05E4\u05D9\u05DC\u05D9\u05E4\u05E1",
        ),
      )?.rest_of_name,
    ).toBe("\u05E8\u05D9\u05E6'\u05E8\u05D3 \u05E4\u05D9\u05DC\u05D9\u05E4\u05E1");
    expect(agent.dates_of_existence[0].structured_date_range).toMatchObject({
      begin_date_standardized: "1918",
      end_date_standardized: "1988",
    });
    const paragraphs = agent.notes[0].subnotes.map((subnote: Json) => subnote.content);
    expect(paragraphs).toHaveLength(8);
    expect(paragraphs[0]).toMatch(
      /^Physicist Richard Feynman won his scientific renown through the development of quantum electrodynamics, or QED,/,
    );
    expect(paragraphs[3]).toContain("later published as The Feynman Lectures on Physics.");
    expect(summary.warnings.filter((warning) => warning.message.startsWith("cpfRelation"))).toHaveLength(13);
    expect(summary.warnings.find((warning) => warning.message.startsWith("not imported"))?.message).toContain(
      "authorizedForm 'OAC' (not in name_source: local, nad, naf, ulan, ingest, snac)",
    );

    expect(await run(fileInput(file))).toMatchObject({ outcome: "imported", created: {}, reused: { agent_person: 1 } });
  });
});

describe("the other entity types", () => {
  it("a corporate body: named parts, a single date, a list in the biography, the entity id as authority id", async () => {
    const agent = await imported(await run(fileInput(join(FIXTURES, "eac-corporate-body.xml"))));
    expect(agent).toMatchObject({
      agent_type: "agent_corporate_entity",
      uri: expect.stringMatching(/^\/agents\/corporate_entities\/\d+$/),
    });
    expect(agent.names).toEqual([
      expect.objectContaining({
        primary_name: "Fixture Historical Society",
        subordinate_name_1: "Archives Committee",
        qualifier: "Springfield",
        source: "local",
        authority_id: "fixture-corp-1",
        sort_name: "Fixture Historical Society. Archives Committee (Springfield)",
      }),
    ]);
    expect(agent.dates_of_existence).toEqual([
      expect.objectContaining({
        date_type_structured: "single",
        structured_date_single: expect.objectContaining({
          date_role: "begin",
          date_standardized: "1901",
          date_expression: "founded 1901",
        }),
      }),
    ]);
    expect(agent.notes[0].subnotes).toEqual([
      expect.objectContaining({ jsonmodel_type: "note_text", content: "The society keeps the town's records." }),
      expect.objectContaining({ jsonmodel_type: "note_orderedlist", items: ["Minutes", "Letters"] }),
    ]);
  });

  it("a family: MARC-coded parts, use dates, an open range with notBefore", async () => {
    const agent = await imported(await run(fileInput(join(FIXTURES, "eac-family.xml"))));
    expect(agent.agent_type).toBe("agent_family");
    expect(agent.names[0]).toMatchObject({
      family_name: "Fixture family",
      dates: "1850-",
      source: "naf",
      authority_id: "fixture-family-1",
      sort_name: "Fixture family, 1850-",
    });
    expect(agent.names[0].use_dates[0]).toMatchObject({
      date_label: "usage",
      structured_date_range: expect.objectContaining({
        begin_date_standardized: "1900",
        end_date_standardized: "1950",
      }),
    });
    expect(agent.dates_of_existence[0].structured_date_range).toMatchObject({
      begin_date_expression: "about 1850",
      begin_date_standardized: "1850",
      begin_date_standardized_type: "not_before",
    });
  });
});

describe("records that write nothing", () => {
  const record = (identity: string, description = ""): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<eac-cpf xmlns="urn:isbn:1-931666-33-4">\n  <control><recordId>bad-1</recordId></control>\n  <cpfDescription>\n    <identity>\n${identity}\n    </identity>\n${description}  </cpfDescription>\n</eac-cpf>\n`;

  it.each([
    [
      "an unknown entity type",
      record("      <entityType>organisation</entityType>\n      <nameEntry><part>X</part></nameEntry>"),
      { line: 6, path: "/eac-cpf/cpfDescription/identity/entityType" },
      "entityType 'organisation' is not person, corporateBody or family",
    ],
    [
      "no entity type",
      record("      <nameEntry><part>X</part></nameEntry>"),
      { line: 5, path: "/eac-cpf/cpfDescription/identity" },
      "identity has no entityType",
    ],
    [
      "no name",
      record("      <entityType>person</entityType>"),
      { line: 5, path: "/eac-cpf/cpfDescription/identity" },
      "identity has no nameEntry with a name",
    ],
    [
      "a name the schema refuses",
      record(
        `      <entityType>person</entityType>\n      <nameEntry><part localType="surname">${"x".repeat(300)}</part></nameEntry>`,
      ),
      { line: 2, path: "/eac-cpf" },
      "names/0/primary_name",
    ],
    [
      "the wrong root",
      '<?xml version="1.0"?>\n<collection/>\n',
      { line: 2 },
      "wrong root element: expected <eac-cpf>, found <collection>",
    ],
    [
      "truncated XML",
      record("      <entityType>person</entityType>").slice(0, 120),
      { line: expect.any(Number) },
      "the file ends inside",
    ],
  ])("%s: a located error", async (_, text, where, message) => {
    const before = await agentCount();
    const summary = await run(textInput("bad.xml", text));
    expect(summary.outcome).toBe("failed");
    expect(summary.errors).toEqual([
      expect.objectContaining({ file: "bad.xml", ...where, message: expect.stringContaining(message) }),
    ]);
    expect(await agentCount()).toBe(before);
  });
});
