// Opening the records on a store made by an earlier version: an index whose declaration changed (a link index that
// was not sparse) is made again as declared, and the others are left as they are.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";
import { registry } from "../../src/registry/index.js";
import { openRecords } from "../../src/records/setup.js";

let engine: RunningEngine;
let connection: Connection;

beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0 });
  connection = await mongoose.createConnection(engine.uri, { dbName: "index_sync", monitorCommands: true }).asPromise();
});
afterAll(async () => {
  await connection.close();
  await engine.close();
});

it("makes an index again when the store's differs from its declaration, and keeps the rest", async () => {
  const accessions = connection.collection(registry.get("accession").collection);
  // As an earlier version declared it: every record in it, a null key for those without a subject.
  await accessions.createIndex({ "subjects.ref": 1 }, { name: "subjects_ref_link_index" });
  await accessions.createIndex({ repo_id: 1, title: 1, id: 1 }, { name: "title_index" });
  await accessions.insertOne({ id: 1, repo_id: 2, title: "Kept", subjects: [{ ref: "/subjects/1" }] });
  const dropped: string[] = [];
  connection.getClient().on("commandStarted", (event) => {
    if (event.commandName === "dropIndexes") dropped.push(String(event.command.index));
  });

  await openRecords(connection, { resolveMaxRefs: 1000 });
  expect(dropped).toEqual(["subjects_ref_link_index"]);
  const indexes = await accessions.listIndexes().toArray();
  const named = (name: string) => indexes.find((index) => index.name === name);
  expect(named("subjects_ref_link_index")).toMatchObject({ key: { "subjects.ref": 1 }, sparse: true });
  expect(named("title_index")).toMatchObject({ key: { repo_id: 1, title: 1, id: 1 } });
  expect(named("title_index")?.sparse).toBeUndefined();
  // Every declared index is there, and the record was not touched.
  expect(indexes.map((index) => index.name).sort()).toEqual(
    ["_id_", "system_mtime_index", ...registry.indexes("accession").map((index) => index.name)].sort(),
  );
  expect(await accessions.countDocuments({ "subjects.ref": "/subjects/1" })).toBe(1);

  // Opened again, nothing differs: nothing is dropped (each drop costs a rebuild of the index).
  await openRecords(connection, { resolveMaxRefs: 1000 });
  expect(dropped).toEqual(["subjects_ref_link_index"]);
});

it("two nodes starting at once on such a store both start, with the index made once as declared", async () => {
  const connect = () => mongoose.createConnection(engine.uri, { dbName: "index_sync_two" }).asPromise();
  const [a, b] = await Promise.all([connect(), connect()]);
  try {
    const accessions = a.collection(registry.get("accession").collection);
    await accessions.createIndex({ "subjects.ref": 1 }, { name: "subjects_ref_link_index" });
    // Both list the index as it was and both go to drop it: the second finds it gone.
    await Promise.all([openRecords(a, { resolveMaxRefs: 1000 }), openRecords(b, { resolveMaxRefs: 1000 })]);
    const indexes = await accessions.listIndexes().toArray();
    expect(indexes.filter((index) => index.name === "subjects_ref_link_index")).toEqual([
      expect.objectContaining({ key: { "subjects.ref": 1 }, sparse: true }),
    ]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
