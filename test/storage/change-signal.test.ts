// A change signal shared through the store: what one process raises, every process on the store
// sees at its next check, and checks read the store at most once per checkMs. And the permission
// cache built on it: two AccountAccessControls on two connections to one store, as two Arca nodes.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import { AccountAccessControl } from "../../src/accounts/access-control.js";
import { bootstrapAccounts } from "../../src/accounts/bootstrap.js";
import { CredentialStore } from "../../src/accounts/credential-store.js";
import { ChangeSignal, SIGNALS_COLLECTION } from "../../src/storage/change-signal.js";
import { RecordStore } from "../../src/storage/record-store.js";
import { admin, openHarness, type RecordsHarness } from "../records/harness.js";

let harness: RecordsHarness;
let other: Connection;
beforeAll(async () => {
  harness = await openHarness();
  other = await mongoose
    .createConnection(harness.engine.uri, { dbName: harness.connection.db!.databaseName })
    .asPromise();
  await bootstrapAccounts(harness.ops, new CredentialStore(harness.connection));
  await harness.ops.create("repository", {}, { repo_code: "R", name: "R" }, admin);
  await harness.ops.create("user", {}, { username: "ann", name: "Ann" }, admin);
});
afterAll(async () => {
  await other.close();
  await harness.close();
});

describe("ChangeSignal", () => {
  it("answers true at the first check, then only after a raise by any process, reading at most once per checkMs", async () => {
    let clock = 0;
    const here = new ChangeSignal(harness.connection, "test", { checkMs: 1000, now: () => clock });
    const there = new ChangeSignal(other, "test", { checkMs: 1000, now: () => clock });
    expect(await here.changed()).toBe(true);
    expect(await here.changed()).toBe(false);
    await there.raise();
    expect(await here.changed()).toBe(false); // checked less than checkMs ago: no read
    clock += 1000;
    expect(await here.changed()).toBe(true);
    clock += 1000;
    expect(await here.changed()).toBe(false);
    // Callers at the same moment share one read, and all hear the change.
    await there.raise();
    clock += 1000;
    expect(await Promise.all([here.changed(), here.changed(), here.changed()])).toEqual([true, true, true]);
    expect(await harness.connection.collection(SIGNALS_COLLECTION).findOne({ _id: "test" as never })).toMatchObject({
      version: 2,
    });
  });
});

describe("the permission cache across two processes on one store", () => {
  it("drops an answer another process's invalidate() made stale, at its next check", async () => {
    let clock = 1_000_000;
    const nodeA = new AccountAccessControl(harness.ops.deps.store, { ttlMs: 30_000, checkMs: 1000, now: () => clock });
    const nodeB = new AccountAccessControl(new RecordStore(other, harness.ops.deps.registry), {
      ttlMs: 30_000,
      checkMs: 1000,
      now: () => clock,
    });
    expect(await nodeB.permissionsOf("ann")).toEqual({});
    const [viewers] = await harness.ops.find("group", { repo_id: 2, group_code: "repository-viewers" });
    await harness.ops.update(
      "group",
      { repoId: 2 },
      Number(String(viewers!.uri).split("/").pop()),
      { ...viewers, member_usernames: ["ann"] },
      admin,
    );
    const signals = harness.connection.collection(SIGNALS_COLLECTION);
    const before = (await signals.findOne({ _id: "permissions" as never }))?.version ?? 0;
    // invalidate() resolves once the signal is in the store.
    await nodeA.invalidate();
    expect((await signals.findOne({ _id: "permissions" as never }))?.version).toBeGreaterThan(before);
    expect(await nodeB.permissionsOf("ann")).toEqual({}); // within checkMs of its last check: cached
    clock += 1000;
    expect(await nodeB.permissionsOf("ann")).toEqual({ "/repositories/2": ["view_repository"] });
  });
});
