// Importers match stored agents by `names.sort_name` before writing: the sort name they match by is the one the write
// path stores (x-derived on the name schemas, asked through deriveFields), so an agent created through the API
// without a sort name, or a batch record sent with a stale one, is found and reused instead of created twice.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { trusted } from "../../src/auth/actor.js";
import { sortNameOf, type AgentType, type NameDraft } from "../../src/importers/agent-records.js";
import { AspaceJsonParser } from "../../src/importers/aspace-json.js";
import { importFile } from "../../src/importers/committer.js";
import type { FormatParser } from "../../src/importers/pending.js";
import { CsvParser } from "../../src/importers/csv.js";
import { startRecordServer, type RecordServer } from "../support/service.js";

const DATA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared", "data", "csv");
const actor = trusted("importer");

let server: RecordServer;
let repo: number;
let vocabulary: string;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "sorts", name: "Sorts" }, actor)).id;
  vocabulary = (await server.ops.create("vocabulary", {}, { name: "global", ref_id: "global" }, actor)).uri;
  await server.ops.deps.enumerations.ready();
});
afterAll(() => server.stop());

const run = (parser: FormatParser, name: string, text: string) =>
  importFile(server.ops, parser, { name, open: () => Readable.from([Buffer.from(text)]) }, { repoId: repo, actor });

const header = readFileSync(join(DATA, "accession_import_template.csv"), "utf8").split("\r\n")[0] as string;
const columns = header.split(",");
const csv = (...rows: Array<Record<string, string>>): string =>
  [header, ...rows.map((cells) => columns.map((column) => cells[column] ?? "").join(","))].join("\r\n") + "\r\n";
const csvParser = () => new CsvParser({ enumerations: server.ops.deps.enumerations, vocabulary });

/** Creates an agent through the operations (as the API does) and answers its stored names' sort names. */
async function created(type: AgentType, name: Record<string, unknown>): Promise<{ id: number; sort: unknown }> {
  const { id } = await server.ops.create(type, {}, { names: [{ source: "local", ...name }] }, actor);
  const stored = await server.ops.deps.store.collection(type).findOne({ id });
  return { id, sort: (stored?.names as Array<Record<string, unknown>>)[0]?.sort_name };
}

describe("the sort name importers match by", () => {
  it("is the one the write path stores, for each agent type", async () => {
    const cases: Array<[AgentType, NameDraft]> = [
      [
        "agent_person",
        { primary_name: "Hollis", rest_of_name: "Margaret", dates: "1850-1931", name_order: "inverted" },
      ],
      ["agent_person", { primary_name: "Hollis", rest_of_name: "Ann", name_order: "direct", qualifier: "poet" }],
      ["agent_family", { family_name: "Hollis", prefix: "House of", qualifier: "Mass." }],
      [
        "agent_corporate_entity",
        { primary_name: "Hollis Co.", subordinate_name_1: "Board", number: "2", dates: "1900" },
      ],
    ];
    for (const [type, name] of cases) {
      const { sort } = await created(type, name);
      expect([type, sortNameOf(type, name)]).toEqual([type, sort]);
    }
    expect(sortNameOf("agent_person", { primary_name: "Hollis", rest_of_name: "Ann", name_order: "direct" })).toBe(
      "Ann Hollis",
    );
    // A sort name given with the flag false is the one matched, as it is the one stored.
    expect(
      sortNameOf("agent_family", { family_name: "Hollis", sort_name: "Hollises", sort_name_auto_generate: false }),
    ).toBe("Hollises");
  });

  it("finds an agent created through the API without a sort name: a CSV naming it reuses it", async () => {
    const { id } = await created("agent_person", {
      primary_name: "Quill",
      rest_of_name: "Edith",
      dates: "1880-1950",
      name_order: "direct",
    });
    const summary = await run(
      csvParser(),
      "rows.csv",
      csv({
        accession_title: "Letters",
        accession_number_1: "SN",
        accession_number_2: "1",
        agent_type: "agent_person",
        agent_name_primary_name: "Quill",
        agent_name_rest_of_name: "Edith",
        agent_name_name_order: "direct",
        agent_name_dates: "1880-1950",
      }),
    );
    expect(summary).toMatchObject({ errors: [], created: { accession: 1 }, reused: { agent_person: 1 } });
    const [accession] = await server.ops.deps.store.collection("accession").find({ id_0: "SN", id_1: "1" }).toArray();
    expect(accession?.linked_agents).toEqual([expect.objectContaining({ ref: `/agents/people/${id}` })]);
  });

  it("finds it for a batch record sent with a stale sort name: matched by the one it will be stored with", async () => {
    const { id, sort } = await created("agent_corporate_entity", { primary_name: "Stale Co.", dates: "1901" });
    expect(sort).toBe("Stale Co. (1901)");
    const batch = [
      {
        jsonmodel_type: "agent_corporate_entity",
        uri: "/agents/corporate_entities/import_1",
        names: [{ source: "local", primary_name: "Stale Co.", dates: "1901", sort_name: "Stale Co., 1901" }],
      },
    ];
    const summary = await run(new AspaceJsonParser(server.ops.deps.registry), "batch.json", JSON.stringify(batch));
    expect(summary).toMatchObject({ errors: [], reused: { agent_corporate_entity: 1 } });
    expect(summary.created.agent_corporate_entity ?? 0).toBe(0);
    const agents = server.ops.deps.store.collection("agent_corporate_entity");
    expect((await agents.find({ "names.primary_name": "Stale Co." }).toArray()).map((agent) => agent.id)).toEqual([id]);
  });
});
