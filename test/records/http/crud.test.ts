// Create, read, update and delete over HTTP (docs/api.md §1, §4, §7), through the
// generated controllers, over the real store.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE } from "../../../src/records/operations/update.js";
import { rawRequest } from "./raw-request.js";
import { globalGrants, SESSION_HEADER, startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

let server: RecordServer;
let token: string;
let repoId: number;
let otherRepoId: number;
let base: string;

beforeAll(async () => {
  server = await startRecordServer();
  const system = trusted("system");
  repoId = (await server.ops.create("repository", {}, { repo_code: "main", name: "Main" }, system)).id;
  otherRepoId = (await server.ops.create("repository", {}, { repo_code: "other", name: "Other" }, system)).id;
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
  base = `/repositories/${repoId}/accessions`;
});
afterAll(() => server.stop());

let seq = 0;
function accession(extra: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  return { title: `Accession ${seq}`, id_0: "CRUD", id_1: String(seq), ...extra };
}

async function created(body: Record<string, unknown> = accession()): Promise<number> {
  const reply = await server.send("POST", base, { token, body });
  expect(reply.status).toBe(200);
  return (reply.body as { id: number }).id;
}

describe("create", () => {
  it("answers 200 with the contract's body; defaults make it stale", async () => {
    const reply = await server.send("POST", base, { token, body: accession() });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    const id = (reply.body as { id: number }).id;
    expect(reply.body).toEqual({
      status: "Created",
      id,
      lock_version: 0,
      stale: true,
      uri: `${base}/${id}`,
      warnings: [],
    });
    expect(Object.keys(reply.body as object)).toEqual(["status", "id", "lock_version", "stale", "uri", "warnings"]);
  });

  it("says stale: null when the server added nothing", async () => {
    const complete = accession({
      accession_date: "2024-05-01",
      restrictions_apply: false,
      access_restrictions: false,
      use_restrictions: false,
    });
    const reply = await server.send("POST", base, { token, body: complete });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('"stale":null');
  });

  it("parses a JSON body sent with no Content-Type at all", async () => {
    const reply = await rawRequest(
      `${server.url}${base}`,
      "POST",
      { [SESSION_HEADER]: token },
      JSON.stringify(accession({ title: "No content type" })),
    );
    expect(reply.status).toBe(200);
    const id = (reply.body as { id: number }).id;
    expect((await server.send("GET", `${base}/${id}`, { token })).body).toMatchObject({ title: "No content type" });
  });

  it("parses a JSON body labelled text/plain", async () => {
    const reply = await server.send("POST", base, {
      token,
      body: JSON.stringify(accession()),
      headers: { "Content-Type": "text/plain" },
    });
    expect(reply.status).toBe(200);
  });

  it("answers 400 (the operation's validation) when there is no body, or an empty one", async () => {
    for (const body of [undefined, ""]) {
      const reply = await server.send("POST", base, { token, body, headers: { "Content-Type": "application/json" } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: { record: [expect.stringMatching(/^Must be an object/)] } });
    }
  });

  it("answers 400 naming the required field for an empty record", async () => {
    const reply = await server.send("POST", base, { token, body: {} });
    expect(reply.status).toBe(400);
    expect((reply.body as { error: Record<string, string[]> }).error).toHaveProperty("id_0");
  });

  it('takes a null, "" or {} field as absent, at any depth (as ArchivesSpace drops them before validating)', async () => {
    const reply = await server.send("POST", base, {
      token,
      body: accession({
        acquisition_type: "",
        content_description: null,
        user_defined: {},
        extents: [{ portion: "whole", number: "1", extent_type: "cassettes", container_summary: "", dimensions: null }],
      }),
    });
    expect([reply.status, (reply.body as { warnings: string[] }).warnings]).toEqual([200, []]);
    const stored = (await server.send("GET", (reply.body as { uri: string }).uri, { token })).body as Record<
      string,
      unknown
    >;
    for (const field of ["acquisition_type", "content_description", "user_defined"])
      expect(stored).not.toHaveProperty(field);
    expect((stored.extents as Array<Record<string, unknown>>)[0]).not.toHaveProperty("container_summary");
    // A required field sent empty is a missing one.
    const empty = await server.send("POST", base, { token, body: accession({ id_0: "" }) });
    expect([empty.status, Object.keys((empty.body as { error: object }).error)]).toEqual([400, ["id_0", "identifier"]]);
  });

  it("drops an unknown field, at any depth, naming each in the warnings (as ArchivesSpace drops them, but said)", async () => {
    const reply = await server.send("POST", base, {
      token,
      body: accession({
        shoe_size: 42,
        slug_of_the_future: "a field of a newer archivesspace",
        extents: [{ portion: "whole", number: "1", extent_type: "cassettes", colour: "red" }],
      }),
    });
    expect([reply.status, (reply.body as { warnings: string[] }).warnings]).toEqual([
      200,
      [
        "extents/0/colour: not a field of this record type; dropped, not stored",
        "shoe_size: not a field of this record type; dropped, not stored",
        "slug_of_the_future: not a field of this record type; dropped, not stored",
      ],
    ]);
    const stored = (await server.send("GET", (reply.body as { uri: string }).uri, { token })).body as Record<
      string,
      unknown
    >;
    expect([Object.hasOwn(stored, "shoe_size"), Object.hasOwn(stored, "slug_of_the_future")]).toEqual([false, false]);
    expect(stored.extents).toEqual([expect.not.objectContaining({ colour: "red" })]);
    // A record with nothing unknown has no warnings.
    const plain = await server.send("POST", base, { token, body: accession({}) });
    expect((plain.body as { warnings: string[] }).warnings).toEqual([]);
  });

  it("names at most 100 unknown fields, counting the rest, and cuts a long name: the answer stays bounded", async () => {
    const unknown = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`u${String(i).padStart(3, "0")}`, 1]));
    const long = "k".repeat(5000);
    const reply = await server.send("POST", base, { token, body: accession({ ...unknown, [long]: 1 }) });
    const warnings = (reply.body as { warnings: string[] }).warnings;
    expect([reply.status, warnings.length]).toEqual([200, 101]);
    expect(warnings[0]).toBe(`${"k".repeat(200)}… (cut): not a field of this record type; dropped, not stored`);
    expect(warnings[100]).toBe("51 more fields not of this record type dropped, not named here");
    expect(JSON.stringify(reply.body).length).toBeLessThan(12_000);
  });

  it("still answers 400 for an invalid field beside an unknown one, naming the invalid one only", async () => {
    const reply = await server.send("POST", base, { token, body: accession({ shoe_size: 42, title: 7 }) });
    expect(reply.status).toBe(400);
    expect(Object.keys((reply.body as { error: Record<string, string[]> }).error)).toEqual(["title"]);
  });

  it("answers 400 naming a $-prefixed key, at any depth", async () => {
    const top = await server.send("POST", base, { token, body: accession({ $where: "1" }) });
    expect(top.status).toBe(400);
    expect(top.body).toEqual({ error: { $where: ["Field names may not start with '$'"] } });
    const nested = await server.send("POST", base, { token, body: accession({ extents: [{ $set: { a: 1 } }] }) });
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ error: { "extents/0/$set": ["Field names may not start with '$'"] } });
  });

  it("answers 400 with the parse problem for malformed JSON, with or without a JSON Content-Type", async () => {
    for (const headers of [{ "Content-Type": "application/json" }, {}] as Record<string, string>[]) {
      const reply = await server.send("POST", base, { token, body: '{"id_0": ', headers });
      expect(reply.status).toBe(400);
      expect((reply.body as { error: string }).error).toMatch(/^Had some trouble parsing your request: /);
    }
  });

  it("answers 404 for a repository that does not exist or cannot (non-integer id)", async () => {
    for (const repo of ["424242", "abc", "0", "-1", "1.5", "02"]) {
      const reply = await server.send("POST", `/repositories/${repo}/accessions`, { token, body: accession() });
      expect({ repo, status: reply.status, body: reply.body }).toEqual({
        repo,
        status: 404,
        body: { error: "Repository not found" },
      });
    }
  });
});

describe("read", () => {
  it("answers the record with its server fields", async () => {
    const id = await created(accession({ title: "Read me" }));
    const reply = await server.send("GET", `${base}/${id}`, { token });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      title: "Read me",
      jsonmodel_type: "accession",
      uri: `${base}/${id}`,
      lock_version: 0,
      created_by: "admin",
      last_modified_by: "admin",
      repository: { ref: `/repositories/${repoId}` },
    });
  });

  it.each(["999999", "abc", "0", "-3", "1.0", "007", "1e2"])(
    'answers 404 "Accession not found" for id %s',
    async (id) => {
      const reply = await server.send("GET", `${base}/${id}`, { token });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: "Accession not found" });
    },
  );

  it("answers 404 for a record of another repository, on read, update and delete", async () => {
    const id = await created();
    const elsewhere = `/repositories/${otherRepoId}/accessions/${id}`;
    expect((await server.send("GET", elsewhere, { token })).body).toEqual({ error: "Accession not found" });
    const update = await server.send("POST", elsewhere, { token, body: accession({ lock_version: 0 }) });
    expect([update.status, update.body]).toEqual([404, { error: "Accession not found" }]);
    const remove = await server.send("DELETE", elsewhere, { token });
    expect([remove.status, remove.body]).toEqual([404, { error: "Accession not found" }]);
    expect((await server.send("GET", `${base}/${id}`, { token })).status).toBe(200);
  });

  it("resolves refs with resolve[]", async () => {
    const target = await created(accession({ title: "Related" }));
    const resource = {
      title: "A collection",
      id_0: "RES",
      id_1: String(++seq),
      level: "collection",
      extents: [{ portion: "whole", number: "2", extent_type: "linear_feet" }],
      dates: [{ date_type: "inclusive", label: "creation", begin: "1900", end: "1950" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      related_accessions: [{ ref: `${base}/${target}` }],
    };
    const made = await server.send("POST", `/repositories/${repoId}/resources`, { token, body: resource });
    expect(made.status).toBe(200);
    const uri = (made.body as { uri: string }).uri;
    const plain = await server.send("GET", uri, { token });
    expect((plain.body as { related_accessions: object[] }).related_accessions[0]).toEqual({
      ref: `${base}/${target}`,
    });
    const resolved = await server.send("GET", `${uri}?resolve[]=related_accessions`, { token });
    expect(
      (resolved.body as { related_accessions: Array<{ _resolved: object }> }).related_accessions[0]._resolved,
    ).toMatchObject({ title: "Related", uri: `${base}/${target}` });
    const bad = await server.send("GET", `${uri}?resolve[]=$where`, { token });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { error: object }).error)).toEqual(["resolve[]"]);
  });
});

describe("update", () => {
  it("answers 200 Updated with the next lock_version, and records who changed it", async () => {
    const id = await created(accession({ title: "Before" }));
    const current = (await server.send("GET", `${base}/${id}`, { token })).body as Record<string, unknown>;
    const reply = await server.send("POST", `${base}/${id}`, { token, body: { ...current, title: "After" } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: "Updated",
      id,
      lock_version: 1,
      stale: null,
      uri: `${base}/${id}`,
      warnings: [],
    });
    expect((await server.send("GET", `${base}/${id}`, { token })).body).toMatchObject({
      title: "After",
      lock_version: 1,
    });
  });

  it("answers 409 without a lock_version", async () => {
    const id = await created();
    const reply = await server.send("POST", `${base}/${id}`, { token, body: accession() });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ error: LOCK_VERSION_MISSING });
  });

  it("answers 409 for a body-less update (no lock_version either)", async () => {
    const id = await created();
    const reply = await server.send("POST", `${base}/${id}`, {
      token,
      body: "",
      headers: { "Content-Type": "application/json" },
    });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ error: LOCK_VERSION_MISSING });
  });

  it("answers 409 for a stale lock_version and changes nothing", async () => {
    const id = await created(accession({ title: "Original" }));
    expect(
      (await server.send("POST", `${base}/${id}`, { token, body: accession({ title: "First", lock_version: 0 }) }))
        .status,
    ).toBe(200);
    const reply = await server.send("POST", `${base}/${id}`, {
      token,
      body: accession({ title: "Second", lock_version: 0 }),
    });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ error: LOCK_VERSION_STALE });
    expect((await server.send("GET", `${base}/${id}`, { token })).body).toMatchObject({
      title: "First",
      lock_version: 1,
    });
  });

  it("lets exactly one of two concurrent updates with the same lock_version win", async () => {
    const id = await created();
    const [a, b] = await Promise.all([
      server.send("POST", `${base}/${id}`, { token, body: accession({ title: "Racer A", lock_version: 0 }) }),
      server.send("POST", `${base}/${id}`, { token, body: accession({ title: "Racer B", lock_version: 0 }) }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body).toEqual({ error: LOCK_VERSION_STALE });
    const winner = a.status === 200 ? "Racer A" : "Racer B";
    expect((await server.send("GET", `${base}/${id}`, { token })).body).toMatchObject({
      title: winner,
      lock_version: 1,
    });
  });

  it("drops an unknown field, naming it in the warnings", async () => {
    const id = await created();
    const reply = await server.send("POST", `${base}/${id}`, {
      token,
      body: accession({ lock_version: 0, colour: "red" }),
    });
    expect([reply.status, (reply.body as { warnings: string[] }).warnings]).toEqual([
      200,
      ["colour: not a field of this record type; dropped, not stored"],
    ]);
  });

  it("answers 404 for a record that does not exist", async () => {
    const reply = await server.send("POST", `${base}/999999`, { token, body: accession({ lock_version: 0 }) });
    expect([reply.status, reply.body]).toEqual([404, { error: "Accession not found" }]);
  });
});

describe("delete", () => {
  it("answers 200 Deleted, then 404 on read and on a second delete", async () => {
    const id = await created();
    const reply = await server.send("DELETE", `${base}/${id}`, { token });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "Deleted", id });
    expect(await server.send("GET", `${base}/${id}`, { token })).toMatchObject({
      status: 404,
      body: { error: "Accession not found" },
    });
    expect(await server.send("DELETE", `${base}/${id}`, { token })).toMatchObject({
      status: 404,
      body: { error: "Accession not found" },
    });
  });

  it("accepts an empty body with a JSON Content-Type (as the Ruby client sends it)", async () => {
    const id = await created();
    const reply = await server.send("DELETE", `${base}/${id}`, {
      token,
      body: "",
      headers: { "Content-Type": "application/json" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "Deleted", id });
  });

  it("answers 404 for an id that cannot exist", async () => {
    expect(await server.send("DELETE", `${base}/abc`, { token })).toMatchObject({
      status: 404,
      body: { error: "Accession not found" },
    });
  });
});

describe("global record types", () => {
  it("serve at their own paths: a repository reads with no session (its read permission is null)", async () => {
    const reply = await server.send("GET", `/repositories/${repoId}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      repo_code: "main",
      uri: `/repositories/${repoId}`,
      jsonmodel_type: "repository",
    });
    expect(await server.send("GET", "/repositories/999999")).toMatchObject({
      status: 404,
      body: { error: "Repository not found" },
    });
    expect(await server.send("GET", "/repositories/x")).toMatchObject({
      status: 404,
      body: { error: "Repository not found" },
    });
  });

  it("still need their permission to write", async () => {
    const reply = await server.send("POST", "/repositories", { body: { repo_code: "anon", name: "Anonymous" } });
    expect(reply).toMatchObject({ status: 403, body: { error: "Access denied" } });
  });
});
