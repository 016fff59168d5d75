// The enumeration routes over HTTP, on a real server and store: the shapes of
// ArchivesSpace's /config/enumerations, adding, reordering and removing values, records validated
// against the values as they are now, and every error a client can cause.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE } from "../../../src/records/operations/update.js";
import { STOCK_ENUMERATIONS } from "../../../src/records/enumerations/index.js";
import { registry } from "../../../src/registry/index.js";
import { startRecordServer, type RecordServer, type RequestOptions } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

type Json = Record<string, unknown>;

interface Enumeration extends Json {
  uri: string;
  name: string;
  values: string[];
  lock_version: number;
  enumeration_values: Array<{
    uri: string;
    value: string;
    position: number;
    suppressed: boolean;
    readonly: boolean;
    lock_version: number;
  }>;
  readonly_values: string[];
  relationships: string[];
}

let server: RecordServer;
let admin: string;
let viewer: string;
let repoArchivist: string;
let repoId: number;

beforeAll(async () => {
  server = await startRecordServer();
  repoId = (await server.ops.create("repository", {}, { repo_code: "main", name: "Main" }, trusted("system"))).id;
  admin = await server.login("admin", { _archivesspace: [...PERMISSIONS] });
  viewer = await server.login("viewer", { [`/repositories/${repoId}`]: ["view_repository"] });
  repoArchivist = await server.login("archivist", {
    [`/repositories/${repoId}`]: ["view_repository", "update_accession_record", "update_enumeration_record"],
  });
});
afterAll(() => server.stop());

/** A request's status and parsed body, which these tests compare whole. */
async function send(
  method: string,
  path: string,
  options?: RequestOptions,
): Promise<{ status: number; body: unknown }> {
  const { status, body } = await server.send(method, path, options);
  return { status, body };
}

async function byName(name: string): Promise<Enumeration> {
  const reply = await send("GET", `/config/enumerations/names/${name}`, { token: viewer });
  expect(reply.status).toBe(200);
  return reply.body as Enumeration;
}

/** Posts the enumeration back with `values` as its new list. */
function setValues(enumeration: Enumeration, values: string[], token = admin) {
  return send("POST", enumeration.uri, { token, body: { ...enumeration, values } });
}

let seq = 0;
function accession(extra: Json = {}): Json {
  seq += 1;
  return { title: `Accession ${seq}`, id_0: "ENUM", id_1: String(seq), ...extra };
}

function resource(extra: Json = {}): Json {
  seq += 1;
  return {
    title: `Resource ${seq}`,
    id_0: "RES",
    id_1: String(seq),
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    dates: [{ date_type: "single", label: "creation", begin: "1901" }],
    lang_materials: [{ language_and_script: { language: "eng" } }],
    ...extra,
  };
}

const post = (path: string, body: unknown, token = admin) => send("POST", path, { token, body });
const accessions = () => `/repositories/${repoId}/accessions`;

describe("reading", () => {
  it("lists every enumeration the schemas use, as a bare array in id order", async () => {
    const reply = await send("GET", "/config/enumerations", { token: viewer });
    expect(reply.status).toBe(200);
    const list = reply.body as Enumeration[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((item) => item.name)).toEqual(expect.arrayContaining([...registry.enumerations.keys()]));
    const ids = list.map((item) => Number(item.uri.split("/").pop()));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("answers one enumeration in ArchivesSpace's shape, by id and by name alike", async () => {
    const named = await byName("extent_extent_type");
    const reply = await send("GET", named.uri, { token: viewer });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(named);
    const seed = registry.enumerations.get("extent_extent_type")!;
    const stock = STOCK_ENUMERATIONS.byName.get("extent_extent_type")!;
    // Stock's values first, with stock's ids and positions; the schema's own seed values after them.
    const schemaOnly = seed.values.filter((value) => !stock.values.some((stockValue) => stockValue.value === value));
    expect(schemaOnly).toEqual(["files", "other_unmapped"]);
    expect(named).toMatchObject({
      jsonmodel_type: "enumeration",
      uri: `/config/enumerations/${stock.id}`,
      name: "extent_extent_type",
      editable: true,
      values: [...stock.values.map((value) => value.value), ...schemaOnly],
      readonly_values: [],
      lock_version: 0,
      created_by: "admin",
      create_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(named.relationships).toEqual(
      expect.arrayContaining(["accession/extents/*/extent_type", "resource/extents/*/extent_type"]),
    );
    expect(named.enumeration_values.slice(0, stock.values.length)).toEqual(
      stock.values.map((value) => ({
        jsonmodel_type: "enumeration_value",
        uri: `/config/enumeration_values/${value.id}`,
        value: value.value,
        position: value.position,
        suppressed: false,
        readonly: false,
        lock_version: 0,
      })),
    );
    const last = stock.values.at(-1)!;
    named.enumeration_values.slice(stock.values.length).forEach((value, i) => {
      expect(value).toMatchObject({ value: schemaOnly[i], position: last.position + 1 + i });
      expect(Number(value.uri.split("/").pop())).toBeGreaterThan(STOCK_ENUMERATIONS.maxValueId);
    });
  });

  it("marks read-only values: those the schemas' rules test, and schema defaults", async () => {
    const level = await byName("archival_record_level");
    expect(level.readonly_values).toEqual(["otherlevel"]);
    expect(level.enumeration_values.find((value) => value.value === "otherlevel")?.readonly).toBe(true);
    expect((await byName("extent_portion")).readonly_values).toEqual(["whole"]);
  });

  it("answers one value, with the enumeration it belongs to", async () => {
    const extentTypes = await byName("extent_extent_type");
    const second = extentTypes.enumeration_values[1]!;
    const reply = await send("GET", second.uri, { token: viewer });
    expect([reply.status, reply.body]).toEqual([200, { ...second, enumeration: { ref: extentTypes.uri } }]);
  });

  it("answers 404 for an unknown name, id or value id", async () => {
    expect(await send("GET", "/config/enumerations/names/no_such_list", { token: viewer })).toEqual({
      status: 404,
      body: { error: "Enumeration not found" },
    });
    expect(await send("GET", "/config/enumerations/99999", { token: viewer })).toEqual({
      status: 404,
      body: { error: "Enumeration not found" },
    });
    expect(await send("GET", "/config/enumeration_values/99999", { token: viewer })).toEqual({
      status: 404,
      body: { error: "Enumeration value not found" },
    });
  });

  it("answers 400 naming a path id that is not a positive whole number", async () => {
    expect(await send("GET", "/config/enumerations/abc", { token: viewer })).toEqual({
      status: 400,
      body: { error: { id: ['Must be a positive whole number, not "abc"'] } },
    });
    expect(await send("GET", "/config/enumeration_values/0", { token: viewer })).toEqual({
      status: 400,
      body: { error: { id: ['Must be a positive whole number, not "0"'] } },
    });
  });

  it("needs a session", async () => {
    for (const path of [
      "/config/enumerations",
      "/config/enumerations/1",
      "/config/enumerations/names/date_label",
      "/config/enumeration_values/1",
    ]) {
      expect(await send("GET", path)).toEqual({ status: 403, body: { error: "Access denied" } });
    }
  });
});

describe("a stock ArchivesSpace install's ids", () => {
  it("GET /config/enumerations/32 is archival_record_level, as Archivematica's client reads it", async () => {
    const reply = await send("GET", "/config/enumerations/32", { token: viewer });
    expect(reply.status).toBe(200);
    const level = reply.body as Enumeration;
    expect(level.name).toBe("archival_record_level");
    expect(level.values).toEqual([
      "class",
      "collection",
      "file",
      "fonds",
      "item",
      "otherlevel",
      "recordgrp",
      "series",
      "subfonds",
      "subgrp",
      "subseries",
    ]);
    expect(level.enumeration_values.map((value) => value.uri)).toEqual(
      Array.from({ length: 11 }, (_, i) => `/config/enumeration_values/${888 + i}`),
    );
    expect((await byName("agent_contact_salutation")).uri).toBe("/config/enumerations/17");
  });

  it("every stock enumeration at its stock id, its values first in stock's order with stock's ids; the rest after", async () => {
    const list = (await send("GET", "/config/enumerations", { token: viewer })).body as Enumeration[];
    const idOf = (uri: string) => Number(uri.split("/").pop());
    for (const stock of STOCK_ENUMERATIONS.byName.values()) {
      const enumeration = list.find((item) => item.name === stock.name);
      expect([stock.name, enumeration?.uri]).toEqual([stock.name, `/config/enumerations/${stock.id}`]);
      const stockPart = enumeration!.enumeration_values.slice(0, stock.values.length);
      expect(stockPart.map((value) => [value.value, idOf(value.uri), value.position])).toEqual(
        stock.values.map((value) => [value.value, value.id, value.position]),
      );
      for (const value of enumeration!.enumeration_values.slice(stock.values.length))
        expect(idOf(value.uri)).toBeGreaterThan(STOCK_ENUMERATIONS.maxValueId);
    }
    for (const enumeration of list.filter((item) => !STOCK_ENUMERATIONS.byName.has(item.name))) {
      expect(idOf(enumeration.uri)).toBeGreaterThan(STOCK_ENUMERATIONS.maxEnumerationId);
      for (const value of enumeration.enumeration_values)
        expect(idOf(value.uri)).toBeGreaterThan(STOCK_ENUMERATIONS.maxValueId);
    }
    expect(list.length).toBeGreaterThanOrEqual(STOCK_ENUMERATIONS.byName.size);
  });

  it("stock's defaults and read-only values; a value by its stock id", async () => {
    expect((await byName("container_location_status")).default_value).toBe("current");
    expect((await byName("date_label")).readonly_values).toEqual(["existence"]);
    expect((await byName("event_outcome")).readonly_values).toEqual(["cancelled", "fulfilled", "pending"]);
    const reply = await send("GET", "/config/enumeration_values/899", { token: viewer });
    expect(reply).toEqual({
      status: 200,
      body: {
        jsonmodel_type: "enumeration_value",
        uri: "/config/enumeration_values/899",
        value: "current",
        position: 0,
        suppressed: false,
        readonly: false,
        lock_version: 0,
        enumeration: { ref: "/config/enumerations/33" },
      },
    });
  });
});

describe("records validate against the stored values", () => {
  it("a value not in the enumeration is a 400 naming the field, listing the values", async () => {
    const reply = await post(
      accessions(),
      accession({ extents: [{ portion: "whole", number: "1", extent_type: "crates" }] }),
    );
    const values = (await byName("extent_extent_type")).values;
    expect(reply).toEqual({
      status: 400,
      body: { error: { "extents/0/extent_type": [`Invalid value 'crates'.  Must be one of: ${values.join(", ")}`] } },
    });
  });

  it("in a union, against the enumeration of the variant the record holds", async () => {
    const bad = await post(
      `/repositories/${repoId}/resources`,
      resource({ notes: [{ jsonmodel_type: "note_multipart", type: "abstract", subnotes: [] }] }),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { error: Json }).error)).toEqual(["notes/0/type"]);
    const good = await post(
      `/repositories/${repoId}/resources`,
      resource({ notes: [{ jsonmodel_type: "note_singlepart", type: "abstract", content: ["x"] }] }),
    );
    expect(good.status).toBe(200);
  });

  it("every item of a list of values", async () => {
    const note = {
      jsonmodel_type: "note_multipart",
      type: "accessrestrict",
      rights_restriction: { local_access_restriction_type: ["RestrictedSpecColl", "Sealed"] },
      subnotes: [],
    };
    const reply = await post(`/repositories/${repoId}/resources`, resource({ notes: [note] }));
    expect(reply.status).toBe(400);
    expect((reply.body as { error: Json }).error).toEqual({
      "notes/0/rights_restriction/local_access_restriction_type/1": [
        expect.stringMatching(/^Invalid value 'Sealed'\. {2}Must be one of: RestrictedSpecColl, /),
      ],
    });
  });

  it("enumeration errors come in one 400 with the schema's other errors", async () => {
    const reply = await post(
      accessions(),
      accession({ acquisition_type: "bought", extents: [{ portion: "whole", extent_type: "crates" }] }),
    );
    expect(reply.status).toBe(400);
    expect(Object.keys((reply.body as { error: Json }).error).sort()).toEqual([
      "acquisition_type",
      "extents/0/extent_type",
      "extents/0/number",
    ]);
  });
});

describe("adding and reordering values", () => {
  it("adds a value at the end; a record using it then validates", async () => {
    const before = await byName("extent_extent_type");
    const body = accession({ extents: [{ portion: "whole", number: "3", extent_type: "boxes" }] });
    expect((await post(accessions(), body)).status).toBe(400);

    const reply = await setValues(before, [...before.values, "boxes"]);
    const id = Number(before.uri.split("/").pop());
    expect(reply).toEqual({
      status: 200,
      body: {
        status: "Updated",
        id,
        lock_version: before.lock_version + 1,
        stale: null,
        uri: before.uri,
        warnings: [],
      },
    });

    const after = await byName("extent_extent_type");
    expect(after.values).toEqual([...before.values, "boxes"]);
    expect(after.enumeration_values.at(-1)).toMatchObject({
      value: "boxes",
      position: before.values.length,
      readonly: false,
    });
    expect(after.enumeration_values.slice(0, -1)).toEqual(before.enumeration_values);
    expect(after.last_modified_by).toBe("admin");
    expect((await post(accessions(), body)).status).toBe(200);
  });

  it("reorders: the list's order is the new order, each value keeping its uri", async () => {
    const before = await byName("date_certainty");
    const reversed = [...before.values].reverse();
    expect((await setValues(before, reversed)).status).toBe(200);
    const after = await byName("date_certainty");
    expect(after.values).toEqual(reversed);
    expect(after.enumeration_values.map((value) => value.position)).toEqual(reversed.map((_, i) => i));
    for (const value of after.enumeration_values) {
      expect(value.uri).toBe(before.enumeration_values.find((old) => old.value === value.value)?.uri);
    }
  });

  it("sets a default value, which must be one of the values", async () => {
    const before = await byName("date_era");
    expect((await post(before.uri, { ...before, default_value: "ce" })).status).toBe(200);
    expect((await byName("date_era")).default_value).toBe("ce");
    const after = await byName("date_era");
    expect(await post(after.uri, { ...after, default_value: "bce" })).toEqual({
      status: 400,
      body: { error: { default_value: ["Invalid value 'bce'.  Must be one of: ce"] } },
    });
  });
});

describe("removing values", () => {
  it("removes a value no record holds; records then refuse it", async () => {
    const before = await byName("extent_extent_type");
    expect(
      (
        await setValues(
          before,
          before.values.filter((value) => value !== "terabytes"),
        )
      ).status,
    ).toBe(200);
    expect((await byName("extent_extent_type")).values).not.toContain("terabytes");
    const reply = await post(
      accessions(),
      accession({ extents: [{ portion: "whole", number: "1", extent_type: "terabytes" }] }),
    );
    expect(reply.status).toBe(400);
    expect((reply.body as { error: Json }).error).toHaveProperty(["extents/0/extent_type"]);
  });

  it("refuses (409) to remove a value a record holds, naming the value and the record; nothing changes", async () => {
    const created = await post(
      accessions(),
      accession({ extents: [{ portion: "whole", number: "1", extent_type: "reels" }] }),
    );
    const uri = (created.body as { uri: string }).uri;
    const before = await byName("extent_extent_type");
    const reply = await setValues(
      before,
      before.values.filter((value) => value !== "reels"),
    );
    expect(reply).toEqual({
      status: 409,
      body: {
        error: `Can't remove the value 'reels' of extent_extent_type: it is in use by ${uri} (extents/*/extent_type)`,
      },
    });
    expect(await byName("extent_extent_type")).toEqual(before);
  });

  it("finds a value held at the top level of a record, and in a list of values", async () => {
    await post(accessions(), accession({ acquisition_type: "transfer" }));
    const acquisition = await byName("accession_acquisition_type");
    const reply = await setValues(acquisition, ["deposit", "gift", "purchase"]);
    expect(reply.status).toBe(409);
    expect((reply.body as { error: string }).error).toMatch(
      /^Can't remove the value 'transfer' of accession_acquisition_type: it is in use by \/repositories\/\d+\/accessions\/\d+ \(acquisition_type\)$/,
    );

    const note = {
      jsonmodel_type: "note_multipart",
      type: "accessrestrict",
      rights_restriction: { local_access_restriction_type: ["ColdStorageBrbl"] },
      subnotes: [],
    };
    expect((await post(`/repositories/${repoId}/resources`, resource({ notes: [note] }))).status).toBe(200);
    const restrictions = await byName("restriction_type");
    const refused = await setValues(
      restrictions,
      restrictions.values.filter((value) => value !== "ColdStorageBrbl"),
    );
    expect(refused.status).toBe(409);
    expect((refused.body as { error: string }).error).toContain(
      "(notes/*/rights_restriction/local_access_restriction_type/*)",
    );
  });

  it("refuses (409) to add or remove values of an enumeration that is not editable (ArchivesSpace's), but reorders it", async () => {
    const singlepart = await byName("note_singlepart_type");
    expect(singlepart.editable).toBe(false);
    const refusal = {
      status: 409,
      body: { error: "note_singlepart_type is not editable: its values can be reordered, not added or removed" },
    };
    expect(await setValues(singlepart, [...singlepart.values, "summary"])).toEqual(refusal);
    expect(await setValues(singlepart, singlepart.values.slice(1))).toEqual(refusal);
    const reordered = [...singlepart.values].reverse();
    expect((await setValues(singlepart, reordered)).status).toBe(200);
    expect((await byName("note_singlepart_type")).values).toEqual(reordered);
  });

  it("refuses (409) to remove a read-only value, even unused", async () => {
    // An instance of type digital_object is the one that links a digital object (instance.schema.json).
    const types = await byName("instance_instance_type");
    expect(types.readonly_values).toEqual(["digital_object"]);
    const reply = await setValues(
      types,
      types.values.filter((value) => value !== "digital_object"),
    );
    expect(reply).toEqual({
      status: 409,
      body: {
        error:
          "Can't remove the read-only value 'digital_object' of instance_instance_type: the record types rely on it",
      },
    });
  });

  it("removes and adds in one update", async () => {
    const before = await byName("date_calendar");
    expect((await setValues(before, ["julian"])).status).toBe(200);
    expect((await byName("date_calendar")).values).toEqual(["julian"]);
  });
});

describe("creating an enumeration", () => {
  it("creates one that no schema uses yet", async () => {
    const reply = await post("/config/enumerations", {
      name: "shelf_colour",
      values: ["red", "green"],
      default_value: "green",
    });
    expect(reply).toEqual({
      status: 200,
      body: {
        status: "Created",
        id: expect.any(Number),
        lock_version: 0,
        stale: null,
        uri: expect.stringMatching(/^\/config\/enumerations\/\d+$/),
        warnings: [],
      },
    });
    const created = await byName("shelf_colour");
    expect(created).toMatchObject({
      uri: (reply.body as { uri: string }).uri,
      values: ["red", "green"],
      default_value: "green",
      relationships: [],
      readonly_values: [],
      created_by: "admin",
    });
    expect((await setValues(created, ["green"])).status).toBe(200);
  });

  it("refuses a name in use (400)", async () => {
    expect(await post("/config/enumerations", { name: "date_label", values: ["x"] })).toEqual({
      status: 400,
      body: { error: { name: ["That name is already in use"] } },
    });
  });
});

describe("bad requests", () => {
  it("a body that is not an object", async () => {
    expect(await post("/config/enumerations", [1, 2])).toEqual({
      status: 400,
      body: { error: { record: ["Must be an object (you provided an array)"] } },
    });
  });

  it("malformed JSON", async () => {
    const reply = await post("/config/enumerations", "{nope");
    expect(reply.status).toBe(400);
    expect((reply.body as { error: string }).error).toMatch(/^Had some trouble parsing your request: /);
  });

  it("missing fields, wrong types, unknown fields", async () => {
    expect(await post("/config/enumerations", {})).toEqual({
      status: 400,
      body: {
        error: { name: ["Property is required but was missing"], values: ["Property is required but was missing"] },
      },
    });
    expect(await post("/config/enumerations", { name: "", values: ["a", 7, ""], colour: "red" })).toEqual({
      status: 400,
      body: {
        error: {
          name: ["Must be at least 1 characters"],
          "values/1": ["Must be a string (you provided an integer)"],
          "values/2": ["Must be at least 1 characters"],
          colour: ["Unknown property: not part of the schema"],
        },
      },
    });
  });

  it("a value listed twice", async () => {
    expect(await post("/config/enumerations", { name: "twice", values: ["a", "b", "a"] })).toEqual({
      status: 400,
      body: { error: { values: ["Value 'a' is listed more than once"] } },
    });
  });

  it("an operator or prototype key", async () => {
    expect(await post("/config/enumerations", { name: "x", values: [], $where: "1" })).toEqual({
      status: 400,
      body: { error: { $where: ["Field names may not start with '$'"] } },
    });
  });

  it("an update without lock_version, or with a stale one (409)", async () => {
    const current = await byName("date_role");
    const { lock_version: _dropped, ...withoutLock } = current;
    expect(await post(current.uri, withoutLock)).toEqual({ status: 409, body: { error: LOCK_VERSION_MISSING } });
    expect(await post(current.uri, { ...current, lock_version: current.lock_version + 5 })).toEqual({
      status: 409,
      body: { error: LOCK_VERSION_STALE },
    });
  });

  it("two updates from the same read: the second is stale", async () => {
    const read = await byName("date_type_structured");
    expect((await setValues(read, [...read.values, "approximate_range"])).status).toBe(200);
    expect(await setValues(read, [...read.values, "other_range"])).toEqual({
      status: 409,
      body: { error: LOCK_VERSION_STALE },
    });
  });

  it("renaming (400)", async () => {
    const current = await byName("date_standardized_type");
    expect(await post(current.uri, { ...current, name: "renamed" })).toEqual({
      status: 400,
      body: { error: { name: ["An enumeration's name cannot be changed (this one is date_standardized_type)"] } },
    });
  });

  it("an update of an unknown enumeration (404)", async () => {
    expect(await post("/config/enumerations/99999", { name: "x", values: [], lock_version: 0 })).toEqual({
      status: 404,
      body: { error: "Enumeration not found" },
    });
  });
});

describe("permissions", () => {
  it("writing needs update_enumeration_record (403 without it)", async () => {
    const current = await byName("name_source");
    expect(await setValues(current, [...current.values, "viaf"], viewer)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect(await post("/config/enumerations", { name: "by_viewer", values: [] }, viewer)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect(await send("POST", "/config/enumerations", { body: { name: "anonymous", values: [] } })).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect(await byName("name_source")).toEqual(current);
  });

  it("the code held in any repository is enough: enumerations are shared by all", async () => {
    const current = await byName("name_source");
    expect((await setValues(current, [...current.values, "viaf"], repoArchivist)).status).toBe(200);
    expect((await byName("name_source")).last_modified_by).toBe("archivist");
  });
});
