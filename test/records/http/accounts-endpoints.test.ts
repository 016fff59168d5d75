// The users, groups and permissions routes of issue 14 over real HTTP (docs/api.md §16): groups[] on a
// user's create and update, /users/:id/groups, activation, password change, username completion,
// /permissions, and a group update's with_members.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Service } from "../../support/service.js";

let service: Service;
let admin: string;
let repoId: number;
let otherRepoId: number;
/** A manager of repoId only. */
let manager: string;

type Json = Record<string, unknown>;

async function ok(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Json> {
  const reply = await service.send(method, path, { token: admin, ...options });
  if (reply.status !== 200) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
  return reply.body as Json;
}

async function groupUri(repo: number, code: string): Promise<string> {
  const list = (await ok("GET", `/repositories/${repo}/groups?group_code=${code}`)) as unknown as Json[];
  return String(list[0]?.uri);
}

async function membersOf(uri: string): Promise<string[]> {
  return (await ok("GET", uri)).member_usernames as string[];
}

let seq = 0;
async function newUser(query = ""): Promise<{ id: number; username: string; uri: string }> {
  seq += 1;
  const username = `person${seq}`;
  const reply = await ok("POST", `/users?password=secret${seq}${query}`, { body: { username, name: `Person ${seq}` } });
  return { id: Number(reply.id), username, uri: String(reply.uri) };
}

beforeAll(async () => {
  service = await startService();
  admin = service.adminToken;
  repoId = Number((await ok("POST", "/repositories", { body: { repo_code: "ACC", name: "Accounts" } })).id);
  otherRepoId = Number((await ok("POST", "/repositories", { body: { repo_code: "OTH", name: "Other" } })).id);
  const boss = await newUser();
  const managers = await groupUri(repoId, "repository-managers");
  await ok("POST", `/users/${boss.id}/groups?repo_id=${repoId}&groups[]=${encodeURIComponent(managers)}`);
  manager = await service.login(boss.username, `secret${seq}`);
});
afterAll(() => service.stop());

describe("groups[] on POST /users and POST /users/:id", () => {
  it("a new user joins the groups named, in the same write", async () => {
    const archivists = await groupUri(repoId, "repository-archivists");
    const viewers = await groupUri(otherRepoId, "repository-viewers");
    const query = `&groups[]=${encodeURIComponent(archivists)}&groups[]=${encodeURIComponent(viewers)}`;
    const user = await newUser(query);
    expect(await membersOf(archivists)).toContain(user.username);
    expect(await membersOf(viewers)).toContain(user.username);
    const read = await ok("GET", user.uri);
    expect(read.groups).toEqual(expect.arrayContaining([archivists, viewers]));
    expect(read.permissions).toHaveProperty(`/repositories/${repoId}`);
  });

  it("a missing group is a 404 and no user is created", async () => {
    const reply = await service.send("POST", `/users?password=x&groups[]=/repositories/${repoId}/groups/9999`, {
      token: admin,
      body: { username: "ghostly", name: "Ghost" },
    });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ error: "Group not found" });
    const list = (await ok("GET", "/users?page=1&page_size=250")) as { results: Json[] };
    expect(list.results.map((user) => user.username)).not.toContain("ghostly");
  });

  it("a bad uri is a 400 naming groups; a group of a repository the caller may not manage is a 403", async () => {
    const bad = await service.send("POST", "/users?password=x&groups[]=/nowhere", {
      token: admin,
      body: { username: "badgroups", name: "Bad" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { groups: [expect.stringContaining("/nowhere")] } });
    const updater = await newUser();
    const record = await ok("GET", updater.uri);
    const elsewhere = await groupUri(otherRepoId, "repository-viewers");
    // The manager of repoId holds no manage_users either, so try the group route, which needs only manage_repository.
    const refused = await service.send(
      "POST",
      `/users/${updater.id}/groups?repo_id=${otherRepoId}&groups[]=${encodeURIComponent(elsewhere)}`,
      { token: manager },
    );
    expect(refused.status).toBe(403);
    expect(await membersOf(elsewhere)).not.toContain(updater.username);
    const noRepo = await service.send("POST", `${updater.uri}?groups[]=${encodeURIComponent(elsewhere)}`, {
      token: admin,
      body: record,
    });
    expect(noRepo.status).toBe(400);
    expect(noRepo.body).toEqual({ error: { repo_id: [expect.any(String)] } });
  });

  it("an update with repo_id replaces the user's groups in that repository only", async () => {
    const archivists = await groupUri(repoId, "repository-archivists");
    const viewers = await groupUri(repoId, "repository-viewers");
    const elsewhere = await groupUri(otherRepoId, "repository-viewers");
    const user = await newUser(`&groups[]=${encodeURIComponent(archivists)}&groups[]=${encodeURIComponent(elsewhere)}`);
    const record = await ok("GET", user.uri);
    const query = `repo_id=${repoId}&groups[]=${encodeURIComponent(viewers)}&groups[]=${encodeURIComponent(elsewhere)}`;
    const updated = await ok("POST", `${user.uri}?${query}`, { body: record });
    expect(updated).toMatchObject({ status: "Updated", lock_version: 1 });
    expect(await membersOf(archivists)).not.toContain(user.username);
    expect(await membersOf(viewers)).toContain(user.username);
    expect(await membersOf(elsewhere)).toContain(user.username);
  });
});

describe("POST /users/:id/groups", () => {
  it("sets the user's groups in one repository, answering OK; the session sees it at once", async () => {
    const user = await newUser();
    const token = await service.login(user.username, `secret${seq}`);
    const denied = await service.send("GET", `/repositories/${repoId}/accessions?page=1`, { token });
    expect(denied.status).toBe(403);
    const viewers = await groupUri(repoId, "repository-viewers");
    const reply = await service.send(
      "POST",
      `/users/${user.id}/groups?repo_id=${repoId}&groups[]=${encodeURIComponent(viewers)}&remove_groups=false`,
      { token: manager },
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "OK" });
    const allowed = await service.send("GET", `/repositories/${repoId}/accessions?page=1`, { token });
    expect(allowed.status).toBe(200);
    const cleared = await service.send("POST", `/users/${user.id}/groups?repo_id=${repoId}&remove_groups=true`, {
      token: manager,
    });
    expect(cleared.status).toBe(200);
    expect(await membersOf(viewers)).not.toContain(user.username);
  });

  it("400 without repo_id or with a bad remove_groups, 404 for a missing user, repository or group", async () => {
    const user = await newUser();
    const noRepo = await service.send("POST", `/users/${user.id}/groups`, { token: admin });
    expect(noRepo.status).toBe(400);
    expect(noRepo.body).toEqual({ error: { repo_id: ["Parameter required but no value provided"] } });
    const badFlag = await service.send("POST", `/users/${user.id}/groups?repo_id=${repoId}&remove_groups=maybe`, {
      token: admin,
    });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body).toEqual({ error: { remove_groups: [expect.any(String)] } });
    const noUser = await service.send("POST", `/users/99999/groups?repo_id=${repoId}`, { token: admin });
    expect(noUser.status).toBe(404);
    expect(noUser.body).toEqual({ error: "User not found" });
    const noRepository = await service.send("POST", `/users/${user.id}/groups?repo_id=999`, { token: admin });
    expect(noRepository.status).toBe(404);
    expect(noRepository.body).toEqual({ error: "Repository not found" });
    const noGroup = await service.send(
      "POST",
      `/users/${user.id}/groups?repo_id=${repoId}&groups[]=/repositories/${repoId}/groups/9999`,
      { token: admin },
    );
    expect(noGroup.status).toBe(404);
    expect(noGroup.body).toEqual({ error: "Group not found" });
  });

  it("a repository manager cannot change an administrator's groups (403), nor anyone without a session", async () => {
    const viewers = await groupUri(repoId, "repository-viewers");
    const path = `/users/1/groups?repo_id=${repoId}&groups[]=${encodeURIComponent(viewers)}`;
    expect((await service.send("POST", path, { token: manager })).status).toBe(403);
    expect((await service.send("POST", path)).status).toBe(403);
    expect(await membersOf(viewers)).not.toContain("admin");
  });
});

describe("activate and deactivate", () => {
  it("deactivate ends the user's sessions and refuses logins; activate lets them in again", async () => {
    const user = await newUser();
    const password = `secret${seq}`;
    const token = await service.login(user.username, password);
    const off = await ok("GET", `/users/${user.id}/deactivate`);
    expect(off).toMatchObject({ username: user.username, is_active_user: false, lock_version: 1 });
    expect((await service.send("GET", "/users/current-user", { token })).status).not.toBe(200);
    const login = await service.send("POST", `/users/${user.username}/login?password=${password}`);
    expect(login.status).toBe(403);
    const on = await ok("GET", `/users/${user.id}/activate`);
    expect(on).toMatchObject({ is_active_user: true, lock_version: 2 });
    await service.login(user.username, password);
  });

  it("403 without manage_users, 404 for a missing user, 409 for the admin user", async () => {
    const user = await newUser();
    expect((await service.send("GET", `/users/${user.id}/deactivate`, { token: manager })).status).toBe(403);
    const missing = await service.send("GET", "/users/99999/deactivate", { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "User not found" });
    const adminOff = await service.send("GET", "/users/1/deactivate", { token: admin });
    expect(adminOff.status).toBe(409);
    expect(adminOff.body).toEqual({ error: "The admin user cannot be deactivated" });
  });
});

describe("POST /users/:id/password", () => {
  it("a user manager sets it: the old password fails, the new one works, other sessions end", async () => {
    const user = await newUser();
    const old = `secret${seq}`;
    const token = await service.login(user.username, old);
    const reply = await ok("POST", `/users/${user.id}/password?password=fresh-one`);
    expect(reply).toEqual({ status: "Updated", id: user.id, uri: user.uri });
    expect((await service.send("GET", "/users/current-user", { token })).status).toBe(412);
    expect((await service.send("POST", `/users/${user.username}/login?password=${old}`)).status).toBe(403);
    await service.login(user.username, "fresh-one");
  });

  it("a user changes their own with current_password (403 when wrong, 400 when missing); not another's", async () => {
    const user = await newUser();
    const token = await service.login(user.username, `secret${seq}`);
    const missing = await service.send("POST", `/users/${user.id}/password?password=mine`, { token });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: { current_password: [expect.any(String)] } });
    const wrong = await service.send("POST", `/users/${user.id}/password?password=mine&current_password=no`, {
      token,
    });
    expect(wrong.status).toBe(403);
    const right = await service.send("POST", `/users/${user.id}/password?password=mine&current_password=secret${seq}`, {
      token,
    });
    expect(right.status).toBe(200);
    expect((await service.send("GET", "/users/current-user", { token })).status).toBe(200);
    await service.login(user.username, "mine");
    expect((await service.send("POST", `/users/1/password?password=x&current_password=y`, { token })).status).toBe(403);
    const noPassword = await service.send("POST", `/users/${user.id}/password`, { token: admin });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toEqual({ error: { password: ["Parameter required but no value provided"] } });
    expect((await service.send("POST", "/users/99999/password?password=x", { token: admin })).status).toBe(404);
  });

  it("a repository manager cannot reset an administrator's password", async () => {
    expect((await service.send("POST", "/users/1/password?password=x", { token: manager })).status).toBe(403);
  });
});

describe("GET /users/complete", () => {
  it("answers the usernames starting with the query, case-insensitively, sorted and bounded", async () => {
    const names = (await ok("GET", "/users/complete?query=PERSON1")) as unknown as string[];
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(name.startsWith("person1")).toBe(true);
    expect(await ok("GET", "/users/complete?query=zzz-nobody")).toEqual([]);
    expect(await ok("GET", "/users/complete?query=adm", { token: manager })).toEqual(["admin"]);
  });

  it("400 without a query; 403 for a caller managing neither users nor a repository", async () => {
    const missing = await service.send("GET", "/users/complete", { token: admin });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: { query: ["Parameter required but no value provided"] } });
    const user = await newUser();
    const token = await service.login(user.username, `secret${seq}`);
    expect((await service.send("GET", "/users/complete?query=a", { token })).status).toBe(403);
    expect((await service.send("GET", "/users/complete?query=a")).status).toBe(403);
  });
});

describe("GET /permissions", () => {
  it("lists the codes of a level, or all", async () => {
    const repository = (await ok("GET", "/permissions?level=repository")) as unknown as Json[];
    const global = (await ok("GET", "/permissions?level=global")) as unknown as Json[];
    const all = (await ok("GET", "/permissions?level=all")) as unknown as Json[];
    expect(repository.every((entry) => entry.level === "repository")).toBe(true);
    expect(global.every((entry) => entry.level === "global")).toBe(true);
    expect(all).toHaveLength(repository.length + global.length);
    expect(repository).toContainEqual({
      jsonmodel_type: "permission",
      permission_code: "manage_repository",
      description: "Manage repository",
      level: "repository",
    });
    expect(global.map((entry) => entry.permission_code)).toContain("manage_users");
  });

  it("400 for a missing or unknown level; 403 without a session", async () => {
    const missing = await service.send("GET", "/permissions", { token: admin });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: { level: ["Parameter required but no value provided"] } });
    const unknown = await service.send("GET", "/permissions?level=everything", { token: admin });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: { level: [expect.stringContaining("repository, global, all")] } });
    expect((await service.send("GET", "/permissions?level=all")).status).toBe(403);
  });
});

describe("with_members on a group update", () => {
  it("false keeps the members whatever the body says; absent (ArchivesSpace's default, true) replaces them", async () => {
    const user = await newUser();
    const uri = await groupUri(repoId, "repository-project-managers");
    await ok("POST", `/users/${user.id}/groups?repo_id=${repoId}&groups[]=${encodeURIComponent(uri)}`);
    const group = await ok("GET", uri);
    const { member_usernames: _members, ...withoutMembers } = group;
    const kept = await ok("POST", `${uri}?with_members=false`, {
      body: { ...withoutMembers, description: "Edited" },
    });
    expect(kept).toMatchObject({ status: "Updated" });
    const after = await ok("GET", uri);
    expect(after.member_usernames).toEqual([user.username]);
    expect(after.description).toBe("Edited");
    await ok("POST", `${uri}?with_members=FALSE`, { body: { ...after, member_usernames: [] } });
    expect(await membersOf(uri)).toEqual([user.username]);
    const replaced = await ok("GET", uri);
    await ok("POST", uri, { body: { ...replaced, member_usernames: undefined } });
    expect(await membersOf(uri)).toEqual([]);
  });

  it("a with_members that is not a boolean is a 400 naming it", async () => {
    const uri = await groupUri(repoId, "repository-project-managers");
    const group = await ok("GET", uri);
    const reply = await service.send("POST", `${uri}?with_members=perhaps`, { token: admin, body: group });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: { with_members: [expect.any(String)] } });
  });
});
