// Every committed write is told to the change listeners (src/records/changes.ts), whichever
// operation made it and however many records it touched, once it has committed: never for a
// write that was rolled back, and once for a transaction the driver had to retry.
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals";
import type { Change } from "../../src/records/changes.js";
import { minimalResource } from "./harness.js";
import { startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

let server: RecordServer;
const heard: Change[] = [];
const system = trusted("system");

/** Changes a slow listener finished with, while `slow` is on. */
const finished: Change[] = [];
let slow = false;
/** While on, a listener subscribed before the others throws. */
let failing = false;

beforeAll(async () => {
  server = await startRecordServer({ testCommands: true, monitorCommands: true });
  server.ops.deps.changes.subscribe(() => {
    if (failing) throw new Error("listener broke");
  });
  server.ops.deps.changes.subscribe((change) => {
    heard.push(change);
  });
  server.ops.deps.changes.subscribe(async (change) => {
    if (!slow) return;
    await new Promise((done) => setTimeout(done, 15));
    finished.push(change);
  });
});
afterAll(() => server.stop());
beforeEach(() => {
  heard.length = 0;
});

const failPoint = (
  command: "delete" | "commitTransaction",
  mode: { skip: number } | { times: number },
  errorLabels: string[] = [],
) =>
  server.connection.db!.admin().command({
    configureFailPoint: "failCommand",
    mode,
    data: { failCommands: [command], errorCode: 112, errorLabels },
  });
const failPointOff = () => server.connection.db!.admin().command({ configureFailPoint: "failCommand", mode: "off" });

/** "operation type id" of what was heard, in order ("all" or "first-end" for a bulk delete). */
const told = () =>
  heard.map((change) => {
    const which = "id" in change ? change.id : change.ids === "all" ? "all" : `${change.ids.first}-${change.ids.end}`;
    return `${change.operation} ${change.type} ${which}`;
  });

/** A repository with a resource holding a series of two files. */
async function holdings(code: string): Promise<{ repoId: number; resourceId: number; nodeIds: number[] }> {
  const repoId = (await server.ops.create("repository", {}, { repo_code: code, name: code }, system)).id;
  const scope = { repoId };
  const resourceId = (await server.ops.create("resource", scope, minimalResource(code), system)).id;
  const resource = { ref: `/repositories/${repoId}/resources/${resourceId}` };
  const series = (
    await server.ops.create("archival_object", scope, { title: "Series", level: "series", resource }, system)
  ).id;
  const parent = { ref: `/repositories/${repoId}/archival_objects/${series}` };
  const files = [];
  for (const title of ["One", "Two"])
    files.push(
      (await server.ops.create("archival_object", scope, { title, level: "file", resource, parent }, system)).id,
    );
  return { repoId, resourceId, nodeIds: [series, ...files] };
}

describe("change listeners", () => {
  it("hear a create, with what its hook wrote in the same transaction (a repository's standard groups)", async () => {
    const repoId = (await server.ops.create("repository", {}, { repo_code: "changes-1", name: "Changes" }, system)).id;
    expect(heard[0]).toEqual({ type: "repository", operation: "create", id: repoId, scope: {} });
    const groups = heard.slice(1);
    expect(groups.length).toBeGreaterThan(0);
    for (const change of groups)
      expect(change).toMatchObject({ type: "group", operation: "create", scope: { repoId } });
  });

  it("hear an update, a tree move and a delete with everything it cascaded to", async () => {
    const { repoId, resourceId, nodeIds } = await holdings("changes-2");
    heard.length = 0;
    const scope = { repoId };
    const resource = await server.ops.read("resource", scope, resourceId, trusted("test"));
    await server.ops.update("resource", scope, resourceId, { ...resource, title: "Renamed" }, system);
    await server.ops.treeMoves.moveUnder("archival_object", scope, nodeIds[2]!, undefined, 0, system);
    expect(told()).toEqual([`update resource ${resourceId}`, `update archival_object ${nodeIds[2]}`]);
    heard.length = 0;
    await server.ops.delete("resource", scope, resourceId, system);
    expect(told().sort()).toEqual(
      [`delete resource ${resourceId}`, ...nodeIds.map((id) => `delete archival_object ${id}`)].sort(),
    );
  });

  it("hear a repository's delete, and each type of record it removed in bulk, in the same transaction", async () => {
    const { repoId } = await holdings("changes-repo");
    heard.length = 0;
    await server.ops.delete("repository", {}, repoId, system);
    expect(told().sort()).toEqual(
      ["delete archival_object all", "delete group all", "delete resource all", `delete repository ${repoId}`].sort(),
    );
    for (const change of heard.filter((change) => change.type !== "repository"))
      expect(change.scope).toEqual({ repoId });
  });

  it("hear nothing of a repository's delete that failed half-way and was rolled back", async () => {
    const { repoId } = await holdings("changes-repo-fail");
    heard.length = 0;
    await failPoint("delete", { skip: 2 });
    try {
      await expect(server.ops.delete("repository", {}, repoId, system)).rejects.toThrow();
    } finally {
      await failPointOff();
    }
    expect(heard).toEqual([]);
  });

  it("hear nothing of a delete that failed half-way and was rolled back", async () => {
    const { repoId, resourceId } = await holdings("changes-3");
    heard.length = 0;
    await failPoint("delete", { skip: 2 });
    try {
      await expect(server.ops.delete("resource", { repoId }, resourceId, system)).rejects.toThrow();
    } finally {
      await failPointOff();
    }
    expect(heard).toEqual([]);
  });

  it("are waited for: a write answers only once its listeners are done, in a transaction or not", async () => {
    const { repoId, resourceId } = await holdings("changes-slow");
    const scope = { repoId };
    slow = true;
    try {
      const created = await server.ops.create("repository", {}, { repo_code: "slow", name: "Slow" }, system);
      expect(finished).toContainEqual({ type: "repository", operation: "create", id: created.id, scope: {} });
      const resource = await server.ops.read("resource", scope, resourceId, trusted("test"));
      await server.ops.update("resource", scope, resourceId, { ...resource, title: "Renamed" }, system);
      expect(finished.at(-1)).toEqual({ type: "resource", operation: "update", id: resourceId, scope });
      await server.ops.delete("resource", scope, resourceId, system);
      expect(finished.at(-1)).toMatchObject({ type: "resource", operation: "delete", id: resourceId });
    } finally {
      slow = false;
    }
  });

  it("hear the groups a user's delete or create takes the name out of, in the same transaction", async () => {
    const repoId = (await server.ops.create("repository", {}, { repo_code: "members", name: "Members" }, system)).id;
    const userId = (await server.ops.create("user", {}, { username: "leaver", name: "Leaver" }, system)).id;
    const [viewers] = await server.ops.find("group", { repo_id: repoId, group_code: "repository-viewers" });
    const groupId = Number(String(viewers!.uri).split("/").pop());
    const members = async () =>
      (await server.ops.read("group", { repoId }, groupId, trusted("test"))).member_usernames as string[] | undefined;
    await server.ops.update("group", { repoId }, groupId, { ...viewers, member_usernames: ["leaver"] }, system);
    heard.length = 0;
    // The user's own delete fails after the hook took the name out: nothing changed, nothing told.
    await failPoint("delete", { times: 1 });
    try {
      await expect(server.ops.delete("user", {}, userId, system)).rejects.toThrow();
    } finally {
      await failPointOff();
    }
    expect(await members()).toEqual(["leaver"]);
    expect(heard).toEqual([]);
    await server.ops.delete("user", {}, userId, system);
    expect(await members()).toEqual([]);
    expect(told()).toEqual([`update group ${groupId}`, `delete user ${userId}`]);
    // A name left in a group (a group write racing an earlier delete) is taken out by a new user's create.
    await server.connection.collection("groups").updateOne({ id: groupId }, { $set: { member_usernames: ["leaver"] } });
    heard.length = 0;
    const again = (await server.ops.create("user", {}, { username: "leaver", name: "Again" }, system)).id;
    expect(await members()).toEqual([]);
    expect(told()).toEqual([`create user ${again}`, `update group ${groupId}`]);
  });

  it("cannot fail a committed write: what one throws is logged, and the others still hear it", async () => {
    const { repoId, resourceId } = await holdings("changes-throw");
    const scope = { repoId };
    const logged = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
    failing = true;
    heard.length = 0;
    try {
      const resource = await server.ops.read("resource", scope, resourceId, trusted("test"));
      await expect(
        server.ops.update("resource", scope, resourceId, { ...resource, title: "Still" }, system),
      ).resolves.toMatchObject({ status: "Updated" });
      await expect(server.ops.delete("resource", scope, resourceId, system)).resolves.toMatchObject({
        status: "Deleted",
      });
    } finally {
      failing = false;
    }
    // Read before mockRestore, which empties the recorded calls.
    const lines = logged.mock.calls.map(([line]) => String(line));
    logged.mockRestore();
    expect(told()).toContain(`update resource ${resourceId}`);
    expect(told()).toContain(`delete resource ${resourceId}`);
    expect(lines).toContainEqual(expect.stringContaining('"event":"change_listener_failed"'));
  });

  it("hear each change once when the driver retried the transaction", async () => {
    const { repoId, resourceId, nodeIds } = await holdings("changes-4");
    heard.length = 0;
    // Every delete of the cascade is made, then the commit fails as a write conflict would: the
    // driver runs the whole transaction again, and its deletes are made (and recorded) twice.
    await failPoint("commitTransaction", { times: 1 }, ["TransientTransactionError"]);
    const commits: string[] = [];
    const client = server.connection.getClient();
    const onCommit = (event: { commandName: string }) => {
      if (event.commandName === "commitTransaction") commits.push(event.commandName);
    };
    client.on("commandStarted", onCommit);
    try {
      await server.ops.delete("resource", { repoId }, resourceId, system);
    } finally {
      client.off("commandStarted", onCommit);
      await failPointOff();
    }
    expect(commits.length).toBe(2); // the retry happened
    expect(told().sort()).toEqual(
      [`delete resource ${resourceId}`, ...nodeIds.map((id) => `delete archival_object ${id}`)].sort(),
    );
  });
});
