// Editing one enumeration value and migrating values over HTTP, on a real server and store, as
// ArchivesSpace's /config/enumeration_values and /config/enumerations/migration routes have it:
// renaming a value (its records follow), moving it, suppressing it, moving every use of one value
// to another across record types; and every error a client can cause, with its status and body.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import { PARAMETER_REQUIRED } from "../../../src/records/http/request-params.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE } from "../../../src/records/operations/update.js";
import { startRecordServer, type RecordServer, type RequestOptions } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

type Json = Record<string, unknown>;

interface Value extends Json {
  uri: string;
  value: string;
  position: number;
  suppressed: boolean;
  readonly: boolean;
  lock_version: number;
}

interface Enumeration extends Json {
  uri: string;
  name: string;
  values: string[];
  lock_version: number;
  enumeration_values: Value[];
  readonly_values: string[];
}

let server: RecordServer;
let admin: string;
let viewer: string;
let repoId: number;

beforeAll(async () => {
  server = await startRecordServer();
  repoId = (await server.ops.create("repository", {}, { repo_code: "vals", name: "Values" }, trusted("system"))).id;
  admin = await server.login("admin", { _archivesspace: [...PERMISSIONS] });
  viewer = await server.login("viewer", { [`/repositories/${repoId}`]: ["view_repository"] });
});
afterAll(() => server.stop());

async function send(
  method: string,
  path: string,
  options?: RequestOptions,
): Promise<{ status: number; body: unknown }> {
  const { status, body } = await server.send(method, path, options);
  return { status, body };
}

const post = (path: string, body?: unknown, token = admin) => send("POST", path, { token, body });
const get = async <T>(path: string): Promise<T> => (await send("GET", path, { token: admin })).body as T;
const byName = (name: string) => get<Enumeration>(`/config/enumerations/names/${name}`);

async function valueOf(name: string, text: string): Promise<Value> {
  const value = (await byName(name)).enumeration_values.find((candidate) => candidate.value === text);
  if (value === undefined) throw new Error(`${name} has no value ${text}`);
  return value;
}

let seq = 0;
async function accession(extra: Json): Promise<string> {
  seq += 1;
  const reply = await post(`/repositories/${repoId}/accessions`, {
    title: `A${seq}`,
    id_0: "V",
    id_1: `${seq}`,
    ...extra,
  });
  expect(reply.status).toBe(200);
  return (reply.body as { uri: string }).uri;
}

async function resource(extra: Json): Promise<string> {
  seq += 1;
  const reply = await post(`/repositories/${repoId}/resources`, {
    title: `R${seq}`,
    id_0: "VR",
    id_1: `${seq}`,
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    dates: [{ date_type: "single", label: "creation", begin: "1901" }],
    lang_materials: [{ language_and_script: { language: "eng" } }],
    ...extra,
  });
  expect(reply.status).toBe(200);
  return (reply.body as { uri: string }).uri;
}

describe("POST /config/enumeration_values/:id", () => {
  it("renames a value: every record holding it follows, in every field and list using the enumeration", async () => {
    const held = await accession({ acquisition_type: "gift" });
    const before = await get<Json>(held);
    const gift = await valueOf("accession_acquisition_type", "gift");
    const enumeration = await byName("accession_acquisition_type");

    const reply = await post(gift.uri, { ...gift, value: "donation" });
    expect(reply).toEqual({
      status: 200,
      body: { status: "Updated", id: 245, lock_version: 1, stale: null, uri: gift.uri, warnings: [] },
    });
    const after = await byName("accession_acquisition_type");
    expect(after.values).toEqual(enumeration.values.map((value) => (value === "gift" ? "donation" : value)));
    expect(after.lock_version).toBe(enumeration.lock_version + 1);
    expect(await get<Value>(gift.uri)).toMatchObject({ value: "donation", position: gift.position, lock_version: 1 });
    expect(await get<Json>(held)).toMatchObject({
      acquisition_type: "donation",
      lock_version: (before.lock_version as number) + 1,
      last_modified_by: "admin",
    });
    // The old text is gone: a new record cannot take it.
    const refused = await post(`/repositories/${repoId}/accessions`, {
      title: "x",
      id_0: "V",
      id_1: "gift",
      acquisition_type: "gift",
    });
    expect(refused.status).toBe(400);
  });

  it("renames inside a list of values, in the union variant that uses the enumeration", async () => {
    const note = {
      jsonmodel_type: "note_multipart",
      type: "accessrestrict",
      rights_restriction: { local_access_restriction_type: ["RestrictedSpecColl", "ColdStorageBrbl"] },
      subnotes: [],
    };
    const held = await resource({ notes: [note] });
    const cold = await valueOf("restriction_type", "ColdStorageBrbl");
    expect((await post(cold.uri, { ...cold, value: "ColdStorage" })).status).toBe(200);
    expect(((await get<Json>(held)).notes as Json[])[0]).toMatchObject({
      rights_restriction: { local_access_restriction_type: ["RestrictedSpecColl", "ColdStorage"] },
    });
  });

  it("moves a value by its position (swapping with the value there) and suppresses it, in one update", async () => {
    const approximate = await valueOf("date_certainty", "approximate");
    const questionable = await valueOf("date_certainty", "questionable");
    expect([approximate.position, questionable.position]).toEqual([0, 2]);
    expect((await post(approximate.uri, { ...approximate, position: 2, suppressed: true })).status).toBe(200);
    const after = await byName("date_certainty");
    expect(after.enumeration_values.map((value) => [value.value, value.position, value.suppressed])).toEqual([
      ["questionable", 0, false],
      ["inferred", 1, false],
      ["approximate", 2, true],
    ]);
    expect(after.values).toEqual(["questionable", "inferred"]);
  });

  it("answers 409 without lock_version or with a stale one", async () => {
    const value = await valueOf("date_era", "ce");
    const { lock_version: _omitted, ...withoutLock } = value;
    expect(await post(value.uri, withoutLock)).toEqual({ status: 409, body: { error: LOCK_VERSION_MISSING } });
    expect((await post(value.uri, { ...value, position: 0 })).status).toBe(200);
    expect(await post(value.uri, value)).toEqual({ status: 409, body: { error: LOCK_VERSION_STALE } });
  });

  it("answers 400 for a bad body, or a text the enumeration already has", async () => {
    const value = await valueOf("accession_resource_type", "papers");
    expect(await post(value.uri, { ...value, value: "" })).toEqual({
      status: 400,
      body: { error: { value: ["Must be at least 1 characters"] } },
    });
    expect(await post(value.uri, { ...value, colour: "red" })).toEqual({
      status: 400,
      body: { error: { colour: ["Unknown property: not part of the schema"] } },
    });
    expect(await post(value.uri, { ...value, position: -1 })).toEqual({
      status: 400,
      body: { error: { position: ["must be >= 0"] } },
    });
    expect(await post(value.uri, { ...value, value: "records" })).toEqual({
      status: 400,
      body: { error: { value: ["'records' is already a value of accession_resource_type"] } },
    });
  });

  it("answers 409 for a read-only value or a value of an enumeration that is not editable renamed", async () => {
    const digital = await valueOf("instance_instance_type", "digital_object");
    expect(await post(digital.uri, { ...digital, value: "digital" })).toEqual({
      status: 409,
      body: {
        error:
          "Can't rename the read-only value 'digital_object' of instance_instance_type: the record types rely on it",
      },
    });
    const abstract = await valueOf("note_singlepart_type", "abstract");
    expect(await post(abstract.uri, { ...abstract, value: "summary" })).toEqual({
      status: 409,
      body: { error: "note_singlepart_type is not editable: its values can be reordered, not renamed" },
    });
    // Its position it may change.
    expect((await post(abstract.uri, { ...abstract, position: 1 })).status).toBe(200);
  });

  it("answers 404 for an unknown value, 400 for a bad id, 403 without update_enumeration_record", async () => {
    const value = await valueOf("date_calendar", "gregorian");
    expect(await post("/config/enumeration_values/99999", value)).toEqual({
      status: 404,
      body: { error: "Enumeration value not found" },
    });
    expect(await post("/config/enumeration_values/x", value)).toEqual({
      status: 400,
      body: { error: { id: ['Must be a positive whole number, not "x"'] } },
    });
    expect(await post(value.uri, value, viewer)).toEqual({ status: 403, body: { error: "Access denied" } });
    expect(await send("POST", value.uri, { body: value })).toEqual({ status: 403, body: { error: "Access denied" } });
  });
});

describe("POST /config/enumeration_values/:id/position", () => {
  it("swaps places with the value at the target position; a position no value has leaves a gap", async () => {
    const inches = await valueOf("dimension_units", "inches");
    const meters = await valueOf("dimension_units", "meters");
    expect(await post(`${meters.uri}/position?position=0`)).toEqual({
      status: 200,
      body: { status: "Updated", id: 1354, lock_version: 0, stale: null, uri: meters.uri, warnings: [] },
    });
    let after = await byName("dimension_units");
    expect(after.values).toEqual(["meters", "feet", "yards", "millimeters", "centimeters", "inches"]);
    expect(await get<Value>(inches.uri)).toMatchObject({ position: 5 });

    expect((await post(`${meters.uri}/position?position=9`)).status).toBe(200);
    after = await byName("dimension_units");
    expect(after.enumeration_values.map((value) => [value.value, value.position])).toEqual([
      ["feet", 1],
      ["yards", 2],
      ["millimeters", 3],
      ["centimeters", 4],
      ["inches", 5],
      ["meters", 9],
    ]);
    // An update of the list numbers the positions from 0 again.
    expect((await post(after.uri, after)).status).toBe(200);
    expect((await byName("dimension_units")).enumeration_values.map((value) => value.position)).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
  });

  it("answers 400 for a missing or bad position, 404 for an unknown value, 403 without the permission", async () => {
    const value = await valueOf("dimension_units", "feet");
    expect(await post(`${value.uri}/position`)).toEqual({
      status: 400,
      body: { error: { position: [PARAMETER_REQUIRED] } },
    });
    expect(await post(`${value.uri}/position?position=-2`)).toEqual({
      status: 400,
      body: { error: { position: ['Must be a whole number of at least 0, not "-2"'] } },
    });
    expect(await post("/config/enumeration_values/99999/position?position=0")).toEqual({
      status: 404,
      body: { error: "Enumeration value not found" },
    });
    expect(await post(`${value.uri}/position?position=0`, undefined, viewer)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
  });
});

describe("POST /config/enumeration_values/:id/suppressed", () => {
  it("hides a value from values (not from enumeration_values); records may still hold it; restored on false", async () => {
    const reels = await valueOf("extent_extent_type", "reels");
    expect(await post(`${reels.uri}/suppressed?suppressed=true`)).toEqual({
      status: 200,
      body: { status: "Suppressed", id: 281, suppressed_state: true },
    });
    const suppressed = await byName("extent_extent_type");
    expect(suppressed.values).not.toContain("reels");
    expect(suppressed.enumeration_values.find((value) => value.value === "reels")).toMatchObject({
      suppressed: true,
      position: reels.position,
      lock_version: reels.lock_version + 1,
    });
    // As in ArchivesSpace, validation still takes it: a record may be saved with it.
    await accession({ extents: [{ portion: "whole", number: "2", extent_type: "reels" }] });
    // The list as read (without it) posted back keeps it.
    expect((await post(suppressed.uri, suppressed)).status).toBe(200);
    expect((await byName("extent_extent_type")).enumeration_values.map((value) => value.value)).toContain("reels");

    expect(await post(`${reels.uri}/suppressed?suppressed=false`)).toEqual({
      status: 200,
      body: { status: "Suppressed", id: 281, suppressed_state: false },
    });
    expect((await byName("extent_extent_type")).values).toContain("reels");
  });

  it("hides a read-only value from readonly_values too", async () => {
    const existence = await valueOf("date_label", "existence");
    expect((await post(`${existence.uri}/suppressed?suppressed=TRUE`)).status).toBe(200);
    expect((await byName("date_label")).readonly_values).toEqual([]);
  });

  it("answers 400 for a missing or bad flag, 404 for an unknown value, 403 without the permission", async () => {
    const value = await valueOf("extent_extent_type", "leaves");
    expect(await post(`${value.uri}/suppressed`)).toEqual({
      status: 400,
      body: { error: { suppressed: [PARAMETER_REQUIRED] } },
    });
    expect(await post(`${value.uri}/suppressed?suppressed=maybe`)).toEqual({
      status: 400,
      body: { error: { suppressed: ['Must be true or false, not "maybe"'] } },
    });
    expect(await post("/config/enumeration_values/99999/suppressed?suppressed=true")).toEqual({
      status: 404,
      body: { error: "Enumeration value not found" },
    });
    expect(await post(`${value.uri}/suppressed?suppressed=true`, undefined, viewer)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
  });
});

describe("POST /config/enumerations/migration", () => {
  it("moves every use of a value to another across record types, removes it, and answers the enumeration", async () => {
    const first = await accession({ extents: [{ portion: "whole", number: "1", extent_type: "sheets" }] });
    const second = await accession({
      extents: [
        { portion: "part", number: "1", extent_type: "volumes" },
        { portion: "part", number: "3", extent_type: "sheets" },
      ],
    });
    const held = await resource({ extents: [{ portion: "whole", number: "4", extent_type: "sheets" }] });
    const untouched = await accession({ extents: [{ portion: "whole", number: "1", extent_type: "volumes" }] });
    const locks = await Promise.all(
      [first, second, held, untouched].map(async (uri) => (await get<Json>(uri)).lock_version),
    );
    const before = await byName("extent_extent_type");

    const reply = await post("/config/enumerations/migration", {
      enum_uri: before.uri,
      from: "sheets",
      to: "cubic_feet",
    });
    expect(reply.status).toBe(200);
    const after = reply.body as Enumeration;
    expect(after).toEqual(await byName("extent_extent_type"));
    expect(after.values).toEqual(before.values.filter((value) => value !== "sheets"));
    expect(after.enumeration_values.map((value) => value.position)).toEqual(after.enumeration_values.map((_, i) => i));
    expect(after.lock_version).toBe(before.lock_version + 1);

    const extentTypes = async (uri: string) =>
      ((await get<Json>(uri)).extents as Json[]).map((extent) => extent.extent_type);
    expect(await extentTypes(first)).toEqual(["cubic_feet"]);
    expect(await extentTypes(second)).toEqual(["volumes", "cubic_feet"]);
    expect(await extentTypes(held)).toEqual(["cubic_feet"]);
    expect(await extentTypes(untouched)).toEqual(["volumes"]);
    const lockVersions = await Promise.all(
      [first, second, held, untouched].map(async (uri) => (await get<Json>(uri)).lock_version),
    );
    expect(lockVersions).toEqual([
      (locks[0] as number) + 1,
      (locks[1] as number) + 1,
      (locks[2] as number) + 1,
      locks[3],
    ]);
  });

  it("answers 400 for an enumeration that is not editable or a read-only from, 404 for what is not there", async () => {
    const migrate = (body: Json) => post("/config/enumerations/migration", body);
    expect(await migrate({ enum_uri: "/config/enumerations/47", from: "abstract", to: "physloc" })).toEqual({
      status: 400,
      body: { error: "Can't migrate values of note_singlepart_type: it is not editable" },
    });
    expect(await migrate({ enum_uri: "/config/enumerations/22", from: "digital_object", to: "text" })).toEqual({
      status: 400,
      body: { error: "Can't migrate from the read-only value 'digital_object' of instance_instance_type" },
    });
    expect(await migrate({ enum_uri: "/config/enumerations/14", from: "crates", to: "volumes" })).toEqual({
      status: 404,
      body: { error: "Value 'crates' of extent_extent_type not found" },
    });
    expect(await migrate({ enum_uri: "/config/enumerations/14", from: "volumes", to: "crates" })).toEqual({
      status: 404,
      body: { error: "Value 'crates' of extent_extent_type not found" },
    });
    expect(await migrate({ enum_uri: "/config/enumerations/99999", from: "a", to: "b" })).toEqual({
      status: 404,
      body: { error: "Enumeration not found" },
    });
  });

  it("answers 400 for a bad body: same values, a uri that is not an enumeration's, missing or unknown fields", async () => {
    const migrate = (body: unknown) => post("/config/enumerations/migration", body);
    expect(await migrate({ enum_uri: "/config/enumerations/14", from: "volumes", to: "volumes" })).toEqual({
      status: 400,
      body: { error: { to: ["Must differ from from"] } },
    });
    expect(await migrate({ enum_uri: "/repositories/2", from: "a", to: "b" })).toEqual({
      status: 400,
      body: {
        error: { enum_uri: ['Must be an enumeration\'s uri (/config/enumerations/<id>), not "/repositories/2"'] },
      },
    });
    expect(await migrate({ enum_uri: "/config/enumerations/14", colour: "red" })).toEqual({
      status: 400,
      body: {
        error: {
          from: ["Property is required but was missing"],
          to: ["Property is required but was missing"],
          colour: ["Unknown property: not part of the schema"],
        },
      },
    });
    expect(await migrate(["not", "an", "object"])).toMatchObject({ status: 400 });
  });

  it("needs update_enumeration_record (403 without it, or without a session)", async () => {
    const body = { enum_uri: "/config/enumerations/14", from: "volumes", to: "leaves" };
    expect(await post("/config/enumerations/migration", body, viewer)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect(await send("POST", "/config/enumerations/migration", { body })).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
  });
});
