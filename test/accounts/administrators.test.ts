// Protecting administrators: who is an administrator is what they can do
// (administer_system by the is_admin flag or by a global group such as `administrators`), and
// only an administrator may reset the password of, deactivate, delete, or change the groups of
// one, or make one. A group write answers an unknown username and one the caller may not add
// in the same words.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { call, login, startAccountsApp, type AccountsApp } from "./harness.js";

let app: AccountsApp;
let admin: string;
/** Users by name: uri, and the password they were created with. */
const users = new Map<string, { uri: string; password: string }>();

// Many wrong passwords come from this one address on purpose; throttling has its own tests.
beforeAll(async () => {
  app = await startAccountsApp({ loginThrottle: { freeFailures: 1000 } });
  admin = await login(app, "admin", "admin");
  expect(
    (await call(app, "/repositories", { method: "POST", token: admin, json: { repo_code: "MAIN", name: "Main" } }))
      .status,
  ).toBe(200);
  for (const name of ["keeper", "usermgr", "manager", "globalmgr", "plain", "other"]) await createUser(name);
  // keeper is an administrator only through the administrators group, not the stored flag.
  await setMembers(1, "administrators", ["admin", "keeper"]);
  expect(
    (
      await call(app, "/repositories/1/groups", {
        method: "POST",
        token: admin,
        json: { group_code: "user-managers", grants_permissions: ["manage_users"], member_usernames: ["usermgr"] },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await call(app, "/repositories/1/groups", {
        method: "POST",
        token: admin,
        json: {
          group_code: "global-managers",
          grants_permissions: ["manage_repository"],
          member_usernames: ["globalmgr"],
        },
      })
    ).status,
  ).toBe(200);
  await setMembers(2, "repository-managers", ["manager"]);
});
afterAll(() => app.close());

async function createUser(name: string, extra: Record<string, unknown> = {}): Promise<void> {
  const password = `${name}-pw`;
  const created = await call(app, `/users?password=${password}`, {
    method: "POST",
    token: admin,
    json: { username: name, name, ...extra },
  });
  expect(created.status).toBe(200);
  users.set(name, { uri: created.body.uri as string, password });
}

function uriOf(name: string): string {
  return users.get(name)!.uri;
}

/** The stored user record, as a client would post it back. */
async function recordOf(name: string): Promise<Record<string, unknown>> {
  const { permissions: _computed, ...record } = (await call(app, uriOf(name), { token: admin })).body;
  return record;
}

async function groupOf(repoId: number, code: string): Promise<Record<string, unknown>> {
  const list = await call(app, `/repositories/${repoId}/groups?group_code=${code}`, { token: admin });
  expect(list.body).toHaveLength(1);
  return list.body[0]!;
}

async function setMembers(repoId: number, code: string, members: string[], token = admin) {
  const group = await groupOf(repoId, code);
  return call(app, group.uri as string, { method: "POST", token, json: { ...group, member_usernames: members } });
}

async function canLogIn(name: string, password: string): Promise<boolean> {
  return (await call(app, `/users/${name}/login?password=${password}`, { method: "POST" })).status === 200;
}

const DENIED = { status: 403, body: { error: "Access denied" } };

describe("a manage_users holder and an administrator by group membership (the reported path)", () => {
  it("cannot reset its password, so cannot log in as it and make itself an administrator", async () => {
    const usermgr = await login(app, "usermgr", "usermgr-pw");
    const keeper = await recordOf("keeper");
    expect(keeper.is_admin).toBe(false); // the stored flag: not what makes keeper an administrator
    expect(
      await call(app, `${uriOf("keeper")}?password=hijacked`, { method: "POST", token: usermgr, json: keeper }),
    ).toMatchObject(DENIED);
    expect(await canLogIn("keeper", "hijacked")).toBe(false);
    expect(await canLogIn("keeper", "keeper-pw")).toBe(true);
    expect(
      await call(app, uriOf("usermgr"), {
        method: "POST",
        token: usermgr,
        json: { ...(await recordOf("usermgr")), is_admin: true },
      }),
    ).toMatchObject(DENIED);
    const me = await call(app, "/users/current-user", { token: usermgr });
    expect(me.body).toMatchObject({
      username: "usermgr",
      is_admin: false,
      permissions: { _archivesspace: ["manage_users"] },
    });
  });

  it("cannot change it without a password either, deactivate it, or delete it", async () => {
    const usermgr = await login(app, "usermgr", "usermgr-pw");
    const keeper = await recordOf("keeper");
    expect(
      await call(app, uriOf("keeper"), { method: "POST", token: usermgr, json: { ...keeper, name: "Renamed" } }),
    ).toMatchObject(DENIED);
    expect(
      await call(app, uriOf("keeper"), { method: "POST", token: usermgr, json: { ...keeper, is_active_user: false } }),
    ).toMatchObject(DENIED);
    expect(await call(app, uriOf("keeper"), { method: "DELETE", token: usermgr })).toMatchObject(DENIED);
    expect(await recordOf("keeper")).toEqual(keeper);
    expect(await canLogIn("keeper", "keeper-pw")).toBe(true);
  });

  it("cannot create an administrator", async () => {
    const usermgr = await login(app, "usermgr", "usermgr-pw");
    expect(
      await call(app, "/users?password=x", {
        method: "POST",
        token: usermgr,
        json: { username: "boss", name: "B", is_admin: true },
      }),
    ).toMatchObject(DENIED);
  });

  it("cannot take over an inactive administrator by the flag (reactivate and reset it)", async () => {
    await createUser("dormant", { is_admin: true, is_active_user: false });
    const usermgr = await login(app, "usermgr", "usermgr-pw");
    const dormant = await recordOf("dormant");
    expect(
      await call(app, `${uriOf("dormant")}?password=hijacked`, {
        method: "POST",
        token: usermgr,
        json: { ...dormant, is_active_user: true },
      }),
    ).toMatchObject(DENIED);
    expect(await canLogIn("dormant", "hijacked")).toBe(false);
  });

  it("still manages everyone else: resets a plain user's password, creates and deletes users", async () => {
    const usermgr = await login(app, "usermgr", "usermgr-pw");
    expect(
      (
        await call(app, `${uriOf("plain")}?password=reset-pw`, {
          method: "POST",
          token: usermgr,
          json: await recordOf("plain"),
        })
      ).status,
    ).toBe(200);
    expect(await canLogIn("plain", "reset-pw")).toBe(true);
    users.set("plain", { uri: uriOf("plain"), password: "reset-pw" });
    const made = await call(app, "/users?password=x", {
      method: "POST",
      token: usermgr,
      json: { username: "temp", name: "T" },
    });
    expect(made.status).toBe(200);
    expect((await call(app, made.body.uri as string, { method: "DELETE", token: usermgr })).status).toBe(200);
  });

  it("an administrator may do all of it", async () => {
    const keeper = await recordOf("keeper");
    expect(
      (await call(app, `${uriOf("keeper")}?password=keeper-pw2`, { method: "POST", token: admin, json: keeper }))
        .status,
    ).toBe(200);
    expect(await canLogIn("keeper", "keeper-pw2")).toBe(true);
    // keeper, an administrator by group, may touch the admin in turn.
    const asKeeper = await login(app, "keeper", "keeper-pw2");
    expect(
      (await call(app, uriOf("dormant"), { method: "POST", token: asKeeper, json: await recordOf("dormant") })).status,
    ).toBe(200);
  });
});

describe("group writes and administrators", () => {
  it("a repository manager adding an administrator hears what it hears for an unknown username", async () => {
    const manager = await login(app, "manager", "manager-pw");
    const unknown = await setMembers(2, "repository-viewers", ["plain", "no-such-user"], manager);
    const administrator = await setMembers(2, "repository-viewers", ["plain", "keeper"], manager);
    const flagged = await setMembers(2, "repository-viewers", ["plain", "admin"], manager);
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: { "member_usernames/1": ["No user named 'no-such-user' can be added"] } },
    });
    expect(administrator).toMatchObject({
      status: 400,
      body: { error: { "member_usernames/1": ["No user named 'keeper' can be added"] } },
    });
    expect(flagged).toMatchObject({
      status: 400,
      body: { error: { "member_usernames/1": ["No user named 'admin' can be added"] } },
    });
    expect(administrator.text.replace("keeper", "NAME")).toBe(unknown.text.replace("no-such-user", "NAME"));
    expect((await groupOf(2, "repository-viewers")).member_usernames).toEqual([]);
    // The same group write with users the manager may add goes through.
    expect((await setMembers(2, "repository-viewers", ["plain", "other"], manager)).status).toBe(200);
  });

  it("a group create answers the same way", async () => {
    const manager = await login(app, "manager", "manager-pw");
    const bodies = await Promise.all(
      ["keeper", "nobody-here"].map((name) =>
        call(app, "/repositories/2/groups", {
          method: "POST",
          token: manager,
          json: { group_code: `probe-${name}`, member_usernames: [name] },
        }),
      ),
    );
    expect(bodies.map((reply) => [reply.status, reply.body.error])).toEqual([
      [400, { "member_usernames/0": ["No user named 'keeper' can be added"] }],
      [400, { "member_usernames/0": ["No user named 'nobody-here' can be added"] }],
    ]);
  });

  it("a repository manager can neither take an administrator out of a group nor delete a group holding one", async () => {
    expect((await setMembers(2, "repository-archivists", ["keeper", "plain"])).status).toBe(200);
    const manager = await login(app, "manager", "manager-pw");
    expect(await setMembers(2, "repository-archivists", ["plain"], manager)).toMatchObject({
      status: 403,
      body: { error: "Only an administrator may change an administrator's groups" },
    });
    const archivists = await groupOf(2, "repository-archivists");
    expect(await call(app, archivists.uri as string, { method: "DELETE", token: manager })).toMatchObject({
      status: 403,
    });
    expect((await groupOf(2, "repository-archivists")).member_usernames).toEqual(["keeper", "plain"]);
    // Keeping the administrator and changing the rest is fine.
    expect((await setMembers(2, "repository-archivists", ["keeper", "other"], manager)).status).toBe(200);
  });

  it("a global manage_repository holder cannot join, change or delete the administrators group, nor make another group granting administer_system", async () => {
    const globalmgr = await login(app, "globalmgr", "globalmgr-pw");
    const before = await groupOf(1, "administrators");
    expect(await setMembers(1, "administrators", ["admin", "keeper", "globalmgr"], globalmgr)).toMatchObject(DENIED);
    expect(await call(app, before.uri as string, { method: "DELETE", token: globalmgr })).toMatchObject(DENIED);
    expect(
      await call(app, "/repositories/1/groups", {
        method: "POST",
        token: globalmgr,
        json: { group_code: "admins-2", grants_permissions: ["administer_system"], member_usernames: ["globalmgr"] },
      }),
    ).toMatchObject(DENIED);
    const managers = await groupOf(1, "global-managers");
    expect(
      await call(app, managers.uri as string, {
        method: "POST",
        token: globalmgr,
        json: { ...managers, grants_permissions: ["manage_repository", "administer_system"] },
      }),
    ).toMatchObject(DENIED);
    expect(await groupOf(1, "administrators")).toEqual(before);
    const me = await call(app, "/users/current-user", { token: globalmgr });
    expect(me.body.permissions).toEqual({ _archivesspace: ["manage_repository"] });
  });

  it("an administrator changes the administrators group", async () => {
    expect((await setMembers(1, "administrators", ["admin", "keeper", "other"])).status).toBe(200);
    const other = await login(app, "other", "other-pw");
    expect(
      ((await call(app, "/users/current-user", { token: other })).body.permissions as Record<string, string[]>)
        ._archivesspace,
    ).toContain("administer_system");
    expect((await setMembers(1, "administrators", ["admin", "keeper"])).status).toBe(200);
  });
});

describe("a new account", () => {
  it("starts in no group, even where a group still names an earlier account of that name", async () => {
    const administrators = await groupOf(1, "administrators");
    const id = Number(String(administrators.uri).split("/").pop());
    // Written straight to the store (the group rules refuse an unknown member): what a group write
    // racing the earlier account's deletion leaves.
    await app.operations.deps.store
      .collection("group")
      .updateOne(
        { id, repo_id: 1 },
        { $set: { member_usernames: [...(administrators.member_usernames as string[]), "newcomer"] } },
      );
    await app.accounts.accessControl.invalidate();
    const usermgr = await login(app, "usermgr", "usermgr-pw");
    expect(
      (
        await call(app, "/users?password=newcomer-pw", {
          method: "POST",
          token: usermgr,
          json: { username: "newcomer", name: "N" },
        })
      ).status,
    ).toBe(200);
    expect((await groupOf(1, "administrators")).member_usernames).not.toContain("newcomer");
    const newcomer = await login(app, "newcomer", "newcomer-pw");
    expect((await call(app, "/users/current-user", { token: newcomer })).body.permissions).toEqual({});
  });
});
