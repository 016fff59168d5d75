// The record access patterns of two real ArchivesSpace clients, replayed against Arca over HTTP, on fresh records
// (each with nothing but its required fields) and on fully populated ones (every writable property: the samples of
// test/fixtures/archivesspace-samples/):
//   - agentarchives (artefactual-labs/agentarchives, agentarchives/archivesspace/client.py), Archivematica's client:
//     its upload-archivesspace script and its DSpace upload both call add_digital_object;
//   - ArchivesSnake (archivesspace-labs/ArchivesSnake: asnake/client/web_client.py, asnake/jsonmodel/__init__.py,
//     asnake/utils/__init__.py).
// The clients are ported in ./clients/ method by method (the same requests, the same keys read, a missing key raising
// as Python's record["key"] does, the same mutation and write back); each test is named after the client and the
// method it mirrors. Endpoints Arca does not serve yet are todos naming them; the part of those methods that reads
// records is tested on records read otherwise.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { randomUUID } from "node:crypto";
import { ARCHIVESSPACE_API_VERSION } from "../../src/version.js";
import { startService, type Service } from "../support/service.js";
import { AgentArchivesClient } from "./clients/agentarchives.js";
import {
  aspaceVersion,
  ASnakeClient,
  AttributeError,
  byExternalId,
  closestValue,
  componentTree,
  dispatchType,
  findClosestValue,
  formatResourceId,
  getDateDisplay,
  getNoteText,
  getObjectLocations,
  getOrphans,
  isRestricted,
  JSONModelObject,
  JSONModelRelation,
  textInNote,
  walkTree,
  walkTreeNode,
} from "./clients/archivessnake.js";
import { at, isDict, list, text, type Dict } from "./clients/python.js";
import { freshRecords, populatedRecords, REPO, type RecordSet, type Send } from "./clients/records.js";

let service: Service;
let send: Send;
const sets = new Map<string, RecordSet>();

beforeAll(async () => {
  service = await startService();
  send = (method, path, body) => service.send(method, path, { token: service.adminToken, body });
  const repository = await send("POST", "/repositories", { repo_code: "CLIENTS", name: "Client patterns" });
  expect(repository.body).toMatchObject({ uri: REPO });
  sets.set("fresh", await freshRecords(send));
  sets.set("fully populated", await populatedRecords(send));
}, 60_000);

afterAll(() => service.stop());

async function read(uri: string, query = ""): Promise<Dict> {
  const reply = await send("GET", `${uri}${query}`);
  expect([uri, reply.status]).toEqual([uri, 200]);
  return reply.body as Dict;
}

const SERVER_FIELDS = new Set([
  "lock_version",
  "created_by",
  "last_modified_by",
  "create_time",
  "system_mtime",
  "user_mtime",
]);

/** A subrecord without the fields the server keeps, to compare what was written with what is read. */
function written(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(written);
  if (!isDict(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SERVER_FIELDS.has(key))
      .map(([key, item]) => [key, written(item)]),
  );
}

async function agentarchives(): Promise<AgentArchivesClient> {
  const client = new AgentArchivesClient(service.url);
  await client.login("admin", service.adminPassword);
  return client;
}

async function asnake(): Promise<ASnakeClient> {
  const client = new ASnakeClient(service.url);
  await client.authorize("admin", service.adminPassword);
  return client;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe("agentarchives, whatever the records", () => {
  it("agentarchives _login and get_levels_of_description: enumeration 32 is the levels of description", async () => {
    const client = await agentarchives();
    expect(await client.getLevelsOfDescription()).toEqual(
      expect.arrayContaining(["collection", "series", "subseries", "file", "item", "otherlevel"]),
    );
  });

  it("agentarchives collection_list, get_resource_component_and_children on a resource, augment_resource_ids: GET <resource>/tree, the legacy tree", async () => {
    const client = await agentarchives();
    for (const set of sets.values()) {
      const uris = await client.collectionList(set.resource);
      expect(uris).toEqual(expect.arrayContaining([set.top, set.child, set.located]));
      expect(uris.indexOf(set.child)).toBe(uris.indexOf(set.top) + 1);
      const [resource, top, child] = [await read(set.resource), await read(set.top), await read(set.child)];
      const tree = (await client.getResourceComponentAndChildren(set.resource)) as Dict;
      // _get_resources counts sortPosition from 2 and calls every node a "resource".
      expect(tree).toMatchObject({
        id: set.resource,
        type: "resource",
        sortPosition: 2,
        title: resource.title,
        levelOfDescription: resource.level,
        has_children: true,
      });
      const topNode = list(tree.children).find((node) => at(node, "id") === set.top);
      expect(topNode).toMatchObject({
        type: "resource",
        sortPosition: 3,
        title: top.title,
        display_title: top.display_string,
        levelOfDescription: top.level,
        has_children: true,
        children: [
          {
            id: set.child,
            sortPosition: 4,
            title: child.title,
            levelOfDescription: child.level,
            children: false,
            has_children: false,
          },
        ],
      });
      // The top level in collection_list's order (a node's subtree follows it there).
      const topLevel = list(tree.children).map((node) => at(node, "id"));
      expect([...topLevel].sort((a, b) => uris.indexOf(a) - uris.indexOf(b))).toEqual(topLevel);
      // augment_resource_ids: two levels, the top level's children known but not fetched.
      const [augmented] = await client.augmentResourceIds([set.resource]);
      const augmentedTop = list(at(augmented, "children")).find((node) => at(node, "id") === set.top);
      expect(augmentedTop).toMatchObject({ has_children: true, children: [] });
    }
  });
  it.todo(
    "agentarchives find_collection_ids, count_collections, find_collections: GET /repositories/:id/search (issue 15)",
  );
  it("agentarchives find_by_id: archival objects by ref_id and component_id, components by component_id", async () => {
    const client = await agentarchives();
    for (const set of sets.values()) {
      const top = await read(set.top);
      const [hit, ...more] = await client.findById("archival_objects", "ref_id", text(top.ref_id));
      expect(more).toEqual([]);
      expect(hit).toEqual({
        id: set.top,
        type: "resource_component",
        identifier: top.ref_id,
        title: top.title,
        levelOfDescription: top.level,
        fullrecord: top,
      });
    }
    const componentId = `cp-${randomUUID()}`;
    const made = await (sets.get("fresh") as RecordSet).newArchivalObject({ component_id: componentId });
    expect((await client.findById("archival_objects", "component_id", componentId)).map((hit) => hit.id)).toEqual([
      made,
    ]);
    expect(await client.findById("digital_object_components", "component_id", componentId)).toEqual([]);
    await expect(client.findById("resources", "ref_id", "x")).rejects.toThrow("object_type must be");
  });
});

describe("ArchivesSnake, whatever the records", () => {
  it("ArchivesSnake ASnakeClient.authorize: a form login with expiring=False answers the session", async () => {
    const client = new ASnakeClient(service.url);
    expect(await client.authorize("admin", service.adminPassword)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("ArchivesSnake ASpace.repositories and JSONModelObject.__getattr__: repo.resources is a route, iterated", async () => {
    const client = await asnake();
    // get_paged drops all_ids for /repositories; ArchivesSpace answers a bare list there, Arca a page (both read).
    const repositories = await collect(new JSONModelRelation("/repositories", client, { all_ids: true }));
    const ours = repositories[(await Promise.all(repositories.map((r) => r.attr("uri")))).indexOf(REPO)];
    expect(ours).toBeInstanceOf(JSONModelObject);
    // resources and archival_objects are not keys of a repository: each is asked as <uri>/<key>?all_ids=True.
    const resources = await (ours as JSONModelObject).relation("resources");
    const uris = await Promise.all((await collect(resources)).map((record) => record.attr("uri")));
    for (const set of sets.values()) expect(uris).toContain(set.resource);
    const objects = await (ours as JSONModelObject).relation("archival_objects");
    const objectUris = await Promise.all((await collect(objects)).map((record) => record.attr("uri")));
    for (const set of sets.values()) expect(objectUris).toEqual(expect.arrayContaining([set.top, set.child]));
  });

  it("ArchivesSnake resource.tree, ComponentObject.tree, TreeNode.walk: GET <resource>/tree, the legacy tree", async () => {
    const client = await asnake();
    const idOf = (uri: string) => Number(uri.split("/").pop());
    const uris = async (records: unknown[]) =>
      Promise.all(records.map((record) => (record as JSONModelObject).attr("uri")));
    for (const set of sets.values()) {
      const resource = await new JSONModelRelation(`${REPO}/resources`, client).call(idOf(set.resource));
      // resource.tree: the {ref: <uri>/tree} ref, a TreeNode, reified by a GET of the ref.
      const tree = await resource.record("tree");
      expect(dispatchType(await tree.json())).toBe("tree_node");
      const walked = await uris(await collect(walkTreeNode(tree)));
      expect(walked[0]).toBe(set.resource);
      expect(walked.indexOf(set.child)).toBe(walked.indexOf(set.top) + 1);
      // The same records in the same order as walk_tree reads through the large-tree waypoints.
      const waypoints = (await collect(walkTree(set.resource, client))).map((record) => at(record, "uri"));
      expect(walked).toEqual(waypoints);
      // ComponentObject.tree: the top archival object's node, walked to its child.
      const top = await new JSONModelRelation(`${REPO}/archival_objects`, client).call(idOf(set.top));
      const node = await componentTree(top);
      expect(node).toBeInstanceOf(JSONModelObject);
      expect(await (node as JSONModelObject).attr("record_uri")).toBe(set.top);
      expect(await uris(await collect(walkTreeNode(node as JSONModelObject)))).toEqual([set.top, set.child]);
    }
  });
  it("ArchivesSnake ASpace.by_external_id: none, one (a 303 followed to the record), several (refs)", async () => {
    const client = await asnake();
    const eid = `eid-${randomUUID()}`;
    const fresh = sets.get("fresh") as RecordSet;
    expect(await collect(byExternalId(client, eid))).toEqual([]);
    const first = await fresh.newArchivalObject({ external_ids: [{ external_id: eid, source: "legacy" }] });
    const [one, ...none] = await collect(byExternalId(client, eid));
    expect(none).toEqual([]);
    expect(one).toBeInstanceOf(JSONModelObject);
    expect(await (one as JSONModelObject).attr("uri")).toBe(first);
    expect(await (one as JSONModelObject).attr("title")).toBe((await read(first)).title);
    const second = await fresh.newArchivalObject({ external_ids: [{ external_id: eid }] });
    const several = (await collect(byExternalId(client, eid))) as JSONModelObject[];
    expect(await Promise.all(several.map((record) => record.attr("uri")))).toEqual([first, second]);
    expect(await several[1]?.attr("title")).toBe((await read(second)).title);
    expect(await collect(byExternalId(client, eid, ["resource"]))).toEqual([]);
  });
  it("ArchivesSnake ASpace(): GET /version parsed with its anchored regex finds the ArchivesSpace API version", async () => {
    // The regex keeps the closing parenthesis in its group, whoever answers.
    expect(await aspaceVersion(await asnake())).toBe(`${ARCHIVESSPACE_API_VERSION})`);
  });
  it.todo("ArchivesSnake repo.search, top_containers.search (SolrRelation): the search endpoints (issue 15)");
});

describe.each(["fresh", "fully populated"])("%s records", (name) => {
  let set: RecordSet;
  beforeAll(() => {
    set = sets.get(name) as RecordSet;
  });
  const populated = name === "fully populated";

  // -------------------------------------------------------------------------------------------
  // agentarchives

  it("agentarchives get_record: each record reads as JSON without an error key", async () => {
    const client = await agentarchives();
    for (const uri of [set.resource, set.top, set.child, set.digitalObject, set.agent, set.subject, set.topContainer]) {
      const record = await client.getRecord(uri);
      expect(record).toMatchObject({ uri, jsonmodel_type: expect.any(String) });
    }
  });

  it("agentarchives edit_record: title, levelOfDescription (unknown, dropped), notes and first date posted back", async () => {
    const client = await agentarchives();
    const id = await set.newArchivalObject();
    const before = await read(id);
    await client.editRecord({
      id,
      title: "Edited title",
      level: "series",
      notes: [
        { type: "odd", content: "An odd note" },
        { type: "accessrestrict", content: "Closed" },
        { type: "bioghist", content: "Not a type the client edits" },
      ],
      start_date: "1950",
      end_date: "1960",
      date_expression: "1950s",
    });
    expect(client.lastWrite).toMatchObject({
      status: "Updated",
      warnings: ["levelOfDescription: not a field of this record type; dropped, not stored"],
    });
    const after = await read(id);
    expect(after.title).toBe("Edited title");
    expect(after.level).toBe(before.level);
    expect(written(after.notes)).toEqual([
      {
        jsonmodel_type: "note_multipart",
        publish: true,
        subnotes: [{ content: "An odd note", jsonmodel_type: "note_text", publish: true }],
        type: "odd",
      },
      {
        jsonmodel_type: "note_multipart",
        publish: true,
        subnotes: [{ content: "Closed", jsonmodel_type: "note_text", publish: true }],
        type: "accessrestrict",
      },
    ]);
    const dates = list(after.dates);
    expect(dates).toHaveLength(Math.max(1, list(before.dates).length));
    expect(written(dates[0])).toEqual({
      jsonmodel_type: "date",
      date_type: "inclusive",
      label: "creation",
      expression: "1950s",
      begin: "1950",
      end: "1960",
    });
    expect(after.display_string).toBe("Edited title, 1950s");
  });

  it("agentarchives get_resource_component_and_children on an archival object (_get_components)", async () => {
    const client = await agentarchives();
    const top = await read(set.top);
    const child = await read(set.child);
    const tree = await client.getComponents(set.top);
    const expected = (record: Dict, level: number) => ({
      id: record.uri,
      type: "resource_component",
      sortPosition: level,
      identifier: populated ? "1.1" : "",
      title: record.title,
      display_title: record.display_string,
      dates: populated ? "circa 1900-1950" : "",
      date_expression: populated ? "circa 1900-1950" : "",
      levelOfDescription: record.level,
      notes: populated
        ? [
            // The bibliography and index notes have no type (ArchivesSpace sets none on input either): left out.
            { type: "abstract", content: "A summary." },
            { type: "accessrestrict", content: "Closed until 2030." },
          ]
        : [],
    });
    expect(tree).toEqual({
      ...expected(top, 1),
      children: [{ ...expected(child, 2), children: false, has_children: false }],
      has_children: true,
    });
    expect(tree.display_title).toEqual(expect.stringContaining(text(top.title)));
    // recurse_max_level=1 (augment_resource_ids' depth stops there): children known, not fetched.
    expect(await client.getComponents(set.top, 1)).toMatchObject({ children: [], has_children: true });
  });

  // ArchivesSpace answers each child with ArchivalObject.to_jsonmodel, as its GET does.
  it("agentarchives _get_components: <uri>/children answers each child whole, as its GET does", async () => {
    const client = await agentarchives();
    const [child] = list(await client.getRecord(`${set.top}/children`));
    const alone = await read(set.child);
    expect(Object.keys(child as Dict).sort()).toEqual(Object.keys(alone).sort());
  });

  it("agentarchives find_resource_id_for_component: the resource of a top and of a nested archival object", async () => {
    const client = await agentarchives();
    expect(await client.findResourceIdForComponent(set.top)).toBe(set.resource);
    expect(await client.findResourceIdForComponent(set.child)).toBe(set.resource);
  });

  it("agentarchives find_parent_id_for_component: parent if any, else the resource; a resource answers itself", async () => {
    const client = await agentarchives();
    // A top-level archival object must have no "parent" key at all (the client tests `"parent" in record`).
    expect(await client.findParentIdForComponent(set.top)).toEqual(["resource", set.resource]);
    expect(await client.findParentIdForComponent(set.child)).toEqual(["resource_component", set.top]);
    expect(await client.findParentIdForComponent(set.resource)).toEqual(["resource", set.resource]);
  });

  it("agentarchives add_child (under the resource and under an archival object) and delete_record", async () => {
    const client = await agentarchives();
    const series = await client.addChild(set.resource, {
      title: "Added series",
      level: "series",
      date_expression: "1960s",
      notes: [{ type: "odd", content: "An odd note" }, { content: "" }],
    });
    const file = await client.addChild(series, {
      title: "Added file",
      level: "file",
      start_date: "1961",
      end_date: "1962",
      notes: [{ content: "A note of the default type" }],
    });
    expect(await client.findParentIdForComponent(series)).toEqual(["resource", set.resource]);
    expect(await client.findParentIdForComponent(file)).toEqual(["resource_component", series]);
    const added = await read(file);
    expect(added).toMatchObject({
      title: "Added file",
      level: "file",
      // ArchivesSpace joins a date's begin and end with " - " (produce_display_string).
      display_string: "Added file, 1961 - 1962",
      ancestors: [
        { ref: series, level: "series" },
        { ref: set.resource, level: populated ? "otherlevel" : "collection" },
      ],
    });
    expect(written(added.dates)).toEqual([
      { jsonmodel_type: "date", date_type: "inclusive", label: "creation", begin: "1961", end: "1962" },
    ]);
    expect(list(added.notes).map((note) => at(note, "type"))).toEqual(["odd"]);
    expect(list((await read(series)).notes)).toHaveLength(1);
    expect(await client.deleteRecord(file)).toMatchObject({ status: "Deleted" });
    expect(await client.deleteRecord(series)).toMatchObject({ status: "Deleted" });
    expect((await send("GET", series)).status).toBe(404);
  });

  it("agentarchives add_digital_object, as Archivematica's upload-archivesspace calls it", async () => {
    const client = await agentarchives();
    const parent = await set.newArchivalObject();
    const before = await read(parent);
    const uuid = randomUUID();
    const made = await client.addDigitalObject(parent, uuid, {
      uri: `https://dip.example.org/objects/${uuid}-photo.jpg`,
      object_type: "still_image",
      use_statement: "image-service",
      xlink_show: "new",
      xlink_actuate: "onRequest",
      restricted: false,
      use_conditions: "Use freely",
      access_conditions: "Open to all",
      size: 1234,
      format_name: "jpeg",
      format_version: "1.02",
    });
    // The client sends the archival object's "language" ("" on v3 records): an empty field, so dropped before it is
    // judged (as ArchivesSpace drops it), and no warning about a field nobody meant to set.
    expect(client.lastWrite).toMatchObject({ status: "Created", warnings: [] });
    const after = await read(parent);
    expect(list(after.instances)).toHaveLength(list(before.instances).length + 1);
    expect(list(after.instances).at(-1)).toMatchObject({
      instance_type: "digital_object",
      digital_object: { ref: made.id },
    });
    const object = await read(text(made.id));
    expect(object).toMatchObject({
      title: before.display_string,
      digital_object_id: uuid,
      digital_object_type: "still_image",
      restrictions: false,
      linked_instances: [{ ref: parent }],
    });
    expect(list(object.subjects).map((subject) => at(subject, "ref"))).toEqual(
      list(before.subjects).map((subject) => at(subject, "ref")),
    );
    expect(written(object.linked_agents)).toEqual(written(before.linked_agents));
    expect(written(object.notes)).toEqual([
      { jsonmodel_type: "note_digital_object", type: "userestrict", content: ["Use freely"], publish: true },
      { jsonmodel_type: "note_digital_object", type: "accessrestrict", content: ["Open to all"], publish: true },
    ]);
    expect(list(object.file_versions)).toEqual([
      expect.objectContaining({
        file_uri: `https://dip.example.org/objects/${uuid}-photo.jpg`,
        use_statement: "image-service",
        xlink_show_attribute: "new",
        xlink_actuate_attribute: "onRequest",
        file_size_bytes: 1234,
        file_format_name: "jpeg",
        file_format_version: "1.02",
      }),
    ]);
  });

  // ArchivesSpace drops every empty string, null and {} of a record before validating it
  // (JSONSchemaUtils.drop_unknown_properties), and so does Arca: "" is no use statement.
  it('agentarchives add_digital_object, as Archivematica\'s DSpace upload calls it (use_statement "")', async () => {
    const client = await agentarchives();
    const parent = await set.newArchivalObject();
    const uuid = randomUUID();
    // ArchivesSpace drops empty strings from any record it is sent before validating it, so "" is no use statement.
    const made = await client.addDigitalObject(parent, uuid, {
      title: "Package title",
      uri: "https://dspace.example.org/handle/123/456",
    });
    const object = await read(text(made.id));
    expect(object).toMatchObject({ title: "Package title", linked_instances: [{ ref: parent }] });
    expect(list(object.file_versions)).toEqual([expect.not.objectContaining({ use_statement: expect.anything() })]);
  });

  it("agentarchives add_digital_object with inherit_dates, inherit_notes, location_of_originals, restricted", async () => {
    const client = await agentarchives();
    // inherit_notes reads every note's "type", which a bibliography or index note lacks (in ArchivesSpace too):
    // the populated parent keeps the sample's typed notes.
    const typedNotes = list(set.archivalObjectTemplate().notes ?? []).filter((note) => isDict(note) && note.type);
    const parent = await set.newArchivalObject(populated ? { notes: typedNotes } : {});
    const before = await read(parent);
    const made = await client.addDigitalObject(parent, randomUUID(), {
      uri: "https://dip.example.org/objects/restricted.tif",
      use_statement: "image-master",
      location_of_originals: "Vault 2",
      restricted: true,
      inherit_dates: true,
      inherit_notes: true,
    });
    const object = await read(text(made.id));
    expect(object).toMatchObject({ publish: false, restrictions: true });
    expect(list(object.file_versions)).toEqual([expect.objectContaining({ publish: false })]);
    expect(written(object.dates)).toEqual(written(before.dates));
    const inherited = populated
      ? [
          // abstract is not a digital object note type: it becomes "note".
          { type: "note", label: "Label", content: ["A summary."], publish: true },
          { type: "accessrestrict", label: "Label", content: ["Closed until 2030."], publish: true },
        ]
      : [];
    expect(written(object.notes)).toEqual([
      { jsonmodel_type: "note_digital_object", type: "originalsloc", content: ["Vault 2"], publish: false },
      ...inherited.map((note) => ({ jsonmodel_type: "note_digital_object", ...note })),
    ]);
  });

  it("agentarchives add_digital_object_component: a component, then one under it", async () => {
    const client = await agentarchives();
    const page = await client.addDigitalObjectComponent(set.digitalObject, undefined, "Page 1", "First page");
    const detail = await client.addDigitalObjectComponent(set.digitalObject, text(page.id), "Detail");
    expect(await read(text(page.id))).toMatchObject({
      digital_object: { ref: set.digitalObject },
      label: "Page 1",
      title: "First page",
      display_string: "First page",
    });
    expect(await read(text(detail.id))).toMatchObject({
      digital_object: { ref: set.digitalObject },
      parent: { ref: page.id },
      label: "Detail",
      display_string: "Detail",
    });
  });

  it("agentarchives _get_resources, find_collections, find_by_id: the records they read (their endpoints wait)", async () => {
    const client = await agentarchives();
    const resource = await read(set.resource);
    const top = await read(set.top);
    const identifier = populated ? "MS" : text(resource.id_0);
    expect(client.recordPartOfGetResources(resource, resource.level)).toEqual(
      expect.objectContaining({ id: set.resource, identifier, title: resource.title, notes: expect.any(Array) }),
    );
    expect(client.recordPartOfGetResources(top, top.level)).toEqual(
      expect.objectContaining({ id: set.top, identifier: populated ? "1.1" : "", display_title: top.display_string }),
    );
    expect(client.recordPartOfFindCollections(resource)).toEqual(
      expect.objectContaining({ identifier, levelOfDescription: resource.level, dates: expect.any(String) }),
    );
    // find_by_id answers refs with their _resolved record: the same shape as a resolved parent.
    const hit = at(await read(set.child, "?resolve[]=parent"), "parent");
    expect(client.recordPartOfFindById(hit)).toEqual({
      id: set.top,
      type: "resource_component",
      identifier: top.ref_id,
      title: top.title,
      levelOfDescription: top.level,
      fullrecord: expect.objectContaining({ uri: set.top }),
    });
  });

  // -------------------------------------------------------------------------------------------
  // ArchivesSnake

  it("ArchivesSnake ASnakeClient.get_paged: every listing the relations iterate yields these records", async () => {
    const client = await asnake();
    const listed = async (url: string, params = {}) =>
      (await collect(client.getPaged(url, params))).map((record) => {
        // dispatch_type wraps only what has a jsonmodel_type (or a ref).
        expect(record).toMatchObject({ jsonmodel_type: expect.any(String), uri: expect.any(String) });
        return at(record, "uri");
      });
    expect(await listed(`${REPO}/resources`)).toContain(set.resource);
    expect(await listed(`${REPO}/archival_objects`)).toEqual(expect.arrayContaining([set.top, set.child]));
    expect(await listed(`${REPO}/digital_objects`)).toContain(set.digitalObject);
    expect(await listed(`${REPO}/top_containers`)).toContain(set.topContainer);
    // ASpace().agents (each agent type in turn) and ASpace().subjects give all_ids=True with the page: the page wins.
    for (const agents of ["corporate_entities", "people", "families", "software"]) {
      const uris = await listed(`/agents/${agents}`, { all_ids: true });
      if (agents === "people") expect(uris).toContain(set.agent);
    }
    expect(await listed("/subjects", { all_ids: true })).toContain(set.subject);
  });

  it("ArchivesSnake JSONModelObject.__getattr__: the keys its utils and scripts read are on each record", async () => {
    const client = await asnake();
    const keys = new Map<string, string[]>([
      [
        set.resource,
        [
          "title",
          "id_0",
          "level",
          "notes",
          "instances",
          "dates",
          "extents",
          "subjects",
          "linked_agents",
          "rights_statements",
          "tree",
        ],
      ],
      [
        set.top,
        [
          "title",
          "display_string",
          "ref_id",
          "level",
          "resource",
          "repository",
          "notes",
          "instances",
          "dates",
          "extents",
          "subjects",
          "linked_agents",
          "rights_statements",
          "ancestors",
          "linked_events",
        ],
      ],
      [set.child, ["parent", "ancestors", "display_string"]],
      [set.digitalObject, ["title", "digital_object_id", "file_versions", "notes", "linked_instances", "tree"]],
      [set.agent, ["display_name", "names", "notes", "agent_type"]],
      [set.subject, ["title", "terms", "vocabulary"]],
      [set.topContainer, ["display_string", "long_display_string", "indicator", "container_locations"]],
    ]);
    const missing: string[] = [];
    for (const [uri, names] of keys) {
      const record = new JSONModelObject((await client.get(uri)).body as Dict, client);
      for (const key of names) {
        try {
          await record.attr(key);
        } catch (error) {
          if (!(error instanceof AttributeError)) throw error;
          missing.push(`${uri} ${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
    // A key a record lacks is asked of the server as a route, which must be a 404 (an AttributeError), as there.
    const top = new JSONModelObject((await client.get(set.top)).body as Dict, client);
    await expect(top.attr("no_such_field")).rejects.toBeInstanceOf(AttributeError);
  });

  it("ArchivesSnake JSONModelObject refs reified: resource, repository, ancestors, subjects and agents", async () => {
    const client = await asnake();
    const objects = new JSONModelRelation(`${REPO}/archival_objects`, client);
    const child = await objects.call(Number(set.child.split("/").pop()));
    const resource = await read(set.resource);
    expect(await (await child.record("resource")).attr("title")).toBe(resource.title);
    expect(await (await child.record("repository")).attr("repo_code")).toBe("CLIENTS");
    const ancestors = await child.records("ancestors");
    // An ancestor's level is beside its ref (no request); its title comes from the record the ref names.
    expect(await Promise.all(ancestors.map((ancestor) => ancestor.attr("level")))).toEqual([
      (await read(set.top)).level,
      resource.level,
    ]);
    expect(await Promise.all(ancestors.map((ancestor) => ancestor.attr("title")))).toEqual([
      (await read(set.top)).title,
      resource.title,
    ]);
    if (populated) {
      const [subject] = await child.records("subjects");
      expect(await subject?.attr("title")).toEqual(expect.any(String));
      const [agent] = await child.records("linked_agents");
      expect(await agent?.attr("role")).toBe("creator");
      expect(await agent?.attr("title")).toEqual(expect.any(String));
    }
  });

  // ArchivesSpace makes a name's sort_name when sort_name_auto_generate is true (as it is by default), and an agent's
  // title from it: so does Arca (x-derived), on a fresh agent too.
  it("ArchivesSnake JSONModelObject.__getattr__: an agent's title", async () => {
    const client = await asnake();
    const agent = new JSONModelObject((await client.get(set.agent)).body as Dict, client);
    expect(await agent.attr("title")).toEqual(expect.any(String));
  });

  it("ArchivesSnake utils.find_closest_value: the value on the record, else on its nearest resolved ancestor", async () => {
    const client = await asnake();
    const resource = await read(set.resource);
    const child = await read(set.child);
    // dates: the child's own when populated; a fresh child and its parent have none, so the resource's.
    expect(written(await findClosestValue(set.child, "dates", client))).toEqual(
      written(populated ? child.dates : resource.dates),
    );
    expect(written(await findClosestValue({ uri: set.child }, "extents", client))).toEqual(
      written(populated ? child.extents : resource.extents),
    );
    // A key only a resource has comes from the resource, when it has a value.
    expect(await findClosestValue(set.child, "finding_aid_title", client)).toBe(resource.finding_aid_title);
    expect(await findClosestValue(set.child, "no_such_field", client)).toBeUndefined();
  });

  it("ArchivesSnake utils.closest_value (JSONModelObject): each ancestor's attribute in turn", async () => {
    const client = await asnake();
    const child = await new JSONModelRelation(`${REPO}/archival_objects`, client).call(
      Number(set.child.split("/").pop()),
    );
    const resource = await read(set.resource);
    const found = await closestValue(child, "extents");
    expect(Array.isArray(found)).toBe(true);
    const extents = await Promise.all((found as JSONModelObject[]).map((extent) => extent.json()));
    expect(written(extents)).toEqual(written(populated ? (await read(set.child)).extents : resource.extents));
  });

  it("ArchivesSnake utils.get_note_text and text_in_note: every note of an archival object and a resource", async () => {
    const top = await read(set.top);
    const texts = list(top.notes).map((note) => getNoteText(note as Dict));
    expect(texts).toEqual(
      populated
        ? [
            ["A summary."],
            ["Closed until 2030.", "1901", "Founded", "Ask", "Wait", "RS", "Restricted"],
            ["Works about the papers.", "Smith, A history (1990)."],
            ["Smith, Ann"],
          ]
        : [],
    );
    // text_in_note finds a note's own words, in any case.
    for (const [index, note] of list(top.notes).entries()) {
      expect(textInNote(note as Dict, text(texts[index]?.at(-1)).toUpperCase())).toBe(true);
    }
    const resourceNotes = list((await read(set.resource)).notes);
    expect(resourceNotes).toHaveLength(populated ? 4 : 0);
    for (const note of resourceNotes) {
      const parts = getNoteText(note as Dict);
      expect(parts.length > 0 && parts.every((part) => typeof part === "string")).toBe(true);
    }
  });

  it("ArchivesSnake utils.is_restricted: an accessrestrict note's text, then rights statements' acts", async () => {
    const top = await read(set.top);
    // The matching note comes before the sample's bibliography note, whose missing "type" is_restricted would read.
    expect(isRestricted(top, "closed until 2030", ["disallow"])).toBe(populated);
    // Read to the end: notes with a type only (the sample's), then its rights statement (an act restricting as
    // "conditional" until 2030, in a statement ending in 2070).
    const typedNotes = list(set.archivalObjectTemplate().notes ?? []).filter((note) => isDict(note) && note.type);
    const typed = await read(await set.newArchivalObject(populated ? { notes: typedNotes } : {}));
    expect(isRestricted(typed, "no such text", ["disallow"])).toBe(false);
    expect(list(typed.rights_statements)).toHaveLength(populated ? 1 : 0);
  });

  it("ArchivesSnake utils.format_resource_id: the identifier's parts up to the first missing one", async () => {
    const resource = await read(set.resource);
    expect(formatResourceId(resource)).toBe(populated ? "MS:0042:B:2" : resource.id_0);
    expect(formatResourceId(resource, "-")).toBe(populated ? "MS-0042-B-2" : resource.id_0);
  });

  it("ArchivesSnake utils.get_date_display: each date's expression, else begin-end, else begin", async () => {
    const displays = [];
    for (const uri of [set.resource, set.top, set.child]) {
      for (const date of list((await read(uri)).dates)) displays.push(getDateDisplay(date as Dict));
    }
    expect(displays).toEqual(populated ? expect.arrayContaining(["circa 1900-1950"]) : ["1900-1950"]);
    const noExpression = await set.newArchivalObject({
      dates: [{ date_type: "inclusive", label: "creation", begin: "1901", end: "1902" }],
    });
    const single = await set.newArchivalObject({ dates: [{ date_type: "single", label: "creation", begin: "1903" }] });
    expect(getDateDisplay(at(await read(noExpression), "dates", 0) as Dict)).toBe("1901-1902");
    expect(getDateDisplay(at(await read(single), "dates", 0) as Dict)).toBe("1903");
  });

  it("ArchivesSnake utils.get_orphans: the archival objects listed without instances", async () => {
    const client = await asnake();
    const orphans = await collect(getOrphans(client.getPaged(`${REPO}/archival_objects`), "instances", client));
    const uris = orphans.map((record) => at(record, "uri"));
    if (populated) expect(uris).not.toContain(set.top);
    else expect(uris).toEqual(expect.arrayContaining([set.top, set.child]));
    expect(uris).not.toContain(set.located);
  });

  it("ArchivesSnake utils.get_object_locations: resolve[]=top_container::container_locations", async () => {
    const client = await asnake();
    const locations = await collect(getObjectLocations(set.located, client));
    const container = await read(set.topContainer);
    expect(locations.map((location) => at(location, "uri"))).toEqual(
      list(container.container_locations).map((location) => at(location, "ref")),
    );
    expect(locations.length > 0).toBe(populated);
  });

  it("ArchivesSnake utils.walk_tree: the resource's tree and an archival object's subtree, through waypoints", async () => {
    const client = await asnake();
    const walked = (await collect(walkTree(set.resource, client))).map((record) => text(at(record, "uri")));
    const inResource = (await collect(client.getPaged(`${REPO}/archival_objects`)))
      .filter((record) => at(record, "resource", "ref") === set.resource)
      .map((record) => text(at(record, "uri")));
    expect(walked[0]).toBe(set.resource);
    expect([...walked.slice(1)].sort()).toEqual([...inResource].sort());
    expect(walked.indexOf(set.top)).toBeLessThan(walked.indexOf(set.child));
    const subtree = async (thing: unknown) =>
      (await collect(walkTree(thing, client))).map((record) => at(record, "uri"));
    expect(await subtree(set.top)).toEqual([set.top, set.child]);
    expect(await subtree({ uri: set.top, resource: { ref: set.resource } })).toEqual([set.top, set.child]);
  });

  // Last: these change the shared records.
  it("ArchivesSnake JSONModelObject.save: each record read (refs resolved) is posted back whole, changed", async () => {
    const client = await asnake();
    const changes: Array<[string, string, unknown, string[]]> = [
      [set.resource, "title", "Saved resource", ["subjects", "linked_agents", "top_container", "digital_object"]],
      [set.top, "title", "Saved object", ["subjects", "linked_agents", "ancestors", "top_container", "resource"]],
      [set.child, "component_id", "saved-1", ["parent", "ancestors"]],
      [set.digitalObject, "title", "Saved scan", ["subjects", "linked_agents", "linked_instances"]],
      [set.agent, "publish", true, ["related_agents"]],
      [set.subject, "scope_note", "Saved scope note", ["vocabulary"]],
      [set.topContainer, "indicator", "saved", ["container_locations", "container_profile"]],
    ];
    for (const [uri, key, value, resolve] of changes) {
      const record = new JSONModelObject((await client.get(uri, { resolve })).body as Dict, client);
      record.set(key, value);
      const reply = await record.save();
      expect([uri, reply && reply.status, reply && reply.body]).toEqual([uri, 200, expect.anything()]);
      expect([uri, await record.attr(key)]).toEqual([uri, value]);
    }
  });
});
