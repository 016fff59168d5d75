// Hostile files through the committer: a hostile file fails located and writes nothing,
// whatever its format, and an import summary stays small whatever the file makes it say.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AspaceJsonParser } from "../../src/importers/aspace-json.js";
import { importFile } from "../../src/importers/committer.js";
import { CsvParser } from "../../src/importers/csv.js";
import { DEFAULT_IMPORT_LIMITS } from "../../src/importers/limits.js";
import { MAX_MESSAGE_CHARS, MAX_MESSAGES, MessageList } from "../../src/importers/messages.js";
import type { PendingRecord } from "../../src/importers/pending.js";
import { registry } from "../../src/registry/index.js";
import { actor, startEadServer, textInput, type EadTestServer } from "./ead-server.js";

let t: EadTestServer;

beforeAll(async () => {
  t = await startEadServer();
}, 60_000);

afterAll(async () => {
  await t.stop();
});

const collection = (dsc: string, extra = ""): string => `<ead><eadheader><eadid>bounds</eadid></eadheader>
<archdesc level="collection"><did><unittitle>Bounds</unittitle><unitid>B.1</unitid><unitdate normal="1900/1910">1900-1910</unitdate>
<physdesc><extent>2 linear feet</extent></physdesc><langmaterial><language langcode="eng"/></langmaterial></did>${extra}
<dsc>${dsc}</dsc></archdesc></ead>`;

describe("EAD", () => {
  it("components nested deeper than IMPORT_MAX_XML_DEPTH: failed at the line and column, nothing written", async () => {
    const repo = await t.newRepository("deep-c");
    const summary = await t.importEad(
      textInput(
        "deep.xml",
        collection(`\n${"<c><did><unittitle>x</unittitle></did>".repeat(300)}${"</c>".repeat(300)}`),
      ),
      { repoId: repo },
    );
    expect(summary.outcome).toBe("failed");
    expect(summary.errors).toEqual([
      // ead, archdesc and dsc are levels 1-3; the 252nd component is level 255, its <did> 256, its <unittitle> 257
      // (each component's text is 38 characters, the title's `<` 8 into it).
      expect.objectContaining({
        file: "deep.xml",
        line: 5,
        column: 251 * 38 + 1 + 8,
        message:
          "elements nested too deep: <unittitle> would be 257 levels down, and at most 256 are read (IMPORT_MAX_XML_DEPTH)",
      }),
    ]);
    expect(await t.counts(repo)).toMatchObject({ resource: 0, archival_object: 0 });
  });

  it("20,000 nested <emph> in a title: failed, not a crashed stack", async () => {
    const summary = await t.importEad(
      textInput(
        "emph.xml",
        collection(`<c><did><unittitle>${"<emph>".repeat(20_000)}x${"</emph>".repeat(20_000)}</unittitle></did></c>`),
      ),
    );
    expect(summary).toMatchObject({
      outcome: "failed",
      errors: [
        expect.objectContaining({ line: 4, message: expect.stringMatching(/^elements nested too deep: <emph>/) }),
      ],
    });
  });

  it("inline markup nested as deep as the limit allows is imported, as markup", async () => {
    const repo = await t.newRepository("deep-ok");
    const title = `${"<emph>".repeat(240)}Deep${"</emph>".repeat(240)}`;
    const summary = await t.importEad(
      textInput("deep-ok.xml", collection(`<c level="file"><did><unittitle>${title}</unittitle></did></c>`)),
      { repoId: repo },
    );
    expect([summary.outcome, summary.errors]).toEqual(["imported", []]);
    const [id] = await t.get<number[]>(`/repositories/${repo}/archival_objects?all_ids=true`);
    expect((await t.get(`/repositories/${repo}/archival_objects/${id}`)).title).toBe(title);
  });

  it("warnings are capped in number and each is cut: a 20,000-character element name does not come back whole", async () => {
    const long = `x${"y".repeat(20_000)}`;
    const unknown = Array.from({ length: MAX_MESSAGES + 200 }, (_, i) => `<unknown${i}>text</unknown${i}>`).join("");
    const summary = await t.importEad(textInput("noisy.xml", collection("", `<${long}>text</${long}>${unknown}`)), {
      repoId: await t.newRepository("noisy"),
      dryRun: true,
    });
    expect(summary.outcome).toBe("imported");
    expect(summary.warnings).toHaveLength(MAX_MESSAGES + 1);
    expect(summary.warnings[0]?.message).toMatch(/^<xyyyy.*… \(\d+ more characters\)$/);
    expect(summary.warnings[0]?.path?.length).toBeLessThan(400);
    expect(summary.warnings.every((warning) => warning.message.length <= MAX_MESSAGE_CHARS + 40)).toBe(true);
    expect(summary.warnings.at(-1)).toEqual({
      file: "noisy.xml",
      message: `201 more warnings not listed (a summary lists at most ${MAX_MESSAGES})`,
    });
    expect(JSON.stringify(summary).length).toBeLessThan(300_000);
  });
});

describe("ArchivesSpace JSON batches", () => {
  const parser = (limits = DEFAULT_IMPORT_LIMITS) => new AspaceJsonParser(registry, limits);

  it("nesting past the depth limit and a batch past IMPORT_MAX_JSON_BATCH_BYTES fail located", async () => {
    // The outer array and object are two levels: the 255th "[" is the 257th, 36 + 254 characters in.
    const deep = `[{"jsonmodel_type": "subject", "x": ${"[".repeat(300)}${"]".repeat(300)}}]`;
    const nested = await importFile(t.server.ops, parser(), textInput("deep.json", deep), { repoId: t.repo, actor });
    expect(nested).toMatchObject({
      outcome: "failed",
      errors: [
        {
          file: "deep.json",
          line: 1,
          column: 291,
          message: "arrays and objects nested more than 256 deep (IMPORT_MAX_XML_DEPTH)",
        },
      ],
    });
    const big = await importFile(
      t.server.ops,
      parser({ ...DEFAULT_IMPORT_LIMITS, maxJsonBatchBytes: 1000 }),
      textInput("big.json", `[${'{"jsonmodel_type":"subject"},'.repeat(100)}{}]`),
      { repoId: t.repo, actor },
    );
    expect(big).toMatchObject({
      outcome: "failed",
      errors: [
        {
          line: 1,
          message: expect.stringMatching(
            /^the batch is larger than 1000 bytes, the most an import reads whole \(IMPORT_MAX_JSON_BATCH_BYTES\)/,
          ),
        },
      ],
    });
  });

  it("a chain of 20,000 components each under the one before is put in order without recursion", async () => {
    const records = [{ jsonmodel_type: "resource", uri: "/repositories/2/resources/import_r" }];
    // Listed children first: each must come after its parent.
    for (let i = 20_000; i >= 1; i--)
      records.push({
        jsonmodel_type: "archival_object",
        uri: `/repositories/2/archival_objects/import_${i}`,
        ...(i > 1 && { parent: { ref: `/repositories/2/archival_objects/import_${i - 1}` } }),
      } as never);
    const order: string[] = [];
    for await (const pending of parser().parse(
      textInput("chain.json", JSON.stringify(records)),
    ) as AsyncIterable<PendingRecord>)
      order.push(pending.key);
    expect(order).toHaveLength(20_001);
    expect(order.slice(0, 3)).toEqual([
      "/repositories/2/resources/import_r",
      "/repositories/2/archival_objects/import_1",
      "/repositories/2/archival_objects/import_2",
    ]);
    expect(order.at(-1)).toBe("/repositories/2/archival_objects/import_20000");
  });
});

describe("CSV", () => {
  it("a row longer than the limit (a quote never closed) fails at its line", async () => {
    const csv = `term_1,term_type_1\nA,topical\n"${"z".repeat(5000)}`;
    const summary = await importFile(
      t.server.ops,
      new CsvParser({ maxRecordChars: 1000 }),
      textInput("long.csv", csv),
      { repoId: t.repo, actor },
    );
    expect(summary).toMatchObject({
      outcome: "failed",
      errors: [
        {
          line: 3,
          message: "a row is longer than 1000 characters, the most an import reads (IMPORT_MAX_XML_TEXT_BYTES)",
        },
      ],
    });
  });
});

describe("MessageList", () => {
  it("keeps the first messages, cut to length, and counts the rest", () => {
    const list = new MessageList("errors", 2);
    list.add({ file: "f".repeat(1000), message: "m".repeat(5000), path: "/p".repeat(1000) });
    list.add({ file: "f", message: "second" });
    list.add({ file: "f", message: "third" });
    const [first, second, rest] = list.list("f");
    expect(first?.message).toBe(`${"m".repeat(MAX_MESSAGE_CHARS)}… (4000 more characters)`);
    expect(first?.file.startsWith("f".repeat(300))).toBe(true);
    expect(first?.path?.length).toBeLessThan(340);
    expect(second).toEqual({ file: "f", message: "second" });
    expect(rest).toEqual({ file: "f", message: "1 more errors not listed (a summary lists at most 2)" });
  });
});
