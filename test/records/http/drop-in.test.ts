// The drop-in promise over HTTP: a record type that exists only as a schema file (the
// `widget` fixture) is generated into a registry and then served by the same generic
// controller and operations as every other type: routes, validation, defaults, identifier
// and unique rules, links with their delete rule, its own permission codes, and search. No
// code anywhere names it.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generate, writeGenerated } from "../../../src/registry/build/generate.js";
import { isJsonObject } from "../../../src/registry/json.js";
import type { RegistryManifest } from "../../../src/registry/manifest.js";
import { Registry } from "../../../src/registry/registry.js";
import { fixturesDir, removeTempDirs, schemaDirWith, tempDir } from "../../registry/helpers.js";
import { startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";
import { SearchOperations } from "../../../src/search/search.js";

let server: RecordServer;
let token: string;
let repo: number;

beforeAll(async () => {
  const schemaDir = schemaDirWith({}, { withRealTypes: true });
  for (const file of ["widget.schema.json", "gizmo.schema.json"]) {
    copyFileSync(join(fixturesDir, "record-types", file), join(schemaDir, file));
  }
  const outDir = tempDir("generated");
  writeGenerated(outDir, await generate(schemaDir));
  const loaded: unknown = await import(pathToFileURL(join(outDir, "registry.ts")).href);
  const manifest = isJsonObject(loaded) ? (loaded.manifest as unknown as RegistryManifest) : undefined;
  if (!manifest) throw new Error("generated registry.ts exports no manifest");
  server = await startRecordServer({ records: { registry: new Registry(manifest) } });
  repo = (await server.ops.create("repository", {}, { repo_code: "w", name: "Widgets" }, trusted("admin"))).id;
  token = await server.login("maker", {
    [`/repositories/${repo}`]: [
      "view_repository",
      "update_widget_record",
      "delete_widget_record",
      "update_accession_record",
    ],
  });
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

describe("a record type that exists only as a schema", () => {
  it("is created, read and listed at its collection path, with its defaults", async () => {
    const created = await server.send("POST", `/repositories/${repo}/widgets`, {
      token,
      body: { name: "Sprocket", code_a: "W", code_b: "1" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: "Created", uri: `/repositories/${repo}/widgets/1`, stale: true });
    const read = await server.send("GET", `/repositories/${repo}/widgets/1`, { token });
    expect(read.body).toMatchObject({ jsonmodel_type: "widget", name: "Sprocket", colour: "green", lock_version: 0 });
    const list = await server.send("GET", `/repositories/${repo}/widgets?page=1`, { token });
    expect(list.body).toMatchObject({ total: 1, results: [expect.objectContaining({ name: "Sprocket" })] });
  });

  it("validates against its schema and enforces its identifier and unique rules", async () => {
    expect(
      (await server.send("POST", `/repositories/${repo}/widgets`, { token, body: { code_a: "X", colour: "blue" } }))
        .body,
    ).toEqual({
      error: { name: [expect.any(String)], colour: [expect.any(String)] },
    });
    expect(
      (
        await server.send("POST", `/repositories/${repo}/widgets`, {
          token,
          body: { name: "Again", code_a: "W", code_b: "1" },
        })
      ).body,
    ).toEqual({ error: { code_a: ["That ID is already in use"] } });
    await server.send("POST", `/repositories/${repo}/widgets`, {
      token,
      body: { name: "Serial", code_a: "S", serial: "SN-1" },
    });
    expect(
      (
        await server.send("POST", `/repositories/${repo}/widgets`, {
          token,
          body: { name: "Copy", code_a: "T", serial: "SN-1" },
        })
      ).body,
    ).toEqual({ error: { serial: ["That ID is already in use"] } });
  });

  it("sorts only as an index orders it", async () => {
    const sorted = await server.send("GET", `/repositories/${repo}/widgets?page=1&sort_field=id&sort_direction=desc`, {
      token,
    });
    expect((sorted.body as { results: Array<{ name: string }> }).results.map((w) => w.name)).toEqual([
      "Serial",
      "Sprocket",
    ]);
    // Its one extra index is compound (name, colour): it does not order by name with id breaking ties.
    const refused = await server.send("GET", `/repositories/${repo}/widgets?page=1&sort_field=name`, { token });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: Record<string, string[]> }).error.sort_field[0]).toMatch(
      /sortable fields: id, system_mtime$/,
    );
  });

  it("checks its links, and follows its cascade rule when the target is deleted", async () => {
    const accession = await server.send("POST", `/repositories/${repo}/accessions`, {
      token,
      body: { title: "Source", id_0: "A1" },
    });
    const accessionUri = (accession.body as { uri: string }).uri;
    expect(
      (
        await server.send("POST", `/repositories/${repo}/widgets`, {
          token,
          body: { name: "Bad link", code_a: "L", parts: [{ source: { ref: `/repositories/${repo}/accessions/999` } }] },
        })
      ).status,
    ).toBe(400);
    const linked = await server.send("POST", `/repositories/${repo}/widgets`, {
      token,
      body: { name: "Linked", code_a: "L", parts: [{ label: "from", source: { ref: accessionUri } }] },
    });
    const widgetUri = (linked.body as { uri: string }).uri;
    expect((await server.send("GET", `${widgetUri}?resolve[]=source`, { token })).body).toMatchObject({
      parts: [{ source: { ref: accessionUri, _resolved: { title: "Source" } } }],
    });
    const admin = await server.login("boss", { _archivesspace: ["delete_archival_record", "view_repository"] });
    expect((await server.send("DELETE", accessionUri, { token: admin })).status).toBe(200);
    expect((await server.send("GET", widgetUri, { token })).status).toBe(404);
  });

  it("asks for the permission codes its schema names", async () => {
    const viewer = await server.login("viewer", { [`/repositories/${repo}`]: ["view_repository"] });
    expect((await server.send("GET", `/repositories/${repo}/widgets/1`, { token: viewer })).status).toBe(200);
    expect(
      (await server.send("POST", `/repositories/${repo}/widgets`, { token: viewer, body: { name: "No", code_a: "N" } }))
        .body,
    ).toEqual({ error: "Access denied" });
  });

  it("is read without a session only when its schema says x-public-read", async () => {
    const maker = await server.login("gizmo-maker", { _archivesspace: ["manage_gizmos"] });
    const created = await server.send("POST", "/tools/gizmos", { token: maker, body: { label: "Open" } });
    expect(created.status).toBe(200);
    const uri = (created.body as { uri: string }).uri;
    expect((await server.send("GET", uri)).body).toMatchObject({ label: "Open" });
    expect((await server.send("GET", "/tools/gizmos?page=1")).status).toBe(200);
    expect(await server.send("POST", "/tools/gizmos", { body: { label: "No" } })).toMatchObject({
      status: 403,
      body: { error: "Access denied" },
    });
    // Widgets carry no x-public-read: not even a read without a session.
    expect((await server.send("GET", `/repositories/${repo}/widgets/1`)).status).toBe(403);
  });

  it("is searchable as its x-search says, and its guarded fields never reach the index", async () => {
    const input = { name: "Flywheel gear", code_a: "S", code_b: "1", colour: "red", cost: "secret-price" };
    const created = await server.ops.create("widget", { repoId: repo }, input, trusted("admin"));
    const search = new SearchOperations(server.ops);
    const admin = trusted("admin");
    const find = (q: string) => search.search({ repoId: repo, q, page: 1, pageSize: 10 }, admin);
    const found = await find("colour:red AND title:flywheel");
    expect(found.results.map((result) => [result.uri, result.title, result.identifier])).toEqual([
      [created.uri, "Flywheel gear", "S-1"],
    ]);
    expect((await find("gears")).total_hits).toBe(1);
    // The entry is built as an anonymous caller sees the record: the guarded cost is not in it.
    expect((await find("cost:secret*")).total_hits).toBe(0);
    expect((await find("secret")).total_hits).toBe(0);
    await server.ops.delete("widget", { repoId: repo }, created.id, admin);
    expect((await find("flywheel")).total_hits).toBe(0);
  });

  it("hides a field its schema guards with x-read-permission from callers without the code", async () => {
    const costing = await server.login("costing", {
      [`/repositories/${repo}`]: ["view_repository", "update_widget_record", "view_widget_cost"],
    });
    // A create may not fill a field its caller could not read back (as ArchivesSpace refuses agent contacts).
    expect(
      await server.send("POST", `/repositories/${repo}/widgets`, {
        token,
        body: { name: "Priced", code_a: "P", cost: "12.50" },
      }),
    ).toMatchObject({ status: 403, body: { error: "Access denied" } });
    const created = await server.send("POST", `/repositories/${repo}/widgets`, {
      token: costing,
      body: { name: "Priced", code_a: "P", cost: "12.50", suppliers: ["Acme"] },
    });
    const uri = (created.body as { uri: string }).uri;
    expect((await server.send("GET", uri, { token: costing })).body).toMatchObject({
      cost: "12.50",
      suppliers: ["Acme"],
    });
    // Without the code: the field is left out, a guarded list reads as [] (as every list does when empty).
    const hidden = (await server.send("GET", uri, { token })).body as Record<string, unknown>;
    expect(hidden).toMatchObject({ name: "Priced", suppliers: [] });
    expect(hidden).not.toHaveProperty("cost");
    const page = await server.send("GET", `/repositories/${repo}/widgets?page=1&page_size=50`, { token });
    const listed = (page.body as { results: Array<Record<string, unknown>> }).results.find((w) => w.uri === uri);
    expect(listed).toMatchObject({ suppliers: [] });
    expect(listed).not.toHaveProperty("cost");

    // Resolved: a linked record is shown as the caller may see it (a gizmo's origin needs manage_gizmos).
    const maker = await server.login("gizmo-pricer", { _archivesspace: ["manage_gizmos", "view_repository"] });
    const gizmo = await server.send("POST", "/tools/gizmos", {
      token: maker,
      body: { label: "Lathe", origin: "Sheffield" },
    });
    const gizmoUri = (gizmo.body as { uri: string }).uri;
    const withTool = await server.send("POST", `/repositories/${repo}/widgets`, {
      token,
      body: { name: "Turned", code_a: "T2", tool: { ref: gizmoUri } },
    });
    const toolUri = `${(withTool.body as { uri: string }).uri}?resolve[]=tool`;
    const resolved = (await server.send("GET", toolUri, { token })).body as { tool: { _resolved: object } };
    expect(resolved.tool._resolved).toMatchObject({ label: "Lathe" });
    expect(resolved.tool._resolved).not.toHaveProperty("origin");
    expect((await server.send("GET", toolUri, { token: maker })).body).toMatchObject({
      tool: { _resolved: { origin: "Sheffield" } },
    });
    expect((await server.send("GET", gizmoUri)).body).not.toHaveProperty("origin");

    // An update from a caller who cannot see the field keeps it as stored, whatever they send.
    const read = (await server.send("GET", uri, { token })).body as Record<string, unknown>;
    const updated = await server.send("POST", uri, { token, body: { ...read, name: "Repriced", cost: "0" } });
    expect(updated.status).toBe(200);
    expect((await server.send("GET", uri, { token: costing })).body).toMatchObject({
      name: "Repriced",
      cost: "12.50",
      suppliers: ["Acme"],
    });
  });
});
