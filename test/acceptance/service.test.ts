// Arca as a user runs it: the built server started as its own process (`node
// dist/src/main.js`, what `npm start` runs) on a fresh data directory, with its embedded
// store, driven over HTTP the way ArchivesSpace clients drive it.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnArca, type ArcaProcess } from "../support/process.js";

let arca: ArcaProcess;
let base: string;
let dataDir: string;
let admin: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "arca-acceptance-"));
  arca = await spawnArca({ DATA_DIR: dataDir });
  base = arca.url;
  admin = await login("admin", "admin");
}, 60_000);

afterAll(async () => {
  await arca.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers["X-ArchivesSpace-Session"] = options.token;
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body });
  const text = await response.text();
  return {
    status: response.status,
    body: response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text,
  };
}

async function login(username: string, password: string): Promise<string> {
  const { status, body } = await call("POST", `/users/${username}/login`, {
    body: new URLSearchParams({ password, expiring: "False" }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(status).toBe(200);
  return (body as { session: string }).session;
}

describe("the service, end to end", () => {
  let repo: number;

  it("serves the system routes, its schemas and its OpenAPI description, and JSON 404s", async () => {
    expect((await call("GET", "/version")).body).toMatch(/^\(v\d+\.\d+\.\d+\) Arca \d+\.\d+\.\d+$/);
    expect((await call("GET", "/openapi.json")).body).toMatchObject({
      openapi: "3.1.0",
      paths: expect.objectContaining({ "/repositories/{repo_id}/accessions": expect.any(Object) }),
    });
    expect((await call("GET", "/schemas/accession")).body).toMatchObject({ title: "Accession" });
    expect((await call("GET", "/docs")).body).toContain("/repositories/{repo_id}/resources");
    expect(await call("GET", "/no/such/route")).toMatchObject({ status: 404, body: { error: expect.any(String) } });
  });

  it("logs in with a form body and expiring=False, and the first repository gets id 2 with its groups", async () => {
    expect(admin).toMatch(/^[0-9a-f]{64}$/);
    const created = await call("POST", "/repositories", {
      token: admin,
      body: JSON.stringify({ repo_code: "main", name: "Main" }),
    });
    expect(created).toMatchObject({ status: 200, body: { status: "Created", id: 2, uri: "/repositories/2" } });
    repo = 2;
    const groups = (await call("GET", `/repositories/${repo}/groups`, { token: admin })).body as Array<{
      group_code: string;
    }>;
    expect(groups.map((g) => g.group_code)).toContain("repository-viewers");
    expect((await call("GET", "/repositories")).body).toEqual([
      expect.objectContaining({ uri: "/repositories/2", repo_code: "main" }),
    ]);
  });

  it("creates with no Content-Type, lists with page winning over all_ids, and pages past the end", async () => {
    for (let i = 1; i <= 3; i++) {
      const created = await call("POST", `/repositories/${repo}/accessions`, {
        token: admin,
        body: JSON.stringify({ title: `Accession ${i}`, id_0: "2026", id_1: String(i) }),
      });
      expect(created).toMatchObject({ status: 200, body: { status: "Created", id: i, lock_version: 0 } });
    }
    expect((await call("GET", `/repositories/${repo}/accessions?all_ids=True`, { token: admin })).body).toEqual([
      1, 2, 3,
    ]);
    expect(
      (await call("GET", `/repositories/${repo}/accessions?page=1&page_size=2&all_ids=True`, { token: admin })).body,
    ).toMatchObject({ first_page: 1, last_page: 2, this_page: 1, total: 3 });
    expect((await call("GET", `/repositories/${repo}/accessions?page=9`, { token: admin })).body).toMatchObject({
      total: 3,
      results: [],
    });
    expect(await call("GET", `/repositories/${repo}/accessions`, { token: admin })).toMatchObject({
      status: 400,
      body: { error: { page: ["Parameter required but no value provided"] } },
    });
  });

  it("answers 412 for a bad token even on an open route, and 403 without one on a protected route", async () => {
    expect(await call("GET", "/repositories", { token: "f".repeat(64) })).toEqual({
      status: 412,
      body: { code: "SESSION_GONE", error: expect.any(String) },
    });
    expect(await call("GET", `/repositories/${repo}/accessions/1`)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
  });

  it("refuses a stale lock_version with 409, and deletes with an empty JSON body", async () => {
    const record = (await call("GET", `/repositories/${repo}/accessions/1`, { token: admin })).body as Record<
      string,
      unknown
    >;
    expect(
      await call("POST", `/repositories/${repo}/accessions/1`, {
        token: admin,
        body: JSON.stringify({ ...record, lock_version: 3 }),
      }),
    ).toMatchObject({ status: 409 });
    expect(
      await call("POST", `/repositories/${repo}/accessions/1`, {
        token: admin,
        body: JSON.stringify({ ...record, title: "Renamed" }),
      }),
    ).toMatchObject({ status: 200, body: { status: "Updated", lock_version: 1 } });
    expect(
      await call("DELETE", `/repositories/${repo}/accessions/1`, {
        token: admin,
        body: "",
        headers: { "Content-Type": "application/json" },
      }),
    ).toEqual({ status: 200, body: { status: "Deleted", id: 1 } });
    expect(await call("GET", `/repositories/${repo}/accessions/1`, { token: admin })).toEqual({
      status: 404,
      body: { error: "Accession not found" },
    });
  });

  it("sets up a viewer and an archivist through the API, and enforces what each may do", async () => {
    for (const [username, group] of [
      ["vera", "repository-viewers"],
      ["arch", "repository-archivists"],
    ] as const) {
      expect(
        await call("POST", `/users?password=pw-${username}`, {
          token: admin,
          body: JSON.stringify({ username, name: username }),
        }),
      ).toMatchObject({ status: 200 });
      const groups = (await call("GET", `/repositories/${repo}/groups`, { token: admin })).body as Array<
        Record<string, unknown>
      >;
      const target = groups.find((g) => g.group_code === group)!;
      const updated = await call("POST", target.uri as string, {
        token: admin,
        body: JSON.stringify({ ...target, member_usernames: [username] }),
      });
      expect(updated.status).toBe(200);
    }
    const vera = await login("vera", "pw-vera");
    const arch = await login("arch", "pw-arch");
    expect((await call("GET", `/repositories/${repo}/accessions/2`, { token: vera })).status).toBe(200);
    expect(
      await call("POST", `/repositories/${repo}/accessions`, {
        token: vera,
        body: JSON.stringify({ title: "Nope", id_0: "V" }),
      }),
    ).toEqual({ status: 403, body: { error: "Access denied" } });
    expect(
      await call("POST", `/repositories/${repo}/accessions`, {
        token: arch,
        body: JSON.stringify({ title: "Yes", id_0: "A" }),
      }),
    ).toMatchObject({ status: 200 });
    expect((await call("DELETE", `/repositories/${repo}/accessions/2`, { token: arch })).status).toBe(403);
    expect(
      (await call("POST", "/users?password=x", { token: arch, body: JSON.stringify({ username: "eve", name: "Eve" }) }))
        .status,
    ).toBe(403);
  });
});
