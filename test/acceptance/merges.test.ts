// Merges over the whole service (docs/api.md §18): after two duplicate agents are merged, an import naming the agent
// reuses the one kept; and a store failure half-way through a merge leaves every record as it was, after which the
// same merge succeeds whole.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Document } from "mongodb";
import { startService, type Service } from "../support/service.js";

type Json = Record<string, unknown>;

let service: Service;
let repo: number;
let vocabulary: string;

async function call(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const reply = await service.send(method, path, { token: service.adminToken, body, headers });
  return { status: reply.status, body: reply.body as Json };
}

async function post(path: string, body: unknown): Promise<string> {
  const reply = await call("POST", path, body);
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.uri as string;
}

const read = async (uri: string): Promise<Json> => (await call("GET", uri)).body;

/** A finding aid whose collection names one person, "Starbuck, Obed", as its creator. */
function ead(unitid: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ead><eadheader><eadid>${unitid}</eadid><filedesc><titlestmt><titleproper>Papers ${unitid}</titleproper></titlestmt>
</filedesc></eadheader><archdesc level="collection"><did><unittitle>Papers ${unitid}</unittitle>
<unitid>${unitid}</unitid><unitdate normal="1850/1860" type="inclusive">1850-1860</unitdate>
<physdesc><extent>1 linear feet</extent></physdesc><langmaterial><language langcode="eng">English</language></langmaterial>
<origination label="Creator"><persname source="local">Starbuck, Obed</persname></origination></did></archdesc></ead>`;
}

async function importEad(unitid: string): Promise<string> {
  const reply = await call("POST", `/repositories/${repo}/imports?format=ead`, ead(unitid), {
    "Content-Type": "application/xml",
  });
  if (reply.status !== 200 || reply.body.outcome !== "imported")
    throw new Error(`import ${unitid}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return (reply.body.uris as string[]).find((uri) => uri.includes("/resources/")) as string;
}

const creatorOf = async (resource: string) =>
  ((await read(resource)).linked_agents as Json[]).find((link) => link.role === "creator")?.ref;

/** Every document of every collection but the lock and counter bookkeeping, in a stable order. */
async function everything(): Promise<Record<string, Document[]>> {
  const db = service.connection.db!;
  const all: Record<string, Document[]> = {};
  for (const { name } of await db.listCollections().toArray()) {
    if (name === "arca_locks" || name === "arca_counters" || name.startsWith("arca_session")) continue;
    all[name] = await db
      .collection(name)
      .find({}, { sort: { _id: 1 } })
      .toArray();
  }
  return all;
}

async function failAfter(command: "update" | "delete", skip: number): Promise<void> {
  await service.connection
    .db!.admin()
    .command({ configureFailPoint: "failCommand", mode: { skip }, data: { failCommands: [command], errorCode: 1 } });
}

async function failPointOff(): Promise<void> {
  await service.connection.db!.admin().command({ configureFailPoint: "failCommand", mode: "off" });
}

beforeAll(async () => {
  service = await startService({ testCommands: true });
  repo = Number((await post("/repositories", { repo_code: "MERGE", name: "Merges" })).split("/").pop());
  vocabulary = await post("/vocabularies", { name: "Local", ref_id: "local" });
});
afterAll(() => service.stop());

describe("an import after a merge", () => {
  it("reuses the agent kept, where before it reused the duplicate", async () => {
    const first = await importEad("SB-1");
    const duplicate = (await creatorOf(first)) as string;
    // The agent kept: a second record of the same person, made by hand with the same name.
    const names = ((await read(duplicate)).names as Json[]).map(({ primary_name, rest_of_name, name_order, source }) =>
      Object.fromEntries(Object.entries({ primary_name, rest_of_name, name_order, source }).filter(([, v]) => v)),
    );
    const kept = await post("/agents/people", { names });
    expect((await read(kept)).title).toBe((await read(duplicate)).title);
    // Before the merge, the import matches the older of the two.
    expect(await creatorOf(await importEad("SB-2"))).toBe(duplicate);
    const people = (await call("GET", "/agents/people?all_ids=true")).body as unknown as number[];

    expect(
      await call("POST", "/merge_requests/agent", { target: { ref: kept }, victims: [{ ref: duplicate }] }),
    ).toEqual({ status: 200, body: { status: "OK" } });
    expect(await creatorOf(first)).toBe(kept);

    expect(await creatorOf(await importEad("SB-3"))).toBe(kept);
    const after = (await call("GET", "/agents/people?all_ids=true")).body as unknown as number[];
    expect(after).toEqual(people.filter((id) => `/agents/people/${id}` !== duplicate));
  });
});

describe("a failure half-way through a merge", () => {
  it("changes nothing, and the same merge then succeeds whole", async () => {
    const subject = (term: string) =>
      post("/subjects", { source: "local", vocabulary, terms: [{ term, term_type: "topical", vocabulary }] });
    const target = await subject("Whale oil");
    const victim = await subject("Whale oil (duplicate)");
    const linking: string[] = [];
    for (let i = 0; i < 30; i++)
      linking.push(
        await post(`/repositories/${repo}/accessions`, {
          title: `Cask ${i}`,
          id_0: "CASK",
          id_1: String(i),
          subjects: [{ ref: victim }],
        }),
      );
    const resource = await post(`/repositories/${repo}/resources`, {
      title: "Oil trade",
      id_0: "OIL",
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
      dates: [{ date_type: "inclusive", label: "creation", expression: "1850" }],
      extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
      subjects: [{ ref: victim }, { ref: target }],
    });
    const body = { target: { ref: target }, victims: [{ ref: victim }] };
    const before = await everything();

    // After the accessions are re-pointed (one update), the resource's or the target's write fails;
    // then, with every link re-pointed, the victim's delete.
    for (const [command, skip] of [
      ["update", 1],
      ["delete", 0],
    ] as const) {
      await failAfter(command, skip);
      try {
        const failed = await call("POST", "/merge_requests/subject", body);
        expect(failed.status).toBe(500);
      } finally {
        await failPointOff();
      }
      expect(await everything()).toEqual(before);
    }

    expect(await call("POST", "/merge_requests/subject", body)).toEqual({ status: 200, body: { status: "OK" } });
    for (const uri of linking) expect((await read(uri)).subjects).toEqual([{ ref: target }]);
    expect((await read(resource)).subjects).toEqual([{ ref: target }]);
    expect((await call("GET", victim)).status).toBe(404);
  });
});
