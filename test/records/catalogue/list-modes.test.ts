// The three list modes (docs/api.md §5) on the catalogue's types, table-driven: page with
// its envelope (page_size, the last page, one past the end), id_set, all_ids, modified_since
// in each mode, sorting by every field the type can sort by, and, for repository-scoped types,
// that a list never shows another repository's records. Paths, scopes and sortable fields come
// from the registry, so adding a type is one line of TYPES. (Parameter parsing, precedence and
// bad values are type-independent: test/records/http/lists.test.ts and list-params.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import type { PageEnvelope } from "../../../src/records/operations/index.js";
import { sortableFields } from "../../../src/records/operations/list.js";
import { registry } from "../../../src/registry/index.js";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import type { Json } from "./fixtures.js";
import { trusted } from "../../../src/auth/actor.js";

/** Words out of alphabetical order, so that a sort by a text field differs from id order. */
const WORDS = ["Kestrel", "Alder", "Quince", "Birch", "Osprey", "Cedar", "Heron", "Dogwood", "Magpie", "Elm"];
const word = (n: number) => `${WORDS[n % WORDS.length]} ${n}`;

/** A valid body for the nth record of a type (n is unique across the file). */
const TYPES: Array<[type: string, body: (n: number) => Json]> = [
  ["vocabulary", (n) => ({ name: word(n), ref_id: `list_${n}` })],
  [
    "subject",
    (n) => ({
      source: "local",
      vocabulary: "/vocabularies/1",
      terms: [{ term: word(n), term_type: "topical", vocabulary: "/vocabularies/1" }],
    }),
  ],
  ["agent_person", (n) => ({ names: [{ primary_name: word(n), name_order: "direct" }] })],
  [
    "container_profile",
    (n) => ({
      name: word(n),
      dimension_units: "inches",
      extent_dimension: "width",
      height: "10",
      width: "12",
      depth: "15",
    }),
  ],
  [
    "accession",
    (n) => ({ title: word(n), id_0: "LM", id_1: String(n), accession_date: `${1990 + ((n * 7) % 30)}-06-01` }),
  ],
  [
    "resource",
    (n) => ({
      title: word(n),
      id_0: "LM",
      id_1: String(n),
      level: "collection",
      extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
      dates: [{ date_type: "single", label: "creation", begin: "1901" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
    }),
  ],
  ["digital_object", (n) => ({ title: word(n), digital_object_id: `lm-${n}` })],
  ["top_container", (n) => ({ indicator: word(n), barcode: `${word(n)} barcode` })],
];

/** Records made in the repository under test (A) and, for repository-scoped types, in another one (B), interleaved. */
const PLAN = ["A", "B", "A", "A", "B", "A", "A"] as const;

interface TypeState {
  path: string;
  /** The same collection in repository B (repository-scoped types only). */
  otherPath?: string;
  /** Ids listed before this file's records of the type were made (the set-up's vocabulary). */
  before: number[];
  made: number[];
  otherMade: number[];
  /** The record of A updated after `since`. */
  changed: number;
}

let server: RecordServer;
let token: string;
let since: number;
const state = new Map<string, TypeState>();

const idOf = (uri: unknown) => Number(String(uri).split("/").pop());
const idsOf = (records: unknown[]) => records.map((record) => idOf((record as Json).uri));

async function get(path: string): Promise<unknown> {
  const reply = await server.send("GET", path, { token });
  expect([path, reply.status]).toEqual([path, 200]);
  return reply.body;
}

beforeAll(async () => {
  server = await startRecordServer();
  const system = trusted("system");
  const repoA = (await server.ops.create("repository", {}, { repo_code: "list_a", name: "A" }, system)).id;
  const repoB = (await server.ops.create("repository", {}, { repo_code: "list_b", name: "B" }, system)).id;
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
  await server.ops.create("vocabulary", {}, { name: "global", ref_id: "global" }, system);

  let n = 0;
  for (const [type, body] of TYPES) {
    const { scope, collectionPath } = registry.get(type);
    const pathIn = (repoId: number) => collectionPath.replace(":repo_id", String(repoId));
    const path = pathIn(repoA);
    const entry: TypeState = {
      path,
      before: (await get(`${path}?all_ids=true`)) as number[],
      made: [],
      otherMade: [],
      changed: 0,
    };
    if (scope === "repository") entry.otherPath = pathIn(repoB);
    for (const where of PLAN) {
      if (where === "B" && !entry.otherPath) continue;
      const reply = await server.send("POST", where === "A" ? path : entry.otherPath!, { token, body: body(n++) });
      expect([type, reply.status, reply.body]).toEqual([type, 200, expect.objectContaining({ status: "Created" })]);
      (where === "A" ? entry.made : entry.otherMade).push((reply.body as { id: number }).id);
    }
    state.set(type, entry);
  }

  // One record of each type changes at or after `since`; everything else was made before it.
  since = Math.floor(Date.now() / 1000) + 1;
  await new Promise((resolve) => setTimeout(resolve, since * 1000 - Date.now() + 5));
  for (const entry of state.values()) {
    entry.changed = entry.made[2]!;
    const uri = `${entry.path}/${entry.changed}`;
    const current = await get(uri);
    const updated = await server.send("POST", uri, { token, body: current });
    expect([uri, updated.status]).toEqual([uri, 200]);
  }
}, 60_000);
afterAll(() => server.stop());

const ALL_TYPES = TYPES.map(([type]) => type);
const REPOSITORY_TYPES = ALL_TYPES.filter((type) => registry.get(type).scope === "repository");

it("the table covers at least three global and three repository-scoped types", () => {
  expect(ALL_TYPES.length - REPOSITORY_TYPES.length).toBeGreaterThanOrEqual(3);
  expect(REPOSITORY_TYPES.length).toBeGreaterThanOrEqual(3);
});

describe.each(ALL_TYPES)("%s", (type) => {
  const s = () => state.get(type)!;
  /** Every id the list should show, ascending. */
  const all = () => [...s().before, ...s().made];

  it("page: the envelope, page by page, and an empty page past the end", async () => {
    const { path } = s();
    const total = all().length;
    const last = Math.ceil(total / 2);
    for (let page = 1; page <= last; page++) {
      const body = (await get(`${path}?page=${page}&page_size=2`)) as PageEnvelope;
      expect({ ...body, results: idsOf(body.results) }).toEqual({
        first_page: 1,
        last_page: last,
        this_page: page,
        total,
        results: all().slice(2 * page - 2, 2 * page),
      });
      for (const record of body.results)
        expect(record).toMatchObject({
          jsonmodel_type: type,
          uri: expect.stringMatching(new RegExp(`^${path}/\\d+$`)),
        });
    }
    expect(await get(`${path}?page=${last + 1}&page_size=2`)).toEqual({
      first_page: 1,
      last_page: last,
      this_page: last + 1,
      total,
      results: [],
    });
    const whole = (await get(`${path}?page=1`)) as PageEnvelope;
    expect([whole.last_page, idsOf(whole.results)]).toEqual([1, all()]);
  });

  it("id_set: a bare array of records in id order, leaving out ids it does not have", async () => {
    const { path, made, otherMade } = s();
    const asked = [made[3]!, made[0]!, 999_999, ...otherMade];
    const records = (await get(`${path}?id_set=${asked.join(",")}`)) as Json[];
    expect(idsOf(records)).toEqual([made[0], made[3]]);
    expect(records.every((record) => record.jsonmodel_type === type)).toBe(true);
    expect(
      idsOf((await get(`${path}?${[made[4], made[1]].map((id) => `id_set[]=${id}`).join("&")}`)) as Json[]),
    ).toEqual([made[1], made[4]]);
  });

  it("all_ids: every id, ascending", async () => {
    expect(await get(`${s().path}?all_ids=true`)).toEqual(all());
  });

  it("modified_since keeps only the record changed at or after it, in every mode", async () => {
    const { path, made, changed } = s();
    expect(await get(`${path}?all_ids=true&modified_since=${since}`)).toEqual([changed]);
    const page = (await get(`${path}?page=1&modified_since=${since}`)) as PageEnvelope;
    expect([page.total, page.last_page, idsOf(page.results)]).toEqual([1, 1, [changed]]);
    expect(idsOf((await get(`${path}?id_set=${made[0]},${changed}&modified_since=${since}`)) as Json[])).toEqual([
      changed,
    ]);
    expect(await get(`${path}?all_ids=true&modified_since=0`)).toEqual(all());
    expect(await get(`${path}?all_ids=true&modified_since=${since + 3600}`)).toEqual([]);
  });

  it("sorts by id and system_mtime either way, and by each indexed field; anything else is a 400", async () => {
    const { path, changed } = s();
    const page = async (query: string) =>
      ((await get(`${path}?page=1&page_size=250&${query}`)) as PageEnvelope).results;
    expect(idsOf(await page("sort_direction=desc"))).toEqual([...all()].reverse());
    // The changed record is the most recently modified; the others were modified in id order.
    const byMtime = [...all().filter((id) => id !== changed), changed];
    expect(idsOf(await page("sort_field=system_mtime"))).toEqual(byMtime);
    expect(idsOf(await page("sort_field=system_mtime&sort_direction=desc"))).toEqual([...byMtime].reverse());

    const fields = sortableFields(registry.get(type)).filter((field) => field !== "id" && field !== "system_mtime");
    for (const field of fields) {
      const records = await page(`sort_field=${field}`);
      const value = (record: Json) =>
        String(field.split(".").reduce<unknown>((inner, key) => (inner as Json | undefined)?.[key], record));
      const expected = [...records].sort((a, b) =>
        value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : idOf(a.uri) - idOf(b.uri),
      );
      expect(idsOf(expected)).not.toEqual(all()); // the words make this order differ from id order
      expect([field, idsOf(records)]).toEqual([field, idsOf(expected)]);
      expect([field, idsOf(await page(`sort_field=${field}&sort_direction=desc`))]).toEqual([
        field,
        idsOf(expected).reverse(),
      ]);
    }

    const refused = await server.send("GET", `${path}?page=1&sort_field=lock_version`, { token });
    expect(refused.status).toBe(400);
    expect(Object.keys((refused.body as { error: object }).error)).toEqual(["sort_field"]);
  });
});

describe.each(REPOSITORY_TYPES)("%s lists only the repository in the URL", (type) => {
  const s = () => state.get(type)!;

  it("in every mode, with modified_since too", async () => {
    const { path, otherPath, made, otherMade } = s();
    expect(otherMade.length).toBeGreaterThan(0);
    expect(await get(`${otherPath}?all_ids=true`)).toEqual(otherMade);
    const page = (await get(`${otherPath}?page=1&page_size=250`)) as PageEnvelope;
    expect([page.total, idsOf(page.results)]).toEqual([otherMade.length, otherMade]);
    expect(
      page.results.every((record) => (record.repository as Json).ref === otherPath!.split("/").slice(0, 3).join("/")),
    ).toBe(true);
    // Ids of one repository asked for in the other are not there.
    expect(await get(`${otherPath}?id_set=${made.join(",")}`)).toEqual([]);
    expect(idsOf((await get(`${path}?id_set=${[...otherMade, made[1]].join(",")}`)) as Json[])).toEqual([made[1]]);
    // The change was in A; B has none since.
    expect(await get(`${otherPath}?all_ids=true&modified_since=${since}`)).toEqual([]);
    // And a record is read only through its own repository.
    expect((await server.send("GET", `${path}/${otherMade[0]}`, { token })).status).toBe(404);
  });
});
