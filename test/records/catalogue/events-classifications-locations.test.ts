// Locations and location profiles, events and classifications (with their terms),
// served from their schemas alone, over real HTTP and the embedded engine. Top containers sit
// at locations (a location holding one cannot be deleted); events link agents and records;
// accessions and resources are filed under classifications. Assessments and the user's agent
// link are in assessments-and-agent-links.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { PageEnvelope } from "../../../src/records/operations/index.js";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { readRecordedResponse, type Json } from "./fixtures.js";
import { trusted } from "../../../src/auth/actor.js";

let server: RecordServer;
let token: string;
let repo: number;
let other: number;
let person: string;
let software: string;

const CODES = [
  "view_repository",
  "update_accession_record",
  "update_resource_record",
  "delete_archival_record",
  "update_container_record",
  "manage_container_record",
  "update_agent_record",
  "delete_agent_record",
  "update_location_record",
  "update_location_profile_record",
  "update_event_record",
  "delete_event_record",
  "update_classification_record",
  "delete_classification_record",
];

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "evt", name: "Events" }, trusted("system"))).id;
  other = (await server.ops.create("repository", {}, { repo_code: "elsewhere", name: "Elsewhere" }, trusted("system")))
    .id;
  token = await server.login("archivist", globalGrants(CODES));
  person = await create("/agents/people", {
    names: [{ primary_name: "Keeper", rest_of_name: "Ada", name_order: "inverted" }],
  });
  software = await create("/agents/software", { names: [{ software_name: "Fixity checker" }] });
});
afterAll(() => server.stop());

async function create(path: string, body: Json): Promise<string> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

async function read(uri: string, query = ""): Promise<Json> {
  const reply = await server.send("GET", `${uri}${query}`, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

async function errorOf(path: string, body: Json): Promise<Record<string, string[]>> {
  const reply = await server.send("POST", path, { token, body });
  expect(reply.status).toBe(400);
  return (reply.body as { error: Record<string, string[]> }).error;
}

const status = async (method: string, uri: string) => (await server.send(method, uri, { token })).status;
const idOf = (uri: string) => Number(uri.split("/").pop());

let serial = 0;
const next = () => (serial += 1);
const events = () => `/repositories/${repo}/events`;
const classifications = () => `/repositories/${repo}/classifications`;
const terms = () => `/repositories/${repo}/classification_terms`;
const accession = (extra: Json = {}): Json => ({
  title: `Accession ${next()}`,
  id_0: "EVT",
  id_1: String(serial),
  ...extra,
});
const resource = (extra: Json = {}): Json => ({
  title: `Resource ${next()}`,
  id_0: "RES",
  id_1: String(serial),
  level: "collection",
  finding_aid_language: "eng",
  finding_aid_script: "Latn",
  extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
  dates: [{ date_type: "single", label: "creation", begin: "1950" }],
  lang_materials: [{ language_and_script: { language: "eng" } }],
  ...extra,
});
const event = (record: string, extra: Json = {}): Json => ({
  event_type: "custody_transfer",
  date: { date_type: "single", label: "event", begin: "2024-05-01" },
  linked_agents: [{ ref: person, role: "implementer" }],
  linked_records: [{ ref: record, role: "source" }],
  ...extra,
});
const term = (classification: string, extra: Json = {}): Json => ({
  identifier: `T${next()}`,
  title: `Term ${serial}`,
  classification: { ref: classification },
  ...extra,
});

describe("CRUD at each type's path", () => {
  const cases: Array<[string, () => string, () => Promise<Json>, (record: Json) => Json, (record: Json) => unknown]> = [
    [
      "location_profile",
      () => "/location_profiles",
      async () => ({ name: `Shelf ${next()}`, dimension_units: "inches", height: "12", width: "40", depth: "18" }),
      (r) => ({ ...r, depth: "20" }),
      (r) => r.depth,
    ],
    [
      "location",
      () => "/locations",
      async () => ({
        building: "Main Library",
        floor: "3",
        room: "301",
        area: "East",
        barcode: `L-${next()}`,
        classification: "Stacks",
        coordinate_1_label: "Range",
        coordinate_1_indicator: "12",
        coordinate_2_label: "Shelf",
        coordinate_2_indicator: "4",
        temporary: "reading_room",
        temporary_question: true,
        external_ids: [{ external_id: "loc-9", source: "legacy" }],
        functions: [{ location_function_type: "arrivals" }],
        location_profile: { ref: await create("/location_profiles", { name: `Bay ${serial}` }) },
        owner_repo: { ref: `/repositories/${repo}` },
      }),
      (r) => ({ ...r, room: "302" }),
      (r) => r.room,
    ],
    [
      "event",
      events,
      async () =>
        event(await create(`/repositories/${repo}/accessions`, accession()), {
          outcome: "partial pass",
          outcome_note: "Two files failed.",
          external_ids: [{ external_id: "e-1" }],
          external_documents: [{ title: "Transfer form", location: "https://example.org/form.pdf", publish: false }],
          linked_agents: [
            { ref: person, role: "authorizer" },
            { ref: software, role: "executing_program" },
          ],
        }),
      (r) => ({ ...r, outcome: "pass" }),
      (r) => r.outcome,
    ],
    [
      "classification",
      classifications,
      async () => ({
        identifier: `C${next()}`,
        title: "Correspondence",
        description: "Letters",
        creator: { ref: person },
      }),
      (r) => ({ ...r, publish: false }),
      (r) => r.publish,
    ],
    [
      "classification_term",
      terms,
      async () =>
        term(await create(classifications(), { identifier: `C${next()}`, title: "Root" }), {
          position: 0,
          creator: { ref: software },
        }),
      (r) => ({ ...r, description: "Sub" }),
      (r) => r.description,
    ],
  ];

  it.each(cases)("%s: create, read, update, delete", async (type, pathOf, bodyOf, change, check) => {
    const path = pathOf();
    const body = await bodyOf();
    const uri = await create(path, body);
    expect(uri).toMatch(new RegExp(`^${path}/[1-9][0-9]*$`));
    const record = await read(uri);
    expect(record).toMatchObject({ ...body, uri, jsonmodel_type: type, lock_version: 0 });
    const updated = await server.send("POST", uri, { token, body: change(record) });
    expect(updated.body).toMatchObject({ status: "Updated", uri, lock_version: 1 });
    expect(check(await read(uri))).toEqual(check(change(record)));
    expect((await server.send("DELETE", uri, { token })).body).toEqual({ status: "Deleted", id: idOf(uri) });
    expect(await status("GET", uri)).toBe(404);
  });

  it("fills ArchivesSpace's defaults and subrecord types; ignores computed fields on input", async () => {
    const location = await create("/locations", {
      building: "Annex",
      title: "ignored",
      functions: [{ location_function_type: "shared" }],
    });
    expect(await read(location)).toMatchObject({
      building: "Annex",
      functions: [{ jsonmodel_type: "location_function", location_function_type: "shared" }],
    });
    // The title is the server's (ArchivesSpace's: building, floor, room, area, then the bracketed coordinates).
    expect((await read(location)).title).toBe("Annex");
    const root = await create(classifications(), {
      identifier: `C${next()}`,
      title: "Defaults",
      path_from_root: [{ title: "x" }],
      linked_records: [{ ref: "/x" }],
      has_classification_terms: true,
    });
    const stored = await read(root);
    expect(stored.publish).toBe(true);
    // Input for computed fields is ignored: path_from_root is the server's, the others are not produced here.
    expect(stored.path_from_root).toEqual([{ title: "Defaults", identifier: stored.identifier }]);
    for (const computed of ["linked_records", "has_classification_terms"]) expect(stored).not.toHaveProperty(computed);
  });
});

describe("required fields and bad values: 400 naming each field", () => {
  it("location, location profile", async () => {
    expect(await errorOf("/locations", { room: "1", temporary: "forever" })).toEqual({
      building: ["Property is required but was missing"],
      temporary: [expect.stringContaining("forever")],
    });
    expect(await errorOf("/location_profiles", { dimension_units: "cubits" })).toEqual({
      name: ["Property is required but was missing"],
      dimension_units: [expect.stringContaining("cubits")],
    });
  });

  it("event: type, an agent and a record (at least one each), a date or a timestamp, roles", async () => {
    const reply = await server.send("POST", events(), { token, body: { outcome: "maybe" } });
    expect(reply.status).toBe(400);
    const error = (reply.body as { error: Record<string, string[]> }).error;
    expect(Object.keys(error).sort()).toEqual([
      "date",
      "event_type",
      "linked_agents",
      "linked_records",
      "outcome",
      "record",
      "timestamp",
    ]);
    expect(error.event_type).toEqual(["Property is required but was missing"]);
    const target = await create(`/repositories/${repo}/accessions`, accession());
    expect(
      Object.keys(await errorOf(events(), event(target, { linked_agents: [], linked_records: [] }))).sort(),
    ).toEqual(["linked_agents", "linked_records"]);
    expect(
      Object.keys(
        await errorOf(
          events(),
          event(target, { linked_agents: [{ ref: person }], linked_records: [{ ref: target, role: "bystander" }] }),
        ),
      ).sort(),
    ).toEqual(["linked_agents/0/role", "linked_records/0/role"]);
    const { date: _date, ...undated } = event(target);
    expect(Object.keys(await errorOf(events(), undated)).sort()).toEqual(["date", "record", "timestamp"]);
    await create(events(), { ...undated, timestamp: "2024-05-01T10:00:00Z" });
  });

  it("classification and term: identifier and title; a term also its classification", async () => {
    expect(Object.keys(await errorOf(classifications(), { description: "no names" })).sort()).toEqual([
      "identifier",
      "title",
    ]);
    expect(Object.keys(await errorOf(terms(), { title: "" })).sort()).toEqual([
      "classification",
      "identifier",
      "title",
    ]);
    const root = await create(classifications(), { identifier: `C${next()}`, title: "Root" });
    expect(Object.keys(await errorOf(terms(), term(root, { position: -1 })))).toEqual(["position"]);
  });

  it("a container location: status and start date", async () => {
    const location = await create("/locations", { building: "Depot" });
    expect(
      await errorOf(`/repositories/${repo}/top_containers`, {
        indicator: "1",
        container_locations: [{ ref: location, status: "lost" }],
      }),
    ).toEqual({
      "container_locations/0/start_date": ["Property is required but was missing"],
      "container_locations/0/status": [expect.stringContaining("lost")],
    });
  });
});

describe("link rules: shape, existence, repository", () => {
  it("a ref of the wrong shape or type is a 400 on its path", async () => {
    const location = await create("/locations", { building: "Shape" });
    const target = await create(`/repositories/${repo}/accessions`, accession());
    expect(Object.keys(await errorOf("/locations", { building: "B", location_profile: { ref: location } }))).toEqual([
      "location_profile/ref",
    ]);
    expect(Object.keys(await errorOf("/locations", { building: "B", owner_repo: { ref: "/repositories/x" } }))).toEqual(
      ["owner_repo/ref"],
    );
    expect(
      Object.keys(await errorOf(events(), event(target, { linked_agents: [{ ref: target, role: "implementer" }] }))),
    ).toEqual(["linked_agents/0/ref"]);
    expect(Object.keys(await errorOf(events(), event(location)))).toEqual(["linked_records/0/ref"]);
    expect(
      Object.keys(
        await errorOf(`/repositories/${repo}/top_containers`, {
          indicator: "2",
          container_locations: [{ ref: target, status: "current", start_date: "2024-01-01" }],
        }),
      ),
    ).toEqual(["container_locations/0/ref"]);
    expect(
      Object.keys(await errorOf(`/repositories/${repo}/accessions`, accession({ classifications: [{ ref: person }] }))),
    ).toEqual(["classifications/0/ref"]);
    expect(
      Object.keys(
        await errorOf(terms(), { identifier: "X", title: "X", classification: { ref: "/classifications/1" } }),
      ),
    ).toEqual(["classification/ref"]);
  });

  it("a missing target is a 400 naming it", async () => {
    const target = await create(`/repositories/${repo}/accessions`, accession());
    expect(
      await errorOf("/locations", {
        building: "B",
        location_profile: { ref: "/location_profiles/9999" },
        owner_repo: { ref: "/repositories/9999" },
      }),
    ).toEqual({
      "location_profile/ref": ["Reference to /location_profiles/9999 does not exist"],
      "owner_repo/ref": ["Reference to /repositories/9999 does not exist"],
    });
    expect(
      await errorOf(
        events(),
        event(target, {
          linked_agents: [{ ref: "/agents/people/9999", role: "validator" }],
          linked_records: [{ ref: `/repositories/${repo}/resources/9999`, role: "outcome" }],
        }),
      ),
    ).toEqual({
      "linked_agents/0/ref": ["Reference to /agents/people/9999 does not exist"],
      "linked_records/0/ref": [`Reference to /repositories/${repo}/resources/9999 does not exist`],
    });
    expect(
      await errorOf(`/repositories/${repo}/top_containers`, {
        indicator: "3",
        container_locations: [{ ref: "/locations/9999", status: "current", start_date: "2024-01-01" }],
      }),
    ).toEqual({
      "container_locations/0/ref": ["Reference to /locations/9999 does not exist"],
    });
    expect(
      await errorOf(
        terms(),
        term(`/repositories/${repo}/classifications/9999`, {
          parent: { ref: `/repositories/${repo}/classification_terms/9999` },
        }),
      ),
    ).toEqual({
      "classification/ref": [`Reference to /repositories/${repo}/classifications/9999 does not exist`],
      "parent/ref": [`Reference to /repositories/${repo}/classification_terms/9999 does not exist`],
    });
  });

  it("a record of another repository is a 400", async () => {
    const foreignAccession = await create(`/repositories/${other}/accessions`, accession());
    const foreignRoot = await create(`/repositories/${other}/classifications`, { identifier: "F", title: "Foreign" });
    const same = "Must refer to a record in the same repository";
    expect(await errorOf(events(), event(foreignAccession))).toEqual({ "linked_records/0/ref": [same] });
    expect(await errorOf(terms(), term(foreignRoot))).toEqual({ "classification/ref": [same] });
    expect(
      await errorOf(`/repositories/${repo}/resources`, resource({ classifications: [{ ref: foreignRoot }] })),
    ).toEqual({ "classifications/0/ref": [same] });
    expect(
      await errorOf(
        `/repositories/${repo}/accessions`,
        accession({ related_resources: [{ ref: `/repositories/${other}/resources/1` }] }),
      ),
    ).toEqual({ "related_resources/0/ref": [same] });
  });
});

describe("locations and top containers", () => {
  it("a container's locations link and resolve; a location holding a container cannot be deleted (409 naming it)", async () => {
    const profile = await create("/location_profiles", { name: `Cabinet ${next()}` });
    const location = await create("/locations", { building: "Vault", location_profile: { ref: profile } });
    const earlier = await create("/locations", { building: "Loading dock" });
    const container = await create(`/repositories/${repo}/top_containers`, {
      indicator: "40",
      container_locations: [
        { ref: location, status: "current", start_date: "2024-02-01", note: "Moved after survey" },
        { ref: earlier, status: "previous", start_date: "2023-01-01", end_date: "2024-01-31" },
      ],
    });
    expect(await read(container, "?resolve[]=container_locations")).toMatchObject({
      container_locations: [
        {
          jsonmodel_type: "container_location",
          ref: location,
          status: "current",
          _resolved: { uri: location, building: "Vault", location_profile: { ref: profile } },
        },
        {
          jsonmodel_type: "container_location",
          ref: earlier,
          status: "previous",
          end_date: "2024-01-31",
          _resolved: { building: "Loading dock" },
        },
      ],
    });
    for (const held of [location, earlier]) {
      const refused = await server.send("DELETE", held, { token });
      expect([refused.status, refused.body]).toEqual([
        409,
        { error: `Cannot delete ${held}: ${container} refers to it` },
      ]);
      expect(await status("GET", held)).toBe(200);
    }
    expect(await status("DELETE", container)).toBe(200);
    expect(await status("DELETE", location)).toBe(200);
  });

  it("deleting a location profile leaves its locations without one; deleting a repository leaves its locations unowned", async () => {
    const profile = await create("/location_profiles", { name: `Drawer ${next()}` });
    const doomedRepo = (
      await server.ops.create("repository", {}, { repo_code: `gone${serial}`, name: "Gone" }, trusted("system"))
    ).id;
    const location = await create("/locations", {
      building: "Wing",
      location_profile: { ref: profile },
      owner_repo: { ref: `/repositories/${doomedRepo}` },
    });
    expect(await status("DELETE", profile)).toBe(200);
    expect(await read(location)).not.toHaveProperty("location_profile");
    expect(await read(location)).toHaveProperty("owner_repo", { ref: `/repositories/${doomedRepo}` });
    const admin = await server.login("admin-for-delete", globalGrants(["delete_repository"]));
    expect((await server.send("DELETE", `/repositories/${doomedRepo}`, { token: admin })).status).toBe(200);
    expect(await read(location)).toMatchObject({ building: "Wing", lock_version: 2 });
    expect(await read(location)).not.toHaveProperty("owner_repo");
  });

  it("the real ArchivesSpace top container validates with its container location once the location exists", async () => {
    const real = readRecordedResponse("top_container.json");
    const location = await create("/locations", { building: "Recorded" });
    const locations = (real.container_locations as Json[]).map((stay) => ({ ...stay, ref: location }));
    const uri = await create(`/repositories/${repo}/top_containers`, { ...real, container_locations: locations });
    // The subrecord's server fields (ArchivesSpace's own mtime strings) are stripped; its data stays.
    expect((await read(uri)).container_locations).toEqual([
      { jsonmodel_type: "container_location", status: "current", start_date: "2020-03-19", ref: location },
    ]);
  });
});

describe("events", () => {
  it("link every kind of record and resolve agents and records", async () => {
    const acc = await create(`/repositories/${repo}/accessions`, accession());
    const res = await create(`/repositories/${repo}/resources`, resource());
    const box = await create(`/repositories/${repo}/top_containers`, { indicator: "E1" });
    const uri = await create(
      events(),
      event(acc, {
        linked_records: [
          { ref: acc, role: "source" },
          { ref: res, role: "outcome" },
          { ref: box, role: "context" },
          { ref: software, role: "transfer" },
        ],
      }),
    );
    expect(await read(uri, "?resolve[]=linked_agents&resolve[]=linked_records")).toMatchObject({
      linked_agents: [{ ref: person, role: "implementer", _resolved: { jsonmodel_type: "agent_person" } }],
      linked_records: [
        { ref: acc, _resolved: { jsonmodel_type: "accession" } },
        { ref: res, _resolved: { jsonmodel_type: "resource" } },
        { ref: box, _resolved: { jsonmodel_type: "top_container", indicator: "E1" } },
        { ref: software, _resolved: { jsonmodel_type: "agent_software" } },
      ],
    });
  });

  it("deleting an agent or a record removes that entry; the event stays", async () => {
    const helper = await create("/agents/people", { names: [{ primary_name: "Helper", name_order: "direct" }] });
    const acc = await create(`/repositories/${repo}/accessions`, accession());
    const box = await create(`/repositories/${repo}/top_containers`, { indicator: "E2" });
    const uri = await create(
      events(),
      event(acc, {
        linked_agents: [
          { ref: helper, role: "recipient" },
          { ref: person, role: "transmitter" },
        ],
        linked_records: [
          { ref: box, role: "context" },
          { ref: acc, role: "source" },
        ],
      }),
    );
    expect(await status("DELETE", helper)).toBe(200);
    expect(await status("DELETE", box)).toBe(200);
    expect(await read(uri)).toMatchObject({
      lock_version: 2,
      linked_agents: [{ ref: person, role: "transmitter" }],
      linked_records: [{ ref: acc, role: "source" }],
    });
  });

  it("an accession or resource shows linked_events only as the server computes it (input ignored)", async () => {
    const acc = await create(
      `/repositories/${repo}/accessions`,
      accession({ linked_events: [{ ref: "/repositories/2/events/1" }] }),
    );
    expect((await read(acc)).linked_events).toEqual([]);
    const res = await create(`/repositories/${repo}/resources`, resource({ linked_events: [{ ref: "/x" }] }));
    expect((await read(res)).linked_events).toEqual([]);
  });
});

describe("classifications and their terms", () => {
  it("terms nest under a classification; deleting the classification deletes every term, and a term its child terms", async () => {
    const root = await create(classifications(), { identifier: `C${next()}`, title: "Administration" });
    const keep = await create(classifications(), { identifier: `C${next()}`, title: "Other" });
    const top = await create(terms(), term(root, { position: 0 }));
    const sibling = await create(terms(), term(root, { position: 1 }));
    const child = await create(terms(), term(root, { parent: { ref: top }, position: 0 }));
    const grandchild = await create(terms(), term(root, { parent: { ref: child } }));
    const elsewhere = await create(terms(), term(keep));
    expect(await read(grandchild, "?resolve[]=parent&resolve[]=classification")).toMatchObject({
      parent: { ref: child, _resolved: { uri: child, parent: { ref: top } } },
      classification: { ref: root, _resolved: { title: "Administration" } },
    });

    expect(await status("DELETE", top)).toBe(200);
    for (const gone of [top, child, grandchild]) expect(await status("GET", gone)).toBe(404);
    expect(await status("GET", sibling)).toBe(200);

    expect(await status("DELETE", root)).toBe(200);
    expect(await status("GET", sibling)).toBe(404);
    expect(await status("GET", elsewhere)).toBe(200);
  });

  it("a term's identifier is unique among its siblings, not across levels or classifications", async () => {
    const root = await create(classifications(), { identifier: `C${next()}`, title: "Unique" });
    const other = await create(classifications(), { identifier: `C${next()}`, title: "Unique too" });
    const first = await create(terms(), term(root, { identifier: "A" }));
    expect(await errorOf(terms(), term(root, { identifier: "A" }))).toEqual({
      identifier: ["That ID is already in use"],
    });
    await create(terms(), term(root, { identifier: "A", parent: { ref: first } }));
    await create(terms(), term(other, { identifier: "A" }));
    expect(await errorOf(terms(), term(root, { identifier: "A", parent: { ref: first } }))).toEqual({
      identifier: ["That ID is already in use"],
    });
  });

  it("accessions and resources are filed under classifications and terms; deleting one removes it from their lists", async () => {
    const root = await create(classifications(), { identifier: `C${next()}`, title: "Filing" });
    const leaf = await create(terms(), term(root));
    const res = await create(
      `/repositories/${repo}/resources`,
      resource({ classifications: [{ ref: root }, { ref: leaf }] }),
    );
    const acc = await create(
      `/repositories/${repo}/accessions`,
      accession({ classifications: [{ ref: leaf }, { ref: root }], related_resources: [{ ref: res }] }),
    );
    expect(await read(acc, "?resolve[]=classifications&resolve[]=related_resources")).toMatchObject({
      classifications: [
        { ref: leaf, _resolved: { jsonmodel_type: "classification_term" } },
        { ref: root, _resolved: { jsonmodel_type: "classification" } },
      ],
      related_resources: [{ ref: res, _resolved: { title: expect.stringContaining("Resource") } }],
    });

    expect(await status("DELETE", leaf)).toBe(200);
    expect((await read(res)).classifications).toEqual([{ ref: root }]);
    expect(await status("DELETE", root)).toBe(200);
    expect(await read(res)).not.toHaveProperty("classifications.0");
    expect((await read(acc)).classifications).toEqual([]);

    expect(await status("DELETE", res)).toBe(200);
    expect((await read(acc)).related_resources).toEqual([]);
  });

  it("deleting a creator agent removes the creator; the classification stays", async () => {
    const creator = await create("/agents/families", { names: [{ family_name: "Founders" }] });
    const root = await create(classifications(), {
      identifier: `C${next()}`,
      title: "Created",
      creator: { ref: creator },
    });
    expect(await status("DELETE", creator)).toBe(200);
    expect(await read(root)).not.toHaveProperty("creator");
  });
});

describe("list modes", () => {
  const idsOf = (records: unknown[]) => records.map((record) => idOf((record as { uri: string }).uri));

  it.each([
    ["locations", (): string => "/locations", async (): Promise<Json> => ({ building: `Building ${next()}` })],
    ["events", events, async (): Promise<Json> => event(await create(`/repositories/${repo}/accessions`, accession()))],
  ] as Array<[string, () => string, () => Promise<Json>]>)(
    "%s: page, all_ids and id_set",
    async (_name, pathOf, bodyOf) => {
      const path = pathOf();
      const made: number[] = [];
      for (let i = 0; i < 3; i++) made.push(idOf(await create(path, await bodyOf())));
      const all = (await server.send("GET", `${path}?all_ids=true`, { token })).body as number[];
      expect(all).toEqual(expect.arrayContaining(made));
      expect(all).toEqual([...all].sort((a, b) => a - b));
      const page = (await server.send("GET", `${path}?page=1&page_size=2`, { token })).body as PageEnvelope;
      expect(page).toMatchObject({
        first_page: 1,
        this_page: 1,
        total: all.length,
        last_page: Math.ceil(all.length / 2),
      });
      expect(idsOf(page.results)).toEqual(all.slice(0, 2));
      const set = (await server.send("GET", `${path}?id_set=${made[2]},${made[0]},999999`, { token }))
        .body as unknown[];
      expect(idsOf(set)).toEqual([made[0], made[2]]);
    },
  );

  it("events list only their repository's; locations sort by building", async () => {
    const foreign = await create(`/repositories/${other}/accessions`, accession());
    const foreignEvent = idOf(await create(`/repositories/${other}/events`, event(foreign)));
    expect((await server.send("GET", `${events()}?all_ids=true`, { token })).body).not.toContain(foreignEvent);
    const page = (await server.send("GET", "/locations?page=1&page_size=100&sort_field=building", { token }))
      .body as PageEnvelope;
    const buildings = page.results.map((record) => (record as { building: string }).building);
    expect(buildings.length).toBeGreaterThan(3);
    expect(buildings).toEqual([...buildings].sort());
  });
});

describe("permissions", () => {
  it("locations and profiles read with any session; events and classifications need view_repository; each write its code", async () => {
    expect((await server.send("GET", "/locations?page=1")).status).toBe(403);
    const nobody = await server.login("no-grants", globalGrants([]));
    expect((await server.send("GET", "/locations?page=1", { token: nobody })).status).toBe(200);
    expect((await server.send("GET", "/location_profiles?page=1", { token: nobody })).status).toBe(200);
    expect((await server.send("GET", `${events()}?page=1`, { token: nobody })).status).toBe(403);
    expect((await server.send("GET", `${events()}?page=1`)).status).toBe(403);
    expect((await server.send("GET", `${classifications()}?page=1`)).status).toBe(403);
    const viewer = await server.login("viewer", globalGrants(["view_repository", "update_event_record"]));
    expect((await server.send("POST", "/locations", { token: viewer, body: { building: "No" } })).status).toBe(403);
    expect(
      (await server.send("POST", classifications(), { token: viewer, body: { identifier: "N", title: "No" } })).status,
    ).toBe(403);
    const target = await create(`/repositories/${repo}/accessions`, accession());
    const created = await server.send("POST", events(), { token: viewer, body: event(target) });
    expect(created.status).toBe(200);
    // Deleting an event needs delete_event_record, not the update code.
    expect((await server.send("DELETE", (created.body as { uri: string }).uri, { token: viewer })).status).toBe(403);
    expect(await status("DELETE", (created.body as { uri: string }).uri)).toBe(200);
  });
});
