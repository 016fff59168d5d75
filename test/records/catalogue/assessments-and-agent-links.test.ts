// Assessments (served from their schema alone), a user's link to its agent (an agent
// standing for a user cannot be deleted), the computed linked_events of archival records, and
// the permission codes the new types ask for. Locations, events and classifications are in
// events-classifications-locations.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import type { PageEnvelope } from "../../../src/records/operations/index.js";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import type { Json } from "./fixtures.js";
import { trusted } from "../../../src/auth/actor.js";

let server: RecordServer;
let token: string;
let repo: number;
let other: number;
let surveyor: string;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "asm", name: "Assessments" }, trusted("system"))).id;
  other = (await server.ops.create("repository", {}, { repo_code: "asm2", name: "Other" }, trusted("system"))).id;
  token = await server.login(
    "surveyor",
    globalGrants([
      "view_repository",
      "update_accession_record",
      "update_resource_record",
      "update_digital_object_record",
      "delete_archival_record",
      "update_agent_record",
      "delete_agent_record",
      "update_assessment_record",
      "delete_assessment_record",
      "manage_users",
    ]),
  );
  surveyor = await create("/agents/people", {
    names: [{ primary_name: "Surveyor", rest_of_name: "Sam", name_order: "inverted" }],
  });
});
afterAll(() => server.stop());

async function create(path: string, body: Json): Promise<string> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

async function read(uri: string): Promise<Json> {
  const reply = await server.send("GET", uri, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

async function errorOf(path: string, body: Json): Promise<Record<string, string[]>> {
  const reply = await server.send("POST", path, { token, body });
  expect(reply.status).toBe(400);
  return (reply.body as { error: Record<string, string[]> }).error;
}

const status = async (method: string, uri: string) => (await server.send(method, uri, { token })).status;

let serial = 0;
const assessments = () => `/repositories/${repo}/assessments`;
const accession = async (repoId = repo) =>
  create(`/repositories/${repoId}/accessions`, { id_0: "ASM", id_1: String((serial += 1)) });
const assessment = (records: string[], extra: Json = {}): Json => ({
  records: records.map((ref) => ({ ref })),
  surveyed_by: [{ ref: surveyor }],
  survey_begin: "2024-03-01",
  ...extra,
});

describe("assessments", () => {
  it("create, read, update, delete, with every survey field", async () => {
    const reviewer = await create("/agents/people", { names: [{ primary_name: "Reviewer", name_order: "direct" }] });
    const object = await create(`/repositories/${repo}/digital_objects`, {
      title: "Scans",
      digital_object_id: "asm-do-1",
    });
    const body = assessment([await accession(), object], {
      survey_end: "2024-03-08",
      surveyed_duration: "5 days",
      surveyed_extent: "12 linear feet",
      review_required: true,
      reviewer: [{ ref: reviewer }],
      review_note: "Check the mould.",
      purpose: "Preservation planning",
      scope: "All boxes",
      sensitive_material: false,
      inactive: false,
      accession_report: true,
      appraisal: false,
      container_list: true,
      catalog_record: true,
      control_file: false,
      deed_of_gift: true,
      finding_aid_ead: true,
      finding_aid_online: false,
      finding_aid_paper: true,
      finding_aid_word: false,
      finding_aid_spreadsheet: false,
      related_eac_records: false,
      existing_description_notes: "Box list only",
      general_assessment_note: "Fair",
      special_format_note: "Nitrate",
      exhibition_value_note: "High",
      monetary_value: "2500",
      monetary_value_note: "Estimate",
      conservation_note: "Rehouse",
    });
    const uri = await create(assessments(), body);
    expect(uri).toMatch(new RegExp(`^${assessments()}/[1-9][0-9]*$`));
    const record = await read(uri);
    expect(record).toMatchObject({
      ...body,
      uri,
      jsonmodel_type: "assessment",
      lock_version: 0,
      repository: { ref: `/repositories/${repo}` },
    });
    expect((await server.send("POST", uri, { token, body: { ...record, inactive: true } })).body).toMatchObject({
      status: "Updated",
      lock_version: 1,
    });
    expect((await read(uri)).inactive).toBe(true);
    expect((await server.send("DELETE", uri, { token })).body).toEqual({
      status: "Deleted",
      id: Number(uri.split("/").pop()),
    });
    expect(await status("GET", uri)).toBe(404);
  });

  it("records, surveyed_by (at least one each) and survey_begin are required", async () => {
    const reply = await server.send("POST", assessments(), { token, body: { purpose: "none" } });
    expect([reply.status, reply.body]).toEqual([
      400,
      {
        error: {
          records: ["Property is required but was missing"],
          surveyed_by: ["Property is required but was missing"],
          survey_begin: ["Property is required but was missing"],
        },
      },
    ]);
    expect(
      Object.keys(await errorOf(assessments(), { records: [], surveyed_by: [], survey_begin: "March" })).sort(),
    ).toEqual(["records", "survey_begin", "surveyed_by"]);
  });

  it("the attribute lists (formats, ratings, conservation issues) name definitions, records of their own", async () => {
    const definitions = `/repositories/${repo}/assessment_attribute_definitions`;
    const rating = (
      await server.ops.create(
        "assessment_attribute_definition",
        { repoId: repo },
        { label: "Housing quality", type: "rating" },
        trusted("system"),
      )
    ).id;
    const reply = await server.send("POST", assessments(), {
      token,
      body: assessment([await accession()], { ratings: [{ definition_id: rating, value: "3", note: "Boxes sag" }] }),
    });
    expect([reply.status, (reply.body as { warnings: string[] }).warnings]).toEqual([200, []]);
    expect((await read((reply.body as { uri: string }).uri)).ratings).toEqual([
      { jsonmodel_type: "assessment_attribute", definition_id: rating, value: "3", note: "Boxes sag", readonly: false },
    ]);
    // Listed unpaged at ArchivesSpace's path; writing one needs manage_assessment_attributes, which this user lacks.
    expect((await server.send("GET", definitions, { token })).body).toEqual([
      expect.objectContaining({ uri: `${definitions}/${rating}`, label: "Housing quality", type: "rating" }),
    ]);
    const refused = await server.send("POST", definitions, {
      token,
      body: { label: "Mold", type: "conservation_issue" },
    });
    expect(refused.status).toBe(403);
  });

  it("computed fields are ignored on input", async () => {
    const uri = await create(
      assessments(),
      assessment([await accession()], { display_string: "x", collections: [{ ref: "/repositories/2/resources/1" }] }),
    );
    const record = await read(uri);
    expect(record).not.toHaveProperty("display_string");
    expect(record).not.toHaveProperty("collections");
  });

  it("link rules: only people survey; targets must exist and be in this repository", async () => {
    const software = await create("/agents/software", { names: [{ software_name: "Survey app" }] });
    const own = await accession();
    expect(Object.keys(await errorOf(assessments(), assessment([own], { surveyed_by: [{ ref: software }] })))).toEqual([
      "surveyed_by/0/ref",
    ]);
    expect(Object.keys(await errorOf(assessments(), assessment([surveyor])))).toEqual(["records/0/ref"]);
    expect(await errorOf(assessments(), assessment([own], { reviewer: [{ ref: "/agents/people/9999" }] }))).toEqual({
      "reviewer/0/ref": ["Reference to /agents/people/9999 does not exist"],
    });
    expect(await errorOf(assessments(), assessment([own, await accession(other)]))).toEqual({
      "records/1/ref": ["Must refer to a record in the same repository"],
    });
  });

  it("deleting an assessed record or a surveyor removes that entry; the assessment stays", async () => {
    const gone = await accession();
    const kept = await accession();
    const helper = await create("/agents/people", { names: [{ primary_name: "Helper", name_order: "direct" }] });
    const uri = await create(
      assessments(),
      assessment([gone, kept], { surveyed_by: [{ ref: surveyor }, { ref: helper }], reviewer: [{ ref: helper }] }),
    );
    expect(await status("DELETE", gone)).toBe(200);
    expect(await status("DELETE", helper)).toBe(200);
    expect(await read(uri)).toMatchObject({ records: [{ ref: kept }], surveyed_by: [{ ref: surveyor }], reviewer: [] });
  });

  it("list pages; delete needs delete_assessment_record", async () => {
    await create(assessments(), assessment([await accession()]));
    const page = (await server.send("GET", `${assessments()}?page=1&page_size=250`, { token })).body as PageEnvelope;
    expect(page.total).toBeGreaterThan(0);
    expect(page.results.every((record) => (record as Json).jsonmodel_type === "assessment")).toBe(true);
    const editor = await server.login("editor", globalGrants(["view_repository", "update_assessment_record"]));
    const created = await server.send("POST", assessments(), { token: editor, body: assessment([await accession()]) });
    expect(created.status).toBe(200);
    expect((await server.send("DELETE", (created.body as { uri: string }).uri, { token: editor })).status).toBe(403);
    expect((await server.send("GET", `${assessments()}?page=1`)).status).toBe(403);
  });
});

describe("a user's agent record", () => {
  it("links a person; deleting that agent is refused (409 naming the user) until the link goes", async () => {
    const agent = await create("/agents/people", {
      names: [{ primary_name: "Archivist", rest_of_name: "Ann", name_order: "inverted" }],
    });
    const user = await create("/users?password=pw", {
      username: `ann${(serial += 1)}`,
      name: "Ann Archivist",
      agent_record: { ref: agent },
    });
    expect(await read(user)).toMatchObject({ agent_record: { ref: agent } });
    const refused = await server.send("DELETE", agent, { token });
    expect([refused.status, refused.body]).toEqual([409, { error: `Cannot delete ${agent}: ${user} refers to it` }]);
    expect(await status("GET", agent)).toBe(200);

    const { agent_record: _link, ...unlinked } = await read(user);
    expect((await server.send("POST", user, { token, body: unlinked })).status).toBe(200);
    expect(await status("DELETE", agent)).toBe(200);
  });

  it("must name an existing person or software agent", async () => {
    const corporate = await create("/agents/corporate_entities", { names: [{ primary_name: "Not a user" }] });
    expect(
      Object.keys(
        await errorOf("/users?password=pw", { username: "corp", name: "Corp", agent_record: { ref: corporate } }),
      ),
    ).toEqual(["agent_record/ref"]);
    expect(
      await errorOf("/users?password=pw", {
        username: "ghost",
        name: "Ghost",
        agent_record: { ref: "/agents/software/9999" },
      }),
    ).toEqual({
      "agent_record/ref": ["Reference to /agents/software/9999 does not exist"],
    });
  });
});

describe("linked_events on archival records", () => {
  it("archival objects and digital objects ignore it on input (ArchivesSpace computes it)", async () => {
    const resource = await create(`/repositories/${repo}/resources`, {
      title: "Host",
      id_0: "LE",
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
      dates: [{ date_type: "single", label: "creation", begin: "1900" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
    });
    const component = await create(`/repositories/${repo}/archival_objects`, {
      title: "Series",
      level: "series",
      resource: { ref: resource },
      linked_events: [{ ref: "/x" }],
    });
    const object = await create(`/repositories/${repo}/digital_objects`, {
      title: "Obj",
      digital_object_id: "le-1",
      linked_events: [],
    });
    for (const uri of [component, object]) expect((await read(uri)).linked_events).toEqual([]);
  });
});

describe("permission codes", () => {
  it("every code a schema asks for is a known code, so the administrators group (granted every known code) holds it", () => {
    const codes = server.ops.deps.registry.permissionCodes();
    expect(codes).toEqual(
      expect.arrayContaining([
        "update_location_record",
        "update_location_profile_record",
        "update_event_record",
        "delete_event_record",
        "update_classification_record",
        "delete_classification_record",
        "update_assessment_record",
        "delete_assessment_record",
      ]),
    );
    expect(codes.filter((code) => !(PERMISSIONS as readonly string[]).includes(code))).toEqual([]);
  });
});
