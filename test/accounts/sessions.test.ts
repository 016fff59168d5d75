// Login, logout and current-user over real HTTP (docs/api.md §2).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { call, login, startAccountsApp, type AccountsApp } from "./harness.js";

let app: AccountsApp;
beforeAll(async () => {
  app = await startAccountsApp();
});
afterAll(() => app.close());

const HEX64 = /^[0-9a-f]{64}$/;

describe("login", () => {
  it("takes the password from the query string and answers a 64-hex session and the user with permissions", async () => {
    const { status, body } = await call(app, "/users/admin/login?password=admin", { method: "POST" });
    expect(status).toBe(200);
    expect(body.session).toMatch(HEX64);
    expect(body.user).toMatchObject({ username: "admin", name: "Administrator", is_admin: true, uri: "/users/1" });
    const user = body.user as { permissions: Record<string, string[]> };
    expect(user.permissions._archivesspace).toEqual(
      expect.arrayContaining(["administer_system", "manage_users", "create_repository"]),
    );
    expect(body).not.toHaveProperty("expire_after_seconds");
  });

  it("takes the password from a form body, with expiring=False, and then tells how long the session lasts", async () => {
    const { status, body } = await call(app, "/users/admin/login", {
      method: "POST",
      form: { password: "admin", expiring: "False" },
    });
    expect(status).toBe(200);
    expect(body.session).toMatch(HEX64);
    expect(body.expire_after_seconds).toBe(7 * 24 * 3600);
  });

  it("takes the password from a JSON body too", async () => {
    const { status } = await call(app, "/users/admin/login", { method: "POST", json: { password: "admin" } });
    expect(status).toBe(200);
  });

  it("does not mind the Ruby client's empty JSON body", async () => {
    const { status } = await call(app, "/users/admin/login?password=admin", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      raw: "",
    });
    expect(status).toBe(200);
  });

  it("treats usernames as case-insensitive and trimmed", async () => {
    const { status, body } = await call(app, `/users/${encodeURIComponent("  AdMiN ")}/login?password=admin`, {
      method: "POST",
    });
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ username: "admin" });
  });

  it.each([
    ["a wrong password", "/users/admin/login?password=nope"],
    ["an unknown user", "/users/nobody/login?password=admin"],
  ])("answers 403 Login failed for %s", async (_name, path) => {
    const { status, body } = await call(app, path, { method: "POST" });
    expect(status).toBe(403);
    expect(body).toEqual({ error: "Login failed" });
  });

  it.each([
    ["no password", "/users/admin/login"],
    ["an empty password", "/users/admin/login?password="],
  ])("answers 400 naming the parameter for %s", async (_name, path) => {
    const { status, body } = await call(app, path, { method: "POST" });
    expect(status).toBe(400);
    expect(body).toEqual({ error: { password: ["Parameter required but no value provided"] } });
  });

  it("answers 400 for an expiring value that is not a boolean", async () => {
    const { status, body } = await call(app, "/users/admin/login?password=admin&expiring=maybe", { method: "POST" });
    expect(status).toBe(400);
    expect(body.error).toHaveProperty("expiring");
  });

  it("refuses an inactive user, with the same answer", async () => {
    const admin = await login(app, "admin", "admin");
    expect(
      (
        await call(app, "/users?password=pw1", {
          method: "POST",
          token: admin,
          json: { username: "sleeper", name: "S", is_active_user: false },
        })
      ).status,
    ).toBe(200);
    expect(await call(app, "/users/sleeper/login?password=pw1", { method: "POST" })).toMatchObject({
      status: 403,
      body: { error: "Login failed" },
    });
  });
});

describe("sessions", () => {
  it("current-user answers the caller's record with permissions, and 403 without a session", async () => {
    const token = await login(app, "admin", "admin");
    const mine = await call(app, "/users/current-user", { token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ username: "admin", is_admin: true, uri: "/users/1" });
    expect(mine.body.permissions).toHaveProperty("_archivesspace");
    expect(await call(app, "/users/current-user")).toEqual(
      expect.objectContaining({ status: 403, body: { error: "Access denied" } }),
    );
  });

  it("the session header's ArchivesSpace alias and the X-Service-Session header both work", async () => {
    const token = await login(app, "admin", "admin");
    expect((await call(app, "/users/current-user", { headers: { "X-Service-Session": token } })).status).toBe(200);
  });

  it("logout ends the session; the token is then gone (412), even on an open route", async () => {
    const token = await login(app, "admin", "admin");
    expect(await call(app, "/logout", { method: "POST", token })).toMatchObject({
      status: 200,
      body: { status: "session_logged_out" },
    });
    const after = await call(app, "/repositories", { token });
    expect(after.status).toBe(412);
    expect(after.body).toMatchObject({ code: "SESSION_GONE" });
  });

  it("logout without a session says there was none", async () => {
    expect(await call(app, "/logout", { method: "POST" })).toMatchObject({
      status: 200,
      body: { status: "no_active_session" },
    });
  });

  it("a made-up token answers 412 on an open route", async () => {
    const { status, body } = await call(app, "/repositories", { token: "f".repeat(64) });
    expect(status).toBe(412);
    expect(body).toMatchObject({ code: "SESSION_GONE" });
  });
});
