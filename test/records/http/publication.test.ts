// Publishing and suppression over HTTP (docs/api.md §14), against the real store: publish/unpublish set the flag on
// the record, its sub-records and its tree in one transaction; suppressed records are hidden from callers who may not
// see them (reads, lists, trees, resolve[]) and cannot be updated.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { trusted } from "../../../src/auth/actor.js";
import { globalGrants, repositoryGrants, startRecordServer, type RecordServer } from "../../support/service.js";

type Json = Record<string, unknown>;

let server: RecordServer;
let editor: string;
let viewer: string;
let manager: string;
let repo: number;
let serial = 0;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "pub", name: "Pub" }, trusted("system"))).id;
  editor = await server.login(
    "editor",
    globalGrants([
      "view_repository",
      "update_resource_record",
      "update_digital_object_record",
      "update_agent_record",
      "update_accession_record",
    ]),
  );
  viewer = await server.login("viewer", globalGrants(["view_repository", "update_resource_record"]));
  manager = await server.login(
    "manager",
    repositoryGrants(repo, ["view_repository", "suppress_archival_record", "update_accession_record"]),
  );
});
afterAll(() => server.stop());

async function send(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const reply = await server.send(method, path, { token, ...(body === undefined ? {} : { body }) });
  return { status: reply.status, body: reply.body as Json };
}

async function created(path: string, body: Json): Promise<string> {
  const reply = await send("POST", path, editor, body);
  expect([reply.status, reply.body.error]).toEqual([200, undefined]);
  return reply.body.uri as string;
}

const note = (publish: boolean): Json => ({
  jsonmodel_type: "note_multipart",
  type: "scopecontent",
  publish,
  subnotes: [{ jsonmodel_type: "note_text", content: "Inside", publish }],
});

function newResource(extra: Json = {}): Promise<string> {
  serial += 1;
  return created(`/repositories/${repo}/resources`, {
    title: `Papers ${serial}`,
    id_0: `P${serial}`,
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    dates: [{ label: "creation", date_type: "inclusive", begin: "1900", end: "1950" }],
    lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
    ...extra,
  });
}

function newObject(resource: string, extra: Json = {}): Promise<string> {
  serial += 1;
  return created(`/repositories/${repo}/archival_objects`, {
    title: `Item ${serial}`,
    level: "file",
    resource: { ref: resource },
    ...extra,
  });
}

const read = async (uri: string, token = editor): Promise<Json> => (await send("GET", uri, token)).body;

describe("publish and unpublish", () => {
  it("publishes a resource, its notes and subnotes and every archival object below it, in one step", async () => {
    const resource = await newResource({ publish: false, notes: [note(false)] });
    const top = await newObject(resource, { publish: false, notes: [note(false)] });
    const child = await newObject(resource, { publish: false, parent: { ref: top } });
    const before = await read(child);

    const reply = await send("POST", `${resource}/publish`, editor);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: "Updated", uri: resource, lock_version: 1, stale: null, warnings: [] });

    const shown = await read(resource);
    expect(shown.publish).toBe(true);
    expect(shown.notes).toMatchObject([{ publish: true, subnotes: [{ publish: true }] }]);
    expect(shown.lock_version).toBe(1);
    const topShown = await read(top);
    expect(topShown).toMatchObject({ publish: true, notes: [{ publish: true, subnotes: [{ publish: true }] }] });
    const childShown = await read(child);
    expect(childShown.publish).toBe(true);
    expect(childShown.lock_version).toBe((before.lock_version as number) + 1);
    expect(childShown.has_unpublished_ancestor).toBe(false);

    // Unpublishing an archival object reaches its subtree only.
    expect((await send("POST", `${top}/unpublish`, editor)).status).toBe(200);
    expect((await read(top)).publish).toBe(false);
    expect((await read(child)).publish).toBe(false);
    expect((await read(resource)).publish).toBe(true);
  });

  it("leaves a record already as asked alone", async () => {
    const resource = await newResource({ publish: true });
    const reply = await send("POST", `${resource}/publish`, editor);
    expect(reply.body.lock_version).toBe(0);
  });

  it("publishes a digital object's file versions and components, and an agent's notes", async () => {
    serial += 1;
    const object = await created(`/repositories/${repo}/digital_objects`, {
      title: `Scan ${serial}`,
      digital_object_id: `DO-${serial}`,
      publish: false,
      file_versions: [{ file_uri: "https://example.org/a.jpg", publish: false }],
    });
    const component = await created(`/repositories/${repo}/digital_object_components`, {
      title: "Page",
      digital_object: { ref: object },
      publish: false,
    });
    expect((await send("POST", `${object}/publish`, editor)).status).toBe(200);
    expect(await read(object)).toMatchObject({ publish: true, file_versions: [{ publish: true }] });
    expect((await read(component)).publish).toBe(true);
    // ArchivesSpace serves no unpublish for digital objects.
    expect((await send("POST", `${object}/unpublish`, editor)).status).toBe(404);

    const agent = await created("/agents/people", {
      publish: false,
      names: [{ primary_name: "Ada", name_order: "direct", source: "local" }],
      notes: [
        {
          jsonmodel_type: "note_bioghist",
          publish: false,
          subnotes: [{ jsonmodel_type: "note_text", content: "Life", publish: false }],
        },
      ],
    });
    expect((await send("POST", `${agent}/publish`, editor)).status).toBe(200);
    expect(await read(agent)).toMatchObject({
      publish: true,
      notes: [{ publish: true, subnotes: [{ publish: true }] }],
    });
  });

  it("needs the type's update permission, and answers 404 for a missing record", async () => {
    const resource = await newResource({ publish: false });
    const reader = await server.login("reader", globalGrants(["view_repository"]));
    expect((await send("POST", `${resource}/publish`, reader)).status).toBe(403);
    expect((await read(resource)).publish).toBe(false);
    const missing = await send("POST", `/repositories/${repo}/resources/999999/publish`, editor);
    expect(missing).toEqual({ status: 404, body: { error: "Resource not found" } });
    expect((await send("POST", `/repositories/999/resources/1/publish`, editor)).status).toBe(404);
  });
});

describe("published_only on tree reads", () => {
  it("leaves unpublished nodes out of tree/root, waypoints, node and children", async () => {
    const resource = await newResource({ publish: true });
    const shown = await newObject(resource, { publish: true });
    const hiddenTop = await newObject(resource, { publish: false });
    const shownChild = await newObject(resource, { publish: true, parent: { ref: shown } });
    await newObject(resource, { publish: false, parent: { ref: shown } });

    const all = await read(`${resource}/tree/root`);
    expect(all.child_count).toBe(2);
    const root = await read(`${resource}/tree/root?published_only=true`);
    expect(root.child_count).toBe(1);
    const first = (root.precomputed_waypoints as Json)[""] as Json;
    expect((first["0"] as Json[]).map((node) => node.uri)).toEqual([shown]);
    expect(((first["0"] as Json[])[0] as Json).child_count).toBe(1);

    const waypoint = (await read(
      `${resource}/tree/waypoint?offset=0&parent_node=${shown}&published_only=true`,
    )) as unknown as Json[];
    expect(waypoint.map((node) => node.uri)).toEqual([shownChild]);
    const node = await read(`${resource}/tree/node?node_uri=${shown}&published_only=true`);
    expect(node.child_count).toBe(1);
    const gone = await send("GET", `${resource}/tree/node?node_uri=${hiddenTop}&published_only=true`, editor);
    expect(gone.status).toBe(404);
    const children = (await read(`${shown}/children?published_only=true`)) as unknown as Json[];
    expect(children.map((child) => child.uri)).toEqual([shownChild]);
    expect(((await read(`${shown}/children`)) as unknown as Json[]).length).toBe(2);

    const bad = await send("GET", `${resource}/tree/root?published_only=maybe`, editor);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error as Json)).toEqual(["published_only"]);
  });
});

describe("suppression", () => {
  it("suppresses a resource and its tree, hides them from viewers and shows them to whoever may see them", async () => {
    const resource = await newResource();
    const top = await newObject(resource);
    const child = await newObject(resource, { parent: { ref: top } });
    const resourceId = resource.split("/").pop();

    const reply = await send("POST", `${resource}/suppressed?suppressed=true`, manager);
    expect(reply).toEqual({
      status: 200,
      body: { status: "Suppressed", id: Number(resourceId), suppressed_state: true },
    });
    // Those who may see suppressed records see the state.
    expect((await read(resource, manager)).suppressed).toBe(true);
    expect((await read(child, manager)).suppressed).toBe(true);
    // Everyone else is told they are not there: reads, lists, trees.
    expect(await send("GET", resource, viewer)).toEqual({ status: 404, body: { error: "Resource not found" } });
    expect((await send("GET", child, viewer)).status).toBe(404);
    expect((await send("GET", `${resource}/tree/root`, viewer)).status).toBe(404);
    const ids = (await send("GET", `/repositories/${repo}/resources?all_ids=true`, viewer)).body as unknown as number[];
    expect(ids).not.toContain(Number(resourceId));
    const managerIds = (await send("GET", `/repositories/${repo}/resources?all_ids=true`, manager))
      .body as unknown as number[];
    expect(managerIds).toContain(Number(resourceId));
    // A suppressed record cannot be changed until unsuppressed, as in ArchivesSpace.
    const stored = await read(top, manager);
    expect((await send("POST", top, manager, { ...stored, title: "New" })).status).toBe(403);
    const managerWriter = await server.login(
      "writer",
      globalGrants(["view_repository", "update_resource_record", "suppress_archival_record"]),
    );
    const refused = await send("POST", top, managerWriter, { ...stored, title: "New" });
    expect(refused).toEqual({ status: 409, body: { error: "Can't update an object that has been suppressed" } });
    expect((await send("POST", top, editor, { ...stored, title: "New" })).status).toBe(404);

    expect((await send("POST", `${resource}/suppressed?suppressed=false`, manager)).body.suppressed_state).toBe(false);
    expect((await read(child, viewer)).suppressed).toBe(false);
    expect((await send("GET", resource, viewer)).status).toBe(200);
  });

  it("hides a suppressed node from tree views and a suppressed target from resolve[]", async () => {
    const resource = await newResource();
    const kept = await newObject(resource);
    const suppressed = await newObject(resource);
    expect((await send("POST", `${suppressed}/suppressed?suppressed=true`, manager)).status).toBe(200);
    const root = await read(`${resource}/tree/root`, viewer);
    expect((((root.precomputed_waypoints as Json)[""] as Json)["0"] as Json[]).map((n) => n.uri)).toEqual([kept]);
    const published = await read(`${resource}/tree/root?published_only=true`, viewer);
    expect(published.child_count).toBe(0);
    const forManager = await read(`${resource}/tree/root`, manager);
    const managerWaypoint = ((forManager.precomputed_waypoints as Json)[""] as Json)["0"] as Json[];
    expect(managerWaypoint.map((n) => n.uri)).toEqual([kept, suppressed]);
    expect((await send("GET", `${resource}/tree/node?node_uri=${suppressed}`, viewer)).status).toBe(404);

    serial += 1;
    const accession = await created(`/repositories/${repo}/accessions`, {
      title: "Gift",
      id_0: `A${serial}`,
      accession_date: "2020-01-01",
    });
    expect((await send("POST", `${accession}/suppressed?suppressed=true`, manager)).status).toBe(200);
    const linking = await newResource({ related_accessions: [{ ref: accession }] });
    const forViewer = await read(`${linking}?resolve[]=related_accessions`, viewer);
    expect((forViewer.related_accessions as Json[])[0]?._resolved).toBeUndefined();
    const resolvedForManager = await read(`${linking}?resolve[]=related_accessions`, manager);
    expect((resolvedForManager.related_accessions as Json[])[0]?._resolved).toMatchObject({ uri: accession });
  });

  it("needs suppress_archival_record, a true or false value, and a record", async () => {
    const resource = await newResource();
    expect((await send("POST", `${resource}/suppressed?suppressed=true`, editor)).status).toBe(403);
    const missingValue = await send("POST", `${resource}/suppressed`, manager);
    expect(missingValue.status).toBe(400);
    expect(Object.keys(missingValue.body.error as Json)).toEqual(["suppressed"]);
    expect((await send("POST", `${resource}/suppressed?suppressed=yes`, manager)).status).toBe(400);
    const missing = await send("POST", `/repositories/${repo}/resources/999999/suppressed?suppressed=true`, manager);
    expect(missing).toEqual({ status: 404, body: { error: "Resource not found" } });
    // Types ArchivesSpace does not suppress have no route.
    expect((await send("POST", "/agents/people/1/suppressed?suppressed=true", manager)).status).toBe(404);
    expect((await read(resource)).suppressed).toBe(false);
  });
});
