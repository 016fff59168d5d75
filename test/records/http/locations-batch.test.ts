// Location batches (docs/api.md §12) against the real service: many locations made from a template and coordinate
// ranges (or, dry, their titles), and fields set on many locations, each one write checked as creates and updates
// are, needing update_location_record, bounded by BULK_MAX_RECORDS.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Service } from "../../support/service.js";

type Json = Record<string, unknown>;

let service: Service;
let admin: string;
const MAX = 12;

async function call(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const reply = await service.send(method, path, { token, body });
  return { status: reply.status, body: reply.body };
}

const read = async (uri: string) => (await call("GET", uri, admin)).body as Json;
const count = async () => ((await call("GET", "/locations?all_ids=true", admin)).body as number[]).length;

const template = (extra: Json = {}) => ({
  building: "Main",
  floor: "2",
  coordinate_1_range: { label: "Range", start: "8", end: "10", prefix: "R" },
  coordinate_2_range: { label: "Shelf", start: "a", end: "b" },
  ...extra,
});

beforeAll(async () => {
  service = await startService({ dbName: "locations_batch", env: { BULK_MAX_RECORDS: String(MAX) } });
  admin = service.adminToken;
}, 30_000);
afterAll(() => service.stop());

describe("POST /locations/batch", () => {
  it("dry_run answers the titles of every combination and writes nothing", async () => {
    const before = await count();
    const dry = await call("POST", "/locations/batch?dry_run=true", admin, template());
    expect(dry).toEqual({
      status: 200,
      body: ["R8", "R9", "R10"].flatMap((range) =>
        ["a", "b"].map((shelf) => `Main, 2 [Range: ${range}, Shelf: ${shelf}]`),
      ),
    });
    expect(await count()).toBe(before);
  });

  it("creates every combination and answers their uris", async () => {
    const before = await count();
    const made = await call(
      "POST",
      "/locations/batch",
      admin,
      template({ coordinate_1_range: { label: "Bay", start: "08", end: "10" } }),
    );
    expect(made.status).toBe(200);
    const uris = made.body as string[];
    expect(uris).toHaveLength(6);
    expect(await count()).toBe(before + 6);
    const first = await read(uris[0] as string);
    expect(first).toMatchObject({
      building: "Main",
      floor: "2",
      coordinate_1_label: "Bay",
      coordinate_1_indicator: "08",
      coordinate_2_label: "Shelf",
      coordinate_2_indicator: "a",
      lock_version: 0,
    });
    expect((await read(uris[5] as string)).title).toBe("Main, 2 [Bay: 10, Shelf: b]");
  });

  it("answers 400 naming what is wrong, and creates nothing", async () => {
    const before = await count();
    const cases: Array<[unknown, string]> = [
      [template({ coordinate_1_range: undefined }), "coordinate_1_range"],
      [template({ coordinate_1_range: { label: "R", start: "5", end: "3" } }), "coordinate_1_range/end"],
      [template({ coordinate_1_range: { label: "R", start: "1", end: "b" } }), "coordinate_1_range/start"],
      [template({ coordinate_2_range: { start: "1", end: "2" } }), "coordinate_2_range/label"],
      [template({ coordinate_1_range: { label: "R", start: "1", end: "7" } }), "coordinate_1_range"],
      [template({ building: undefined }), "building"],
      [template({ floor: "x".repeat(256) }), "floor"],
      [["not", "an", "object"], "location_batch"],
    ];
    for (const [body, name] of cases) {
      const answer = await call("POST", "/locations/batch", admin, body);
      expect([name, answer.status, Object.keys((answer.body as Json).error as Json)]).toEqual([name, 400, [name]]);
    }
    expect(await count()).toBe(before);
  });

  it("needs update_location_record (403 otherwise, before the body is judged)", async () => {
    expect((await call("POST", "/users?password=pw-secret-1", admin, { username: "reader", name: "R" })).status).toBe(
      200,
    );
    const reader = await service.login("reader", "pw-secret-1");
    for (const token of [undefined, reader]) {
      expect(await call("POST", "/locations/batch?dry_run=true", token, template())).toEqual({
        status: 403,
        body: { error: "Access denied" },
      });
      expect((await call("POST", "/locations/batch", token, "{}")).status).toBe(403);
      expect((await call("POST", "/locations/batch_update", token, { record_uris: [], room: "1" })).status).toBe(403);
    }
  });
});

describe("POST /locations/batch_update", () => {
  async function two(): Promise<string[]> {
    const made = await call(
      "POST",
      "/locations/batch",
      admin,
      template({ coordinate_2_range: undefined, area: "East" }),
    );
    return (made.body as string[]).slice(0, 2);
  }

  it("sets the fields given on every location named, keeping the others, lock_versions moved on", async () => {
    const [a, b] = await two();
    const answer = await call("POST", "/locations/batch_update", admin, {
      record_uris: [a, b],
      room: "201",
      area: null,
    });
    expect(answer.status).toBe(200);
    expect((answer.body as Json[]).map((one) => [one.status, one.uri, one.lock_version])).toEqual([
      ["Updated", a, 1],
      ["Updated", b, 1],
    ]);
    const shown = await read(a as string);
    expect(shown).toMatchObject({ room: "201", area: "East", building: "Main", coordinate_1_indicator: "R8" });
  });

  it("answers 404 with the uri of a location that is not there, and 400 for a bad value, changing nothing", async () => {
    const [a] = await two();
    const missing = await call("POST", "/locations/batch_update", admin, {
      record_uris: [a, "/locations/99999"],
      room: "1",
    });
    expect(missing).toEqual({ status: 404, body: { error: "Location not found", uri: "/locations/99999" } });
    const bad = await call("POST", "/locations/batch_update", admin, { record_uris: [a], room: "x".repeat(256) });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as Json).error as Json)).toEqual(["room"]);
    expect((await read(a as string)).lock_version).toBe(0);
  });

  it("answers 400 naming record_uris when missing, empty, not location uris or too many", async () => {
    const many = Array.from({ length: MAX + 1 }, (_, i) => `/locations/${i + 1}`);
    for (const record_uris of [undefined, [], ["/subjects/1"], "text", many]) {
      const answer = await call("POST", "/locations/batch_update", admin, { record_uris, room: "1" });
      expect([answer.status, Object.keys((answer.body as Json).error as Json)]).toEqual([400, ["record_uris"]]);
    }
  });

  it("is described in /openapi.json, as is /locations/batch", async () => {
    const document = (await call("GET", "/openapi.json")).body as { paths: Record<string, Record<string, Json>> };
    expect(document.paths["/locations/batch"]?.post?.operationId).toBe("locations_batch");
    expect(document.paths["/locations/batch_update"]?.post?.operationId).toBe("locations_batch_update");
  });
});
