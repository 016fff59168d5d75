// The account rules live in the operations (the user and group hooks of src/accounts/), so they
// hold for every caller, not only the HTTP routes: a script or a future job calling the
// operations meets the same administrators' protection and group rules, and a user's password is
// written in the same transaction as the user.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { trusted, type UserActor } from "../../src/auth/actor.js";
import { refusal, startService, type Service } from "../support/service.js";

let app: Service;
beforeAll(async () => {
  app = await startService({ testCommands: true });
});
afterAll(() => app.stop());

const userManager: UserActor = { kind: "user", username: "usermgr", permissions: { _archivesspace: ["manage_users"] } };

const userCount = () => app.ops.deps.store.collection("user").countDocuments();

describe("called past the routes", () => {
  it("a manage_users holder may not make an administrator, nor touch one; trusted code may", async () => {
    const before = await userCount();
    const admin = { username: "second-admin", name: "Second", is_admin: true };
    expect(await refusal(app.ops.create("user", {}, admin, userManager))).toEqual({
      status: 403,
      detail: "Access denied",
    });
    expect(await userCount()).toBe(before);
    const made = await app.ops.create("user", {}, admin, trusted("script"));
    const stored = await app.ops.read("user", {}, made.id, trusted("script"));
    expect(await refusal(app.ops.update("user", {}, made.id, { ...stored, name: "Renamed" }, userManager))).toEqual({
      status: 403,
      detail: "Access denied",
    });
    expect((await refusal(app.ops.delete("user", {}, made.id, userManager))).status).toBe(403);
    expect(await refusal(app.ops.delete("user", {}, 1, trusted("script")))).toEqual({
      status: 409,
      detail: "The admin user cannot be deleted",
    });
  });

  it("usernames are normalised, unique and fixed", async () => {
    const made = await app.ops.create("user", {}, { username: "  Mixed.Case ", name: "M" }, userManager);
    const stored = await app.ops.read("user", {}, made.id, userManager);
    expect(stored.username).toBe("mixed.case");
    expect(await refusal(app.ops.create("user", {}, { username: "MIXED.case", name: "Again" }, userManager))).toEqual({
      status: 400,
      detail: { username: ["Username 'mixed.case' is already in use"] },
    });
    expect(await refusal(app.ops.update("user", {}, made.id, { ...stored, username: "other" }, userManager))).toEqual({
      status: 400,
      detail: { username: ["A username cannot be changed"] },
    });
  });

  it("a group's members must be users, and its grants of the group's level", async () => {
    const group = { group_code: "probe", description: "", member_usernames: ["Nobody-Here"], grants_permissions: [] };
    expect(await refusal(app.ops.create("group", { repoId: 1 }, group, trusted("script")))).toEqual({
      status: 400,
      detail: { "member_usernames/0": ["No user named 'nobody-here' can be added"] },
    });
    const repo = await app.ops.create("repository", {}, { repo_code: "rules", name: "Rules" }, trusted("script"));
    const global = { ...group, member_usernames: [], grants_permissions: ["administer_system"] };
    expect((await refusal(app.ops.create("group", { repoId: repo.id }, global, trusted("script")))).status).toBe(400);
  });
});

describe("a user and their password", () => {
  it("are written together: a failed password write leaves no user, and the same create then succeeds whole", async () => {
    const before = await userCount();
    const admin = app.connection.db!.admin();
    // The credential upsert is the one update command of a user create.
    await admin.command({
      configureFailPoint: "failCommand",
      mode: { times: 1 },
      data: { failCommands: ["update"], errorCode: 1 },
    });
    const body = { username: "atomic", name: "Atomic" };
    const failed = await app.send("POST", "/users?password=atomic-pw", { token: app.adminToken, body });
    await admin.command({ configureFailPoint: "failCommand", mode: "off" });
    expect(failed.status).toBe(500);
    expect(await userCount()).toBe(before);
    const made = await app.send("POST", "/users?password=atomic-pw", { token: app.adminToken, body });
    expect(made.status).toBe(200);
    expect(await app.login("atomic", "atomic-pw")).toMatch(/^[0-9a-f]{64}$/);
  });
});
