// List endpoints over HTTP (docs/api.md §1, §5): the three modes, their precedence,
// modified_since, sorting, bad parameters, and confinement to the repository in the URL.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import type { PageEnvelope } from "../../../src/records/operations/index.js";
import { rawRequest } from "./raw-request.js";
import { globalGrants, SESSION_HEADER, startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

const REQUIRED = "Parameter required but no value provided";
const TITLES = [
  "Kappa",
  "Alpha",
  "Juliet",
  "Bravo",
  "India",
  "Charlie",
  "Hotel",
  "Delta",
  "Golf",
  "Echo",
  "Lima",
  "Foxtrot",
];

let server: RecordServer;
let token: string;
let repoId: number;
let otherRepoId: number;
let base: string;
/** Ids of this repository's accessions, in creation (= id) order. */
const ids: number[] = [];
const otherIds: number[] = [];

beforeAll(async () => {
  server = await startRecordServer();
  const system = trusted("system");
  repoId = (await server.ops.create("repository", {}, { repo_code: "lists", name: "Lists" }, system)).id;
  otherRepoId = (await server.ops.create("repository", {}, { repo_code: "elsewhere", name: "Elsewhere" }, system)).id;
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
  base = `/repositories/${repoId}/accessions`;
  // Interleaved with the other repository's, so that ids alone do not separate the two.
  for (const [i, title] of TITLES.entries()) {
    ids.push((await server.ops.create("accession", { repoId }, { title, id_0: "L", id_1: String(i) }, system)).id);
    if (i % 5 === 0)
      otherIds.push(
        (
          await server.ops.create(
            "accession",
            { repoId: otherRepoId },
            { title: `Other ${i}`, id_0: "O", id_1: String(i) },
            system,
          )
        ).id,
      );
  }
});
afterAll(() => server.stop());

async function list(path: string): Promise<{ status: number; body: unknown }> {
  const { status, body } = await server.send("GET", path, { token });
  return { status, body };
}

async function page(query: string): Promise<PageEnvelope> {
  const reply = await list(`${base}?${query}`);
  expect(reply.status).toBe(200);
  return reply.body as PageEnvelope;
}

const titlesOf = (records: unknown[]) => records.map((record) => (record as { title: string }).title);
const idsOf = (records: unknown[]) => records.map((record) => Number((record as { uri: string }).uri.split("/").pop()));

describe("page mode", () => {
  it("answers the envelope with ten records by default, in id order", async () => {
    const body = await page("page=1");
    expect({ ...body, results: body.results.length }).toEqual({
      first_page: 1,
      last_page: 2,
      this_page: 1,
      total: 12,
      results: 10,
    });
    expect(idsOf(body.results)).toEqual(ids.slice(0, 10));
    expect(body.results[0]).toMatchObject({
      jsonmodel_type: "accession",
      repository: { ref: `/repositories/${repoId}` },
    });
  });

  it("answers the rest on the last page and an empty page past the end", async () => {
    expect(idsOf((await page("page=2")).results)).toEqual(ids.slice(10));
    const past = await page("page=9");
    expect(past).toEqual({ first_page: 1, last_page: 2, this_page: 9, total: 12, results: [] });
  });

  it("honours page_size and clamps one over the maximum", async () => {
    const small = await page("page=2&page_size=5");
    expect([small.last_page, small.this_page, idsOf(small.results)]).toEqual([3, 2, ids.slice(5, 10)]);
    const huge = await page("page=1&page_size=100000");
    expect([huge.last_page, huge.results.length]).toEqual([1, 12]);
  });

  it("wins over all_ids=True and over id_set", async () => {
    expect((await page("page=1&all_ids=True")).total).toBe(12);
    expect((await page(`page=1&page_size=3&id_set=${ids[5]}`)).results).toHaveLength(3);
  });

  it("sorts by a field in either direction", async () => {
    const sorted = [...TITLES].sort();
    expect(titlesOf((await page("page=1&page_size=20&sort_field=title")).results)).toEqual(sorted);
    expect(titlesOf((await page("page=1&page_size=20&sort_field=title&sort_direction=asc")).results)).toEqual(sorted);
    expect(titlesOf((await page("page=1&page_size=20&sort_field=title&sort_direction=desc")).results)).toEqual(
      [...sorted].reverse(),
    );
    expect(idsOf((await page("page=1&page_size=20&sort_direction=desc")).results)).toEqual([...ids].reverse());
  });
});

describe("id_set mode", () => {
  it("answers a bare array of records in id order, whatever order was asked", async () => {
    const reply = await list(`${base}?id_set=${ids[3]},${ids[0]},${ids[7]}`);
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body)).toBe(true);
    expect(idsOf(reply.body as unknown[])).toEqual([ids[0], ids[3], ids[7]]);
  });

  it("takes id_set[] array parameters", async () => {
    const reply = await list(`${base}?id_set[]=${ids[2]}&id_set[]=${ids[1]}`);
    expect(idsOf(reply.body as unknown[])).toEqual([ids[1], ids[2]]);
  });

  it("leaves out ids of other repositories and ids that do not exist", async () => {
    const reply = await list(`${base}?id_set=${otherIds[0]},${ids[4]},999999`);
    expect(idsOf(reply.body as unknown[])).toEqual([ids[4]]);
  });

  it("wins over all_ids", async () => {
    expect(idsOf((await list(`${base}?all_ids=true&id_set=${ids[0]}`)).body as unknown[])).toEqual([ids[0]]);
  });
});

describe("all_ids mode", () => {
  it.each(["true", "True", "TRUE"])("all_ids=%s answers every id of this repository, ascending", async (value) => {
    const reply = await list(`${base}?all_ids=${value}`);
    expect(reply).toEqual({ status: 200, body: ids });
  });

  it("shows only the repository in the URL", async () => {
    expect((await list(`/repositories/${otherRepoId}/accessions?all_ids=true`)).body).toEqual(otherIds);
    expect((await list(`/repositories/${otherRepoId}/accessions?page=1`)).body).toMatchObject({
      total: otherIds.length,
    });
  });
});

describe("modified_since", () => {
  it("keeps only records changed at or after the given second, in every mode", async () => {
    // Wait for the next whole second, so the change lands at or after it and creation before it.
    const since = Math.floor(Date.now() / 1000) + 1;
    await new Promise((resolve) => setTimeout(resolve, since * 1000 - Date.now() + 5));
    const changed = ids[6];
    const current = (await server.send("GET", `${base}/${changed}`, { token })).body as Record<string, unknown>;
    expect((await server.send("POST", `${base}/${changed}`, { token, body: current })).status).toBe(200);

    expect((await list(`${base}?all_ids=true&modified_since=${since}`)).body).toEqual([changed]);
    expect(await page(`page=1&modified_since=${since}`)).toMatchObject({ total: 1, last_page: 1 });
    expect(
      idsOf((await list(`${base}?id_set=${ids[0]},${changed}&modified_since=${since}`)).body as unknown[]),
    ).toEqual([changed]);
    expect((await list(`${base}?all_ids=true&modified_since=0`)).body).toEqual(ids);
    expect((await list(`${base}?all_ids=true&modified_since=${since + 3600}`)).body).toEqual([]);
  });
});

describe("bad parameters", () => {
  it("no mode answers 400 naming all three", async () => {
    for (const query of ["", "?page_size=5", "?all_ids=false", "?page[$gt]=1"]) {
      expect(await list(`${base}${query}`)).toEqual({
        status: 400,
        body: { error: { page: [REQUIRED], id_set: [REQUIRED], all_ids: [REQUIRED] } },
      });
    }
  });

  it.each([
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=abc", "page"],
    ["page=1&page=2", "page"],
    ["page=1&page_size=0", "page_size"],
    ["page=1&sort_direction=sideways", "sort_direction"],
    ["page=1&sort_field=$where", "sort_field"],
    ["all_ids=true&modified_since=-1", "modified_since"],
    ["all_ids=maybe", "all_ids"],
  ])("%s answers 400 naming %s", async (query, param) => {
    const reply = await list(`${base}?${query}`);
    expect(reply.status).toBe(400);
    expect(Object.keys((reply.body as { error: object }).error)).toEqual([param]);
  });

  it("an id_set of 251 ids answers 400 naming id_set", async () => {
    const reply = await list(`${base}?id_set=${Array.from({ length: 251 }, (_, i) => i + 1).join(",")}`);
    expect(reply.status).toBe(400);
    expect(Object.keys((reply.body as { error: object }).error)).toEqual(["id_set"]);
  });

  it("answers 404 for a repository that does not exist, even with good parameters", async () => {
    expect(await list("/repositories/999999/accessions?page=1")).toEqual({
      status: 404,
      body: { error: "Repository not found" },
    });
    expect(await list("/repositories/x/accessions?page=1")).toEqual({
      status: 404,
      body: { error: "Repository not found" },
    });
  });
});

describe("parameters in a form body", () => {
  it("are read like query parameters (docs/api.md §1)", async () => {
    const url = `${server.url}${base}`;
    const headers = { [SESSION_HEADER]: token, "Content-Type": "application/x-www-form-urlencoded" };
    const reply = await rawRequest(url, "GET", headers, `id_set[]=${ids[1]}&id_set[]=${ids[0]}`);
    expect([reply.status, idsOf(reply.body as unknown[])]).toEqual([200, [ids[0], ids[1]]]);
    const mixed = await rawRequest(`${url}?page_size=4`, "GET", headers, "page=2");
    expect(mixed.body).toMatchObject({ this_page: 2, last_page: 3 });
  });

  it("a JSON body is never read as parameters", async () => {
    const reply = await rawRequest(
      `${server.url}${base}`,
      "GET",
      { [SESSION_HEADER]: token, "Content-Type": "application/json" },
      '{"page":"1"}',
    );
    expect(reply.status).toBe(400);
  });
});
