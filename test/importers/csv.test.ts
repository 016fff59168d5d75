// The CSV importer on ArchivesSpace's own templates (../shared/data/csv/): every file imports
// through importFile into a real server, and what the API then serves holds the files' values.
// Importing again creates nothing; a dry run writes nothing; a bad row or a malformed file
// writes nothing and says where.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createReadStream, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import { importFile, type ImportOptions } from "../../src/importers/committer.js";
import { CsvParser } from "../../src/importers/csv.js";
import type { ImportInput, ImportSummary } from "../../src/importers/pending.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

const DATA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared", "data", "csv");
const actor = trusted("importer");

/** Records as the API serves them, read loosely: the assertions check their shape. */
type Json = Record<string, any>;

let server: RecordServer;
let repo: number;
let token: string;
let parser: CsvParser;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "csv", name: "CSV imports" }, actor)).id;
  const vocabulary = await server.ops.create("vocabulary", {}, { name: "global", ref_id: "global" }, actor);
  token = await server.login("reader", globalGrants([...PERMISSIONS]));
  await server.ops.deps.enumerations.ready();
  parser = new CsvParser({ enumerations: server.ops.deps.enumerations, vocabulary: vocabulary.uri });
});
afterAll(() => server.stop());

const fileInput = (path: string): ImportInput => ({ name: basename(path), open: () => createReadStream(path) });
const textInput = (name: string, text: string | Buffer): ImportInput => ({
  name,
  open: () => Readable.from([typeof text === "string" ? Buffer.from(text) : text]),
});
const run = (input: ImportInput, options: Partial<ImportOptions> = {}): Promise<ImportSummary> =>
  importFile(server.ops, parser, input, { repoId: repo, actor, ...options });

async function get(path: string): Promise<Json> {
  const reply = await server.send("GET", path, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

const count = (type: string, filter: Record<string, unknown> = {}): Promise<number> =>
  server.ops.deps.store.collection(type).countDocuments(filter);

/** A row of the accession template from the real header, with these cells filled. */
const TEMPLATE_HEADER = readFileSync(join(DATA, "accession_import_template.csv"), "utf8").split("\r\n")[0] as string;
const COLUMNS = TEMPLATE_HEADER.split(",");
const quote = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const accessionRow = (cells: Record<string, string>): string =>
  COLUMNS.map((column) => quote(cells[column] ?? "")).join(",");
const accessionFile = (...rows: Array<Record<string, string>>): string =>
  [TEMPLATE_HEADER, ...rows.map(accessionRow)].join("\r\n") + "\r\n";

describe("the accession template ArchivesSpace ships", () => {
  let summary: ImportSummary;
  let accession: Json;

  beforeAll(async () => {
    summary = await run(fileInput(join(DATA, "accession_import_template.csv")));
    const [uri] = summary.uris.filter((uri) => uri.includes("/accessions/"));
    accession = await get(uri as string);
  });

  it("imports without errors: one accession and its agent", () => {
    expect(summary.errors).toEqual([]);
    expect(summary.outcome).toBe("imported");
    expect(summary.created).toEqual({ agent_person: 1, accession: 1 });
  });

  it("keeps the identifier, title, m/d/Y date, flags and notes of the row", () => {
    expect(accession).toMatchObject({
      title: "Office of Student Affairs records",
      id_0: "2021",
      id_1: "1",
      id_2: "a",
      accession_date: "2021-12-05",
      access_restrictions: true,
      access_restrictions_note: "Some materials is in this accession are restricted.",
      acquisition_type: "gift",
      condition_description: "Materials are in fair condition.",
      content_description: "Correspondence, reports, and other materials.",
      disposition: "Keep",
      general_note: "This is the first accession of the year.",
      inventory: "List items if you want",
      provenance: "From the Alison Black in the Office of Student Affairs",
      publish: true,
      resource_type: "records",
      restrictions_apply: true,
      retention_rule: "none",
      use_restrictions: false,
    });
    expect(accession.id_3).toBeUndefined();
    expect(accession.lang_materials).toEqual([
      expect.objectContaining({ language_and_script: expect.objectContaining({ language: "eng", script: "Latn" }) }),
    ]);
  });

  it("keeps the dates and the extent", () => {
    expect(accession.dates).toEqual([
      expect.objectContaining({ label: "creation", date_type: "inclusive", begin: "1960", end: "1991" }),
    ]);
    expect(accession.extents).toEqual([
      expect.objectContaining({
        portion: "whole",
        number: "5",
        extent_type: "cubic_feet",
        container_summary: "25 boxes and 1 oversize folder",
      }),
    ]);
  });

  it("links the agent as creator, its name as the row gives it", async () => {
    expect(accession.linked_agents).toEqual([
      expect.objectContaining({ role: "creator", ref: expect.stringMatching(/^\/agents\/people\/\d+$/) }),
    ]);
    const agent = await get(accession.linked_agents[0].ref);
    expect(agent.names).toEqual([
      expect.objectContaining({
        primary_name: "Black, Alison",
        name_order: "inverted",
        sort_name: "Black, Alison",
        authorized: true,
        is_display_name: true,
      }),
    ]);
  });

  it("reports the columns an accession has no place for, on the row's line", () => {
    const unplaced = summary.warnings.find((warning) => warning.message.startsWith("not imported"));
    expect(unplaced).toMatchObject({ file: "accession_import_template.csv", line: 2 });
    for (const column of [
      "accession_processing_hours_total",
      "accession_acknowledgement_sent_date",
      "user_defined_boolean_1",
      "agent_contact_email",
    ]) {
      expect(unplaced?.message).toContain(column);
    }
  });

  it("imports again without creating anything", async () => {
    const again = await run(fileInput(join(DATA, "accession_import_template.csv")));
    expect(again).toMatchObject({
      outcome: "imported",
      errors: [],
      created: {},
      reused: { agent_person: 1, accession: 1 },
    });
    expect(await count("accession", { repo_id: repo, id_0: "2021" })).toBe(1);
  });
});

describe("ten accessions with ISO dates", () => {
  const file = join(DATA, "accessions_10_rows.csv");
  let summary: ImportSummary;
  let byTitle: Map<string, Json>;

  beforeAll(async () => {
    summary = await run(fileInput(file));
    const accessions = await Promise.all(summary.uris.filter((uri) => uri.includes("/accessions/")).map(get));
    byTitle = new Map(accessions.map((record) => [record.title, record]));
  });

  it("imports every row, each distinct agent and subject once", () => {
    expect(summary.errors).toEqual([]);
    expect(summary.created).toEqual({ agent_person: 2, agent_family: 3, subject: 8, accession: 10 });
    expect([...byTitle.keys()].sort()).toEqual([
      "76FAN",
      "785MX",
      "AOYNV",
      "E8NM2",
      "EJ303",
      "GPR00",
      "HD8NC",
      "TB52T",
      "WCDFR",
      "WT772",
    ]);
  });

  it("keeps the first row's values", async () => {
    const first = byTitle.get("WCDFR") as Json;
    expect(first).toMatchObject({
      id_0: "UD5V1",
      id_1: "3EO74",
      id_2: "SX896",
      id_3: "4E26P",
      accession_date: "1987-01-11",
      publish: true,
      restrictions_apply: true,
      retention_rule: "91WV2",
    });
    expect(first.dates).toEqual([
      expect.objectContaining({
        label: "creation",
        date_type: "inclusive",
        expression: "1960",
        begin: "1960",
        end: "1969",
      }),
      expect.objectContaining({ label: "creation", date_type: "single", expression: "1991" }),
    ]);
    expect(first.extents).toEqual([
      expect.objectContaining({ number: "57", extent_type: "cubic_feet", container_summary: "AW55S" }),
    ]);
    const agent = await get(first.linked_agents[0].ref);
    expect(agent.names[0]).toMatchObject({
      primary_name: "PE953",
      rest_of_name: "57DDD",
      name_order: "direct",
      prefix: "VBOJT",
      suffix: "T325H",
      fuller_form: "UX092",
      number: "3",
      dates: "UEQ10",
      qualifier: "The Lesser",
      authority_id: "Y12LR",
      source: "local",
      sort_name: "Jimmy",
      sort_name_auto_generate: false,
    });
    const subject = await get(first.subjects[0].ref);
    expect(subject).toMatchObject({
      source: "local",
      terms: [expect.objectContaining({ term: "iiiuiu", term_type: "cultural_context" })],
    });
  });

  it("links one subject from two rows naming it, and families as families", async () => {
    const [second, third] = [byTitle.get("WT772") as Json, byTitle.get("AOYNV") as Json];
    expect(second.subjects[0].ref).toBe(third.subjects[0].ref);
    const family = await get((byTitle.get("76FAN") as Json).linked_agents[0].ref);
    expect(family).toMatchObject({
      agent_type: "agent_family",
      names: [expect.objectContaining({ family_name: "NEGTE" })],
    });
  });

  it("leaves out values not in their enumeration and says so, by line and column", () => {
    const first = byTitle.get("WCDFR") as Json;
    expect(first.acquisition_type).toBeUndefined();
    expect(first.access_restrictions).toBe(false);
    expect(summary.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          line: 2,
          message: expect.stringMatching(
            /^accession_acquisition_type: 'ML3SG' is not a value of accession_acquisition_type/,
          ),
        }),
        expect.objectContaining({
          line: 2,
          message: expect.stringMatching(/^accession_access_restrictions: 'PW95E' is not a yes\/no value/),
        }),
        expect.objectContaining({
          line: 2,
          message: expect.stringMatching(/^agent_name_rules: 'ciderhouse' is not a value of name_rule/),
        }),
      ]),
    );
  });

  it("imports again without creating anything", async () => {
    const before = await count("accession", { repo_id: repo });
    const again = await run(fileInput(file));
    expect(again).toMatchObject({
      outcome: "imported",
      errors: [],
      created: {},
      reused: { agent_person: 2, agent_family: 3, subject: 8, accession: 10 },
    });
    expect(await count("accession", { repo_id: repo })).toBe(before);
  });
});

describe("the subject and location templates", () => {
  it("imports subjects with their terms in order, and again without duplicates", async () => {
    const file = fileInput(join(DATA, "aspace_subject_import_template.csv"));
    const summary = await run(file);
    expect(summary).toMatchObject({ outcome: "imported", errors: [], created: { subject: 2 } });
    const subjects = await Promise.all(summary.uris.map(get));
    expect(
      subjects.map((subject) => [
        subject.authority_id,
        subject.source,
        subject.terms.map((term: Json) => [term.term, term.term_type]),
      ]),
    ).toEqual([
      [
        "A123465",
        "local",
        [
          ["Seattle", "geographic"],
          ["San Francisco", "geographic"],
        ],
      ],
      [
        "A123466",
        "local",
        [
          ["Los Angeles", "geographic"],
          ["Portland", "geographic"],
        ],
      ],
    ]);
    expect(summary.warnings).toEqual([
      expect.objectContaining({
        line: 2,
        message: expect.stringContaining(
          "external_document_title, external_document_location, md_rights_dec_license, md_rights_dec_descriptive_note",
        ),
      }),
    ]);
    const again = await run(file);
    expect(again).toMatchObject({ outcome: "imported", created: {}, reused: { subject: 2 } });
  });

  it("imports locations, and again without duplicates", async () => {
    const file = fileInput(join(DATA, "aspace_location_import_template.csv"));
    const summary = await run(file);
    expect(summary).toMatchObject({ outcome: "imported", errors: [], warnings: [], created: { location: 3 } });
    const locations = await Promise.all(summary.uris.map(get));
    expect(locations[2]).toMatchObject({
      building: "City Hall",
      floor: "10",
      room: "Green",
      area: "Stacks",
      barcode: "123458",
      classification: "AB1CD3",
      coordinate_1_label: "Row",
      coordinate_1_indicator: "1",
      coordinate_2_label: "Bay",
      coordinate_3_label: "Shelf",
      coordinate_3_indicator: "3",
    });
    const again = await run(file);
    expect(again).toMatchObject({ outcome: "imported", created: {}, reused: { location: 3 } });
    expect(await count("location")).toBe(3);
  });
});

describe("matching exactly", () => {
  it("an accession is reused only for its whole identifier: a shorter one is another accession", async () => {
    const longer = await run(
      textInput(
        "longer.csv",
        accessionFile({
          accession_title: "Four parts",
          accession_number_1: "EXACT",
          accession_number_2: "1",
          accession_number_3: "a",
          accession_number_4: "x",
        }),
      ),
    );
    expect(longer.created).toEqual({ accession: 1 });
    const shorter = await run(
      textInput(
        "shorter.csv",
        accessionFile({
          accession_title: "Three parts",
          accession_number_1: "EXACT",
          accession_number_2: "1",
          accession_number_3: "a",
        }),
      ),
    );
    expect(shorter).toMatchObject({ outcome: "imported", created: { accession: 1 }, reused: {} });
    expect(await count("accession", { repo_id: repo, id_0: "EXACT" })).toBe(2);
  });

  it("a subject is reused only for the same terms: one with a term more is another subject", async () => {
    const one = await run(
      textInput(
        "one-term.csv",
        accessionFile({
          accession_title: "One term",
          accession_number_1: "TERMS",
          accession_number_2: "1",
          subject_term: "Exactly",
          subject_term_type: "topical",
          subject_source: "local",
        }),
      ),
    );
    expect(one.created).toEqual({ subject: 1, accession: 1 });
    const header = readFileSync(join(DATA, "aspace_subject_import_template.csv"), "utf8").split(/\r?\n/)[0] as string;
    const cells = header.split(",").map(
      (column) =>
        ({
          subject_source: "local",
          term_1: "Exactly",
          term_type_1: "topical",
          term_2: "More",
          term_type_2: "topical",
        })[column] ?? "",
    );
    const two = await run(textInput("two-terms.csv", `${header}\n${cells.join(",")}\n`));
    expect(two).toMatchObject({ outcome: "imported", created: { subject: 1 }, reused: {} });
    const again = await run(
      textInput(
        "one-term-again.csv",
        accessionFile({
          accession_title: "One term",
          accession_number_1: "TERMS",
          accession_number_2: "2",
          subject_term: "Exactly",
          subject_term_type: "topical",
          subject_source: "local",
        }),
      ),
    );
    expect(again).toMatchObject({ created: { accession: 1 }, reused: { subject: 1 } });
  });
});

describe("writing nothing", () => {
  it("a dry run reports what it would create and writes nothing", async () => {
    const before = await count("accession", { repo_id: repo });
    const agentsBefore = await count("agent_person");
    const text = accessionFile(
      {
        accession_title: "Dry one",
        accession_number_1: "DRY",
        accession_number_2: "1",
        agent_type: "agent_person",
        agent_name_primary_name: "Dry, Run",
        agent_name_name_order: "inverted",
      },
      { accession_title: "Dry two", accession_number_1: "DRY", accession_number_2: "2" },
    );
    const summary = await run(textInput("dry.csv", text), { dryRun: true });
    expect(summary).toMatchObject({
      outcome: "imported",
      dryRun: true,
      errors: [],
      created: { agent_person: 1, accession: 2 },
    });
    expect(await count("accession", { repo_id: repo })).toBe(before);
    expect(await count("agent_person")).toBe(agentsBefore);
  });

  it("a bad row fails the whole file, located by line and column", async () => {
    const before = await count("accession", { repo_id: repo });
    const agentsBefore = await count("agent_person");
    const text = accessionFile(
      {
        accession_title: "Good",
        accession_number_1: "BAD-FILE",
        accession_number_2: "1",
        agent_type: "agent_person",
        agent_name_primary_name: "Good, Agent",
      },
      {
        accession_title: "Bad date",
        accession_number_1: "BAD-FILE",
        accession_number_2: "2",
        accession_accession_date: "13/45/2021",
      },
    );
    const summary = await run(textInput("bad-date.csv", text));
    expect(summary.outcome).toBe("failed");
    expect(summary.errors).toEqual([
      {
        file: "bad-date.csv",
        line: 3,
        message: "accession_accession_date: '13/45/2021' is not a date (m/d/Y as 12/5/2021, or YYYY-MM-DD)",
      },
    ]);
    expect(await count("accession", { repo_id: repo })).toBe(before);
    expect(await count("agent_person")).toBe(agentsBefore);
  });

  it("a row without an identifier, or with one used twice, fails the file", async () => {
    const missing = await run(
      textInput(
        "no-id.csv",
        accessionFile({ accession_title: "One", accession_number_1: "N1" }, { accession_title: "No identifier" }),
      ),
    );
    expect(missing.errors).toEqual([
      expect.objectContaining({ line: 3, message: "accession_number_1 is empty: every accession needs an identifier" }),
    ]);
    const twice = await run(
      textInput(
        "twice.csv",
        accessionFile(
          { accession_title: "One", accession_number_1: "T1" },
          { accession_title: "Two", accession_number_1: "T1" },
        ),
      ),
    );
    expect(twice.errors).toEqual([
      expect.objectContaining({ line: 3, message: "the accession identifier T1 is already used on line 2" }),
    ]);
    expect(await count("accession", { repo_id: repo, id_0: { $in: ["N1", "T1"] } })).toBe(0);
  });

  it("a record the schema refuses fails the file, located by line", async () => {
    const text = accessionFile(
      { accession_title: "Fine", accession_number_1: "REFUSED", accession_number_2: "1" },
      {
        accession_title: "",
        accession_number_1: "REFUSED",
        accession_number_2: "2",
        lang_material_language: "eng",
        extent_number: "x".repeat(300),
        extent_type: "cubic_feet",
      },
    );
    const summary = await run(textInput("refused.csv", text));
    expect(summary.outcome).toBe("failed");
    expect(summary.errors).toEqual([
      expect.objectContaining({ line: 3, message: expect.stringContaining("extents/0/number") }),
    ]);
    expect(await count("accession", { repo_id: repo, id_0: "REFUSED" })).toBe(0);
  });
});

describe("CSV as spreadsheets write it", () => {
  it("keeps quoted fields with commas, quotes and line breaks, and counts lines across them", async () => {
    const note = 'First line, with a comma\r\nSecond line with "quotes"';
    const text = accessionFile(
      {
        accession_title: "Multi-line",
        accession_number_1: "ML",
        accession_number_2: "1",
        accession_general_note: note,
      },
      {
        accession_title: "After it",
        accession_number_1: "ML",
        accession_number_2: "2",
        accession_acquisition_type: "Bequest",
      },
    );
    const summary = await run(textInput("multi-line.csv", `\uFEFF${text}`));
    expect(summary.errors).toEqual([]);
    const [first] = await Promise.all(summary.uris.slice(0, 1).map(get));
    expect(first?.general_note).toBe(note);
    // The second row starts on line 4: the first row's note spans lines 2 and 3.
    expect(summary.warnings).toEqual([
      expect.objectContaining({
        line: 4,
        message: expect.stringContaining("'Bequest' is not a value of accession_acquisition_type"),
      }),
    ]);
  });

  it("reads a header of labels above the row of field codes", async () => {
    const labels = COLUMNS.map((column) => column.replace(/_/g, " ")).join(",");
    const text = `${labels}\r\n${accessionFile({ accession_title: "Under labels", accession_number_1: "LBL" })}`;
    const summary = await run(textInput("labels.csv", text));
    expect(summary).toMatchObject({ outcome: "imported", errors: [], created: { accession: 1 } });
    expect(await get(summary.uris[0] as string)).toMatchObject({ title: "Under labels", id_0: "LBL" });
  });

  it.each([
    [
      "an unclosed quote",
      `${TEMPLATE_HEADER}\r\n${accessionRow({ accession_title: "Fine", accession_number_1: "Q1" })}\r\n"Never closed,Q2\r\n`,
      3,
      "a quoted field is never closed",
    ],
    [
      "a row with a field too many",
      `${TEMPLATE_HEADER}\r\n${accessionRow({ accession_title: "Fine", accession_number_1: "Q3" })},extra\r\n`,
      2,
      "this row has 120 fields, the header 119",
    ],
    [
      "a quote inside an unquoted field",
      `${TEMPLATE_HEADER}\r\n${accessionRow({ accession_title: "Fine", accession_number_1: "Q4" })}\r\nA "quoted" word,Q5${",".repeat(117)}\r\n`,
      3,
      "a quote inside a field",
    ],
    ["not a template", "name,date\r\nSmith,2020\r\n", 1, "not one of ArchivesSpace's CSV import templates"],
    ["an empty file", "", 1, "the file is empty"],
  ])("%s is a located error and writes nothing", async (_, text, line, message) => {
    const before = await count("accession", { repo_id: repo });
    const summary = await run(textInput("malformed.csv", text));
    expect(summary.outcome).toBe("failed");
    expect(summary.errors).toEqual([
      expect.objectContaining({ file: "malformed.csv", line, message: expect.stringContaining(message) }),
    ]);
    expect(await count("accession", { repo_id: repo })).toBe(before);
  });

  it("bytes that are not UTF-8 are a located error", async () => {
    const latin1 = Buffer.from(
      accessionFile(
        { accession_title: "Plain", accession_number_1: "L1" },
        { accession_title: "Caf\u00e9", accession_number_1: "L2" },
      ),
      "latin1",
    );
    const summary = await run(textInput("latin1.csv", latin1));
    expect(summary.outcome).toBe("failed");
    expect(summary.errors).toEqual([
      { file: "latin1.csv", line: 3, message: "this line is not valid UTF-8: save the spreadsheet as CSV UTF-8" },
    ]);
  });
});
