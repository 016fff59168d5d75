// The AccessControl the record routes ask (docs/api.md §8): permissions from is_admin and
// group memberships, nothing for unknown or inactive users, and a cache that invalidate() empties.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AccountAccessControl } from "../../src/accounts/access-control.js";
import { bootstrapAccounts } from "../../src/accounts/bootstrap.js";
import { CredentialStore } from "../../src/accounts/credential-store.js";
import { admin, openHarness, type RecordsHarness } from "../records/harness.js";
import { startAccountsApp, type AccountsApp } from "./harness.js";

let harness: RecordsHarness;
let clock = 1_000_000;
beforeAll(async () => {
  harness = await openHarness();
  await bootstrapAccounts(harness.ops, new CredentialStore(harness.connection));
  await harness.ops.create("repository", {}, { repo_code: "R", name: "R" }, admin);
  await harness.ops.create("user", {}, { username: "ann", name: "Ann" }, admin);
  await harness.ops.create("user", {}, { username: "idle", name: "Idle", is_active_user: false }, admin);
});
afterAll(() => harness.close());

async function joinViewers(username: string): Promise<void> {
  const [viewers] = await harness.ops.find("group", { repo_id: 2, group_code: "repository-viewers" });
  const id = Number(String(viewers!.uri).split("/").pop());
  await harness.ops.update("group", { repoId: 2 }, id, { ...viewers, member_usernames: [username] }, admin);
}

describe("AccountAccessControl", () => {
  it("grants an admin everything globally and a plain user nothing; unknown and inactive users get undefined", async () => {
    const access = new AccountAccessControl(harness.ops.deps.store, { ttlMs: 0 });
    expect((await access.permissionsOf("ADMIN"))?._archivesspace).toContain("manage_users");
    expect(await access.permissionsOf("ann")).toEqual({});
    expect(await access.permissionsOf("nobody")).toBeUndefined();
    expect(await access.permissionsOf("idle")).toBeUndefined();
  });

  it("caches answers until invalidate() or the time limit, and hands out answers nobody can change", async () => {
    const access = new AccountAccessControl(harness.ops.deps.store, { ttlMs: 10_000, now: () => clock });
    const before = await access.permissionsOf("ann");
    expect(before).toEqual({});
    expect(Object.isFrozen(before)).toBe(true);
    await joinViewers("ann");
    expect(await access.permissionsOf("ann")).toEqual({}); // cached
    clock += 10_001;
    expect(await access.permissionsOf("ann")).toEqual({ "/repositories/2": ["view_repository"] });
    await joinViewers("someone-else");
    expect(await access.permissionsOf("ann")).toEqual({ "/repositories/2": ["view_repository"] }); // cached
    await access.invalidate();
    expect(await access.permissionsOf("ann")).toEqual({});
  });
});

describe("the access cache of openAccounts", () => {
  let app: AccountsApp;
  beforeAll(async () => {
    app = await startAccountsApp();
  });
  afterAll(() => app.close());

  it("is emptied by a group or user written through the record operations directly, as an importer or a hook writes them", async () => {
    const { operations, accounts } = app;
    await operations.create("repository", {}, { repo_code: "CACHE", name: "Cache" }, admin);
    await operations.create("user", {}, { username: "bea", name: "Bea" }, admin);
    const access = accounts.accessControl;
    expect(await access.permissionsOf("bea")).toEqual({}); // now cached (10 s by default)
    const [viewers] = await operations.find("group", { group_code: "repository-viewers" });
    const repoId = Number(
      String((viewers!.repository as { ref: string }).ref)
        .split("/")
        .pop(),
    );
    const id = Number(String(viewers!.uri).split("/").pop());
    await operations.update("group", { repoId }, id, { ...viewers, member_usernames: ["bea"] }, admin);
    expect(await access.permissionsOf("bea")).toEqual({ [`/repositories/${repoId}`]: ["view_repository"] });
    const bea = (await operations.find("user", { username: "bea" }))[0]!;
    await operations.update(
      "user",
      {},
      Number(String(bea.uri).split("/").pop()),
      { ...bea, is_active_user: false },
      admin,
    );
    expect(await access.permissionsOf("bea")).toBeUndefined();
  });
});
