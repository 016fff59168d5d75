// createMany: the batch create importers use. A batch is checked as a whole before anything is
// written; its records may link to each other (ids given beforehand); tree nodes are placed in
// order, under parents of the same batch.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { BatchRecordError } from "../../src/records/operations/index.js";
import { startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

let server: RecordServer;
let repo: number;
const actor = trusted("importer");

beforeAll(async () => {
  server = await startRecordServer({ testCommands: true, monitorCommands: true });
  repo = (await server.ops.create("repository", {}, { repo_code: "batch", name: "Batch" }, actor)).id;
});
afterAll(() => server.stop());

const resourceBody = (id0: string) => ({
  title: "Papers",
  id_0: id0,
  level: "collection",
  finding_aid_language: "eng",
  finding_aid_script: "Latn",
  extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
  dates: [{ label: "creation", date_type: "single", begin: "1900" }],
  lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
});

describe("createMany", () => {
  it("creates a tree in one batch, parents before children, positions in order", async () => {
    const resource = (await server.ops.create("resource", { repoId: repo }, resourceBody("B1"), actor)).uri;
    const first = await server.ops.deps.store.nextIds("archival_object", 4);
    const uri = (i: number) => `/repositories/${repo}/archival_objects/${first + i}`;
    const node = (i: number, parent?: number) => ({
      id: first + i,
      input: {
        title: `n${i}`,
        level: "file",
        resource: { ref: resource },
        ...(parent !== undefined && { parent: { ref: uri(parent) } }),
      },
    });
    const results = await server.ops.createMany(
      "archival_object",
      { repoId: repo },
      [node(0), node(1, 0), node(2, 0), node(3)],
      actor,
    );
    expect(results.map((result) => result.uri)).toEqual([0, 1, 2, 3].map(uri));
    const read = await Promise.all(
      [0, 1, 2, 3].map((i) => server.ops.read("archival_object", { repoId: repo }, first + i, trusted("test"))),
    );
    expect(read.map((record) => [record.position, (record.parent as { ref?: string } | undefined)?.ref])).toEqual([
      [0, undefined],
      [0, uri(0)],
      [1, uri(0)],
      [1, undefined],
    ]);
  });

  it("a batch whose transaction the driver runs again is placed as it asked, once", async () => {
    const resource = (await server.ops.create("resource", { repoId: repo }, resourceBody("RETRY"), actor)).uri;
    const scope = { repoId: repo };
    const node = (title: string, position?: number) => ({
      input: { title, level: "file", resource: { ref: resource }, ...(position !== undefined && { position }) },
    });
    await server.ops.createMany("archival_object", scope, [node("e0"), node("e1")], actor);
    // The commit fails as a write conflict would: the driver runs the whole transaction again, from the stored state.
    const admin = server.connection.db!.admin();
    await admin.command({
      configureFailPoint: "failCommand",
      mode: { times: 1 },
      data: { failCommands: ["commitTransaction"], errorCode: 112, errorLabels: ["TransientTransactionError"] },
    });
    let commits = 0;
    const client = server.connection.getClient();
    const onCommit = (event: { commandName: string }) => {
      if (event.commandName === "commitTransaction") commits += 1;
    };
    client.on("commandStarted", onCommit);
    try {
      // b asks for the place a took, which moves a on: run again, each asks again for what it asked for.
      await server.ops.createMany("archival_object", scope, [node("a", 0), node("b", 0), node("c")], actor);
    } finally {
      client.off("commandStarted", onCommit);
      await admin.command({ configureFailPoint: "failCommand", mode: "off" });
    }
    expect(commits).toBe(2);
    const stored = await server.ops.deps.store
      .collection("archival_object")
      .find({ repo_id: repo, "resource.ref": resource })
      .sort({ position: 1 })
      .toArray();
    expect(stored.map((doc) => [doc.title, doc.position])).toEqual([
      ["b", 0],
      ["a", 1],
      ["e0", 2],
      ["e1", 3],
      ["c", 4],
    ]);
  });

  it("writes nothing when one record of the batch is bad, and says which", async () => {
    const before = await server.ops.deps.store.collection("resource").countDocuments({ repo_id: repo });
    const batch = [
      { input: resourceBody("ok-1") },
      { input: resourceBody("ok-2") },
      { input: { ...resourceBody("bad"), level: undefined } },
    ];
    const failure = await server.ops
      .createMany("resource", { repoId: repo }, batch, actor)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchRecordError);
    expect((failure as BatchRecordError).index).toBe(2);
    expect((failure as BatchRecordError).body).toEqual({ error: { level: ["Property is required but was missing"] } });
    expect(await server.ops.deps.store.collection("resource").countDocuments({ repo_id: repo })).toBe(before);
  });

  it("allocates consecutive ids to records given none", async () => {
    const vocabulary = (await server.ops.create("vocabulary", {}, { ref_id: "batch", name: "Batch" }, actor)).uri;
    const results = await server.ops
      .createMany(
        "subject",
        {},
        [1, 2, 3].map((i) => ({
          input: { source: "local", terms: [{ term: `Batch ${i}`, term_type: "topical", vocabulary }], vocabulary },
        })),
        actor,
      )
      .catch(async (error: unknown) => {
        throw new Error(`subject batch failed: ${JSON.stringify((error as BatchRecordError).body)}`);
      });
    const ids = results.map((result) => result.id);
    expect(ids).toEqual([ids[0], (ids[0] as number) + 1, (ids[0] as number) + 2]);
  });
});
