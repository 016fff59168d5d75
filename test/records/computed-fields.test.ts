// Computed fields on read (docs/api.md §3, x-computed in record-types/README.md), shaped and worded as ArchivesSpace
// 2.7.1 answers (the version the recorded responses under ../shared/data come from): display strings and titles from
// the record itself, and what other records say about it (linked events, instances, an agent's roles, ancestors,
// the collections using a box), kept right when those records change, in reads and list pages alike.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import { trusted } from "../../src/auth/actor.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { minimalResource } from "./harness.js";

type Json = Record<string, unknown>;
let server: RecordServer;
let token: string;
let repo: number;

beforeAll(async () => {
  server = await startRecordServer({ monitorCommands: true });
  repo = (
    await server.ops.create("repository", {}, { repo_code: "cf", name: "Computed", publish: true }, trusted("system"))
  ).id;
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
});
afterAll(() => server.stop());

async function post(path: string, body: Json): Promise<string> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ warnings: [] })]);
  return (reply.body as { uri: string }).uri;
}
async function get(uri: string): Promise<Json> {
  const reply = await server.send("GET", uri, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}
async function update(uri: string, change: Json): Promise<void> {
  const current = await get(uri);
  const reply = await server.send("POST", uri, { token, body: { ...current, ...change } });
  expect(reply.status).toBe(200);
}
const at = (path: string) => `/repositories/${repo}/${path}`;

/** A custody transfer event linking `record`, implemented by a new agent named `agent`. */
async function eventLinking(record: string, agent: string): Promise<string> {
  return post(at("events"), {
    event_type: "custody_transfer",
    date: { date_type: "single", label: "event", begin: "2024-05-01" },
    linked_agents: [
      {
        ref: await post("/agents/people", { names: [{ primary_name: agent, name_order: "direct" }] }),
        role: "implementer",
      },
    ],
    linked_records: [{ ref: record, role: "source" }],
  });
}

describe("display strings and titles from the record itself", () => {
  it("an archival object: its title and its first date's label (expression, else begin - end, else begin)", async () => {
    const resource = await post(at("resources"), minimalResource("DS1"));
    const object = (dates: Json[], title?: string) =>
      post(at("archival_objects"), { level: "file", resource: { ref: resource }, dates, ...(title && { title }) });
    const personal = await object(
      [
        { date_type: "inclusive", label: "creation", expression: "1886–1961 (bulk 1933–1946)" },
        { date_type: "bulk", label: "creation", expression: "1933-1946", begin: "1933", end: "1946" },
      ],
      "Personal",
    );
    expect((await get(personal)).display_string).toBe("Personal, 1886–1961 (bulk 1933–1946)");
    const ranged = await object([{ date_type: "inclusive", label: "creation", begin: "1990", end: "2000" }]);
    expect((await get(ranged)).display_string).toBe("1990 - 2000");
    const bare = await object([], "Diaries, See logbooks");
    expect((await get(bare)).display_string).toBe("Diaries, See logbooks");
    // Kept right by an edit: it is worked out on each read, not stored.
    await update(bare, { title: "Diaries", dates: [{ date_type: "single", label: "creation", begin: "1901" }] });
    expect((await get(bare)).display_string).toBe("Diaries, 1901");
  });

  it("an accession: its title, else its identifier parts joined by '-'", async () => {
    expect((await get(await post(at("accessions"), { title: "Gift of X", id_0: "2020" }))).display_string).toBe(
      "Gift of X",
    );
    expect((await get(await post(at("accessions"), { id_0: "2020", id_1: "001" }))).display_string).toBe("2020-001");
  });

  it("a subject's title, a location's title, a repository's and the profiles' display strings", async () => {
    const vocabulary = await post("/vocabularies", { name: "Local", ref_id: "local" });
    const subject = await post("/subjects", {
      source: "local",
      vocabulary,
      terms: [
        { term: "Function", term_type: "function", vocabulary },
        { term: "Subject", term_type: "topical", vocabulary },
      ],
    });
    expect((await get(subject)).title).toBe("Function -- Subject");
    const location = await post("/locations", {
      building: "Main",
      floor: "2",
      room: "201",
      barcode: "LOC1",
      coordinate_1_label: "Shelf",
      coordinate_1_indicator: "3",
      coordinate_2_label: "Row",
      coordinate_2_indicator: "B",
    });
    expect((await get(location)).title).toBe("Main, 2, 201 [LOC1, Shelf: 3, Row: B]");
    expect((await get(`/repositories/${repo}`)).display_string).toBe("Computed (cf)");
    const profile = await post("/container_profiles", {
      name: "Hollinger",
      depth: "15",
      height: "10",
      width: "5",
      dimension_units: "inches",
      extent_dimension: "width",
    });
    expect((await get(profile)).display_string).toBe("Hollinger [15d, 10h, 5w inches] extent measured by width");
    const shelf = await post("/location_profiles", {
      name: "Shelf A",
      depth: "12",
      height: "10",
      width: "36",
      dimension_units: "inches",
    });
    expect((await get(shelf)).display_string).toBe("Shelf A [12d, 10h, 36w Inches]");
    expect((await get(await post("/location_profiles", { name: "Bay" }))).display_string).toBe("Bay");
  });

  it("an agent's display_name (the name marked for display, else the authorized one) and title", async () => {
    const agent = await post("/agents/people", {
      names: [
        {
          primary_name: "Smith",
          rest_of_name: "John",
          sort_name: "Smith, John",
          name_order: "inverted",
          source: "local",
        },
        {
          primary_name: "Smythe",
          sort_name: "Smythe",
          name_order: "inverted",
          source: "local",
          authorized: true,
        },
      ],
    });
    const read = await get(agent);
    expect(read.title).toBe("Smythe");
    expect(read.display_name).toMatchObject({ primary_name: "Smythe", sort_name: "Smythe" });
  });
});

describe("fields that other records decide", () => {
  it("linked_events and an agent's roles and repositories follow the records that link them", async () => {
    const person = await post("/agents/people", {
      names: [{ primary_name: "Ada", sort_name: "Ada", name_order: "inverted", source: "local" }],
    });
    expect(await get(person)).toMatchObject({
      linked_agent_roles: [],
      used_within_repositories: [],
      is_linked_to_published_record: false,
    });
    const resource = await post(
      at("resources"),
      minimalResource("LE1", { publish: true, linked_agents: [{ ref: person, role: "subject" }] }),
    );
    await post(at("accessions"), { id_0: "LE-A", linked_agents: [{ ref: person, role: "creator" }] });
    const event = await post(at("events"), {
      event_type: "custody_transfer",
      date: { date_type: "single", label: "event", begin: "2024-05-01" },
      linked_agents: [{ ref: person, role: "implementer" }],
      linked_records: [{ ref: resource, role: "source" }],
    });
    expect((await get(resource)).linked_events).toEqual([{ ref: event }]);
    expect((await get(resource)).tree).toEqual({ ref: `${resource}/tree` });
    // Event roles are not the agent's record roles (ArchivesSpace keeps linked_agent_role values only).
    expect(await get(person)).toMatchObject({
      linked_agent_roles: ["creator", "subject"],
      used_within_repositories: [`/repositories/${repo}`],
      used_within_published_repositories: [`/repositories/${repo}`],
      is_linked_to_published_record: true,
    });
    const page = (await server.send("GET", "/agents/people?page=1&page_size=50", { token })).body as {
      results: Json[];
    };
    expect(page.results.find((agent) => agent.uri === person)).toMatchObject({
      linked_agent_roles: ["creator", "subject"],
    });
    expect((await server.send("DELETE", event, { token })).status).toBe(200);
    expect((await get(resource)).linked_events).toEqual([]);
  });

  it("an archival object's ancestors, nearest first and the resource last, which resolve[] can follow", async () => {
    const resource = await post(at("resources"), minimalResource("AN1"));
    const series = await post(at("archival_objects"), {
      title: "Series",
      level: "series",
      resource: { ref: resource },
    });
    const file = await post(at("archival_objects"), {
      title: "File",
      level: "file",
      resource: { ref: resource },
      parent: { ref: series },
    });
    const item = await post(at("archival_objects"), {
      title: "Item",
      level: "item",
      resource: { ref: resource },
      parent: { ref: file },
    });
    expect((await get(item)).ancestors).toEqual([
      { ref: file, level: "file" },
      { ref: series, level: "series" },
      { ref: resource, level: "collection" },
    ]);
    expect((await get(series)).ancestors).toEqual([{ ref: resource, level: "collection" }]);
    const resolved = (await server.send("GET", `${item}?resolve[]=ancestors`, { token })).body as {
      ancestors: Array<{ _resolved: Json }>;
    };
    expect(resolved.ancestors.map((ancestor) => ancestor._resolved.title)).toEqual(["File", "Series", "Papers"]);
  });

  it("a top container's collection, series and display strings, and a digital object's linked_instances", async () => {
    const box = await post(at("top_containers"), { type: "box", indicator: "1" });
    expect(await get(box)).toMatchObject({
      display_string: "Box 1",
      long_display_string: "Box 1",
      collection: [],
      series: [],
      is_linked_to_published_record: false,
    });
    const instance = { instance_type: "mixed_materials", sub_container: { top_container: { ref: box } } };
    const resource = await post(
      at("resources"),
      minimalResource("TC1", { title: "kmtests", id_0: "1", publish: true, instances: [instance] }),
    );
    const series = await post(at("archival_objects"), {
      title: "Correspondence",
      component_id: "3",
      level: "series",
      resource: { ref: resource },
    });
    await post(at("archival_objects"), {
      title: "Letters",
      level: "file",
      resource: { ref: resource },
      parent: { ref: series },
      instances: [instance],
    });
    expect(await get(box)).toMatchObject({
      collection: [{ ref: resource, identifier: "1", display_string: "kmtests" }],
      series: [{ ref: series, identifier: "3", display_string: "Correspondence", level_display_string: "Series" }],
      display_string: "Box 1: Series 3",
      long_display_string: "1, Series 3, Box 1",
      is_linked_to_published_record: true,
    });
    const digital = await post(at("digital_objects"), { title: "Scan", digital_object_id: "DO-1" });
    const holder = await post(at("archival_objects"), {
      title: "Scanned",
      level: "item",
      resource: { ref: resource },
      instances: [{ instance_type: "digital_object", digital_object: { ref: digital } }],
    });
    expect((await get(digital)).linked_instances).toEqual([{ ref: holder }]);
  });

  it("a top container's active_restrictions: the restrictions in force of the records using it and their ancestors", async () => {
    const restricted = (begin: string, end: string, types: string[] = []) => ({
      jsonmodel_type: "note_multipart",
      type: "accessrestrict",
      subnotes: [{ jsonmodel_type: "note_text", content: "Closed" }],
      rights_restriction: { begin, end, local_access_restriction_type: types },
    });
    const resource = await post(
      at("resources"),
      minimalResource("RS1", { notes: [restricted("2000-01-01", "2999-12-31", ["RestrictedSpecColl"])] }),
    );
    const box = await post(at("top_containers"), { type: "box", indicator: "R1" });
    expect(await get(box)).toMatchObject({ active_restrictions: [], restricted: false });
    // An expired restriction on the file itself does not count; the resource's, in force, does.
    await post(at("archival_objects"), {
      title: "Closed file",
      level: "file",
      resource: { ref: resource },
      notes: [restricted("1990-01-01", "1999-12-31")],
      instances: [{ instance_type: "mixed_materials", sub_container: { top_container: { ref: box } } }],
    });
    expect(await get(box)).toMatchObject({
      restricted: true,
      active_restrictions: [
        {
          begin: "2000-01-01",
          end: "2999-12-31",
          local_access_restriction_type: ["RestrictedSpecColl"],
          linked_records: { ref: resource },
          restriction_note_type: "accessrestrict",
        },
      ],
    });
  });

  it("a classification's and its terms' path_from_root: [{title, identifier}] from the classification down", async () => {
    const classification = await post(at("classifications"), { identifier: "C", title: "Collections" });
    const term = await post(at("classification_terms"), {
      identifier: "C.1",
      title: "Correspondence",
      classification: { ref: classification },
    });
    const inner = await post(at("classification_terms"), {
      identifier: "C.1.a",
      title: "Letters",
      classification: { ref: classification },
      parent: { ref: term },
    });
    expect((await get(classification)).path_from_root).toEqual([{ title: "Collections", identifier: "C" }]);
    expect((await get(inner)).path_from_root).toEqual([
      { title: "Collections", identifier: "C" },
      { title: "Correspondence", identifier: "C.1" },
      { title: "Letters", identifier: "C.1.a" },
    ]);
  });

  it("a GET reads the record and what links to it for its linked_events in one store round trip", async () => {
    const accession = await post(at("accessions"), { id_0: "RT1", title: "One trip" });
    await eventLinking(accession, "Trip");
    const commands = server.commands!;
    commands.clear();
    const read = await get(accession);
    expect(read.linked_events).toEqual([{ ref: expect.stringMatching(/\/events\/\d+$/) }]);
    expect(read.display_string).toBe("One trip");
    expect(commands.roundTrips()).toBe(1);
    // A missing record is still the 404 it was.
    expect((await server.send("GET", `${accession}999`, { token })).status).toBe(404);
  });

  it("records read by id (id_set, as search results are read) come with their linked_events in the same round trip", async () => {
    const linked = await post(at("accessions"), { id_0: "RT2", title: "Linked" });
    const alone = await post(at("accessions"), { id_0: "RT3", title: "Alone" });
    await eventLinking(linked, "Set");
    const ids = [linked, alone].map((uri) => uri.split("/").pop()).join(",");
    const commands = server.commands!;
    commands.clear();
    const answer = await server.send("GET", `${at("accessions")}?id_set=${ids}`, { token });
    expect(answer.status).toBe(200);
    const records = answer.body as Json[];
    expect(records.map((record) => [record.uri, record.linked_events])).toEqual([
      [linked, [{ ref: expect.stringMatching(/\/events\/\d+$/) }]],
      [alone, []],
    ]);
    expect(commands.roundTrips()).toBe(1);
  });
});
