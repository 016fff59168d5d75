// The start-up bootstrap (api-contract §2, §8): global repository, administrators, admin.
import { afterEach, describe, expect, it } from "@jest/globals";
import { bootstrapAccounts, BootstrapError, DEFAULT_ADMIN_PASSWORD } from "../../src/accounts/bootstrap.js";
import { CredentialStore } from "../../src/accounts/credential-store.js";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import { admin, openHarness, type RecordsHarness } from "../records/harness.js";

let harness: RecordsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function fresh(): Promise<{ harness: RecordsHarness; credentials: CredentialStore }> {
  harness = await openHarness();
  return { harness, credentials: new CredentialStore(harness.connection) };
}

describe("bootstrap", () => {
  it("creates the global repository, the administrators group and the admin user, and says the default password is in use", async () => {
    const { harness, credentials } = await fresh();
    const result = await bootstrapAccounts(harness.ops, credentials);
    expect(result).toEqual({ defaultAdminPasswordInUse: true, created: ["global repository", "admin user", "admin password", "administrators group", "global vocabulary"] });
    expect(await harness.ops.read("repository", {}, 1)).toMatchObject({ repo_code: "_archivesspace", uri: "/repositories/1" });
    const groups = await harness.ops.find("group", { repo_id: 1 });
    expect(groups).toHaveLength(1); // no standard groups for the global repository
    expect(groups[0]).toMatchObject({ group_code: "administrators", member_usernames: ["admin"] });
    expect([...(groups[0]!.grants_permissions as string[])].sort()).toEqual([...PERMISSIONS].sort());
    expect(await harness.ops.find("user", { username: "admin" })).toEqual([expect.objectContaining({ is_admin: true })]);
    expect(await credentials.verify("admin", DEFAULT_ADMIN_PASSWORD)).toBe(true);
    expect(await harness.ops.read("vocabulary", {}, 1)).toMatchObject({ uri: "/vocabularies/1", ref_id: "global", name: "global" });
  });

  it("is idempotent, never resets a changed admin password, and the first user repository gets id 2", async () => {
    const { harness, credentials } = await fresh();
    await bootstrapAccounts(harness.ops, credentials, { adminPassword: "first secret" });
    await credentials.set("admin", "changed since");
    const again = await bootstrapAccounts(harness.ops, credentials, { adminPassword: "other secret" });
    expect(again).toEqual({ defaultAdminPasswordInUse: false, created: [] });
    expect(await credentials.verify("admin", "changed since")).toBe(true);
    expect(await harness.ops.find("user", {})).toHaveLength(1);
    expect(await harness.ops.find("group", {})).toHaveLength(1);
    expect(await harness.ops.find("repository", {})).toHaveLength(1);
    const created = await harness.ops.create("repository", {}, { repo_code: "MAIN", name: "Main" }, admin);
    expect(created).toMatchObject({ id: 2, uri: "/repositories/2" });
    expect(await harness.ops.find("group", { repo_id: 2 })).toHaveLength(6);
  });

  it("uses ADMIN_PASSWORD when it creates the admin, and then raises no warning", async () => {
    const { harness, credentials } = await fresh();
    expect((await bootstrapAccounts(harness.ops, credentials, { adminPassword: "s3cret" })).defaultAdminPasswordInUse).toBe(false);
    expect(await credentials.verify("admin", "s3cret")).toBe(true);
    expect(await credentials.verify("admin", DEFAULT_ADMIN_PASSWORD)).toBe(false);
  });

  it("refuses a store whose repository 1 is a user repository", async () => {
    const { harness, credentials } = await fresh();
    await harness.ops.create("repository", {}, { repo_code: "OLD", name: "Old" }, admin);
    await expect(bootstrapAccounts(harness.ops, credentials)).rejects.toBeInstanceOf(BootstrapError);
  });
});
