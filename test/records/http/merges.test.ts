// POST /merge_requests/<kind> (docs/api.md §18): every link to a merged record re-pointed to the target, duplicates
// collapsed, the merged records deleted, lock_versions bumped; ArchivesSpace's refusals (400 naming the body), 403
// without the route's permission, 404 for a missing record, and nothing changed by a refused merge.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import { globalGrants, repositoryGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { minimalResource } from "../harness.js";

type Json = Record<string, unknown>;

let server: RecordServer;
let repo: number;
let otherRepo: number;
let vocabulary: string;
const tokens: Record<string, string> = {};

async function call(
  method: string,
  path: string,
  body?: unknown,
  token = tokens.admin,
): Promise<{ status: number; body: Json }> {
  const reply = await server.send(method, path, { token, body });
  return { status: reply.status, body: reply.body as Json };
}

async function post(path: string, body: unknown): Promise<string> {
  const reply = await call("POST", path, body);
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.uri as string;
}

const read = async (uri: string): Promise<Json> => (await call("GET", uri)).body;

let seq = 0;
const subject = (term: string) =>
  post("/subjects", { source: "local", vocabulary, terms: [{ term, term_type: "topical", vocabulary }] });
const person = (name: string, extra: Json = {}) =>
  post("/agents/people", { names: [{ primary_name: name, name_order: "inverted", source: "local" }], ...extra });
const accession = (extra: Json, repoId = repo) =>
  post(`/repositories/${repoId}/accessions`, { title: `Accession ${++seq}`, id_0: "M", id_1: String(seq), ...extra });
const merge = (kind: string, target: string, victims: string[], query = "", token = tokens.admin) =>
  call(
    "POST",
    `/merge_requests/${kind}${query}`,
    { target: { ref: target }, victims: victims.map((ref) => ({ ref })) },
    token,
  );

const OK = { status: 200, body: { status: "OK" } };

beforeAll(async () => {
  server = await startRecordServer();
  tokens.admin = await server.login("admin", globalGrants([...PERMISSIONS]));
  repo = Number((await post("/repositories", { repo_code: "MRG", name: "Merges" })).split("/").pop());
  otherRepo = Number((await post("/repositories", { repo_code: "OTH", name: "Other" })).split("/").pop());
  vocabulary = await post("/vocabularies", { name: "Local", ref_id: "local" });
  tokens.nobody = await server.login("nobody", repositoryGrants(repo, ["view_repository"]));
  // The standard project managers' code, held in one repository: it lets them merge agents and subjects.
  tokens.projectManager = await server.login("pm", repositoryGrants(repo, ["merge_agents_and_subjects"]));
  tokens.otherArchivist = await server.login("other", repositoryGrants(otherRepo, ["merge_archival_record"]));
  tokens.archivist = await server.login("archivist", repositoryGrants(repo, ["merge_archival_record"]));
});
afterAll(() => server.stop());

describe("subjects", () => {
  it("re-points every link to the victim, collapses the duplicate, bumps lock_versions and deletes the victim", async () => {
    const target = await subject("Whaling");
    const victim = await subject("Whaling (duplicate)");
    const both = await accession({ subjects: [{ ref: target }, { ref: victim }] });
    const only = await accession({ subjects: [{ ref: victim }] });
    const resource = await post(
      `/repositories/${repo}/resources`,
      minimalResource("MR1", { subjects: [{ ref: victim }] }),
    );
    const before = await Promise.all([both, only, resource, target].map(read));

    expect(await merge("subject", target, [victim])).toEqual(OK);

    const after = await Promise.all([both, only, resource, target].map(read));
    expect(after[0]!.subjects).toEqual([{ ref: target }]);
    expect(after[1]!.subjects).toEqual([{ ref: target }]);
    expect(after[2]!.subjects).toEqual([{ ref: target }]);
    after.forEach((record, i) => expect(record.lock_version).toBe((before[i]!.lock_version as number) + 1));
    expect(await call("GET", victim)).toEqual({ status: 404, body: { error: "Subject not found" } });
  });

  it("is open to merge_agents_and_subjects held in a repository, and refused (403) without it", async () => {
    const target = await subject("Ships");
    const victim = await subject("Ships (again)");
    expect(await merge("subject", target, [victim], "", tokens.nobody)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect((await call("GET", victim)).status).toBe(200);
    expect(await merge("subject", target, [victim], "", tokens.projectManager)).toEqual(OK);
    expect((await call("GET", victim)).status).toBe(404);
  });

  it("answers ArchivesSpace's refusals as 400s naming the field, and changes nothing", async () => {
    const target = await subject("Harbours");
    const victim = await subject("Harbours (again)");
    const linking = await accession({ subjects: [{ ref: victim }] });
    const agent = await person("Not A Subject");
    const cases: Array<[unknown, Json]> = [
      [{ victims: [{ ref: victim }] }, { target: ["Property is required but was missing"] }],
      [{ target: { ref: target }, victims: [] }, { victims: ["Must be a list of at least one {ref}"] }],
      [{ target: { ref: target }, victims: [{}] }, { "victims/0/ref": ["Property is required but was missing"] }],
      [
        { target: { ref: target }, victims: [{ ref: agent }] },
        { merge_request: ["This merge request can only merge subject records"] },
      ],
      [
        { target: { ref: target }, victims: [{ ref: "/nonsense/1" }] },
        { merge_request: ["This merge request can only merge subject records"] },
      ],
      [
        { target: { ref: target }, victims: [{ ref: target }] },
        { merge_request: [expect.stringContaining("cannot be merged into itself")] },
      ],
    ];
    for (const [body, error] of cases)
      expect(await call("POST", "/merge_requests/subject", body)).toEqual({ status: 400, body: { error } });
    expect((await read(linking)).subjects).toEqual([{ ref: victim }]);
  });

  it("answers 404 for a missing record and changes nothing; takes the later field names and skips the target", async () => {
    const target = await subject("Lighthouses");
    const victim = await subject("Lighthouses (again)");
    const linking = await accession({ subjects: [{ ref: victim }] });
    expect(await merge("subject", target, [victim, "/subjects/999999"])).toEqual({
      status: 404,
      body: { error: "Subject not found" },
    });
    expect((await read(linking)).subjects).toEqual([{ ref: victim }]);
    const later = await call("POST", "/merge_requests/subject", {
      merge_destination: { ref: target },
      merge_candidates: [{ ref: target }, { ref: victim }],
    });
    expect(later).toEqual(OK);
    expect((await read(linking)).subjects).toEqual([{ ref: target }]);
  });
});

describe("agents", () => {
  it("re-points links from every type, keeps links that differ in role, and moves the victim's relationships", async () => {
    const target = await person("Melville, Herman");
    const victim = await person("Melville, H.");
    const friend = await person("Hawthorne, Nathaniel");
    // The victim's relationship to the friend (mirrored on the friend) and to the target (which goes away).
    await post(victim.replace(/^/, ""), {
      ...(await read(victim)),
      related_agents: [
        { jsonmodel_type: "agent_relationship_associative", relator: "is_associative_with", ref: friend },
        { jsonmodel_type: "agent_relationship_associative", relator: "is_associative_with", ref: target },
      ],
    });
    const linking = await accession({
      linked_agents: [
        { ref: target, role: "creator" },
        { ref: victim, role: "creator" },
        { ref: victim, role: "subject" },
      ],
    });
    const event = await post(`/repositories/${repo}/events`, {
      event_type: "acknowledgement_sent",
      date: { date_type: "single", label: "event", expression: "2001" },
      linked_agents: [{ ref: victim, role: "implementer" }],
      linked_records: [{ ref: linking, role: "source" }],
    });

    expect(await merge("agent", target, [victim])).toEqual(OK);

    expect((await read(linking)).linked_agents).toEqual([
      expect.objectContaining({ ref: target, role: "creator" }),
      expect.objectContaining({ ref: target, role: "subject" }),
    ]);
    expect((await read(event)).linked_agents).toEqual([expect.objectContaining({ ref: target, role: "implementer" })]);
    expect(((await read(target)).related_agents as Json[]).map((item) => item.ref)).toEqual([friend]);
    expect(((await read(friend)).related_agents as Json[]).map((item) => item.ref)).toEqual([target]);
    expect((await call("GET", victim)).status).toBe(404);
  });

  it("merges an agent of another agent type, and refuses a non-agent (400) and a caller without the code (403)", async () => {
    const target = await post("/agents/corporate_entities", {
      names: [{ primary_name: "Acme Whaling Co.", source: "local" }],
    });
    const victim = await person("Acme Whaling");
    const linking = await accession({ linked_agents: [{ ref: victim, role: "source" }] });
    expect(await merge("agent", target, [victim], "", tokens.nobody)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect(await merge("agent", target, [await subject("Not an agent")])).toEqual({
      status: 400,
      body: { error: { merge_request: ["Agent merge request can only merge agent records"] } },
    });
    expect(await merge("agent", target, [victim], "", tokens.projectManager)).toEqual(OK);
    expect((await read(linking)).linked_agents).toEqual([expect.objectContaining({ ref: target, role: "source" })]);
  });

  it("agent_detail: a dry run shows the selected sub-records taken, and the merge stores them", async () => {
    const target = await person("Ishmael");
    const victim = await person("Ishmael Q.", {
      agent_record_identifiers: [{ record_identifier: "n79-1", source: "naf", primary_identifier: true }],
    });
    const linking = await accession({ linked_agents: [{ ref: victim, role: "creator" }] });
    const body = {
      merge_destination: { ref: target },
      merge_candidates: [{ ref: victim }],
      selections: {
        names: [{ primary_name: "REPLACE", position: "0" }],
        agent_record_identifiers: [{ append: "REPLACE", position: "0" }],
      },
    };
    const dry = await call("POST", "/merge_requests/agent_detail?dry_run=true", body);
    expect(dry.status).toBe(200);
    expect((dry.body.names as Json[])[0]).toMatchObject({ primary_name: "Ishmael Q.", sort_name: "Ishmael Q." });
    expect(dry.body.agent_record_identifiers).toEqual([
      expect.objectContaining({ record_identifier: "n79-1", primary_identifier: false }),
    ]);
    expect((await call("GET", victim)).status).toBe(200);
    const targetNameBefore = ((await read(target)).names as Json[])[0] as Json;
    expect(targetNameBefore).toMatchObject({ primary_name: "Ishmael" });

    const bad = await call("POST", "/merge_requests/agent_detail", {
      ...body,
      selections: { names: [{ primary_name: "REPLACE", position: "7" }] },
    });
    expect(bad).toEqual({
      status: 400,
      body: { error: { "selections/names/0/position": [expect.stringContaining("Must be the position")] } },
    });
    expect((await call("GET", victim)).status).toBe(200);

    expect(await call("POST", "/merge_requests/agent_detail", body)).toEqual(OK);
    const merged = await read(target);
    // A replaced name keeps the target's flags.
    expect((merged.names as Json[])[0]).toMatchObject({
      primary_name: "Ishmael Q.",
      authorized: targetNameBefore.authorized,
    });
    expect(merged.agent_record_identifiers).toEqual([expect.objectContaining({ record_identifier: "n79-1" })]);
    expect((await read(linking)).linked_agents).toEqual([expect.objectContaining({ ref: target })]);
    expect((await call("GET", victim)).status).toBe(404);
  });
});

describe("resources", () => {
  const tree = async (uri: string) =>
    ((await read(`${uri}/tree/root`)).precomputed_waypoints as Record<string, Record<string, Json[]>>)[""]!["0"]!.map(
      (node) => node.title,
    );

  it("moves the victim's tree under the target after its own, re-points links, deletes the victim", async () => {
    const target = await post(`/repositories/${repo}/resources`, minimalResource("RT"));
    const victim = await post(`/repositories/${repo}/resources`, minimalResource("RV"));
    const ao = (resource: string, title: string, parent?: string) =>
      post(`/repositories/${repo}/archival_objects`, {
        title,
        level: "file",
        resource: { ref: resource },
        ...(parent === undefined ? {} : { parent: { ref: parent } }),
      });
    await ao(target, "A");
    const b = await ao(victim, "B");
    const c = await ao(victim, "C", b);
    await ao(victim, "D");
    const linking = await accession({ related_resources: [{ ref: victim }] });

    expect(await merge("resource", target, [victim], `?repo_id=${otherRepo}`, tokens.otherArchivist)).toEqual({
      status: 400,
      body: { error: { merge_request: ["All records to merge must be in the repository specified"] } },
    });
    expect(await merge("resource", target, [victim], `?repo_id=${repo}`, tokens.otherArchivist)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect(await merge("resource", target, [victim])).toEqual({
      status: 400,
      body: { error: { repo_id: ["Parameter required but no value provided"] } },
    });
    expect(await merge("resource", target, [victim], `?repo_id=${repo}`, tokens.archivist)).toEqual(OK);

    expect(await tree(target)).toEqual(["A", "B", "D"]);
    expect(await read(c)).toMatchObject({ resource: { ref: target }, parent: { ref: b } });
    expect(await read(b)).toMatchObject({ resource: { ref: target }, position: 1 });
    expect((await read(linking)).related_resources).toEqual([{ ref: target }]);
    expect((await call("GET", victim)).status).toBe(404);
  });
});

describe("containers and digital objects", () => {
  it("top containers: instances re-pointed; container profiles: top containers re-pointed", async () => {
    const profile = (name: string) =>
      post("/container_profiles", {
        name,
        dimension_units: "inches",
        extent_dimension: "width",
        height: "10",
        width: "12",
        depth: "15",
      });
    const keptProfile = await profile("Hollinger");
    const goneProfile = await profile("Hollinger box");
    const box = (indicator: string, extra: Json = {}) =>
      post(`/repositories/${repo}/top_containers`, { indicator, type: "box", ...extra });
    const target = await box("1");
    const victim = await box("1a", { container_profile: { ref: goneProfile } });
    const instance = (ref: string) => ({ instance_type: "text", sub_container: { top_container: { ref } } });
    const linking = await accession({ instances: [instance(target), instance(victim)] });

    expect(await merge("top_container", target, [victim], `?repo_id=${repo}`)).toEqual(OK);
    const instances = (await read(linking)).instances as Json[];
    expect(instances.map((item) => (item.sub_container as Json).top_container)).toEqual([{ ref: target }]);

    const other = await box("2", { container_profile: { ref: goneProfile } });
    expect(await merge("container_profile", keptProfile, [goneProfile], "", tokens.nobody)).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect(await merge("container_profile", keptProfile, [goneProfile])).toEqual(OK);
    expect((await read(other)).container_profile).toEqual({ ref: keptProfile });
    expect((await call("GET", goneProfile)).status).toBe(404);
  });

  it("digital objects: instances re-pointed, components moved under the target", async () => {
    const object = (id: string) => post(`/repositories/${repo}/digital_objects`, { title: id, digital_object_id: id });
    const target = await object("DO-1");
    const victim = await object("DO-2");
    const component = await post(`/repositories/${repo}/digital_object_components`, {
      title: "Page 1",
      digital_object: { ref: victim },
    });
    const linking = await accession({
      instances: [{ instance_type: "digital_object", digital_object: { ref: victim } }],
    });
    expect(await merge("digital_object", target, [victim], `?repo_id=${repo}`)).toEqual(OK);
    expect(((await read(linking)).instances as Json[])[0]).toMatchObject({ digital_object: { ref: target } });
    expect(await read(component)).toMatchObject({ digital_object: { ref: target }, position: 0 });
  });
});
