// Every array property of a record's schema is on a read, [] when empty (docs/api.md §3), as
// ArchivesSpace answers: Archivematica's client appends to `record["instances"]` of a fresh
// archival object and ArchivesSnake reads `.notes` without checking. Computed (read-only) arrays
// are the server's answer (computed-fields.test.ts), never filled in as [] without one.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import { trusted } from "../../src/auth/actor.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { minimalResource } from "./harness.js";

type Json = Record<string, unknown>;
let server: RecordServer;
let token: string;
let repo: number;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "arr", name: "Arrays" }, trusted("system"))).id;
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
});
afterAll(() => server.stop());

async function created(path: string, body: Json): Promise<Json> {
  const reply = await server.send("POST", path, { token, body });
  expect(reply.status).toBe(200);
  const read = await server.send("GET", (reply.body as { uri: string }).uri, { token });
  return read.body as Json;
}

it("a fresh archival object has every array, empty, and its computed ones as the server works them out", async () => {
  const resource = await created(`/repositories/${repo}/resources`, minimalResource("R1"));
  const object = await created(`/repositories/${repo}/archival_objects`, {
    title: "Letter",
    level: "file",
    resource: { ref: resource.uri },
  });
  for (const field of [
    "extents",
    "dates",
    "lang_materials",
    "external_ids",
    "external_documents",
    "instances",
    "notes",
    "subjects",
    "linked_agents",
  ])
    expect([field, object[field]]).toEqual([field, []]);
  // Computed arrays are the server's answer: the resource above it, no events.
  expect(object.ancestors).toEqual([{ ref: resource.uri, level: "collection" }]);
  expect(object.linked_events).toEqual([]);
  // Inside sub-records too: a resource's lang_material has its notes, its extent none to add.
  expect((resource.lang_materials as Json[])[0]).toMatchObject({ notes: [] });
  // In lists as on a read.
  const page = (await server.send("GET", `/repositories/${repo}/archival_objects?page=1`, { token })).body as {
    results: Json[];
  };
  expect(page.results[0]).toMatchObject({ instances: [], notes: [], subjects: [] });
});

it("a note's own arrays by its jsonmodel_type: a bibliography gets items [], a singlepart note no items", async () => {
  const resource = await created(
    `/repositories/${repo}/resources`,
    minimalResource("N1", {
      notes: [
        { jsonmodel_type: "note_bibliography", content: ["Works about the papers"] },
        { jsonmodel_type: "note_singlepart", type: "abstract", content: ["Letters"] },
      ],
    }),
  );
  const [bibliography, abstract] = resource.notes as Json[];
  expect(bibliography).toMatchObject({ items: [], content: ["Works about the papers"] });
  expect(abstract).not.toHaveProperty("items");
});
