// Users, groups and repositories over real HTTP (docs/api.md §8, §9): who may do what, and
// that a membership change reaches a user's existing session at once.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { call, login, startAccountsApp, type AccountsApp } from "./harness.js";

let app: AccountsApp;
let admin: string;
beforeAll(async () => {
  app = await startAccountsApp();
  admin = await login(app, "admin", "admin");
});
afterAll(() => app.close());

function noPasswordIn(value: unknown): void {
  expect(JSON.stringify(value)).not.toMatch(/password|scrypt\$/i);
}

async function groupOf(repoId: number, code: string): Promise<Record<string, unknown>> {
  const list = await call(app, `/repositories/${repoId}/groups?group_code=${code}`, { token: admin });
  expect(list.status).toBe(200);
  expect(list.body).toHaveLength(1);
  return list.body[0]!;
}

async function addMember(repoId: number, code: string, username: string): Promise<void> {
  const group = await groupOf(repoId, code);
  const members = [...(group.member_usernames as string[]), username];
  const uri = group.uri as string;
  const reply = await call(app, uri, { method: "POST", token: admin, json: { ...group, member_usernames: members } });
  expect(reply.status).toBe(200);
  expect(reply.body).toMatchObject({ status: "Updated", uri });
}

describe("repositories", () => {
  let repoId: number;

  it("an admin creates a repository: the first gets id 2, with its standard groups", async () => {
    const created = await call(app, "/repositories", {
      method: "POST",
      token: admin,
      json: { repo_code: "MAIN", name: "Main archive" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: "Created", id: 2, uri: "/repositories/2", lock_version: 0 });
    repoId = created.body.id as unknown as number;
    const groups = await call(app, `/repositories/${repoId}/groups`, { token: admin });
    expect(groups.status).toBe(200);
    expect(groups.body.map((group) => group.group_code)).toEqual([
      "repository-managers",
      "repository-archivists",
      "repository-project-managers",
      "repository-advanced-data-entry",
      "repository-basic-data-entry",
      "repository-viewers",
    ]);
    for (const group of groups.body) {
      expect(group).toEqual(
        expect.objectContaining({
          uri: expect.stringMatching(/^\/repositories\/2\/groups\/\d+$/),
          description: expect.any(String),
          member_usernames: [],
          grants_permissions: expect.any(Array),
          lock_version: 0,
        }),
      );
    }
  });

  it("GET /repositories is a bare list without the global repository, needing no session", async () => {
    const { status, body } = await call(app, "/repositories");
    expect(status).toBe(200);
    expect(body.map((repo) => repo.uri)).toEqual(["/repositories/2"]);
    expect(await call(app, "/repositories/2")).toMatchObject({
      status: 200,
      body: { repo_code: "MAIN", uri: "/repositories/2" },
    });
  });

  it("the hidden global repository answers 404 to reads, updates and deletes", async () => {
    expect(await call(app, "/repositories/1")).toMatchObject({ status: 404, body: { error: "Repository not found" } });
    expect(
      (
        await call(app, "/repositories/1", {
          method: "POST",
          token: admin,
          json: { repo_code: "X", name: "X", lock_version: 0 },
        })
      ).status,
    ).toBe(404);
    expect((await call(app, "/repositories/1", { method: "DELETE", token: admin })).status).toBe(404);
  });

  it("creating a repository needs a session and create_repository; a duplicate repo_code is a 400", async () => {
    expect(await call(app, "/repositories", { method: "POST", json: { repo_code: "X", name: "X" } })).toMatchObject({
      status: 403,
      body: { error: "Access denied" },
    });
    expect(
      await call(app, "/repositories", {
        method: "POST",
        token: admin,
        json: { repo_code: "_archivesspace", name: "X" },
      }),
    ).toMatchObject({
      status: 400,
      body: { error: { repo_code: ["That ID is already in use"] } },
    });
  });

  it("updates and deletes a repository through the record operations", async () => {
    const created = await call(app, "/repositories", {
      method: "POST",
      token: admin,
      json: { repo_code: "TEMP", name: "Temporary" },
    });
    const uri = created.body.uri as string;
    const read = await call(app, uri);
    expect(
      await call(app, uri, { method: "POST", token: admin, json: { ...read.body, name: "Renamed" } }),
    ).toMatchObject({ status: 200, body: { status: "Updated", lock_version: 1 } });
    expect(await call(app, uri, { method: "DELETE", token: admin })).toMatchObject({
      status: 200,
      body: { status: "Deleted" },
    });
    expect((await call(app, uri)).status).toBe(404);
    expect((await call(app, "/repositories")).body.map((repo) => repo.uri)).toEqual(["/repositories/2"]);
  });

  it("a path id no repository could have is a 404, as on every record route", async () => {
    expect(await call(app, "/repositories/abc")).toMatchObject({
      status: 404,
      body: { error: "Repository not found" },
    });
    expect(await call(app, "/repositories/0")).toMatchObject({ status: 404, body: { error: "Repository not found" } });
  });

  it("lists with the record modes too: a page, an id set (the hidden repository left out), all ids", async () => {
    const page = await call(app, "/repositories?page=1");
    expect(page.body).toMatchObject({ total: 1, results: [expect.objectContaining({ uri: "/repositories/2" })] });
    expect((await call(app, "/repositories?id_set=1,2")).body.map((repo) => repo.uri)).toEqual(["/repositories/2"]);
    expect((await call(app, "/repositories?all_ids=true")).body).toEqual([2]);
  });
});

describe("users and groups on the generic record routes", () => {
  it("a path id no user or group could have is the 404 of every record route", async () => {
    for (const path of ["/users/abc", "/users/0", "/repositories/1/groups/abc", "/repositories/1/groups/0"]) {
      expect([path, (await call(app, path, { token: admin })).status]).toEqual([path, 404]);
    }
    expect(await call(app, "/users/abc", { token: admin })).toMatchObject({ body: { error: "User not found" } });
  });

  it("groups list as a bare array with no mode, narrowed by group_code; a page and all ids too", async () => {
    const all = await call(app, "/repositories/1/groups", { token: admin });
    expect(all.body.map((group) => group.group_code)).toContain("administrators");
    expect((await call(app, "/repositories/1/groups?group_code=nothing-so-named", { token: admin })).body).toEqual([]);
    const page = await call(app, "/repositories/1/groups?page=1&group_code=administrators", { token: admin });
    expect(page.body).toMatchObject({ total: 1, results: [expect.objectContaining({ group_code: "administrators" })] });
    expect((await call(app, "/repositories/1/groups?all_ids=true", { token: admin })).body).toHaveLength(
      all.body.length,
    );
  });

  it("users list with the record modes; reading one shows its permissions", async () => {
    const page = await call(app, "/users?page=1", { token: admin });
    expect(page.body).toMatchObject({ first_page: 1, results: expect.arrayContaining([expect.anything()]) });
    expect((await call(app, "/users/1", { token: admin })).body).toMatchObject({
      username: "admin",
      permissions: { _archivesspace: expect.arrayContaining(["administer_system"]) },
    });
  });
});

describe("users", () => {
  it("an admin creates a user; a user record never carries a password", async () => {
    const created = await call(app, "/users?password=viewer-pw", {
      method: "POST",
      token: admin,
      json: { username: " Viewer ", name: "Vera Viewer" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: "Created", uri: expect.stringMatching(/^\/users\/\d+$/) });
    const read = await call(app, created.body.uri as string, { token: admin });
    expect(read.body).toMatchObject({ username: "viewer", name: "Vera Viewer", is_admin: false, is_active_user: true });
    noPasswordIn(read.body);
    const page = await call(app, "/users?page=1", { token: admin });
    expect(page.body).toMatchObject({ first_page: 1, this_page: 1, total: 2 });
    noPasswordIn(page.body);
    const session = await call(app, "/users/VIEWER/login?password=viewer-pw", { method: "POST" });
    expect(session.status).toBe(200);
    noPasswordIn(session.body.user);
  });

  it("creating a user needs a password, and a username not yet taken (whatever its case)", async () => {
    expect(
      await call(app, "/users", { method: "POST", token: admin, json: { username: "someone", name: "S" } }),
    ).toMatchObject({
      status: 400,
      body: { error: { password: ["Parameter required but no value provided"] } },
    });
    expect(
      await call(app, "/users?password=x", {
        method: "POST",
        token: admin,
        json: { username: "VIEWER", name: "Again" },
      }),
    ).toMatchObject({
      status: 400,
      body: { error: { username: ["Username 'viewer' is already in use"] } },
    });
  });

  it("a password in the record body is refused, not stored", async () => {
    const reply = await call(app, "/users?password=x", {
      method: "POST",
      token: admin,
      json: { username: "leaky", name: "L", password: "in-body" },
    });
    expect(reply.status).toBe(400);
    expect(reply.text).not.toContain("in-body");
  });

  it("a member of repository-viewers gets view_repository there without logging in again", async () => {
    const viewer = await login(app, "viewer", "viewer-pw");
    const before = await call(app, "/users/current-user", { token: viewer });
    expect(before.body.permissions).toEqual({});
    await addMember(2, "repository-viewers", "Viewer");
    expect((await groupOf(2, "repository-viewers")).member_usernames).toEqual(["viewer"]);
    const after = await call(app, "/users/current-user", { token: viewer });
    expect(after.body.permissions).toEqual({ "/repositories/2": ["view_repository"] });
    noPasswordIn(after.body);
  });

  it("a viewer may neither create users, list them, nor manage groups (403)", async () => {
    const viewer = await login(app, "viewer", "viewer-pw");
    expect(
      await call(app, "/users?password=x", { method: "POST", token: viewer, json: { username: "mine", name: "M" } }),
    ).toMatchObject({ status: 403, body: { error: "Access denied" } });
    expect((await call(app, "/users?page=1", { token: viewer })).status).toBe(403);
    expect((await call(app, "/repositories/2/groups", { token: viewer })).status).toBe(403);
    expect(
      (await call(app, "/repositories", { method: "POST", token: viewer, json: { repo_code: "V", name: "V" } })).status,
    ).toBe(403);
  });

  it("a repository manager manages that repository's groups only, and cannot make users", async () => {
    await call(app, "/users?password=mgr-pw", {
      method: "POST",
      token: admin,
      json: { username: "manager", name: "Max Manager" },
    });
    await addMember(2, "repository-managers", "manager");
    const manager = await login(app, "manager", "mgr-pw");
    expect((await call(app, "/repositories/2/groups", { token: manager })).status).toBe(200);
    expect((await call(app, "/repositories/1/groups", { token: manager })).status).toBe(403);
    const created = await call(app, "/repositories/2/groups", {
      method: "POST",
      token: manager,
      json: {
        group_code: "readers",
        description: "Readers",
        grants_permissions: ["view_repository"],
        member_usernames: ["VIEWER"],
      },
    });
    expect(created).toMatchObject({ status: 200, body: { status: "Created" } });
    expect((await call(app, created.body.uri as string, { token: manager })).body).toMatchObject({
      group_code: "readers",
      member_usernames: ["viewer"],
    });
    expect(
      (await call(app, "/users?password=x", { method: "POST", token: manager, json: { username: "other", name: "O" } }))
        .status,
    ).toBe(403);
  });

  it("a group naming an unknown permission or an unknown user is a 400", async () => {
    expect(
      await call(app, "/repositories/2/groups", {
        method: "POST",
        token: admin,
        json: { group_code: "odd", grants_permissions: ["view_repository", "fly"] },
      }),
    ).toMatchObject({
      status: 400,
      body: { error: { "grants_permissions/1": ["Unknown permission code 'fly'"] } },
    });
    expect(
      await call(app, "/repositories/2/groups", {
        method: "POST",
        token: admin,
        json: { group_code: "odd", member_usernames: ["ghost"] },
      }),
    ).toMatchObject({
      status: 400,
      body: { error: { "member_usernames/0": ["No user named 'ghost' can be added"] } },
    });
  });

  it("only an administrator may create an administrator", async () => {
    await call(app, "/users?password=um-pw", {
      method: "POST",
      token: admin,
      json: { username: "usermgr", name: "U" },
    });
    const adminsGroup = await groupOf(1, "administrators");
    const userManagers = await call(app, "/repositories/1/groups", {
      method: "POST",
      token: admin,
      json: { group_code: "user-managers", grants_permissions: ["manage_users"], member_usernames: ["usermgr"] },
    });
    expect(userManagers.status).toBe(200);
    const usermgr = await login(app, "usermgr", "um-pw");
    expect(
      (
        await call(app, "/users?password=x", {
          method: "POST",
          token: usermgr,
          json: { username: "boss", name: "B", is_admin: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(app, "/users?password=x", { method: "POST", token: usermgr, json: { username: "plain", name: "P" } }))
        .status,
    ).toBe(200);
    const adminRecord = await call(app, "/users/1", { token: admin });
    expect(
      (await call(app, "/users/1?password=taken", { method: "POST", token: usermgr, json: adminRecord.body })).status,
    ).toBe(403);
    expect((await groupOf(1, "administrators")).member_usernames).toEqual(adminsGroup.member_usernames);
  });

  it("a password change ends the user's sessions and only the new password logs in; a username cannot change", async () => {
    await call(app, "/users?password=old-pw", {
      method: "POST",
      token: admin,
      json: { username: "changer", name: "C" },
    });
    const elsewhere = await login(app, "changer", "old-pw");
    const record = (await call(app, "/users?page=1&page_size=250", { token: admin })).body.results as unknown as Array<
      Record<string, unknown>
    >;
    const changer = record.find((user) => user.username === "changer")!;
    const updated = await call(app, `${changer.uri as string}?password=new-pw`, {
      method: "POST",
      token: admin,
      json: { ...changer, name: "Changed" },
    });
    expect(updated).toMatchObject({ status: 200, body: { status: "Updated" } });
    expect((await call(app, "/users/current-user", { token: elsewhere })).status).toBe(412);
    expect((await call(app, "/users/changer/login?password=old-pw", { method: "POST" })).status).toBe(403);
    expect((await call(app, "/users/changer/login?password=new-pw", { method: "POST" })).status).toBe(200);
    expect((await call(app, "/users/current-user", { token: admin })).status).toBe(200);
    expect(
      await call(app, changer.uri as string, {
        method: "POST",
        token: admin,
        json: { ...changer, username: "renamed" },
      }),
    ).toMatchObject({ status: 400, body: { error: { username: [expect.any(String)] } } });
  });

  it("deactivating a user ends their sessions", async () => {
    await call(app, "/users?password=pw", { method: "POST", token: admin, json: { username: "leaving", name: "L" } });
    const token = await login(app, "leaving", "pw");
    const leaving = (await call(app, "/users/current-user", { token })).body;
    const { permissions: _ignored, ...record } = leaving;
    expect(
      (
        await call(app, leaving.uri as string, {
          method: "POST",
          token: admin,
          json: { ...record, is_active_user: false },
        })
      ).status,
    ).toBe(200);
    expect((await call(app, "/users/current-user", { token })).status).toBe(412);
  });

  it("deleting a user ends their sessions, their credentials and their memberships", async () => {
    await call(app, "/users?password=gone-pw", {
      method: "POST",
      token: admin,
      json: { username: "goner", name: "G" },
    });
    await addMember(2, "repository-archivists", "goner");
    const token = await login(app, "goner", "gone-pw");
    const me = (await call(app, "/users/current-user", { token })).body;
    const archivists = await groupOf(2, "repository-archivists");
    expect(await call(app, me.uri as string, { method: "DELETE", token: admin })).toMatchObject({
      status: 200,
      body: { status: "Deleted" },
    });
    expect((await call(app, "/users/current-user", { token })).status).toBe(412);
    expect((await call(app, "/users/goner/login?password=gone-pw", { method: "POST" })).status).toBe(403);
    const after = await groupOf(2, "repository-archivists");
    expect(after.member_usernames).toEqual([]);
    expect(after.lock_version).toBe((archivists.lock_version as number) + 1);
    const credentials = await app.connection
      .collection("user_credentials")
      .findOne({ _id: "goner" as unknown as never });
    expect(credentials).toBeNull();
  });

  it("the admin user cannot be deleted", async () => {
    expect(await call(app, "/users/1", { method: "DELETE", token: admin })).toMatchObject({
      status: 409,
      body: { error: "The admin user cannot be deleted" },
    });
  });

  it("passwords are stored only hashed, apart from the user records", async () => {
    const users = await app.connection.collection("users").find({}).toArray();
    noPasswordIn(users);
    const stored = await app.connection.collection("user_credentials").findOne({ _id: "viewer" as unknown as never });
    expect(stored?.password_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain("viewer-pw");
  });

  it("changing one's own password ends one's other sessions but keeps the one that made the change", async () => {
    const other = await login(app, "admin", "admin");
    const me = await call(app, "/users/current-user", { token: admin });
    const { permissions: _ignored, ...record } = me.body;
    expect(
      (await call(app, `${me.body.uri as string}?password=rotated`, { method: "POST", token: admin, json: record }))
        .status,
    ).toBe(200);
    expect((await call(app, "/users/current-user", { token: other })).status).toBe(412);
    expect((await call(app, "/users/current-user", { token: admin })).status).toBe(200);
    expect((await call(app, "/users/admin/login?password=rotated", { method: "POST" })).status).toBe(200);
  });
});
