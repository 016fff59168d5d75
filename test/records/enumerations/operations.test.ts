// Enumerations from a schema-only type (fixtures/gadget.schema.json), through the transport-free
// operations: where the registry finds enumerated values (a discriminated union's variants, a
// list of values), the filter that finds a record using a value, validation against the stored
// values, and the rules of an update (in use, read-only, not editable).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import mongoose, { type Connection } from "mongoose";
import { startEngine, type RunningEngine } from "../../../src/embedded-mongo/index.js";
import { enumerationOperations, type EnumerationOperations } from "../../../src/records/enumerations/index.js";
import { usageFilter } from "../../../src/records/enumerations/usage.js";
import type { RecordOperations } from "../../../src/records/operations/index.js";
import { openRecords } from "../../../src/records/setup.js";
import { generate } from "../../../src/registry/build/generate.js";
import { Registry } from "../../../src/registry/registry.js";
import { removeTempDirs, schemaDirWith } from "../../registry/helpers.js";
import { ANONYMOUS, trusted } from "../../../src/auth/actor.js";

const fixture = fileURLToPath(new URL("./fixtures/gadget.schema.json", import.meta.url));
const actor = trusted("tester");

let registry: Registry;
let engine: RunningEngine;
let connection: Connection;
let ops: RecordOperations;
let enumerations: EnumerationOperations;
let repoId: number;

beforeAll(async () => {
  const dir = schemaDirWith({}, { withRealTypes: true });
  copyFileSync(fixture, join(dir, "gadget.schema.json"));
  registry = new Registry((await generate(dir)).manifest);
  engine = await startEngine({ inMemory: true, port: 0 });
  connection = await mongoose.createConnection(engine.uri, { dbName: "enumeration_ops" }).asPromise();
  ops = await openRecords(connection, { resolveMaxRefs: 1000, registry });
  enumerations = enumerationOperations(ops.deps);
  repoId = (await ops.create("repository", {}, { repo_code: "r", name: "R" }, actor)).id;
}, 60_000);
afterAll(async () => {
  await connection.close();
  await engine.close();
  removeTempDirs();
});

type Enumeration = { uri: string; values: string[]; lock_version: number; name: string } & Record<string, unknown>;

async function setValues(name: string, values: string[]) {
  const current = (await enumerations.readByName(name, actor)) as Enumeration;
  return enumerations.update(Number(current.uri.split("/").pop()), { ...current, values }, actor);
}

function gadget(extra: Record<string, unknown>) {
  return ops.create("gadget", { repoId }, { name: "g", ...extra }, actor);
}

async function errorOf(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await promise;
  } catch (error) {
    const apiError = error as { status: number; body: unknown };
    return { status: apiError.status, body: apiError.body };
  }
  throw new Error("expected an error");
}

describe("the registry", () => {
  it("finds each enumerated field, with the union variant it sits in", () => {
    const paths = registry
      .get("gadget")
      .enumerationPaths.map(({ enumeration, path, conditions }) => ({ enumeration, path, conditions }));
    expect(paths).toEqual(
      expect.arrayContaining([
        { enumeration: "gadget_finish", path: "finish", conditions: [] },
        { enumeration: "gadget_tag", path: "tags/*", conditions: [] },
        {
          enumeration: "gadget_dial_kind",
          path: "parts/*/kind",
          conditions: [{ at: 2, field: "jsonmodel_type", value: "gadget_dial" }],
        },
        {
          enumeration: "gadget_knob_kind",
          path: "parts/*/kind",
          conditions: [{ at: 2, field: "jsonmodel_type", value: "gadget_knob" }],
        },
      ]),
    );
  });

  it("gathers each enumeration's seed values, read-only values (defaults) and users", () => {
    expect(registry.enumerations.get("gadget_finish")).toEqual({
      name: "gadget_finish",
      values: ["matte", "gloss"],
      readonlyValues: ["matte"],
      editable: true,
      usedBy: ["gadget/finish"],
    });
    expect(registry.enumerations.get("gadget_size")?.editable).toBe(false);
  });

  it("turns a path into a filter matching the variant and the value in one list item", () => {
    const [dial] = registry.get("gadget").enumerationPaths.filter((path) => path.enumeration === "gadget_dial_kind");
    expect(usageFilter(dial!, "round")).toEqual({
      parts: { $elemMatch: { jsonmodel_type: "gadget_dial", kind: "round" } },
    });
    const [tag] = registry.get("gadget").enumerationPaths.filter((path) => path.enumeration === "gadget_tag");
    expect(usageFilter(tag!, "new")).toEqual({ tags: "new" });
    const [finish] = registry.get("gadget").enumerationPaths.filter((path) => path.enumeration === "gadget_finish");
    expect(usageFilter(finish!, "gloss")).toEqual({ finish: "gloss" });
  });

  it("seeds a schema-only type's enumerations", async () => {
    expect(await enumerations.readByName("gadget_knob_kind", actor)).toMatchObject({
      values: ["round", "fluted"],
      relationships: ["gadget/parts/*/kind"],
      editable: true,
    });
    expect(await enumerations.readByName("gadget_size", actor)).toMatchObject({ editable: false });
  });
});

describe("validation", () => {
  it("checks each variant against its own enumeration", async () => {
    expect((await gadget({ parts: [{ jsonmodel_type: "gadget_knob", kind: "fluted" }] })).status).toBe("Created");
    expect(await errorOf(gadget({ parts: [{ jsonmodel_type: "gadget_dial", kind: "fluted" }] }))).toEqual({
      status: 400,
      body: { error: { "parts/0/kind": ["Invalid value 'fluted'.  Must be one of: round, square"] } },
    });
  });

  it("follows the stored values at once after a change in this process", async () => {
    expect((await errorOf(gadget({ tags: ["mint"] }))).status).toBe(400);
    await setValues("gadget_tag", ["new", "used", "mint"]);
    expect((await gadget({ tags: ["mint"] })).status).toBe("Created");
  });
});

describe("removing a value", () => {
  it("counts only records holding it in the variant of its enumeration", async () => {
    await gadget({ parts: [{ jsonmodel_type: "gadget_knob", kind: "round" }] });
    // A knob is round, no dial is: "round" can leave the dial kinds, not the knob kinds.
    expect((await setValues("gadget_dial_kind", ["square"])).status).toBe("Updated");
    const refused = await errorOf(setValues("gadget_knob_kind", ["fluted"]));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: expect.stringMatching(
        /^Can't remove the value 'round' of gadget_knob_kind: it is in use by \/repositories\/\d+\/gadgets\/\d+ \(parts\/\*\/kind\)$/,
      ),
    });
  });

  it("looks in lists of values", async () => {
    await gadget({ tags: ["used"] });
    expect((await errorOf(setValues("gadget_tag", ["new", "mint"]))).body).toEqual({
      error: expect.stringContaining("(tags/*)"),
    });
  });

  it("refuses a read-only value (a schema default), even unused", async () => {
    expect(await errorOf(setValues("gadget_finish", ["gloss"]))).toEqual({
      status: 409,
      body: { error: "Can't remove the read-only value 'matte' of gadget_finish: the record types rely on it" },
    });
  });

  it("refuses to add or remove values of an enumeration that is not editable, but reorders it", async () => {
    const message = {
      status: 409,
      body: { error: "gadget_size is not editable: its values can be reordered, not added or removed" },
    };
    expect(await errorOf(setValues("gadget_size", ["s", "m", "l", "xl"]))).toEqual(message);
    expect(await errorOf(setValues("gadget_size", ["s", "m"]))).toEqual(message);
    expect((await setValues("gadget_size", ["l", "m", "s"])).status).toBe("Updated");
    expect((await enumerations.readByName("gadget_size", actor)).values).toEqual(["l", "m", "s"]);
  });
});

describe("moving a value's uses", () => {
  it("a migration of one variant's enumeration changes only records' parts of that variant", async () => {
    const made = await gadget({
      parts: [
        { jsonmodel_type: "gadget_dial", kind: "square" },
        { jsonmodel_type: "gadget_knob", kind: "round" },
      ],
      tags: ["new"],
    });
    const knobs = (await enumerations.readByName("gadget_knob_kind", actor)) as Enumeration;
    await enumerations.update(
      Number(knobs.uri.split("/").pop()),
      { ...knobs, values: ["round", "fluted", "ridged"] },
      actor,
    );
    const dials = (await enumerations.readByName("gadget_dial_kind", actor)) as Enumeration;
    await enumerations.update(Number(dials.uri.split("/").pop()), { ...dials, values: ["square", "ridged"] }, actor);

    const migrated = await enumerations.migrate({ enum_uri: knobs.uri, from: "round", to: "ridged" }, actor);
    expect(migrated.values).toEqual(["fluted", "ridged"]);
    const after = await ops.read("gadget", { repoId }, made.id, actor);
    expect(after.parts).toEqual([
      { jsonmodel_type: "gadget_dial", kind: "square" },
      { jsonmodel_type: "gadget_knob", kind: "ridged" },
    ]);
    expect(after.lock_version).toBe(1);
    // The dial kinds' "square" is another enumeration's value: untouched by a rename of a knob kind.
    const dialSquare = (await enumerations.readByName("gadget_dial_kind", actor)).enumeration_values as Array<{
      uri: string;
      value: string;
      lock_version: number;
    }>;
    const square = dialSquare.find((value) => value.value === "square")!;
    await enumerations.updateValue(Number(square.uri.split("/").pop()), { ...square, value: "boxy" }, actor);
    expect((await ops.read("gadget", { repoId }, made.id, actor)).parts).toEqual([
      { jsonmodel_type: "gadget_dial", kind: "boxy" },
      { jsonmodel_type: "gadget_knob", kind: "ridged" },
    ]);
  });
});

describe("who may", () => {
  const user = (permissions: Record<string, string[]>) => ({ kind: "user" as const, username: "u", permissions });
  const status = async (promise: Promise<unknown>) =>
    promise.then(
      () => 200,
      (error: { status?: number }) => error.status,
    );

  it("reads with anyone logged in, writes with update_enumeration_record held anywhere, and nobody anonymous", async () => {
    const current = (await enumerations.readByName("gadget_knob_kind", actor)) as Enumeration;
    const id = Number(current.uri.split("/").pop());
    expect(await status(enumerations.list(ANONYMOUS))).toBe(403);
    expect(await status(enumerations.readByName("gadget_knob_kind", ANONYMOUS))).toBe(403);
    const plain = user({});
    expect(await status(enumerations.read(id, plain))).toBe(200);
    expect(await status(enumerations.update(id, current, plain))).toBe(403);
    expect(await status(enumerations.create({ name: "probe_list", values: ["a"] }, plain))).toBe(403);
    const archivist = user({ [`/repositories/${repoId}`]: ["update_enumeration_record"] });
    const updated = await enumerations.update(id, current, archivist);
    expect(updated).toMatchObject({ status: "Updated", lock_version: current.lock_version + 1 });
    expect(await enumerations.read(id, archivist)).toMatchObject({ last_modified_by: "u" });
  });
});
