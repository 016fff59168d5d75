// The same tree machinery, from x-tree alone, for a digital object's components
// and a classification's terms; and the tree routes' OpenAPI entries.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { openApiDocument } from "../../../src/openapi/index.js";
import { registry } from "../../../src/registry/index.js";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

type Json = Record<string, unknown>;

let server: RecordServer;
let token: string;
let repo: number;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "forest", name: "Forest" }, trusted("system"))).id;
  token = await server.login(
    "keeper",
    globalGrants([
      "view_repository",
      "update_digital_object_record",
      "update_classification_record",
      "delete_archival_record",
      "delete_classification_record",
    ]),
  );
});
afterAll(() => server.stop());

async function created(path: string, body: Json): Promise<string> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, (reply.body as Json).status]).toEqual([200, "Created"]);
  return (reply.body as Json).uri as string;
}

async function get<T = Json>(path: string): Promise<T> {
  const reply = await server.send("GET", path, { token });
  expect([path, reply.status]).toEqual([path, 200]);
  return reply.body as T;
}

const idOf = (uri: string) => Number(uri.split("/").pop());

const trees: Array<{
  name: string;
  root: () => Promise<string>;
  node: (root: string, n: number, parent?: string) => Json;
  nodes: string;
  rootType: string;
  nodeType: string;
}> = [
  {
    name: "a digital object's components",
    root: () =>
      created(`/repositories/${repo}/digital_objects`, { title: "Album", digital_object_id: `album-${Math.random()}` }),
    node: (root, n, parent) => ({
      title: `Page ${n}`,
      digital_object: { ref: root },
      ...(parent && { parent: { ref: parent } }),
    }),
    nodes: "digital_object_components",
    rootType: "digital_object",
    nodeType: "digital_object_component",
  },
  {
    name: "a classification's terms",
    root: () =>
      created(`/repositories/${repo}/classifications`, { identifier: `C${Math.random()}`, title: "Subjects" }),
    node: (root, n, parent) => ({
      identifier: `T${n}`,
      title: `Term ${n}`,
      classification: { ref: root },
      ...(parent && { parent: { ref: parent } }),
    }),
    nodes: "classification_terms",
    rootType: "classification",
    nodeType: "classification_term",
  },
];

describe.each(trees)("$name", ({ root: newRoot, node, nodes, rootType, nodeType }) => {
  it("keeps positions dense through inserts, moves and deletes, and reads as a large tree", async () => {
    const root = await newRoot();
    const path = `/repositories/${repo}/${nodes}`;
    const first = await created(path, node(root, 1));
    const second = await created(path, node(root, 2));
    const front = await created(path, { ...node(root, 3), position: 0 });
    const child = await created(path, node(root, 4, first));

    const top = await get(`${root}/tree/root`);
    expect(top).toMatchObject({ child_count: 3, waypoints: 1, uri: root, jsonmodel_type: rootType });
    const waypoint = (top.precomputed_waypoints as Record<string, Record<string, Json[]>>)[""]?.["0"] ?? [];
    expect(waypoint.map((entry) => [entry.uri, entry.position, entry.child_count, entry.jsonmodel_type])).toEqual([
      [front, 0, 0, nodeType],
      [first, 1, 1, nodeType],
      [second, 2, 0, nodeType],
    ]);
    expect((await get<Json[]>(`${first}/children`)).map((entry) => entry.uri)).toEqual([child]);

    await server.send("POST", `${second}/parent?parent=${idOf(first)}&position=0`, { token });
    expect((await get<Json[]>(`${first}/children`)).map((entry) => [entry.uri, entry.position])).toEqual([
      [second, 0],
      [child, 1],
    ]);
    const paths = await get(`${root}/tree/node_from_root?node_ids[]=${idOf(child)}`);
    expect((paths[String(idOf(child))] as Json[]).map((step) => step.node)).toEqual([null, first]);

    expect((await server.send("DELETE", front, { token })).status).toBe(200);
    const after = await get<Json[]>(`${root}/tree/waypoint?offset=0`);
    expect(after.map((entry) => [entry.uri, entry.position])).toEqual([[first, 0]]);
    expect((await server.send("DELETE", root, { token })).status).toBe(200);
    for (const uri of [first, second, child]) expect((await server.send("GET", uri, { token })).status).toBe(404);
  });
});

describe("the tree routes in the OpenAPI document", () => {
  const document = openApiDocument(registry, "test");
  it.each([
    ["/repositories/{repo_id}/resources/{id}/tree/root", "get"],
    ["/repositories/{repo_id}/resources/{id}/tree/waypoint", "get"],
    ["/repositories/{repo_id}/resources/{id}/tree/node", "get"],
    ["/repositories/{repo_id}/resources/{id}/tree/node_from_root", "get"],
    ["/repositories/{repo_id}/resources/{id}/accept_children", "post"],
    ["/repositories/{repo_id}/archival_objects/{id}/children", "get"],
    ["/repositories/{repo_id}/archival_objects/{id}/parent", "post"],
    ["/repositories/{repo_id}/archival_objects/{id}/accept_children", "post"],
    ["/repositories/{repo_id}/digital_objects/{id}/tree/root", "get"],
    ["/repositories/{repo_id}/classification_terms/{id}/parent", "post"],
  ])("%s %s", (path, method) => {
    const operation = (
      document.paths[path] as Record<string, { responses: Record<string, unknown>; security?: unknown[] }> | undefined
    )?.[method];
    expect(operation?.responses).toEqual(
      expect.objectContaining({ "200": expect.anything(), "403": expect.anything(), "404": expect.anything() }),
    );
    expect(operation?.security).toBeDefined();
  });

  it("has no tree routes for types without trees", () => {
    expect(
      Object.keys(document.paths).filter((path) => path.includes("/accessions/") && /tree|children|parent/.test(path)),
    ).toEqual([]);
  });
});
