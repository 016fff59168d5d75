// Record operations over a fresh in-memory engine, for operation-level tests (the store of
// test/support/service.ts, with no HTTP in front), and the records they share.
import { openTestStore, type TestStore } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";
import { enumerationOperations } from "../../src/records/enumerations/index.js";
import type { JsonObject } from "../../src/registry/json.js";

export type RecordsHarness = TestStore;

export function openHarness(resolveMaxRefs = 1000): Promise<RecordsHarness> {
  return openTestStore({ dbName: "records", records: { resolveMaxRefs } });
}

export const admin = trusted("admin");

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

/** Appends values to an editable enumeration, as an administrator would before records use them. */
export async function addEnumerationValues(h: RecordsHarness, name: string, values: readonly string[]): Promise<void> {
  const enumerations = enumerationOperations(h.ops.deps);
  const current = (await enumerations.readByName(name, admin)) as JsonObject & { uri: string; values: string[] };
  const id = Number(current.uri.split("/").pop());
  await enumerations.update(id, { ...current, values: [...current.values, ...values] }, admin);
}
