// The lookup routes over HTTP against the real service: find_by_id (ArchivesSpace's id_lookup_controller.rb), by
// external id (external_id.rb), /version, and /vocabularies without page.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Reply, type Service } from "../../support/service.js";

let service: Service;
let repo: string;
let otherRepo: string;
let outsider: string;

const send = (method: string, path: string, body?: unknown, token = service.adminToken): Promise<Reply> =>
  service.send(method, path, { token, body });

async function create(path: string, body: unknown): Promise<string> {
  const reply = await send("POST", path, body);
  expect([path, reply.status, reply.body]).toEqual([path, 200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

const query = (params: Array<[string, string]>) => new URLSearchParams(params).toString();

let resource: string;
let resource2: string;
let objects: string[];
let component: string;
let digitalObject: string;
let containers: string[];

beforeAll(async () => {
  service = await startService();
  repo = await create("/repositories", { repo_code: "LOOKUPS", name: "Lookups" });
  otherRepo = await create("/repositories", { repo_code: "OTHER", name: "Other" });
  const extent = [{ portion: "whole", number: "1", extent_type: "cubic_feet" }];
  const dates = [{ date_type: "single", label: "creation", begin: "1900" }];
  const base = {
    level: "collection",
    extents: extent,
    dates,
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
  };
  resource = await create(`${repo}/resources`, {
    ...base,
    title: "One",
    id_0: "MS",
    id_1: "42",
    external_ids: [{ external_id: "shared-eid", source: "legacy" }],
  });
  resource2 = await create(`${repo}/resources`, { ...base, title: "Two", id_0: "MS" });
  objects = [];
  for (const [i, refId] of ["ref-a", "ref-b", "ref-c"].entries()) {
    objects.push(
      await create(`${repo}/archival_objects`, {
        title: `Object ${i}`,
        level: "file",
        ref_id: refId,
        component_id: i < 2 ? "C1" : "C2",
        resource: { ref: resource },
        external_ids: i === 0 ? [{ external_id: "shared-eid" }, { external_id: "only-object" }] : [],
      }),
    );
  }
  // The same ref_id under another resource: ref_id is unique within a resource only.
  objects.push(
    await create(`${repo}/archival_objects`, {
      title: "Object 3",
      level: "file",
      ref_id: "ref-a",
      resource: { ref: resource2 },
    }),
  );
  digitalObject = await create(`${repo}/digital_objects`, { title: "Scan", digital_object_id: "do-1" });
  component = await create(`${repo}/digital_object_components`, {
    title: "Page",
    component_id: "page-1",
    digital_object: { ref: digitalObject },
  });
  containers = [
    await create(`${repo}/top_containers`, { indicator: "1", barcode: "B-1", type: "box" }),
    await create(`${repo}/top_containers`, { indicator: "1", type: "box" }),
    await create(`${repo}/top_containers`, { indicator: "2", barcode: "B-2", type: "box" }),
  ];
  // A record in another repository with the same ref_id and external id.
  const elsewhere = await create(`${otherRepo}/resources`, { ...base, title: "Elsewhere", id_0: "MS", id_1: "42" });
  await create(`${otherRepo}/archival_objects`, {
    title: "Elsewhere",
    level: "file",
    ref_id: "ref-b",
    resource: { ref: elsewhere },
  });
  await create("/users?password=outsider-password", { username: "outsider", name: "No groups" });
  outsider = await service.login("outsider", "outsider-password");
}, 60_000);

afterAll(() => service.stop());

describe("GET /repositories/:repo_id/find_by_id/<type>", () => {
  it("archival_objects by ref_id[] and component_id[]: refs in id order, only the repository's", async () => {
    const byRef = await send(
      "GET",
      `${repo}/find_by_id/archival_objects?${query([
        ["ref_id[]", "ref-a"],
        ["ref_id[]", "ref-b"],
      ])}`,
    );
    expect(byRef.status).toBe(200);
    expect(byRef.body).toEqual({
      archival_objects: [{ ref: objects[0] }, { ref: objects[1] }, { ref: objects[3] }],
    });
    const byComponent = await send("GET", `${repo}/find_by_id/archival_objects?component_id[]=C1`);
    expect(byComponent.body).toEqual({ archival_objects: [{ ref: objects[0] }, { ref: objects[1] }] });
    // Several parameters: every one must match (ArchivesSpace's filters are joined with AND).
    const both = await send("GET", `${repo}/find_by_id/archival_objects?ref_id[]=ref-a&component_id[]=C1`);
    expect(both.body).toEqual({ archival_objects: [{ ref: objects[0] }] });
    // The bare name works as the bracketed one does.
    expect((await send("GET", `${repo}/find_by_id/archival_objects?ref_id=ref-c`)).body).toEqual({
      archival_objects: [{ ref: objects[2] }],
    });
  });

  it("no parameter, or values matching nothing, answer an empty list", async () => {
    expect((await send("GET", `${repo}/find_by_id/archival_objects`)).body).toEqual({ archival_objects: [] });
    expect((await send("GET", `${repo}/find_by_id/archival_objects?ref_id[]=nothing`)).body).toEqual({
      archival_objects: [],
    });
  });

  it("resolve[]=archival_objects embeds each record, as its GET shows it", async () => {
    const reply = await send("GET", `${repo}/find_by_id/archival_objects?ref_id[]=ref-c&resolve[]=archival_objects`);
    const own = await send("GET", objects[2] ?? "");
    expect(reply.body).toEqual({ archival_objects: [{ ref: objects[2], _resolved: own.body }] });
  });

  it("resources by identifier[] as a JSON array: missing parts are absent ones", async () => {
    const find = (identifier: string) =>
      send("GET", `${repo}/find_by_id/resources?${query([["identifier[]", identifier]])}`);
    expect((await find('["MS","42"]')).body).toEqual({ resources: [{ ref: resource }] });
    expect((await find('["MS"]')).body).toEqual({ resources: [{ ref: resource2 }] });
    expect((await find('["MS","42",null,null]')).body).toEqual({ resources: [{ ref: resource }] });
    expect((await find('["MS","43"]')).body).toEqual({ resources: [] });
    const both = await send(
      "GET",
      `${repo}/find_by_id/resources?${query([
        ["identifier[]", '["MS"]'],
        ["identifier[]", '["MS","42"]'],
      ])}`,
    );
    expect(both.body).toEqual({ resources: [{ ref: resource }, { ref: resource2 }] });
  });

  it("digital_objects, digital_object_components and top_containers by their fields", async () => {
    expect((await send("GET", `${repo}/find_by_id/digital_objects?digital_object_id[]=do-1`)).body).toEqual({
      digital_objects: [{ ref: digitalObject }],
    });
    expect((await send("GET", `${repo}/find_by_id/digital_object_components?component_id[]=page-1`)).body).toEqual({
      digital_object_components: [{ ref: component }],
    });
    expect((await send("GET", `${repo}/find_by_id/top_containers?indicator[]=1`)).body).toEqual({
      top_containers: [{ ref: containers[0] }, { ref: containers[1] }],
    });
    expect((await send("GET", `${repo}/find_by_id/top_containers?barcode[]=B-2&barcode[]=B-1`)).body).toEqual({
      top_containers: [{ ref: containers[0] }, { ref: containers[2] }],
    });
  });

  it("a lookup reads through an index: no collection scan", async () => {
    const db = service.connection.db!;
    const indexes = await db.collection("archival_objects").indexes();
    const keys = indexes.map((index) => Object.keys(index.key).join(","));
    expect(keys).toEqual(expect.arrayContaining(["repo_id,ref_id,id", "repo_id,component_id,id"]));
    const external = await db.collection("resources").indexes();
    expect(external.map((index) => Object.keys(index.key).join(","))).toContain("external_ids.external_id");
  });

  it("400 naming the parameter: a malformed identifier, too many values", async () => {
    for (const bad of ["MS", "[]", '["a","b","c","d","e"]', "[1]", '{"id_0":"MS"}']) {
      const reply = await send("GET", `${repo}/find_by_id/resources?${query([["identifier[]", bad]])}`);
      expect([bad, reply.status, Object.keys((reply.body as { error: object }).error)]).toEqual([
        bad,
        400,
        ["identifier"],
      ]);
    }
    const many = Array.from({ length: 251 }, (_, i): [string, string] => ["ref_id[]", `r${i}`]);
    const reply = await send("GET", `${repo}/find_by_id/archival_objects?${query(many)}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: { ref_id: [expect.stringMatching(/At most 250 values/)] } });
    const resolve = await send("GET", `${repo}/find_by_id/archival_objects?ref_id[]=ref-a&resolve[]=a.b`);
    expect([resolve.status, resolve.body]).toEqual([400, { error: { "resolve[]": [expect.any(String)] } }]);
  });

  it("a suppressed record is found only by whoever may see suppressed records", async () => {
    const viewers = (
      (await send("GET", `${repo}/groups?group_code=repository-viewers`)).body as Array<{ uri: string }>
    )[0];
    await create(`/users?password=viewer-password&groups[]=${encodeURIComponent(String(viewers?.uri))}`, {
      username: "lookup-viewer",
      name: "Viewer",
    });
    const viewer = await service.login("lookup-viewer", "viewer-password");
    const path = `${repo}/find_by_id/digital_objects?digital_object_id[]=do-1`;
    expect((await send("GET", path, undefined, viewer)).body).toEqual({ digital_objects: [{ ref: digitalObject }] });
    const suppress = await send("POST", `${digitalObject}/suppressed?suppressed=true`);
    expect(suppress.status).toBe(200);
    try {
      expect((await send("GET", path, undefined, viewer)).body).toEqual({ digital_objects: [] });
      expect((await send("GET", path)).body).toEqual({ digital_objects: [{ ref: digitalObject }] });
    } finally {
      await send("POST", `${digitalObject}/suppressed?suppressed=false`);
    }
  });

  it("403 without a session or the permission; 404 for a repository that does not exist", async () => {
    expect((await service.send("GET", `${repo}/find_by_id/archival_objects?ref_id[]=ref-a`)).status).toBe(403);
    const denied = await send("GET", `${repo}/find_by_id/archival_objects?ref_id[]=ref-a`, undefined, outsider);
    expect([denied.status, denied.body]).toEqual([403, { error: "Access denied" }]);
    for (const missing of ["/repositories/999", "/repositories/1", "/repositories/abc"]) {
      const reply = await send("GET", `${missing}/find_by_id/archival_objects?ref_id[]=ref-a`);
      expect([missing, reply.status, reply.body]).toEqual([missing, 404, { error: "Repository not found" }]);
    }
  });
});

describe("GET /by-external-id", () => {
  const find = (params: Array<[string, string]>, token = service.adminToken) =>
    service.send("GET", `/by-external-id?${query(params)}`, { token, headers: {} });

  it("one record: 303 to its uri, which a client following it reads", async () => {
    const response = await fetch(`${service.url}/by-external-id?eid=only-object`, {
      headers: { "X-ArchivesSpace-Session": service.adminToken },
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(objects[0]);
    const followed = await find([["eid", "only-object"]]);
    expect([followed.status, (followed.body as { uri: string }).uri]).toEqual([200, objects[0]]);
  });

  it("several: 300 with their uris, type by type; type[] narrows", async () => {
    const reply = await find([["eid", "shared-eid"]]);
    expect([reply.status, reply.body]).toEqual([300, [objects[0], resource]]);
    const narrowed = await fetch(`${service.url}/by-external-id?eid=shared-eid&type[]=resource`, {
      headers: { "X-ArchivesSpace-Session": service.adminToken },
      redirect: "manual",
    });
    expect([narrowed.status, narrowed.headers.get("location")]).toEqual([303, resource]);
  });

  it("none: 404; no eid or an unknown type: 400 naming it", async () => {
    expect((await find([["eid", "no-such-id"]])).status).toBe(404);
    expect(
      (
        await find([
          ["eid", "shared-eid"],
          ["type[]", "top_container"],
        ])
      ).body,
    ).toEqual({
      error: { type: [expect.stringMatching(/^Must name types with external ids/)] },
    });
    expect((await find([])).body).toEqual({ error: { eid: ["Parameter required but no value provided"] } });
  });

  it("403 without view_all_records, or without a session", async () => {
    expect((await find([["eid", "shared-eid"]], outsider)).status).toBe(403);
    expect((await service.send("GET", "/by-external-id?eid=shared-eid")).status).toBe(403);
  });
});

describe("GET /vocabularies without page, and ref_id", () => {
  it("answers every vocabulary as a bare list; ref_id= narrows it", async () => {
    const made = await create("/vocabularies", { name: "Local terms", ref_id: "local" });
    const all = await send("GET", "/vocabularies");
    expect(all.status).toBe(200);
    const uris = (all.body as Array<{ uri: string }>).map((vocabulary) => vocabulary.uri);
    expect(uris).toContain(made);
    expect((await send("GET", "/vocabularies?ref_id=local")).body).toEqual([
      expect.objectContaining({ uri: made, ref_id: "local" }),
    ]);
    expect((await send("GET", "/vocabularies?ref_id=none")).body).toEqual([]);
    // A page still answers a page.
    expect((await send("GET", "/vocabularies?page=1")).body).toMatchObject({ this_page: 1 });
    expect((await service.send("GET", "/vocabularies")).status).toBe(403);
  });
});
