// Who may call the record routes (docs/api.md §2, §7, §8): the permission each operation
// needs comes from the type's schema; sessions come from the real session store.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import { standardGroups } from "../../../src/repositories/standard-groups.js";
import { globalGrants, repositoryGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

let server: RecordServer;
let repoId: number;
let otherRepoId: number;
let base: string;
let existing: number;
const tokens: Record<string, string> = {};

function grantsOf(groupCode: string): string[] {
  const group = standardGroups("x").find((candidate) => candidate.group_code === groupCode);
  if (!group) throw new Error(`no standard group ${groupCode}`);
  return group.grants_permissions;
}

beforeAll(async () => {
  server = await startRecordServer();
  const system = trusted("system");
  repoId = (await server.ops.create("repository", {}, { repo_code: "guarded", name: "Guarded" }, system)).id;
  otherRepoId = (await server.ops.create("repository", {}, { repo_code: "forbidden", name: "Forbidden" }, system)).id;
  base = `/repositories/${repoId}/accessions`;
  existing = (await server.ops.create("accession", { repoId }, { title: "Existing", id_0: "G", id_1: "0" }, system)).id;
  tokens.admin = await server.login("admin", globalGrants([...PERMISSIONS]));
  tokens.viewer = await server.login("viewer", repositoryGrants(repoId, grantsOf("repository-viewers")));
  tokens.archivist = await server.login("archivist", repositoryGrants(repoId, grantsOf("repository-archivists")));
  tokens.manager = await server.login("manager", repositoryGrants(repoId, grantsOf("repository-managers")));
  tokens.globalViewer = await server.login("auditor", globalGrants(["view_repository"]));
  // A live session whose user the access control no longer knows (deleted or deactivated).
  tokens.ghost = (await server.sessions.create("ghost", true)).token;
});
afterAll(() => server.stop());

let seq = 0;
const accession = (extra: Record<string, unknown> = {}) => ({
  title: `Guarded ${++seq}`,
  id_0: "G",
  id_1: String(seq),
  ...extra,
});

const DENIED = { status: 403, body: { error: "Access denied" } };

async function call(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const reply = await server.send(method, path, { token, body });
  return { status: reply.status, body: reply.body };
}

describe("without a session", () => {
  it.each([
    ["GET", "?page=1"],
    ["GET", "/1"],
    ["POST", ""],
    ["POST", "/1"],
    ["DELETE", "/1"],
  ])("%s <accessions>%s answers 403", async (method, suffix) => {
    expect(
      await call(method, `${base}${suffix}`, undefined, method === "POST" ? accession({ lock_version: 0 }) : undefined),
    ).toEqual(DENIED);
  });

  it("answers 403, not 404, for paths that could not exist (nothing is revealed before the guard)", async () => {
    expect(await call("GET", "/repositories/abc/accessions/xyz")).toEqual(DENIED);
    expect(await call("GET", `${base}/abc`)).toEqual(DENIED);
    expect(await call("GET", "/repositories/999999/accessions?page=1")).toEqual(DENIED);
  });

  it("answers 412 for a token the store does not know, before any guard", async () => {
    const reply = await server.send("GET", `${base}/${existing}`, { token: "f".repeat(64) });
    expect(reply.status).toBe(412);
    expect(reply.body).toMatchObject({ code: "SESSION_GONE" });
  });
});

describe("a viewer (view_repository only)", () => {
  it("can list and read", async () => {
    expect((await call("GET", `${base}?page=1`, tokens.viewer)).status).toBe(200);
    expect((await call("GET", `${base}?all_ids=true`, tokens.viewer)).status).toBe(200);
    expect(await call("GET", `${base}/${existing}`, tokens.viewer)).toMatchObject({
      status: 200,
      body: { title: "Existing" },
    });
  });

  it("gets 403 on create, update and delete, and nothing changes", async () => {
    expect(await call("POST", base, tokens.viewer, accession())).toEqual(DENIED);
    expect(await call("POST", `${base}/${existing}`, tokens.viewer, accession({ lock_version: 0 }))).toEqual(DENIED);
    expect(await call("DELETE", `${base}/${existing}`, tokens.viewer)).toEqual(DENIED);
    expect(await call("GET", `${base}/${existing}`, tokens.viewer)).toMatchObject({
      status: 200,
      body: { title: "Existing", lock_version: 0 },
    });
  });

  it("gets 403 in a repository where they hold nothing", async () => {
    expect(await call("GET", `/repositories/${otherRepoId}/accessions?page=1`, tokens.viewer)).toEqual(DENIED);
    expect(await call("GET", `/repositories/${otherRepoId}/accessions/${existing}`, tokens.viewer)).toEqual(DENIED);
  });

  it("gets 403 for another type's write permission (resources)", async () => {
    expect(await call("POST", `/repositories/${repoId}/resources`, tokens.viewer, {})).toEqual(DENIED);
  });

  it("gets 404 for a missing record where they may read", async () => {
    expect(await call("GET", `${base}/999999`, tokens.viewer)).toEqual({
      status: 404,
      body: { error: "Accession not found" },
    });
  });
});

describe("an archivist (repository-archivists grants)", () => {
  it("can create and update accessions, as themselves", async () => {
    const made = await call("POST", base, tokens.archivist, accession({ title: "By the archivist" }));
    expect(made).toMatchObject({ status: 200, body: { status: "Created", lock_version: 0 } });
    const id = (made.body as { id: number }).id;
    expect((await call("GET", `${base}/${id}`, tokens.archivist)).body).toMatchObject({
      created_by: "archivist",
      last_modified_by: "archivist",
    });
    const updated = await call("POST", `${base}/${id}`, tokens.archivist, accession({ lock_version: 0 }));
    expect(updated).toMatchObject({ status: 200, body: { status: "Updated", lock_version: 1 } });
  });

  it("gets 403 on delete (delete_archival_record is not theirs) and in another repository", async () => {
    expect(await call("DELETE", `${base}/${existing}`, tokens.archivist)).toEqual(DENIED);
    expect(await call("POST", `/repositories/${otherRepoId}/accessions`, tokens.archivist, accession())).toEqual(
      DENIED,
    );
  });
});

describe("a repository manager", () => {
  it("can delete, and a later editor shows in last_modified_by", async () => {
    const id = (await server.ops.create("accession", { repoId }, accession(), trusted("system"))).id;
    expect(
      (await call("POST", `${base}/${id}`, tokens.manager, accession({ title: "Managed", lock_version: 0 }))).status,
    ).toBe(200);
    expect((await call("GET", `${base}/${id}`, tokens.manager)).body).toMatchObject({
      created_by: "system",
      last_modified_by: "manager",
    });
    expect(await call("DELETE", `${base}/${id}`, tokens.manager)).toEqual({
      status: 200,
      body: { status: "Deleted", id },
    });
  });
});

describe("global grants", () => {
  it("apply in every repository", async () => {
    expect((await call("GET", `/repositories/${otherRepoId}/accessions?page=1`, tokens.globalViewer)).status).toBe(200);
    expect(await call("POST", `/repositories/${otherRepoId}/accessions`, tokens.globalViewer, accession())).toEqual(
      DENIED,
    );
  });

  it("let a 404 through for a repository id that cannot exist", async () => {
    expect(await call("GET", "/repositories/abc/accessions?page=1", tokens.globalViewer)).toEqual({
      status: 404,
      body: { error: "Repository not found" },
    });
  });

  it("are what global record types check: users need manage_users", async () => {
    expect(await call("GET", "/users?page=1", tokens.manager)).toEqual(DENIED);
    expect((await call("GET", "/users?page=1", tokens.admin)).status).toBe(200);
  });
});

describe("global record types shared by every repository", () => {
  it("may be edited by whoever holds the code in any repository, as in ArchivesSpace", async () => {
    const agent = {
      names: [
        {
          primary_name: "Person, A.",
          name_order: "inverted",
          source: "local",
          rules: "local",
          sort_name: "Person, A.",
        },
      ],
    };
    const created = await call("POST", "/agents/people", tokens.archivist, agent);
    expect(created).toMatchObject({ status: 200, body: { status: "Created" } });
    expect(await call("POST", "/agents/people", tokens.viewer, agent)).toEqual(DENIED);
    expect(await call("POST", "/agents/people", undefined, agent)).toEqual(DENIED);
  });
});

describe("a session whose user the access control does not know", () => {
  it("gets 403 everywhere a permission is needed", async () => {
    expect(await call("GET", `${base}/${existing}`, tokens.ghost)).toEqual(DENIED);
    expect(await call("POST", base, tokens.ghost, accession())).toEqual(DENIED);
  });

  it("still reaches open routes", async () => {
    expect((await call("GET", `/repositories/${repoId}`, tokens.ghost)).status).toBe(200);
  });
});
