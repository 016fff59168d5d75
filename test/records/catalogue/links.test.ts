// Accessions and resources link subjects and agents: checked on write,
// resolved with resolve[], and dropped from the list when the subject or agent is deleted.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { AGENT_PATHS, mapRefs, readRecord, readRecords, type Json } from "./fixtures.js";
import { trusted } from "../../../src/auth/actor.js";

let server: RecordServer;
let token: string;
let repo: number;
let person: string;
let corporate: string;
let family: string;
let software: string;
let subject: string;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "cat", name: "Catalogue" }, trusted("system"))).id;
  token = await server.login(
    "cataloguer",
    globalGrants([
      "view_repository",
      "update_accession_record",
      "update_resource_record",
      "delete_archival_record",
      "update_subject_record",
      "delete_subject_record",
      "update_agent_record",
      "delete_agent_record",
      "update_vocabulary_record",
      "delete_vocabulary_record",
    ]),
  );
  await create("/vocabularies", { name: "global", ref_id: "global" });
  person = await create("/agents/people", {
    names: [{ primary_name: "Douglass", rest_of_name: "Frederick", name_order: "inverted" }],
  });
  corporate = await create("/agents/corporate_entities", { names: [{ primary_name: "Anti-Slavery Society" }] });
  family = await create("/agents/families", { names: [{ family_name: "Bailey family" }] });
  software = await create("/agents/software", { names: [{ software_name: "OCR engine" }] });
  subject = await create("/subjects", {
    source: "lcsh",
    vocabulary: "/vocabularies/1",
    terms: [{ term: "Abolitionists", term_type: "topical", vocabulary: "/vocabularies/1" }],
  });
});
afterAll(() => server.stop());

async function create(path: string, body: Json): Promise<string> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

async function read(uri: string, query = ""): Promise<Json> {
  const reply = await server.send("GET", `${uri}${query}`, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

let serial = 0;
function accession(extra: Json): Json {
  serial += 1;
  return { title: `Papers ${serial}`, id_0: "LNK", id_1: String(serial), ...extra };
}

describe("an accession with linked_agents and subjects", () => {
  it("links all four agent kinds and a subject, and resolves them", async () => {
    const uri = await create(
      `/repositories/${repo}/accessions`,
      accession({
        linked_agents: [
          { ref: person, role: "creator", relator: "aut" },
          { ref: corporate, role: "source", relator: "fmo" },
          {
            ref: family,
            role: "subject",
            terms: [{ term: "Genealogy", term_type: "topical", vocabulary: "/vocabularies/1" }],
          },
          { ref: software, role: "creator", is_primary: false },
        ],
        subjects: [{ ref: subject }],
      }),
    );
    const plain = await read(uri);
    // Every array of a link's schema is on a read, [] when empty (terms), as ArchivesSpace answers.
    expect(plain.linked_agents).toEqual([
      { ref: person, role: "creator", relator: "aut", terms: [] },
      { ref: corporate, role: "source", relator: "fmo", terms: [] },
      {
        ref: family,
        role: "subject",
        terms: [{ jsonmodel_type: "term", term: "Genealogy", term_type: "topical", vocabulary: "/vocabularies/1" }],
      },
      { ref: software, role: "creator", is_primary: false, terms: [] },
    ]);
    const resolved = await read(uri, "?resolve[]=linked_agents&resolve[]=subjects");
    expect(resolved).toMatchObject({
      linked_agents: [
        {
          ref: person,
          role: "creator",
          _resolved: { uri: person, jsonmodel_type: "agent_person", names: [{ primary_name: "Douglass" }] },
        },
        {
          ref: corporate,
          _resolved: { jsonmodel_type: "agent_corporate_entity", names: [{ primary_name: "Anti-Slavery Society" }] },
        },
        { ref: family, _resolved: { jsonmodel_type: "agent_family", names: [{ family_name: "Bailey family" }] } },
        { ref: software, _resolved: { jsonmodel_type: "agent_software", names: [{ software_name: "OCR engine" }] } },
      ],
      subjects: [
        { ref: subject, _resolved: { uri: subject, jsonmodel_type: "subject", terms: [{ term: "Abolitionists" }] } },
      ],
    });
  });

  it("accepts a record read with resolve[] back as it is (_resolved is ignored on input)", async () => {
    const uri = await create(
      `/repositories/${repo}/accessions`,
      accession({ linked_agents: [{ ref: person, role: "subject" }], subjects: [{ ref: subject }] }),
    );
    const resolved = await read(uri, "?resolve[]=linked_agents&resolve[]=subjects");
    expect((await server.send("POST", uri, { token, body: resolved })).body).toMatchObject({ status: "Updated" });
    expect((await read(uri)).linked_agents).toEqual([{ ref: person, role: "subject", terms: [] }]);
  });

  it("refuses bad link targets with 400 naming the path", async () => {
    const errorOf = async (extra: Json) => {
      const reply = await server.send("POST", `/repositories/${repo}/accessions`, { token, body: accession(extra) });
      expect(reply.status).toBe(400);
      return (reply.body as { error: Record<string, string[]> }).error;
    };
    expect(
      await errorOf({
        linked_agents: [
          { ref: person, role: "creator" },
          { ref: "/agents/people/999", role: "creator" },
        ],
      }),
    ).toEqual({
      "linked_agents/1/ref": ["Reference to /agents/people/999 does not exist"],
    });
    expect(Object.keys(await errorOf({ linked_agents: [{ ref: subject, role: "creator" }] }))).toEqual([
      "linked_agents/0/ref",
    ]);
    expect(Object.keys(await errorOf({ subjects: [{ ref: person }] }))).toEqual(["subjects/0/ref"]);
    expect(await errorOf({ subjects: [{ ref: subject }, { ref: "/subjects/999" }] })).toEqual({
      "subjects/1/ref": ["Reference to /subjects/999 does not exist"],
    });
    expect(Object.keys(await errorOf({ linked_agents: [{ ref: person }] }))).toEqual(["linked_agents/0/role"]);
    expect(
      Object.keys(await errorOf({ linked_agents: [{ ref: person, role: "owner", relator: "Author" }] })).sort(),
    ).toEqual(["linked_agents/0/relator", "linked_agents/0/role"]);
  });
});

describe("deleting a linked record", () => {
  it("an agent: it leaves the accession's linked_agents, the accession stays", async () => {
    const doomed = await create("/agents/people", { names: [{ primary_name: "Transient", name_order: "direct" }] });
    const uri = await create(
      `/repositories/${repo}/accessions`,
      accession({
        linked_agents: [
          { ref: person, role: "creator" },
          { ref: doomed, role: "subject" },
          { ref: doomed, role: "source" },
        ],
      }),
    );
    expect((await server.send("DELETE", doomed, { token })).status).toBe(200);
    const after = await read(uri);
    expect(after.linked_agents).toEqual([{ ref: person, role: "creator", terms: [] }]);
  });

  it("a subject: it leaves the accession's subjects", async () => {
    const doomed = await create("/subjects", {
      source: "local",
      vocabulary: "/vocabularies/1",
      terms: [{ term: "Gone", term_type: "temporal", vocabulary: "/vocabularies/1" }],
    });
    const uri = await create(
      `/repositories/${repo}/accessions`,
      accession({ subjects: [{ ref: doomed }, { ref: subject }] }),
    );
    expect((await server.send("DELETE", doomed, { token })).status).toBe(200);
    expect((await read(uri)).subjects).toEqual([{ ref: subject }]);
  });
});

describe("the real ArchivesSpace resource with its real agents and subjects", () => {
  it("validates once its import_* refs are mapped to the created records, and resolves them", async () => {
    const mapping = new Map<string, string>();
    for (const real of readRecords("subjects.json")) {
      mapping.set(real.uri as string, await create("/subjects", real));
    }
    const agents = readRecords("agents.json");
    for (const real of agents)
      mapping.set(real.uri as string, await create(AGENT_PATHS[real.jsonmodel_type as string] ?? "", real));
    const resource = mapRefs(readRecord("resource.json"), mapping);
    const uri = await create(`/repositories/${repo}/resources`, resource);
    const record = await read(uri, "?resolve[]=linked_agents&resolve[]=subjects");
    const linked = record.linked_agents as Json[];
    expect(linked.map((link) => [link.role, link.relator, (link._resolved as Json).jsonmodel_type])).toEqual([
      ["creator", "cre", "agent_person"],
      ["subject", undefined, "agent_person"],
      ["creator", "cre", "agent_person"],
      ["source", "fmo", "agent_corporate_entity"],
    ]);
    expect(linked[3]?.ref).toMatch(/^\/agents\/corporate_entities\/[1-9][0-9]*$/);
    expect((record.subjects as Json[]).map((link) => ((link._resolved as Json).terms as Json[])[0]?.term)).toEqual([
      "Geographic",
      "Topical",
      "Function",
      "Occupation",
      "Genre",
    ]);

    // Deleting one of its real agents takes it out of the resource too.
    expect((await server.send("DELETE", linked[1]?.ref as string, { token })).status).toBe(200);
    expect(((await read(uri)).linked_agents as Json[]).map((link) => link.role)).toEqual([
      "creator",
      "creator",
      "source",
    ]);
  });
});
