// Record operations over a fresh in-memory engine, for operation-level tests.
import mongoose, { type Connection } from "mongoose";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";
import type { RecordOperations } from "../../src/records/operations/index.js";
import { openRecords } from "../../src/records/setup.js";

export interface RecordsHarness {
  ops: RecordOperations;
  connection: Connection;
  engine: RunningEngine;
  close(): Promise<void>;
}

export async function openHarness(resolveMaxRefs = 1000): Promise<RecordsHarness> {
  const engine: RunningEngine = await startEngine({ inMemory: true, port: 0 });
  const connection = await mongoose.createConnection(engine.uri, { dbName: "records" }).asPromise();
  const ops = await openRecords(connection, { resolveMaxRefs });
  return {
    ops,
    connection,
    engine,
    async close() {
      await connection.close();
      await engine.close();
    },
  };
}

export const admin = { username: "admin" };

/** The fields a resource must have to be stored (identifier `id0`), plus `extra`: the smallest valid resource. */
export function minimalResource(id0: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: "Papers",
    id_0: id0,
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
    dates: [{ date_type: "inclusive", label: "creation", expression: "1900-1950" }],
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    ...extra,
  };
}
