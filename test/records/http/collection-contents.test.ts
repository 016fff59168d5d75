// The collection contents routes over HTTP against the real service (docs/api.md §17): the legacy whole tree,
// ordered_records, top_containers, previous and batch children, with their permissions, bad input, missing records
// and the whole-tree bound (WHOLE_TREE_MAX_NODES, set to 6 here: both sides of it are tried).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Reply, type Service } from "../../support/service.js";

type Json = Record<string, unknown>;

const MAX_NODES = 6;
let service: Service;
let repo: string;
let outsider: string;

beforeAll(async () => {
  service = await startService({ env: { WHOLE_TREE_MAX_NODES: String(MAX_NODES) } });
  repo = (await admin("POST", "/repositories", { repo_code: "CONTENTS", name: "Contents" })).body.uri as string;
  expect((await admin("POST", "/users?password=outsider-pw", { username: "outsider", name: "No groups" })).status).toBe(
    200,
  );
  outsider = await service.login("outsider", "outsider-pw");
}, 60_000);
afterAll(() => service.stop());

async function admin(method: string, path: string, body?: unknown): Promise<Reply & { body: Json }> {
  return (await service.send(method, path, { token: service.adminToken, body })) as Reply & { body: Json };
}

async function created(collection: string, body: Json): Promise<string> {
  const reply = await admin("POST", `${repo}/${collection}`, body);
  expect([collection, reply.status, reply.body.error]).toEqual([collection, 200, undefined]);
  return reply.body.uri as string;
}

async function read<T = Json>(path: string): Promise<T> {
  const reply = await admin("GET", path);
  expect([path, reply.status]).toEqual([path, 200]);
  return reply.body as T;
}

let seq = 0;
function resource(extra: Json = {}): Json {
  return {
    title: "Papers",
    id_0: `C${++seq}`,
    level: "collection",
    publish: true,
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    lang_materials: [{ language_and_script: { language: "eng" } }],
    dates: [{ date_type: "inclusive", label: "creation", expression: "1900-1950" }],
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    ...extra,
  };
}

const instance = (topContainer: string, extra: Json = {}) => ({
  instance_type: "mixed_materials",
  sub_container: { top_container: { ref: topContainer }, ...extra },
});

// The tree used throughout:
//   R (published; instance in box 1)
//     A  (series)          A1 (file; box 2, folder 3)   A2 (file)
//     B  (series)
//     C  (unpublished)     C1 (file; box 3)
let R: string;
let A: string;
let A1: string;
let A2: string;
let B: string;
let C: string;
let C1: string;
let box1: string;
let box2: string;
let box3: string;

beforeAll(async () => {
  box1 = await created("top_containers", { indicator: "1", type: "box" });
  box2 = await created("top_containers", { indicator: "2", type: "box" });
  box3 = await created("top_containers", { indicator: "3", type: "box" });
  R = await created("resources", resource({ instances: [instance(box1)] }));
  const ao = (title: string, level: string, extra: Json = {}) =>
    created("archival_objects", { title, level, publish: true, resource: { ref: R }, ...extra });
  A = await ao("A", "series", { component_id: "a" });
  A1 = await ao("A1", "file", {
    parent: { ref: A },
    instances: [instance(box2, { type_2: "folder", indicator_2: "3" })],
  });
  A2 = await ao("A2", "file", { parent: { ref: A } });
  B = await ao("B", "series");
  C = await ao("C", "series", { publish: false });
  C1 = await ao("C1", "file", { parent: { ref: C }, instances: [instance(box3)] });
}, 60_000);

describe("GET <root>/tree (ArchivesSpace 2.x's whole tree)", () => {
  it("nests every node under its parent in position order, with the 2.x fields", async () => {
    const tree = await read<Json>(`${R}/tree`);
    const node = (uri: string, title: string, children: Json[], extra: Json = {}) => ({
      title,
      id: Number(uri.split("/").pop()),
      record_uri: uri,
      node_type: "archival_object",
      publish: true,
      suppressed: false,
      has_children: children.length > 0,
      children,
      ...extra,
    });
    expect(tree).toEqual({
      title: "Papers",
      id: Number(R.split("/").pop()),
      record_uri: R,
      node_type: "resource",
      publish: true,
      suppressed: false,
      level: "collection",
      instance_types: ["mixed_materials"],
      containers: [{ type_1: "box", indicator_1: "1" }],
      has_children: true,
      children: [
        node(
          A,
          "A",
          [
            node(A1, "A1", [], {
              level: "file",
              instance_types: ["mixed_materials"],
              containers: [{ type_1: "box", indicator_1: "2", type_2: "folder", indicator_2: "3" }],
            }),
            node(A2, "A2", [], { level: "file" }),
          ],
          { level: "series", component_id: "a" },
        ),
        node(B, "B", [], { level: "series" }),
        node(
          C,
          "C",
          [
            node(C1, "C1", [], {
              level: "file",
              instance_types: ["mixed_materials"],
              containers: [{ type_1: "box", indicator_1: "3" }],
            }),
          ],
          { level: "series", publish: false },
        ),
      ],
    });
  });

  it("serves a digital object's and a classification's tree from the same settings", async () => {
    const album = await created("digital_objects", { title: "Album", digital_object_id: "album-1", publish: true });
    const page = await created("digital_object_components", { title: "Page 1", digital_object: { ref: album } });
    expect(await read(`${album}/tree`)).toMatchObject({
      title: "Album",
      node_type: "digital_object",
      has_children: true,
      children: [{ title: "Page 1", record_uri: page, node_type: "digital_object_component", children: [] }],
    });
    const scheme = await created("classifications", { identifier: "S", title: "Scheme" });
    const term = await created("classification_terms", {
      identifier: "T1",
      title: "Term",
      classification: { ref: scheme },
    });
    expect(await read(`${scheme}/tree`)).toMatchObject({
      title: "Scheme",
      node_type: "classification",
      identifier: "S",
      publish: true,
      children: [{ title: "Term", record_uri: term, identifier: "T1", has_children: false, children: [] }],
    });
  });

  it("answers a resource without nodes, 404 for a missing record, 403 without permission", async () => {
    const empty = await created("resources", resource());
    expect(await read(`${empty}/tree`)).toMatchObject({ record_uri: empty, has_children: false, children: [] });
    expect((await admin("GET", `${repo}/resources/99999/tree`)).body).toEqual({ error: "Resource not found" });
    expect((await admin("GET", `${repo}/resources/99999/tree`)).status).toBe(404);
    expect((await admin("GET", `/repositories/99999/resources/1/tree`)).status).toBe(404);
    const refused = await service.send("GET", `${R}/tree`, { token: outsider });
    expect([refused.status, refused.body]).toEqual([403, { error: "Access denied" }]);
  });
});

describe("the whole-tree bound (WHOLE_TREE_MAX_NODES)", () => {
  it(`answers a tree of exactly ${MAX_NODES} nodes, and refuses one more with a 400 naming the setting`, async () => {
    // R has exactly MAX_NODES nodes.
    expect((await admin("GET", `${R}/tree`)).status).toBe(200);
    expect((await admin("GET", `${R}/ordered_records`)).status).toBe(200);
    expect((await admin("GET", `${R}/top_containers`)).status).toBe(200);
    const big = await created("resources", resource());
    const children = Array.from({ length: MAX_NODES + 1 }, (_, i) => ({ title: `N${i}`, level: "file" }));
    expect((await admin("POST", `${big}/children`, { children })).status).toBe(200);
    for (const route of ["tree", "ordered_records", "top_containers"]) {
      const reply = await admin("GET", `${big}/${route}`);
      expect([route, reply.status]).toEqual([route, 400]);
      expect(reply.body.error).toEqual(expect.stringContaining(`more than ${MAX_NODES}`));
      expect(reply.body.error).toEqual(expect.stringContaining("WHOLE_TREE_MAX_NODES"));
    }
  });
});

describe("GET <root>/ordered_records", () => {
  it("lists the published records in tree order with their depth, level and display string", async () => {
    expect(await read(`${R}/ordered_records`)).toEqual({
      uris: [
        { ref: R, display_string: "Papers", depth: 0, level: "collection" },
        { ref: A, display_string: "A", depth: 1, level: "series" },
        { ref: A1, display_string: "A1", depth: 2, level: "file" },
        { ref: A2, display_string: "A2", depth: 2, level: "file" },
        { ref: B, display_string: "B", depth: 1, level: "series" },
      ],
    });
  });

  it("is empty for an unpublished resource, 404 for a missing one, 403 without permission", async () => {
    const hidden = await created("resources", resource({ publish: false }));
    expect(await read(`${hidden}/ordered_records`)).toEqual({ uris: [] });
    expect((await admin("GET", `${repo}/resources/99999/ordered_records`)).status).toBe(404);
    expect((await service.send("GET", `${R}/ordered_records`, { token: outsider })).status).toBe(403);
  });
});

describe("GET <record>/top_containers", () => {
  it("a resource: its own and its published nodes' top containers, each once", async () => {
    expect(await read(`${R}/top_containers`)).toEqual([{ ref: box1 }, { ref: box2 }]);
  });

  it("an accession: the top containers its instances name", async () => {
    const accession = await created("accessions", {
      id_0: "ACC1",
      title: "Gift",
      instances: [instance(box2), instance(box1), instance(box2)],
    });
    expect(await read(`${accession}/top_containers`)).toEqual([{ ref: box2 }, { ref: box1 }]);
    const bare = await created("accessions", { id_0: "ACC2", title: "Empty" });
    expect(await read(`${bare}/top_containers`)).toEqual([]);
    expect((await admin("GET", `${repo}/accessions/99999/top_containers`)).status).toBe(404);
    expect((await service.send("GET", `${accession}/top_containers`, { token: outsider })).status).toBe(403);
  });
});

describe("GET <node>/previous", () => {
  it("the previous sibling's last descendant, else the parent; the first node has none", async () => {
    expect((await read(`${A1}/previous`)).uri).toBe(A);
    expect((await read(`${A2}/previous`)).uri).toBe(A1);
    expect((await read(`${B}/previous`)).uri).toBe(A2);
    expect((await read(`${C}/previous`)).uri).toBe(B);
    expect((await read(`${C1}/previous`)).uri).toBe(C);
    // Whole, as its GET shows it.
    expect(await read(`${A2}/previous`)).toEqual(await read(A1));
    const first = await admin("GET", `${A}/previous`);
    expect([first.status, first.body]).toEqual([404, { error: "No previous node" }]);
    expect((await admin("GET", `${repo}/archival_objects/99999/previous`)).body).toEqual({
      error: "ArchivalObject not found",
    });
    expect((await service.send("GET", `${B}/previous`, { token: outsider })).status).toBe(403);
  });
});

describe("POST <record>/children", () => {
  it("creates the children in order after the present ones, under a resource and under a node", async () => {
    const parent = await created("resources", resource());
    const first = await created("archival_objects", { title: "Existing", level: "series", resource: { ref: parent } });
    const reply = await admin("POST", `${parent}/children`, {
      children: [
        { title: "One", level: "file", resource: { ref: R }, parent: { ref: A } },
        { title: "Two", level: "file", mood: "ignored" },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: "Updated", id: Number(parent.split("/").pop()), uri: parent });
    expect(reply.body.warnings).toEqual([expect.stringMatching(/^children\/1\/mood/)]);
    const top = (await read<Json>(`${parent}/tree`)).children as Json[];
    expect(top.map((node) => node.title)).toEqual(["Existing", "One", "Two"]);
    expect(top[0]?.record_uri).toBe(first);

    const under = await admin("POST", `${first}/children`, {
      children: [
        { title: "Inner 1", level: "item" },
        { title: "Inner 2", level: "item" },
      ],
    });
    expect(under.body).toMatchObject({ status: "Updated", uri: first });
    const inner = await read<Json[]>(`${first}/children`);
    expect(inner.map((child) => [child.title, child.resource, child.parent])).toEqual([
      ["Inner 1", { ref: parent }, { ref: first }],
      ["Inner 2", { ref: parent }, { ref: first }],
    ]);
  });

  it("creates digital object components and classification terms the same way", async () => {
    const album = await created("digital_objects", { title: "Album 2", digital_object_id: "album-2" });
    expect((await admin("POST", `${album}/children`, { children: [{ title: "P1" }, { title: "P2" }] })).status).toBe(
      200,
    );
    const pages = ((await read<Json>(`${album}/tree`)).children as Json[]).map((node) => node.title);
    expect(pages).toEqual(["P1", "P2"]);
    const page = ((await read<Json>(`${album}/tree`)).children as Json[])[0]?.record_uri as string;
    expect((await admin("POST", `${page}/children`, { children: [{ title: "P1a" }] })).status).toBe(200);
    expect((await read<Json[]>(`${page}/children`)).map((child) => child.title)).toEqual(["P1a"]);

    const scheme = await created("classifications", { identifier: "S2", title: "Scheme 2" });
    expect(
      (await admin("POST", `${scheme}/children`, { children: [{ identifier: "T", title: "Top term" }] })).status,
    ).toBe(200);
    const term = ((await read<Json>(`${scheme}/tree`)).children as Json[])[0]?.record_uri as string;
    expect((await admin("POST", `${term}/children`, { children: [{ identifier: "U", title: "Under" }] })).status).toBe(
      200,
    );
    expect((await read<Json[]>(`${term}/children`)).map((child) => child.title)).toEqual(["Under"]);
  });

  it("creates none when one child is bad: a 400 naming it by its place", async () => {
    const parent = await created("resources", resource());
    const reply = await admin("POST", `${parent}/children`, {
      children: [{ title: "Good", level: "file" }, { title: "No level" }],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual({ "children/1/level": [expect.any(String)] });
    expect((await read<Json>(`${parent}/tree`)).children).toEqual([]);
  });

  it("refuses a body without a list of records (400), a missing parent (404), and a caller without permission (403)", async () => {
    for (const body of [{}, { children: "no" }, [], { children: [1] }]) {
      const reply = await admin("POST", `${R}/children`, body);
      expect([JSON.stringify(body), reply.status]).toEqual([JSON.stringify(body), 400]);
      expect(Object.keys(reply.body.error as Json)[0]).toMatch(/^children/);
    }
    expect((await admin("POST", `${R}/children`, { children: [] })).status).toBe(200);
    const missing = await admin("POST", `${repo}/archival_objects/99999/children`, { children: [{ title: "x" }] });
    expect([missing.status, missing.body]).toEqual([404, { error: "ArchivalObject not found" }]);
    const refused = await service.send("POST", `${R}/children`, {
      token: outsider,
      body: { children: [{ title: "x", level: "file" }] },
    });
    expect(refused.status).toBe(403);
    expect((await read<Json>(`${R}/tree`)).children).toHaveLength(3);
  });
});

describe("/openapi.json", () => {
  it("describes each route of every type it applies to", async () => {
    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operation = (path: string, method: string) => document.paths[path]?.[method]?.operationId;
    const repoPath = "/repositories/{repo_id}";
    expect(operation(`${repoPath}/resources/{id}/tree`, "get")).toBe("legacy_tree_resource");
    expect(operation(`${repoPath}/digital_objects/{id}/tree`, "get")).toBe("legacy_tree_digital_object");
    expect(operation(`${repoPath}/classifications/{id}/tree`, "get")).toBe("legacy_tree_classification");
    expect(operation(`${repoPath}/resources/{id}/ordered_records`, "get")).toBe("ordered_records_resource");
    expect(operation(`${repoPath}/resources/{id}/top_containers`, "get")).toBe("top_containers_resource");
    expect(operation(`${repoPath}/accessions/{id}/top_containers`, "get")).toBe("top_containers_accession");
    expect(operation(`${repoPath}/archival_objects/{id}/previous`, "get")).toBe("previous_archival_object");
    for (const collection of [
      "resources",
      "archival_objects",
      "digital_objects",
      "digital_object_components",
      "classifications",
      "classification_terms",
    ])
      expect(operation(`${repoPath}/${collection}/{id}/children`, "post")).toMatch(/^add_children_/);
    // The node types' GET children stays described beside the new POST.
    expect(operation(`${repoPath}/archival_objects/{id}/children`, "get")).toBe("children_archival_object");
  });
});
