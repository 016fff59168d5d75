// Archival objects form ordered trees under their resource (x-tree). Positions stay
// dense through inserts, moves and deletes; the large-tree reads (tree/root, waypoint, node,
// node_from_root) have ArchivesSpace's shapes; moves are atomic and refuse cycles.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

type Json = Record<string, unknown>;

let server: RecordServer;
let token: string;
let viewer: string;
let repo: number;
let otherRepo: number;

beforeAll(async () => {
  server = await startRecordServer();
  const system = trusted("system");
  repo = (await server.ops.create("repository", {}, { repo_code: "trees", name: "Trees" }, system)).id;
  otherRepo = (await server.ops.create("repository", {}, { repo_code: "other", name: "Other" }, system)).id;
  token = await server.login(
    "processor",
    globalGrants([
      "view_repository",
      "update_resource_record",
      "delete_archival_record",
      "update_digital_object_record",
    ]),
  );
  viewer = await server.login("reader", globalGrants(["view_repository"]));
});
afterAll(() => server.stop());

let serial = 0;

async function post(path: string, body?: unknown, as = token): Promise<{ status: number; body: Json }> {
  const reply = await server.send("POST", path, { token: as, ...(body === undefined ? {} : { body }) });
  return { status: reply.status, body: reply.body as Json };
}

async function get<T = Json>(path: string, as = token): Promise<T> {
  const reply = await server.send("GET", path, { token: as });
  expect([path, reply.status]).toEqual([path, 200]);
  return reply.body as T;
}

async function created(path: string, body: Json): Promise<string> {
  const reply = await post(path, body);
  expect([reply.status, reply.body.status]).toEqual([200, "Created"]);
  return reply.body.uri as string;
}

function newResource(repoId = repo): Promise<string> {
  serial += 1;
  return created(`/repositories/${repoId}/resources`, {
    title: `Papers ${serial}`,
    id_0: `R${serial}`,
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    dates: [{ label: "creation", date_type: "inclusive", begin: "1900", end: "1950" }],
    lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
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

const idOf = (uri: string) => Number(uri.split("/").pop());

/** uri -> position of a parent's children, via the children route or the top-level waypoint. */
async function order(holder: string): Promise<string[]> {
  if (holder.includes("/resources/")) {
    const nodes = await get<Json[]>(`${holder}/tree/waypoint?offset=0`);
    nodes.forEach((node, i) => expect(node.position).toBe(i));
    return nodes.map((node) => node.uri as string);
  }
  const children = await get<Json[]>(`${holder}/children`);
  children.forEach((child, i) => expect(child.position).toBe(i));
  return children.map((child) => child.uri as string);
}

describe("placing new archival objects", () => {
  it("appends without a position, inserts at one, clamps past the end, and keeps positions dense", async () => {
    const resource = await newResource();
    const a = await newObject(resource);
    const b = await newObject(resource);
    const first = await newObject(resource, { position: 0 });
    const last = await post(`/repositories/${repo}/archival_objects`, {
      title: "Far",
      level: "file",
      resource: { ref: resource },
      position: 99,
    });
    expect(last.body).toMatchObject({ status: "Created", stale: true });
    expect(await order(resource)).toEqual([first, a, b, last.body.uri]);
    expect(await get(a)).toMatchObject({ position: 1, resource: { ref: resource } });
  });

  it("moves a shifted sibling's lock_version on, so a stale copy cannot write its old position back", async () => {
    const resource = await newResource();
    const sibling = await newObject(resource);
    const before = await get(sibling);
    await newObject(resource, { position: 0 });
    const after = await get(sibling);
    expect([before.position, after.position, after.lock_version]).toEqual([0, 1, 1]);
    const stale = await post(sibling, before);
    expect([stale.status, stale.body]).toEqual([
      409,
      { error: "The record you tried to update has been modified since you fetched it." },
    ]);
  });

  it("places a child under its parent, in the parent's own positions", async () => {
    const resource = await newResource();
    const series = await newObject(resource, { level: "series" });
    const file1 = await newObject(resource, { parent: { ref: series } });
    const file0 = await newObject(resource, { parent: { ref: series }, position: 0 });
    expect(await order(series)).toEqual([file0, file1]);
    expect(await order(resource)).toEqual([series]);
  });

  it("refuses a parent in another resource, a missing parent and a resource of another repository", async () => {
    const resource = await newResource();
    const elsewhere = await newObject(await newResource());
    const wrongTree = await post(`/repositories/${repo}/archival_objects`, {
      title: "x",
      level: "file",
      resource: { ref: resource },
      parent: { ref: elsewhere },
    });
    expect(wrongTree.status).toBe(400);
    expect(wrongTree.body.error).toEqual({
      "parent/ref": [expect.stringContaining(`Must be in the same resource (${resource})`)],
    });
    const missing = await post(`/repositories/${repo}/archival_objects`, {
      title: "x",
      level: "file",
      resource: { ref: resource },
      parent: { ref: `/repositories/${repo}/archival_objects/999999` },
    });
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: { "parent/ref": [`Reference to /repositories/${repo}/archival_objects/999999 does not exist`] } },
    ]);
    const foreign = await post(`/repositories/${repo}/archival_objects`, {
      title: "x",
      level: "file",
      resource: { ref: await newResource(otherRepo) },
    });
    expect([foreign.status, foreign.body]).toEqual([
      400,
      { error: { "resource/ref": ["Must refer to a record in the same repository"] } },
    ]);
    expect(await order(resource)).toEqual([]);
  });

  it("requires a resource, a level and a title or dates", async () => {
    const reply = await post(`/repositories/${repo}/archival_objects`, { component_id: "c1" });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      resource: ["Property is required but was missing"],
      level: ["Property is required but was missing"],
    });
    const dated = await post(`/repositories/${repo}/archival_objects`, {
      level: "file",
      resource: { ref: await newResource() },
      dates: [{ label: "creation", date_type: "single", begin: "1901" }],
    });
    expect(dated.body.status).toBe("Created");
  });
});

describe("ref_id", () => {
  it("is generated when absent, kept on an update that leaves it out, and unique within its resource", async () => {
    const resource = await newResource();
    const uri = await newObject(resource);
    const record = await get(uri);
    expect(record.ref_id).toMatch(/^[0-9a-f]{32}$/);
    const { ref_id: _dropped, ...withoutRefId } = record;
    const updated = await post(uri, { ...withoutRefId, title: "Renamed" });
    expect(updated.body).toMatchObject({ status: "Updated", stale: true });
    expect(await get(uri)).toMatchObject({ ref_id: record.ref_id, title: "Renamed" });

    const duplicate = await post(`/repositories/${repo}/archival_objects`, {
      title: "Twin",
      level: "file",
      resource: { ref: resource },
      ref_id: record.ref_id,
    });
    expect([duplicate.status, duplicate.body]).toEqual([400, { error: { ref_id: ["That ID is already in use"] } }]);
    expect(await order(resource)).toEqual([uri]);
    // The same ref_id in another resource is fine.
    await newObject(await newResource(), { ref_id: record.ref_id });
  });
});

describe("the large-tree reads", () => {
  let resource: string;
  let series: string;
  let subseries: string;
  let file: string;

  beforeAll(async () => {
    resource = await newResource();
    series = await newObject(resource, { level: "series", title: "Correspondence", component_id: "S1" });
    await newObject(resource, { level: "series", title: "Photographs" });
    subseries = await newObject(resource, { level: "subseries", title: "Outgoing", parent: { ref: series } });
    file = await newObject(resource, { level: "file", title: "Letters 1901", parent: { ref: subseries } });
  });

  it("tree/root: the root with its child count, waypoints and the first waypoint precomputed", async () => {
    const root = await get(`${resource}/tree/root`);
    expect(root).toMatchObject({
      child_count: 2,
      waypoints: 1,
      waypoint_size: 200,
      uri: resource,
      jsonmodel_type: "resource",
      level: "collection",
    });
    expect(root.title).toMatch(/^Papers/);
    const first = (root.precomputed_waypoints as Record<string, Record<string, Json[]>>)[""]?.["0"];
    expect(first).toEqual([
      {
        child_count: 1,
        waypoints: 1,
        waypoint_size: 200,
        title: "Correspondence",
        parsed_title: "Correspondence",
        level: "series",
        component_id: "S1",
        uri: series,
        position: 0,
        parent_id: null,
        jsonmodel_type: "archival_object",
      },
      expect.objectContaining({ title: "Photographs", child_count: 0, waypoints: 0, position: 1, parent_id: null }),
    ]);
  });

  it("tree/waypoint: a parent's children, by waypoint", async () => {
    const under = await get<Json[]>(`${resource}/tree/waypoint?offset=0&parent_node=${encodeURIComponent(series)}`);
    expect(under).toEqual([
      expect.objectContaining({ uri: subseries, parent_id: idOf(series), position: 0, child_count: 1 }),
    ]);
    expect(await get<Json[]>(`${resource}/tree/waypoint?offset=1`)).toEqual([]);
    expect(await get<Json[]>(`${resource}/tree/waypoint?offset=0&parent_node=`)).toHaveLength(2);
  });

  it("tree/node: one node, its position counted from 1 as ArchivesSpace does, and its first waypoint", async () => {
    const node = await get(`${resource}/tree/node?node_uri=${encodeURIComponent(subseries)}`);
    expect(node).toMatchObject({
      uri: subseries,
      title: "Outgoing",
      position: 1,
      child_count: 1,
      waypoints: 1,
      jsonmodel_type: "archival_object",
    });
    expect((node.precomputed_waypoints as Record<string, Record<string, Json[]>>)[subseries]?.["0"]).toEqual([
      expect.objectContaining({ uri: file, parent_id: idOf(subseries) }),
    ]);
    const leaf = await get(`${resource}/tree/node?node_uri=${encodeURIComponent(file)}`);
    expect(leaf).toMatchObject({ child_count: 0, waypoints: 0, precomputed_waypoints: {} });
  });

  it("tree/node_from_root: the waypoint path from the root to each node", async () => {
    const paths = await get(`${resource}/tree/node_from_root?node_ids[]=${idOf(file)}&node_ids[]=${idOf(series)}`);
    const rootStep = { node: null, root_record_uri: resource, offset: 0, jsonmodel_type: "resource" };
    expect(paths[String(idOf(file))]).toEqual([
      expect.objectContaining(rootStep),
      {
        node: series,
        root_record_uri: resource,
        offset: 0,
        jsonmodel_type: "archival_object",
        title: "Correspondence",
        parsed_title: "Correspondence",
      },
      {
        node: subseries,
        root_record_uri: resource,
        offset: 0,
        jsonmodel_type: "archival_object",
        title: "Outgoing",
        parsed_title: "Outgoing",
      },
    ]);
    expect(paths[String(idOf(series))]).toEqual([expect.objectContaining(rootStep)]);
  });

  it("children: the whole child records in order", async () => {
    const children = await get<Json[]>(`${series}/children`);
    expect(children).toEqual([
      expect.objectContaining({ uri: subseries, title: "Outgoing", lock_version: 0, parent: { ref: series } }),
    ]);
  });

  it("answers bad parameters and strangers with the contract's errors", async () => {
    const cases: Array<[string, number, unknown]> = [
      [`${resource}/tree/waypoint`, 400, { error: { offset: ["Parameter required but no value provided"] } }],
      [
        `${resource}/tree/waypoint?offset=-1`,
        400,
        { error: { offset: ['Must be a whole number of at least 0, not "-1"'] } },
      ],
      [
        `${resource}/tree/waypoint?offset=0&parent_node=/subjects/1`,
        400,
        { error: { parent_node: [expect.stringContaining("Must be a uri of: archival_object")] } },
      ],
      [
        `${resource}/tree/waypoint?offset=0&parent_node=/repositories/${repo}/archival_objects/999999`,
        404,
        { error: "ArchivalObject not found" },
      ],
      [`${resource}/tree/node`, 400, { error: { node_uri: ["Parameter required but no value provided"] } }],
      [`${resource}/tree/node_from_root`, 400, { error: { node_ids: ["Parameter required but no value provided"] } }],
      [
        `${resource}/tree/node_from_root?node_ids[]=x`,
        400,
        { error: { node_ids: ['Must list positive whole numbers, not "x"'] } },
      ],
      [`/repositories/${repo}/resources/999999/tree/root`, 404, { error: "Resource not found" }],
      [`/repositories/999999/resources/1/tree/root`, 404, { error: "Repository not found" }],
      [`/repositories/${repo}/archival_objects/999999/children`, 404, { error: "ArchivalObject not found" }],
    ];
    for (const [path, status, body] of cases) {
      const reply = await server.send("GET", path, { token });
      expect([path, reply.status, reply.body]).toEqual([path, status, body]);
    }
    // A node of another resource is not a node of this tree.
    const stranger = await newObject(await newResource());
    const reply = await server.send("GET", `${resource}/tree/node?node_uri=${encodeURIComponent(stranger)}`, { token });
    expect([reply.status, reply.body]).toEqual([404, { error: "ArchivalObject not found" }]);
    const anonymous = await server.send("GET", `${resource}/tree/root`);
    expect([anonymous.status, anonymous.body]).toEqual([403, { error: "Access denied" }]);
  });
});

describe("moving nodes", () => {
  it("reorders within a parent and moves to another parent, positions dense on both sides", async () => {
    const resource = await newResource();
    const [a, b, c] = [await newObject(resource), await newObject(resource), await newObject(resource)];
    const moved = await post(`${c}/parent?position=0`);
    expect([moved.status, moved.body]).toEqual([
      200,
      { status: "Updated", id: idOf(c), lock_version: 1, stale: null, uri: c, warnings: [] },
    ]);
    expect(await order(resource)).toEqual([c, a, b]);

    await post(`${a}/parent?parent=${idOf(b)}`);
    expect(await order(resource)).toEqual([c, b]);
    expect(await order(b)).toEqual([a]);
    expect(await get(a)).toMatchObject({ parent: { ref: b }, position: 0 });

    // Back to the top level: no parent.
    await post(`${a}/parent?position=1`);
    expect(await order(resource)).toEqual([c, a, b]);
    expect((await get(a)).parent).toBeUndefined();
  });

  it("refuses to put a node under itself or its descendants (409), changing nothing", async () => {
    const resource = await newResource();
    const top = await newObject(resource);
    const middle = await newObject(resource, { parent: { ref: top } });
    const bottom = await newObject(resource, { parent: { ref: middle } });
    for (const under of [top, bottom]) {
      const reply = await post(`${top}/parent?parent=${idOf(under)}`);
      expect([reply.status, reply.body]).toEqual([
        409,
        { error: `Cannot move ${top} under itself or one of its descendants (${under})` },
      ]);
    }
    expect(await order(resource)).toEqual([top]);
    expect(await order(middle)).toEqual([bottom]);
  });

  it("moves by updating the record: a new parent or position in the body", async () => {
    const resource = await newResource();
    const [a, b] = [await newObject(resource), await newObject(resource)];
    const record = await get(b);
    const reply = await post(b, { ...record, position: 0 });
    expect(reply.body).toMatchObject({ status: "Updated" });
    expect(await order(resource)).toEqual([b, a]);
    const fresh = await get(a);
    await post(a, { ...fresh, parent: { ref: b } });
    expect(await order(resource)).toEqual([b]);
    expect(await order(b)).toEqual([a]);
  });

  it("accept_children: a resource takes nodes (with their subtrees) from another resource, at a position", async () => {
    const from = await newResource();
    const to = await newResource();
    const stay = await newObject(to);
    const series = await newObject(from);
    const child = await newObject(from, { parent: { ref: series } });
    const loose = await newObject(from);
    const reply = await post(
      `${to}/accept_children?children[]=${encodeURIComponent(series)}&children[]=${encodeURIComponent(loose)}&position=0`,
    );
    expect([reply.status, reply.body]).toMatchObject([200, { status: "Updated", id: idOf(to), uri: to }]);
    expect(await order(to)).toEqual([series, loose, stay]);
    expect(await order(from)).toEqual([]);
    expect(await get(child)).toMatchObject({ resource: { ref: to }, parent: { ref: series } });
    expect(await get(series)).toMatchObject({ resource: { ref: to } });
  });

  it("accept_children on an archival object makes the nodes its children", async () => {
    const resource = await newResource();
    const [holder, a, b] = [await newObject(resource), await newObject(resource), await newObject(resource)];
    await post(`${holder}/accept_children?children[]=${encodeURIComponent(b)}&children[]=${encodeURIComponent(a)}`);
    expect(await order(holder)).toEqual([b, a]);
    expect(await order(resource)).toEqual([holder]);
  });

  it("answers bad moves with the contract's errors", async () => {
    const resource = await newResource();
    const node = await newObject(resource);
    const cases: Array<[string, number, unknown]> = [
      [`${node}/parent?position=x`, 400, { error: { position: ['Must be a whole number of at least 0, not "x"'] } }],
      [`${node}/parent?parent=0`, 400, { error: { parent: ['Must be a whole number of at least 1, not "0"'] } }],
      [`${node}/parent?parent=999999`, 404, { error: "ArchivalObject not found" }],
      [`${resource}/accept_children`, 400, { error: { children: ["Parameter required but no value provided"] } }],
      [
        `${resource}/accept_children?children[]=/subjects/1`,
        400,
        { error: { children: [expect.stringContaining("Must be a uri of: archival_object")] } },
      ],
      [
        `${resource}/accept_children?children[]=/repositories/${repo}/archival_objects/999999`,
        400,
        { error: { children: [`Reference to /repositories/${repo}/archival_objects/999999 does not exist`] } },
      ],
      [
        `${resource}/accept_children?children[]=/repositories/${otherRepo}/archival_objects/1`,
        400,
        { error: { children: [expect.stringContaining("same repository")] } },
      ],
      [
        `${resource}/accept_children?children[]=${encodeURIComponent(node)}&children[]=${encodeURIComponent(node)}`,
        400,
        { error: { children: ["Each child may be listed once"] } },
      ],
    ];
    for (const [path, status, body] of cases) {
      const reply = await post(path);
      expect([path, reply.status, reply.body]).toEqual([path, status, body]);
    }
    const denied = await post(`${node}/parent?position=0`, undefined, viewer);
    expect([denied.status, denied.body]).toEqual([403, { error: "Access denied" }]);
    expect(await get(node)).toMatchObject({ lock_version: 0, position: 0 });
  });
});

describe("deleting nodes", () => {
  it("closes the gap a deleted node leaves and takes its subtree with it", async () => {
    const resource = await newResource();
    const [a, b, c] = [await newObject(resource), await newObject(resource), await newObject(resource)];
    const child = await newObject(resource, { parent: { ref: b } });
    expect((await server.send("DELETE", b, { token })).status).toBe(200);
    expect(await order(resource)).toEqual([a, c]);
    expect((await server.send("GET", child, { token })).status).toBe(404);
  });

  it("deleting the resource deletes its whole tree", async () => {
    const resource = await newResource();
    const top = await newObject(resource);
    const below = await newObject(resource, { parent: { ref: top } });
    expect((await server.send("DELETE", resource, { token })).status).toBe(200);
    for (const uri of [top, below]) expect((await server.send("GET", uri, { token })).status).toBe(404);
  });
});

describe("concurrent writers and readers", () => {
  it("concurrent appends to one parent get distinct, dense positions", async () => {
    const resource = await newResource();
    const uris = await Promise.all(Array.from({ length: 12 }, () => newObject(resource)));
    const positions = (await order(resource)).length;
    expect(positions).toBe(12);
    expect(new Set(await order(resource))).toEqual(new Set(uris));
  });

  it("a reader never sees two children at one position or a child in two places while moves run", async () => {
    const resource = await newResource();
    const nodes = await Promise.all(Array.from({ length: 8 }, () => newObject(resource)));
    const holder = nodes[0] as string;
    const moves = Array.from({ length: 16 }, (_v, i) => {
      const node = nodes[1 + (i % 7)] as string;
      return i % 2 === 0 ? `${node}/parent?parent=${idOf(holder)}&position=0` : `${node}/parent?position=0`;
    });
    const mover = (async () => {
      for (const move of moves) expect((await post(move)).status).toBe(200);
    })();
    let done = false;
    void mover.finally(() => (done = true));
    let reads = 0;
    // One tree/root answer is one snapshot: the top level plus the holder's children (its
    // child_count, counted in the same snapshot) account for every node exactly once.
    while (!done || reads < 3) {
      const root = await get(`${resource}/tree/root`);
      const top = (root.precomputed_waypoints as Record<string, Record<string, Json[]>>)[""]?.["0"] ?? [];
      expect(top.map((node) => node.position)).toEqual(top.map((_node, i) => i));
      expect(new Set(top.map((node) => node.uri)).size).toBe(top.length);
      const held = top.find((node) => node.uri === holder);
      expect(top.length + Number(held?.child_count)).toBe(8);
      reads += 1;
    }
    await mover;
    expect((await order(resource)).length + (await order(holder)).length).toBe(8);
  });
});

describe("a tree of 5,000 children", () => {
  it("is paged in waypoints of 200", async () => {
    const resource = await newResource();
    const system = trusted("system");
    // Appended in batches of 500, as an import writes them (5,000 single creates cost this file 40 s).
    for (let start = 0; start < 5000; start += 500) {
      const batch = Array.from({ length: 500 }, (_v, i) => ({
        input: { title: `Folder ${start + i}`, level: "file", resource: { ref: resource } },
      }));
      await server.ops.createMany("archival_object", { repoId: repo }, batch, system);
    }
    const root = await get(`${resource}/tree/root`);
    expect(root).toMatchObject({ child_count: 5000, waypoints: 25, waypoint_size: 200 });
    const first = (root.precomputed_waypoints as Record<string, Record<string, Json[]>>)[""]?.["0"] ?? [];
    expect(first.map((node) => node.title)).toEqual(Array.from({ length: 200 }, (_v, i) => `Folder ${i}`));
    const last = await get<Json[]>(`${resource}/tree/waypoint?offset=24`);
    expect(last.map((node) => node.position)).toEqual(Array.from({ length: 200 }, (_v, i) => 4800 + i));
    expect(last.at(-1)).toMatchObject({ title: "Folder 4999" });
    expect(await get<Json[]>(`${resource}/tree/waypoint?offset=25`)).toEqual([]);
  }, 120_000);
});
