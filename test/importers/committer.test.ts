// The committer with a parser of its own making: one pass over the input (opened once), batches written as the
// parser hands them on, what a file wrote undone when it fails part-way (an invalid record, a parser error), a dry
// run that writes nothing, and a record handed on again whole (PendingRecord.restates).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Readable } from "node:stream";
import { importFile, type ImportOptions } from "../../src/importers/committer.js";
import { JOURNAL_COLLECTION } from "../../src/importers/journal.js";
import {
  ImportError,
  type FormatParser,
  type ImportInput,
  type ImportSummary,
  type PendingRecord,
} from "../../src/importers/pending.js";
import type { JsonObject } from "../../src/registry/index.js";
import { trusted } from "../../src/auth/actor.js";
import { startRecordServer, type RecordServer } from "../support/service.js";

let server: RecordServer;
let repo: number;
let vocabulary: string;
const actor = trusted("importer");

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "pass", name: "One pass" }, actor)).id;
  vocabulary = (await server.ops.create("vocabulary", {}, { ref_id: "global", name: "global" }, actor)).uri;
});
afterAll(() => server.stop());

const subject = (term: string, extra: JsonObject = {}): JsonObject => ({
  jsonmodel_type: "subject",
  source: "local",
  vocabulary,
  terms: [{ jsonmodel_type: "term", term, term_type: "topical", vocabulary }],
  ...extra,
});

const pending = (key: string, record: JsonObject, extra: Partial<PendingRecord> = {}): PendingRecord => ({
  key,
  type: "subject",
  record,
  source: { path: `[${key}]` },
  ...extra,
});

/** The subjects whose term starts with `prefix`, as stored. */
const stored = (prefix: string): Promise<JsonObject[]> =>
  server.ops.deps.store
    .collection("subject")
    .find({ "terms.term": { $regex: `^${prefix}` } })
    .toArray() as Promise<JsonObject[]>;

const journalEntries = (): Promise<number> =>
  server.ops.deps.store.connection.collection(JOURNAL_COLLECTION).countDocuments({});

/** An input that counts how often it is opened; the parser reads nothing from it but opens it once, as parsers do. */
function countedInput(): ImportInput & { opened: number } {
  const input = {
    name: "made.json",
    opened: 0,
    open: () => {
      input.opened += 1;
      return Readable.from([Buffer.from("[]")]);
    },
  };
  return input;
}

/** A parser handing on what `records` yields; each run opens the input once, as a real parser does. */
function parserOf(records: () => AsyncGenerator<PendingRecord>): FormatParser & { runs: number } {
  const parser = {
    format: "aspace-json" as const,
    runs: 0,
    async *parse(input: ImportInput) {
      parser.runs += 1;
      for await (const chunk of input.open()) void chunk;
      yield* records();
    },
  };
  return parser;
}

function run(parser: FormatParser, input: ImportInput, options: Partial<ImportOptions> = {}): Promise<ImportSummary> {
  return importFile(server.ops, parser, input, { repoId: repo, actor, batchSize: 10, ...options });
}

describe("one pass", () => {
  it("a real import reads its input once and writes batches as the parser hands them on", async () => {
    let storedMidway = -1;
    const parser = parserOf(async function* () {
      for (let i = 1; i <= 30; i++) {
        // By the 25th record the first batches are in the store: written while the file was still being read.
        if (i === 25) storedMidway = (await stored("Pass ")).length;
        yield pending(`k${i}`, subject(`Pass ${i}`));
      }
    });
    const input = countedInput();
    const summary = await run(parser, input);
    expect(summary).toMatchObject({ outcome: "imported", created: { subject: 30 }, errors: [] });
    expect([input.opened, parser.runs]).toEqual([1, 1]);
    expect(storedMidway).toBeGreaterThanOrEqual(10);
    expect(await stored("Pass ")).toHaveLength(30);
  });

  it("a dry run reads its input once, checks every record and writes nothing, not even a journal entry", async () => {
    let storedMidway = -1;
    let journalMidway = -1;
    const parser = parserOf(async function* () {
      for (let i = 1; i <= 30; i++) {
        if (i === 25) [storedMidway, journalMidway] = [(await stored("Dry ")).length, await journalEntries()];
        yield pending(`k${i}`, subject(`Dry ${i}`));
      }
    });
    const input = countedInput();
    const summary = await run(parser, input, { dryRun: true });
    expect(summary).toMatchObject({ outcome: "imported", dryRun: true, created: { subject: 30 } });
    expect([input.opened, parser.runs]).toEqual([1, 1]);
    expect([storedMidway, journalMidway]).toEqual([0, 0]);
    expect(await stored("Dry ")).toEqual([]);
    // The dry run checks: a record its schema refuses fails it.
    const bad = parserOf(async function* () {
      yield pending("good", subject("Dry good"));
      yield pending("bad", subject("Dry bad", { terms: [] }));
    });
    expect(await run(bad, countedInput(), { dryRun: true })).toMatchObject({
      outcome: "failed",
      errors: [expect.objectContaining({ path: "[bad]", message: expect.stringMatching(/^subject bad is invalid/) })],
    });
  });

  it("an invalid record part-way fails the file and the batches written before it are deleted", async () => {
    let storedMidway = -1;
    const parser = parserOf(async function* () {
      for (let i = 1; i <= 30; i++) {
        if (i === 25) storedMidway = (await stored("Undone ")).length;
        yield pending(`k${i}`, i === 25 ? subject(`Undone ${i}`, { terms: [] }) : subject(`Undone ${i}`));
      }
    });
    const summary = await run(parser, countedInput());
    expect(summary).toMatchObject({
      outcome: "failed",
      errors: [expect.objectContaining({ path: "[k25]", message: expect.stringMatching(/^subject k25 is invalid/) })],
    });
    expect(storedMidway).toBeGreaterThanOrEqual(10);
    expect(await stored("Undone ")).toEqual([]);
    expect(await journalEntries()).toBe(0);
  });

  it("a parser failing part-way (a malformed file) fails it, with what was written deleted", async () => {
    let storedMidway = -1;
    const parser = parserOf(async function* () {
      for (let i = 1; i <= 30; i++) {
        if (i === 25) {
          storedMidway = (await stored("Broken ")).length;
          throw new ImportError("malformed: the file breaks off here", { line: 25, column: 3 });
        }
        yield pending(`k${i}`, subject(`Broken ${i}`));
      }
    });
    const summary = await run(parser, countedInput());
    expect(summary).toMatchObject({
      outcome: "failed",
      errors: [expect.objectContaining({ line: 25, column: 3, message: "malformed: the file breaks off here" })],
    });
    expect(storedMidway).toBeGreaterThanOrEqual(10);
    expect(await stored("Broken ")).toEqual([]);
    expect(await journalEntries()).toBe(0);
  });

  it("progress: the records so far after each batch, and the bytes read against the input's size", async () => {
    const updates: Array<{ records: number; bytes: number; size?: number }> = [];
    const parser = parserOf(async function* () {
      for (let i = 1; i <= 25; i++) yield pending(`k${i}`, subject(`Progress ${i}`));
    });
    await run(parser, { ...countedInput(), size: 2 }, { onProgress: (update) => updates.push(update) });
    expect(updates).toEqual([
      { records: 10, bytes: 2, size: 2 },
      { records: 20, bytes: 2, size: 2 },
      { records: 25, bytes: 2, size: 2 },
    ]);
  });
});

describe("a record re-stated (PendingRecord.restates)", () => {
  const restating = (last: JsonObject, key = "first") =>
    parserOf(async function* () {
      yield pending("first", subject("Restated first"));
      for (let i = 1; i <= 12; i++) yield pending(`k${i}`, subject(`Restated ${i}`));
      yield pending(key, last, { restates: true });
    });

  it("replaces the record the file wrote, counted once; a dry run checks the new statement", async () => {
    const whole = subject("Restated first", { scope_note: "Complete once the file was read" });
    const dry = await run(restating(whole), countedInput(), { dryRun: true });
    expect(dry).toMatchObject({ outcome: "imported", created: { subject: 13 } });
    expect(await stored("Restated ")).toEqual([]);
    const summary = await run(restating(whole), countedInput());
    expect(summary).toMatchObject({ outcome: "imported", created: { subject: 13 }, errors: [] });
    const [first] = await server.ops.deps.store
      .collection("subject")
      .find({ "terms.term": "Restated first" })
      .toArray();
    expect(first).toMatchObject({ scope_note: "Complete once the file was read", lock_version: 1 });
    expect(await stored("Restated ")).toHaveLength(13);
  });

  it("an invalid re-statement fails the file: dry, said; for real, what was written is deleted", async () => {
    const invalid = subject("Invalid first", { terms: [] });
    const failing = () =>
      parserOf(async function* () {
        yield pending("first", subject("Invalid first"));
        for (let i = 1; i <= 12; i++) yield pending(`k${i}`, subject(`Invalid ${i}`));
        yield pending("first", invalid, { restates: true });
      });
    const error = expect.objectContaining({ message: expect.stringMatching(/^subject first is invalid: terms/) });
    expect(await run(failing(), countedInput(), { dryRun: true })).toMatchObject({
      outcome: "failed",
      errors: [error],
    });
    expect(await run(failing(), countedInput())).toMatchObject({ outcome: "failed", errors: [error] });
    expect(await stored("Invalid ")).toEqual([]);
  });

  it("only a record the file created: re-stating a reused record or an unknown key fails, changing nothing", async () => {
    await server.ops.create("subject", {}, subject("Existing one"), actor);
    const reusing = parserOf(async function* () {
      yield pending("old", subject("Existing one"), { match: { "terms.term": "Existing one" }, onMatch: "reuse" });
      yield pending("new", subject("Existing two"));
      yield pending("old", subject("Existing one", { scope_note: "Overwritten?" }), { restates: true });
    });
    expect(await run(reusing, countedInput())).toMatchObject({
      outcome: "failed",
      errors: [
        expect.objectContaining({ message: "subject old re-states a record the file did not create before it" }),
      ],
    });
    const existing = await stored("Existing ");
    expect(existing.map((doc) => [doc.scope_note, (doc.terms as JsonObject[])[0]?.term])).toEqual([
      [undefined, "Existing one"],
    ]);
    expect(await run(restating(subject("Nowhere"), "never-handed-on"), countedInput())).toMatchObject({
      outcome: "failed",
      errors: [expect.objectContaining({ message: expect.stringMatching(/never-handed-on re-states a record/) })],
    });
    expect(await stored("Restated ")).toHaveLength(13);
  });
});
