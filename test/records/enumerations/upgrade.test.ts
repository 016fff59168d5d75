// A store written by an Arca that numbered enumerations in the order it created them, started by
// one that gives them a stock ArchivesSpace install's ids: re-ided at start-up, in place. Records
// hold values, never value ids, so they read and validate as before.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import { trusted } from "../../../src/auth/actor.js";
import { startEngine, type RunningEngine } from "../../../src/embedded-mongo/index.js";
import {
  enumerationOperations,
  NO_STOCK,
  STOCK_ENUMERATIONS,
  type EnumerationOperations,
} from "../../../src/records/enumerations/index.js";
import type { RecordOperations } from "../../../src/records/operations/index.js";
import { openRecords } from "../../../src/records/setup.js";

const actor = trusted("tester");

let engine: RunningEngine;
let connection: Connection;

beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0 });
  connection = await mongoose.createConnection(engine.uri, { dbName: "enumeration_upgrade" }).asPromise();
});
afterAll(async () => {
  await connection.close();
  await engine.close();
});

async function open(stock = STOCK_ENUMERATIONS): Promise<[RecordOperations, EnumerationOperations]> {
  const ops = await openRecords(connection, { resolveMaxRefs: 1000, enumerationCache: { stock } });
  return [ops, enumerationOperations(ops.deps)];
}

const idOf = (uri: unknown) => Number(String(uri).split("/").pop());

describe("a store numbered before stock ids", () => {
  it("is re-ided at start-up; its records keep their values and stay valid", async () => {
    // The old numbering: enumerations in name order from 1, accession_acquisition_type first.
    const [oldOps, oldEnumerations] = await open(NO_STOCK);
    expect((await oldEnumerations.read(1, actor)).name).toBe("accession_acquisition_type");
    const oldLevels = await oldEnumerations.readByName("archival_record_level", actor);
    expect(oldLevels.uri).not.toBe("/config/enumerations/32");
    const repoId = (await oldOps.create("repository", {}, { repo_code: "up", name: "Up" }, actor)).id;
    const body = {
      title: "Before",
      id_0: "UP",
      acquisition_type: "gift",
      extents: [{ portion: "whole", number: "1", extent_type: "reels" }],
    };
    const accession = await oldOps.create("accession", { repoId }, body, actor);

    const [ops, enumerations] = await open();
    expect((await enumerations.read(32, actor)).name).toBe("archival_record_level");
    const extentTypes = await enumerations.readByName("extent_extent_type", actor);
    expect(extentTypes.uri).toBe("/config/enumerations/14");
    const reels = (extentTypes.enumeration_values as Array<{ value: string; uri: string }>).find(
      (value) => value.value === "reels",
    );
    expect(reels?.uri).toBe("/config/enumeration_values/281");
    // Every enumeration once; those stock lacks after its range.
    const list = await enumerations.list(actor);
    expect(new Set(list.map((item) => item.name)).size).toBe(list.length);
    for (const item of list.filter((entry) => !STOCK_ENUMERATIONS.byName.has(String(entry.name))))
      expect(idOf(item.uri)).toBeGreaterThan(STOCK_ENUMERATIONS.maxEnumerationId);
    // Stock values the old store never had are there now (event_outcome's read-only request states).
    expect((await enumerations.readByName("event_outcome", actor)).values).toEqual(
      expect.arrayContaining(["cancelled", "fulfilled", "pending"]),
    );

    const read = await ops.read("accession", { repoId }, accession.id, actor);
    expect(read).toMatchObject({
      acquisition_type: "gift",
      extents: [expect.objectContaining({ extent_type: "reels" })],
    });
    expect(
      await ops.update("accession", { repoId }, accession.id, { ...body, title: "After", lock_version: 0 }, actor),
    ).toMatchObject({ status: "Updated" });
    // The record still counts as a user of its values.
    await expect(
      enumerations.update(
        14,
        { ...extentTypes, values: (extentTypes.values as string[]).filter((value) => value !== "reels") },
        actor,
      ),
    ).rejects.toMatchObject({ status: 409 });
  });
});
