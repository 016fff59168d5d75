// The start-up bootstrap (docs/api.md §2, §8): global repository, administrators, admin.
import { afterEach, describe, expect, it } from "@jest/globals";
import { bootstrapAccounts, BootstrapError, DEFAULT_ADMIN_PASSWORD } from "../../src/accounts/bootstrap.js";
import { CredentialStore } from "../../src/accounts/credential-store.js";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import mongoose, { type Connection } from "mongoose";
import { openAccounts, type BootstrapResult } from "../../src/accounts/index.js";
import { SessionStore } from "../../src/auth/session-store.js";
import { startEngine } from "../../src/embedded-mongo/index.js";
import { STOCK_ENUMERATIONS } from "../../src/records/enumerations/stock.js";
import { EnumerationStore } from "../../src/records/enumerations/store.js";
import type { RecordOperations } from "../../src/records/operations/index.js";
import { openRecords } from "../../src/records/setup.js";
import { registry } from "../../src/registry/index.js";
import { admin, openHarness, type RecordsHarness } from "../records/harness.js";
import { trusted } from "../../src/auth/actor.js";

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
    expect(result).toEqual({
      defaultAdminPasswordInUse: true,
      created: ["global repository", "admin user", "admin password", "administrators group", "global vocabulary"],
    });
    expect(await harness.ops.read("repository", {}, 1, trusted("test"))).toMatchObject({
      repo_code: "_archivesspace",
      uri: "/repositories/1",
    });
    const groups = await harness.ops.find("group", { repo_id: 1 });
    expect(groups).toHaveLength(1); // no standard groups for the global repository
    expect(groups[0]).toMatchObject({ group_code: "administrators", member_usernames: ["admin"] });
    expect([...(groups[0]!.grants_permissions as string[])].sort()).toEqual([...PERMISSIONS].sort());
    expect(await harness.ops.find("user", { username: "admin" })).toEqual([
      expect.objectContaining({ is_admin: true }),
    ]);
    expect(await credentials.verify("admin", DEFAULT_ADMIN_PASSWORD)).toBe(true);
    expect(await harness.ops.read("vocabulary", {}, 1, trusted("test"))).toMatchObject({
      uri: "/vocabularies/1",
      ref_id: "global",
      name: "global",
    });
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
    expect(
      (await bootstrapAccounts(harness.ops, credentials, { adminPassword: "s3cret" })).defaultAdminPasswordInUse,
    ).toBe(false);
    expect(await credentials.verify("admin", "s3cret")).toBe(true);
    expect(await credentials.verify("admin", DEFAULT_ADMIN_PASSWORD)).toBe(false);
  });

  it("refuses a store whose repository 1 is a user repository", async () => {
    const { harness, credentials } = await fresh();
    await harness.ops.create("repository", {}, { repo_code: "OLD", name: "Old" }, admin);
    await expect(bootstrapAccounts(harness.ops, credentials)).rejects.toBeInstanceOf(BootstrapError);
  });
});

// Two nodes started at the same instant on a fresh shared store (two replicas of one deployment):
// each runs the whole start-up (indexes, enumerations, sessions, bootstrap) over its own
// connection, at once. Both must come up, and the store must hold each thing once.
describe("bootstrap of two nodes starting at once on one fresh store", () => {
  async function startNode(
    engineUri: string,
    dbName: string,
  ): Promise<{ connection: Connection; result: BootstrapResult; ops: RecordOperations }> {
    const connection = await mongoose.createConnection(engineUri, { dbName }).asPromise();
    const ops = await openRecords(connection, { resolveMaxRefs: 1000 });
    const sessions = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 3600 });
    await sessions.init();
    const accounts = await openAccounts({ connection, operations: ops, sessions });
    return { connection, result: accounts.bootstrap, ops };
  }

  it("both succeed, and there is one admin, one of each group, one vocabulary and no duplicate enumeration value", async () => {
    const engine = await startEngine({ inMemory: true, port: 0 });
    const connections: Connection[] = [];
    try {
      for (let round = 0; round < 4; round++) {
        const dbName = `race${round}`;
        const nodes = await Promise.all([
          startNode(engine.uri, dbName),
          startNode(engine.uri, dbName),
          ...(round % 2 === 0 ? [startNode(engine.uri, dbName)] : []),
        ]);
        connections.push(...nodes.map((node) => node.connection));
        const ops = nodes[0]!.ops;
        // Each thing was created by exactly one node.
        const created = nodes.flatMap((node) => node.result.created).sort();
        expect(created).toEqual([
          "admin password",
          "admin user",
          "administrators group",
          "global repository",
          "global vocabulary",
        ]);
        expect(await ops.find("user", {})).toEqual([
          expect.objectContaining({ username: "admin", is_admin: true, uri: "/users/1" }),
        ]);
        expect(await ops.find("group", {})).toEqual([
          expect.objectContaining({
            group_code: "administrators",
            uri: "/repositories/1/groups/1",
            member_usernames: ["admin"],
          }),
        ]);
        expect(await ops.find("repository", {})).toEqual([
          expect.objectContaining({ repo_code: "_archivesspace", uri: "/repositories/1" }),
        ]);
        expect(await ops.find("vocabulary", {})).toEqual([
          expect.objectContaining({ ref_id: "global", uri: "/vocabularies/1" }),
        ]);
        expect(await new CredentialStore(nodes[1]!.connection).verify("admin", DEFAULT_ADMIN_PASSWORD)).toBe(true);
        // Every enumeration once, its values each once, no value id shared.
        const enumerations = await new EnumerationStore(nodes[0]!.connection).all();
        const names = enumerations.map((e) => e.name);
        expect(new Set(names).size).toBe(names.length);
        // A stock install's enumerations and the schemas' own.
        expect(names.length).toBe(new Set([...STOCK_ENUMERATIONS.byName.keys(), ...registry.enumerations.keys()]).size);
        for (const enumeration of enumerations) {
          const values = enumeration.values.map((v) => v.value);
          expect(new Set(values).size).toBe(values.length);
        }
        const valueIds = enumerations.flatMap((e) => e.values.map((v) => v.id));
        expect(new Set(valueIds).size).toBe(valueIds.length);
        // Counters moved past what start-up took: the next of each type is fresh and repository ids start at 2.
        const repo = await ops.create("repository", {}, { repo_code: `R${round}`, name: "Next" }, admin);
        expect(repo).toMatchObject({ id: 2 });
        expect(await ops.create("user", {}, { username: `u${round}`, name: "Next" }, admin)).toMatchObject({ id: 2 });
        expect(await ops.find("group", { repo_id: 2 })).toHaveLength(6);
        // A third start on the populated store creates nothing.
        const again = await startNode(engine.uri, dbName);
        connections.push(again.connection);
        expect(again.result.created).toEqual([]);
      }
    } finally {
      await Promise.all(connections.map((connection) => connection.close()));
      await engine.close();
    }
  }, 120_000);
});
