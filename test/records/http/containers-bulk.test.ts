// The top container bulk and batch routes (docs/api.md §12) against the real service: each call one write of every
// container it names (all or nothing), every container checked as an update checks it, lock_version moved on,
// manage_container_record needed as ArchivesSpace needs it, and a bound on how many records one call names.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Service } from "../../support/service.js";

type Json = Record<string, unknown>;

let service: Service;
let admin: string;
let repo: number;
let otherRepo: number;
const MAX = 5;

async function call(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const reply = await service.send(method, path, { token, body });
  return { status: reply.status, body: reply.body as Json };
}

async function created(path: string, body: Json): Promise<string> {
  const reply = await call("POST", path, admin, body);
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.uri as string;
}

let seq = 0;
const container = (extra: Json = {}, repoId = repo) =>
  created(`/repositories/${repoId}/top_containers`, { indicator: `C${++seq}`, type: "box", ...extra });
const read = async (uri: string) => (await call("GET", uri, admin)).body;
const idOf = (uri: string) => Number(uri.split("/").pop());

/** A user holding exactly these codes in the repository, through a group of their own. */
const bulk = (what: string) => `/repositories/${repo}/top_containers/bulk/${what}`;
const batch = (what: string, query: string) => `/repositories/${repo}/top_containers/batch/${what}?${query}`;

beforeAll(async () => {
  service = await startService({ dbName: "containers_bulk", env: { BULK_MAX_RECORDS: String(MAX) } });
  admin = service.adminToken;
  repo = idOf(await created("/repositories", { repo_code: "bulk", name: "Bulk" }));
  otherRepo = idOf(await created("/repositories", { repo_code: "other", name: "Other" }));
}, 30_000);
afterAll(() => service.stop());

describe("bulk/barcodes", () => {
  it("sets every container's barcode in one write, barcodes moving between them, lock_versions moved on", async () => {
    const a = await container({ barcode: "1001" });
    const b = await container({ barcode: "1002" });
    const c = await container();
    const answer = await call("POST", bulk("barcodes"), admin, { [a]: "1002", [b]: "1001", [c]: "1003" });
    expect(answer).toEqual({ status: 200, body: { updated: [idOf(a), idOf(b), idOf(c)] } });
    const [ra, rb, rc] = [await read(a), await read(b), await read(c)];
    expect([ra.barcode, rb.barcode, rc.barcode]).toEqual(["1002", "1001", "1003"]);
    expect([ra.lock_version, rb.lock_version, rc.lock_version]).toEqual([1, 1, 1]);
    expect(ra.indicator).toMatch(/^C/); // the rest of the record kept
    // null (or "") takes a barcode away
    expect((await call("POST", bulk("barcodes"), admin, { [c]: null })).status).toBe(200);
    expect((await read(c)).barcode).toBeUndefined();
  });

  it("refuses (409, naming them) barcodes another container has or given twice, changing nothing", async () => {
    await container({ barcode: "2001" });
    const a = await container({ barcode: "2002" });
    const b = await container();
    const taken = await call("POST", bulk("barcodes"), admin, { [b]: "2003", [a]: "2001" });
    expect(taken).toEqual({ status: 409, body: { error: "A barcode must be unique within a repository: 2001" } });
    const twice = await call("POST", bulk("barcodes"), admin, { [a]: "2004", [b]: "2004" });
    expect(twice).toEqual({ status: 409, body: { error: "A barcode must be unique within a repository: 2004" } });
    expect([(await read(a)).barcode, (await read(a)).lock_version, (await read(b)).barcode]).toEqual([
      "2002",
      0,
      undefined,
    ]);
    // Another repository's barcode is no clash.
    await container({ barcode: "2005" }, otherRepo);
    expect((await call("POST", bulk("barcodes"), admin, { [b]: "2005" })).status).toBe(200);
  });

  it("answers 404 with the uri for a container that is not there, changing none of the others", async () => {
    const a = await container({ barcode: "3001" });
    const missing = `/repositories/${repo}/top_containers/99999`;
    const answer = await call("POST", bulk("barcodes"), admin, { [a]: "3002", [missing]: "3003" });
    expect(answer).toEqual({ status: 404, body: { error: "TopContainer not found", uri: missing } });
    expect((await read(a)).barcode).toBe("3001");
  });

  it("answers 400 naming barcode_data for a body that is not uris to text", async () => {
    const a = await container();
    const other = await container({}, otherRepo);
    for (const body of [[a], { "/locations/1": "x" }, { [other]: "x" }, { [a]: 5 }, JSON.stringify("text")]) {
      const answer = await call("POST", bulk("barcodes"), admin, body);
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.error as Json)).toEqual(["barcode_data"]);
    }
    expect((await read(a)).lock_version).toBe(0);
  });

  it("refuses more containers than BULK_MAX_RECORDS (400)", async () => {
    const body: Json = {};
    for (let i = 0; i <= MAX; i++) body[`/repositories/${repo}/top_containers/${i + 1}`] = `9${i}`;
    const answer = await call("POST", bulk("barcodes"), admin, body);
    expect(answer).toEqual({
      status: 400,
      body: { error: { barcode_data: [`At most ${MAX} records per call, not 6`] } },
    });
  });
});

describe("bulk/indicators", () => {
  it("sets indicators, skipping a null one, and refuses one an update would refuse (400 with the uri)", async () => {
    const a = await container();
    const b = await container();
    expect(await call("POST", bulk("indicators"), admin, { [a]: "12", [b]: null })).toEqual({
      status: 200,
      body: { updated: [idOf(a)] },
    });
    expect([(await read(a)).indicator, (await read(b)).lock_version]).toEqual(["12", 0]);
    const tooLong = await call("POST", bulk("indicators"), admin, { [a]: "13", [b]: "x".repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.uri).toBe(b);
    expect(Object.keys(tooLong.body.error as Json)).toEqual(["indicator"]);
    expect([(await read(a)).indicator, (await read(a)).lock_version]).toEqual(["12", 1]);
  });
});

describe("bulk/locations and batch/location", () => {
  it("replaces each container's current location, keeping previous stays", async () => {
    const shelf = await created("/locations", { building: "Main", barcode: "L1" });
    const annex = await created("/locations", { building: "Annex", barcode: "L2" });
    const old = { ref: shelf, status: "previous", start_date: "2020-01-01", end_date: "2021-01-01" };
    const a = await container({
      container_locations: [old, { ref: shelf, status: "current", start_date: "2021-01-01" }],
    });
    const answer = await call("POST", bulk("locations"), admin, { [a]: annex });
    expect(answer).toEqual({ status: 200, body: { records_ids_updated: [idOf(a)], records_updated: 1 } });
    const stays = (await read(a)).container_locations as Json[];
    expect(stays.map((stay) => [stay.ref, stay.status])).toEqual([
      [shelf, "previous"],
      [annex, "current"],
    ]);
    expect(stays[1]?.start_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const b = await container();
    const moved = await call(
      "POST",
      batch("location", `ids[]=${idOf(a)}&ids[]=${idOf(b)}&location_uri=${shelf}`),
      admin,
    );
    expect(moved).toEqual({ status: 200, body: { records_updated: 2 } });
    expect(((await read(b)).container_locations as Json[]).map((stay) => stay.ref)).toEqual([shelf]);
    expect(((await read(a)).container_locations as Json[]).length).toBe(2);
    // An empty location_uri leaves them with no current location.
    expect((await call("POST", batch("location", `ids=${idOf(b)}&location_uri=`), admin)).status).toBe(200);
    expect((await read(b)).container_locations).toEqual([]);
  });

  it("answers 400 naming the parameter for a location that does not exist, changing nothing", async () => {
    const a = await container();
    const missing = await call("POST", bulk("locations"), admin, { [a]: "/locations/99999" });
    expect(missing).toEqual({
      status: 400,
      body: { error: { location_data: ["Location not found: /locations/99999"] } },
    });
    const viaBatch = await call("POST", batch("location", `ids[]=${idOf(a)}&location_uri=/locations/99999`), admin);
    expect(viaBatch.status).toBe(400);
    expect(Object.keys(viaBatch.body.error as Json)).toEqual(["location_uri"]);
    expect((await read(a)).lock_version).toBe(0);
  });
});

describe("batch/container_profile and batch/ils_holding_id", () => {
  it("sets and clears a container profile on every container named", async () => {
    const profile = await created("/container_profiles", {
      name: "Standard box",
      extent_dimension: "width",
      dimension_units: "inches",
      width: "10",
      height: "12",
      depth: "15",
    });
    const a = await container();
    const b = await container();
    const ids = `ids[]=${idOf(a)}&ids[]=${idOf(b)}`;
    expect(await call("POST", batch("container_profile", `${ids}&container_profile_uri=${profile}`), admin)).toEqual({
      status: 200,
      body: { records_updated: 2 },
    });
    expect([(await read(a)).container_profile, (await read(b)).lock_version]).toEqual([{ ref: profile }, 1]);
    expect((await call("POST", batch("container_profile", `${ids}&container_profile_uri=`), admin)).status).toBe(200);
    expect((await read(a)).container_profile).toBeUndefined();
    const missing = await call(
      "POST",
      batch("container_profile", `${ids}&container_profile_uri=/container_profiles/999`),
      admin,
    );
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.error as Json)).toEqual(["container_profile_uri"]);
  });

  it("sets a trimmed ILS holding id, all or nothing", async () => {
    const a = await container();
    const b = await container();
    const set = await call(
      "POST",
      batch("ils_holding_id", `ids=${idOf(a)}&ids=${idOf(b)}&ils_holding_id=%20H-1%20`),
      admin,
    );
    expect(set).toEqual({ status: 200, body: { records_updated: 2 } });
    expect([(await read(a)).ils_holding_id, (await read(b)).ils_holding_id]).toEqual(["H-1", "H-1"]);
    const missing = await call(
      "POST",
      batch("ils_holding_id", `ids[]=${idOf(a)}&ids[]=99999&ils_holding_id=H-2`),
      admin,
    );
    expect(missing).toEqual({
      status: 404,
      body: { error: "TopContainer not found", uri: `/repositories/${repo}/top_containers/99999` },
    });
    expect((await read(a)).ils_holding_id).toBe("H-1");
  });

  it("answers 400 naming ids[] or the value parameter when missing or bad", async () => {
    const a = await container();
    const cases: Array<[string, string]> = [
      [batch("ils_holding_id", "ils_holding_id=x"), "ids[]"],
      [batch("ils_holding_id", "ids[]=abc&ils_holding_id=x"), "ids[]"],
      [batch("ils_holding_id", `ids[]=${idOf(a)}`), "ils_holding_id"],
      [batch("location", `ids[]=${idOf(a)}`), "location_uri"],
      [batch("location", `ids[]=${idOf(a)}&location_uri=/repositories/2/top_containers/1`), "location_uri"],
      [batch("ils_holding_id", `${[1, 2, 3, 4, 5, 6].map((id) => `ids[]=${id}`).join("&")}&ils_holding_id=x`), "ids[]"],
    ];
    for (const [path, name] of cases) {
      const answer = await call("POST", path, admin);
      expect([path, answer.status, Object.keys(answer.body.error as Json)]).toEqual([path, 400, [name]]);
    }
  });
});

describe("who may", () => {
  it("needs update_container_record and manage_container_record in the repository (403 otherwise)", async () => {
    const a = await container({ barcode: "5001" });
    const updater = await service.userWith("updater", repo, ["view_repository", "update_container_record"]);
    const manager = await service.userWith("manager", repo, [
      "view_repository",
      "update_container_record",
      "manage_container_record",
    ]);
    const routes: Array<[string, unknown]> = [
      [bulk("barcodes"), { [a]: "5002" }],
      [bulk("indicators"), { [a]: "5" }],
      [bulk("locations"), { [a]: null }],
      [batch("location", `ids[]=${idOf(a)}&location_uri=`), undefined],
      [batch("container_profile", `ids[]=${idOf(a)}&container_profile_uri=`), undefined],
      [batch("ils_holding_id", `ids[]=${idOf(a)}&ils_holding_id=x`), undefined],
    ];
    for (const [path, body] of routes) {
      for (const token of [undefined, updater]) expect((await call("POST", path, token, body)).status).toBe(403);
      // Refused before the body is judged: a bad body is a 403 too.
      expect((await call("POST", path, updater, JSON.stringify("not an object"))).status).toBe(403);
    }
    expect((await read(a)).lock_version).toBe(0);
    for (const [path, body] of routes)
      expect([path, (await call("POST", path, manager, body)).status]).toEqual([path, 200]);
    // Another repository's containers: the grant is per repository.
    const elsewhere = await container({}, otherRepo);
    const path = `/repositories/${otherRepo}/top_containers/bulk/indicators`;
    expect((await call("POST", path, manager, { [elsewhere]: "9" })).status).toBe(403);
  });

  it("describes every route in /openapi.json with its permission", async () => {
    const document = (await call("GET", "/openapi.json")).body as { paths: Record<string, Record<string, Json>> };
    for (const what of ["bulk/barcodes", "bulk/indicators", "bulk/locations", "batch/location"]) {
      const operation = document.paths[`/repositories/{repo_id}/top_containers/${what}`]?.post;
      expect(operation?.security).toEqual(
        expect.arrayContaining([{ ArchivesSpaceSession: ["manage_container_record"] }]),
      );
    }
    expect(document.paths["/repositories/{repo_id}/top_containers/batch/ils_holding_id"]?.post).toBeDefined();
    expect(document.paths["/repositories/{repo_id}/top_containers/batch/container_profile"]?.post).toBeDefined();
  });
});
