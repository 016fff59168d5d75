// Transfers and batch delete over HTTP (docs/api.md, Transfers): a record moving to another repository with what
// depends on it, every link to it rewritten or removed as ArchivesSpace does, in one transaction (a store failure
// half-way leaves every record as it was); component_transfers; batch_delete all or nothing.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Document } from "mongodb";
import { trusted } from "../../../src/auth/actor.js";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import { minimalResource } from "../harness.js";
import { globalGrants, repositoryGrants, startRecordServer, type RecordServer } from "../../support/service.js";

type Json = Record<string, unknown>;

let server: RecordServer;
const system = trusted("system");
const tokens = new Map<string, string>();
let source: number;
let target: number;
let agent: string;
let seq = 0;

beforeAll(async () => {
  server = await startRecordServer({ testCommands: true });
  source = (await server.ops.create("repository", {}, { repo_code: "SRC", name: "Source" }, system)).id;
  target = (await server.ops.create("repository", {}, { repo_code: "TGT", name: "Target" }, system)).id;
  const person = await server.ops.create(
    "agent_person",
    {},
    { names: [{ primary_name: "Mover", name_order: "inverted" }] },
    system,
  );
  agent = person.uri;
  tokens.set("admin", await server.login("admin", globalGrants([...PERMISSIONS])));
  const archivist = ["view_repository", "update_resource_record", "update_accession_record", "delete_archival_record"];
  // May transfer in the source, but may not write in the target.
  tokens.set(
    "sourceOnly",
    await server.login("sourceonly", repositoryGrants(source, [...archivist, "transfer_archival_record"])),
  );
  // May write in both, but lacks transfer_archival_record.
  tokens.set(
    "noTransfer",
    await server.login("notransfer", {
      ...repositoryGrants(source, archivist),
      ...repositoryGrants(target, archivist),
    }),
  );
});
afterAll(() => server.stop());

const call = async (method: string, path: string, who = "admin") => {
  const reply = await server.send(method, path, { token: tokens.get(who) });
  return { status: reply.status, body: reply.body as Json };
};
const read = async (uri: string) => (await call("GET", uri)).body;
const create = async (type: string, repoId: number, record: Json) =>
  (await server.ops.create(type, { repoId }, record, system)).uri;

/** A resource with a two-level tree, linked every way a transfer must handle. */
async function collection() {
  const code = `C${++seq}`;
  const accession = await create("accession", source, { id_0: `A${code}`, title: "Gift" });
  const shared = await create("top_container", source, { indicator: "1", barcode: `shared-${code}` });
  const own = await create("top_container", source, { indicator: "2", barcode: `own-${code}` });
  const object = await create("digital_object", source, { title: "Scan", digital_object_id: `DO-${code}` });
  const component = await create("digital_object_component", source, {
    title: "Page",
    digital_object: { ref: object },
  });
  const resource = await create(
    "resource",
    source,
    minimalResource(code, { related_accessions: [{ ref: accession }] }),
  );
  const series = await create("archival_object", source, {
    title: "Series",
    level: "series",
    resource: { ref: resource },
  });
  const file = await create("archival_object", source, {
    title: "File",
    level: "file",
    resource: { ref: resource },
    parent: { ref: series },
    instances: [
      { instance_type: "mixed_materials", sub_container: { top_container: { ref: own } } },
      { instance_type: "mixed_materials", sub_container: { top_container: { ref: shared } } },
      { instance_type: "digital_object", digital_object: { ref: object } },
    ],
  });
  // The accession also uses the shared container: it stays behind, so the container is copied.
  await server.ops.update(
    "accession",
    { repoId: source },
    Number(accession.split("/").pop()),
    {
      ...(await read(accession)),
      instances: [{ instance_type: "mixed_materials", sub_container: { top_container: { ref: shared } } }],
    },
    system,
  );
  const event = (records: Json[]) =>
    create("event", source, {
      event_type: "processed",
      timestamp: "2024-01-01",
      linked_agents: [{ role: "implementer", ref: agent }],
      linked_records: records,
    });
  const onlyOurs = await event([{ role: "outcome", ref: series }]);
  const mixed = await event([
    { role: "outcome", ref: resource },
    { role: "source", ref: accession },
  ]);
  return { code, accession, shared, own, object, component, resource, series, file, onlyOurs, mixed };
}

const moved = (uri: string) => uri.replace(`/repositories/${source}/`, `/repositories/${target}/`);
const refsOf = (list: unknown) => (list as Array<{ ref: string }>).map((item) => item.ref);

describe("repository transfer of a resource", () => {
  it("moves the resource, its tree and what only it uses, and relinks everything", async () => {
    const c = await collection();
    const before = await read(c.file);
    const reply = await call("POST", `${c.resource}/transfer?target_repo=/repositories/${target}`);
    expect(reply).toEqual({
      status: 200,
      body: { status: "Moved", id: Number(c.resource.split("/").pop()), target },
    });
    // Old uris are gone, new ones are there with the same ids.
    expect((await call("GET", c.resource)).status).toBe(404);
    const resource = await read(moved(c.resource));
    expect(resource.uri).toBe(moved(c.resource));
    expect(resource.related_accessions).toEqual([]); // the accession stayed behind: the link is cleared
    const file = await read(moved(c.file));
    expect(file.lock_version).toBe((before.lock_version as number) + 1);
    expect((file.resource as Json).ref).toBe(moved(c.resource));
    expect((file.parent as Json).ref).toBe(moved(c.series));
    const instances = file.instances as Array<Json & { sub_container?: Json; digital_object?: Json }>;
    // Its own container and its digital object moved; the shared container was copied into the target.
    expect((instances[0]?.sub_container?.top_container as Json).ref).toBe(moved(c.own));
    const copy = (instances[1]?.sub_container?.top_container as Json).ref as string;
    expect(copy.startsWith(`/repositories/${target}/top_containers/`)).toBe(true);
    expect(copy).not.toBe(moved(c.shared));
    expect((await read(copy)).barcode).toBe(`shared-${c.code}`);
    expect((instances[2]?.digital_object as Json).ref).toBe(moved(c.object));
    expect(((await read(moved(c.component))).digital_object as Json).ref).toBe(moved(c.object));
    // The shared container stays where it was, still used by the accession.
    expect((await call("GET", c.shared)).status).toBe(200);
    const accession = await read(c.accession);
    expect(accession.related_resources).toEqual([]);
    expect(
      refsOf((accession.instances as Json[]).map((i) => i.sub_container as Json).map((s) => s.top_container)),
    ).toEqual([c.shared]);
    // The event only about the series moved; the mixed one was split: a copy about the resource went along.
    expect(refsOf((await read(moved(c.onlyOurs))).linked_records)).toEqual([moved(c.series)]);
    expect(refsOf((await read(c.mixed)).linked_records)).toEqual([c.accession]);
    expect(refsOf(resource.linked_events)).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^/repositories/${target}/events/`))]),
    );
    // Tree views answer from the new repository.
    const root = await call("GET", `${moved(c.resource)}/tree/root`);
    expect(root.status).toBe(200);
    expect(root.body.child_count).toBe(1);
  });

  it("refuses (409) when records left behind use its digital object, and changes nothing", async () => {
    const c = await collection();
    await create("accession", source, {
      id_0: `B${c.code}`,
      instances: [{ instance_type: "digital_object", digital_object: { ref: c.object } }],
    });
    const reply = await call("POST", `${c.resource}/transfer?target_repo=/repositories/${target}`);
    expect(reply.status).toBe(409);
    expect(JSON.stringify(reply.body.error)).toContain("DIGITAL_OBJECT_IN_USE");
    expect((await call("GET", c.resource)).status).toBe(200);
    expect((await call("GET", c.file)).status).toBe(200);
  });

  it("refuses (409) when the target repository holds the same identifier", async () => {
    const code = `D${++seq}`;
    const accession = await create("accession", source, { id_0: code });
    await create("accession", target, { id_0: code });
    const reply = await call("POST", `${accession}/transfer?target_repo=/repositories/${target}`);
    expect(reply.status).toBe(409);
    expect((await call("GET", accession)).status).toBe(200);
  });
});

describe("repository transfer refusals", () => {
  let accession: string;
  beforeAll(async () => {
    accession = await create("accession", source, { id_0: `R${++seq}` });
  });
  const transfer = (path: string, who = "admin") => call("POST", path, who);

  it("needs transfer_archival_record in the source and the update permission in the target (403)", async () => {
    const to = `target_repo=/repositories/${target}`;
    expect(await transfer(`${accession}/transfer?${to}`, "sourceOnly")).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
    expect((await transfer(`${accession}/transfer?${to}`, "noTransfer")).status).toBe(403);
    expect((await transfer(`${accession}/transfer?${to}`, "nobody")).status).toBe(403);
    expect((await call("GET", accession)).status).toBe(200);
  });

  it("answers 400 naming target_repo for a missing, malformed or unknown target", async () => {
    for (const query of [
      "",
      "?target_repo=repositories",
      "?target_repo=/repositories/999",
      "?target_repo=/repositories/1",
    ]) {
      const reply = await transfer(`${accession}/transfer${query}`);
      expect(reply.status).toBe(400);
      expect(Object.keys(reply.body.error as Json)).toEqual(["target_repo"]);
    }
    expect((await transfer(`${accession}/transfer?target_repo=/repositories/${source}`)).status).toBe(400);
  });

  it("answers 404 for a missing record or repository", async () => {
    const to = `target_repo=/repositories/${target}`;
    expect(await transfer(`/repositories/${source}/accessions/99999/transfer?${to}`)).toEqual({
      status: 404,
      body: { error: "Accession not found" },
    });
    expect((await transfer(`/repositories/9999/resources/1/transfer?${to}`)).body).toEqual({
      error: "Repository not found",
    });
  });
});

describe("a failure half-way through a transfer", () => {
  it("leaves every record as it was, and the same transfer then succeeds", async () => {
    const c = await collection();
    const db = server.connection.db!;
    const dump = async () => {
      const all: Record<string, Document[]> = {};
      for (const { name } of await db.listCollections().toArray()) {
        if (name === "arca_locks" || name === "arca_counters") continue;
        all[name] = await db
          .collection(name)
          .find({}, { sort: { _id: 1 } })
          .toArray();
      }
      return all;
    };
    const before = await dump();
    // Update commands fail after the first two (the tree lock, the first group of moving records): half-way.
    await db.admin().command({
      configureFailPoint: "failCommand",
      mode: { skip: 2 },
      data: { failCommands: ["update"], errorCode: 1 },
    });
    let failed;
    try {
      failed = await call("POST", `${c.resource}/transfer?target_repo=/repositories/${target}`);
    } finally {
      await db.admin().command({ configureFailPoint: "failCommand", mode: "off" });
    }
    expect(failed.status).toBe(500);
    expect(await dump()).toEqual(before);
    expect((await call("POST", `${c.resource}/transfer?target_repo=/repositories/${target}`)).status).toBe(200);
  });
});

describe("component_transfers", () => {
  it("moves an archival object and its descendants to the end of another resource's top level", async () => {
    const c = await collection();
    const other = await create("resource", source, minimalResource(`O${c.code}`));
    await create("archival_object", source, { title: "Already there", level: "series", resource: { ref: other } });
    const repo = `/repositories/${source}`;
    const reply = await call("POST", `${repo}/component_transfers?target_resource=${other}&component=${c.series}`);
    expect(reply).toEqual({ status: 200, body: { component: c.series, resource: other } });
    const series = await read(c.series);
    expect((series.resource as Json).ref).toBe(other);
    expect(series.position).toBe(1);
    expect(((await read(c.file)).resource as Json).ref).toBe(other);
    expect((await call("GET", `${c.resource}/tree/root`)).body.child_count).toBe(0);
  });

  it("answers 400 naming the parameter, 403 without permission and 404 for a missing component", async () => {
    const c = await collection();
    const repo = `/repositories/${source}`;
    const missing = await call("POST", `${repo}/component_transfers?component=${c.series}`);
    expect(missing).toEqual({
      status: 400,
      body: { error: { target_resource: ["Parameter required but no value provided"] } },
    });
    const wrong = await call(
      "POST",
      `${repo}/component_transfers?target_resource=${c.accession}&component=${c.series}`,
    );
    expect(Object.keys(wrong.body.error as Json)).toEqual(["target_resource"]);
    const query = `target_resource=${c.resource}&component=/repositories/${source}/archival_objects/99999`;
    expect((await call("POST", `${repo}/component_transfers?${query}`)).status).toBe(404);
    const denied = await call(
      "POST",
      `${repo}/component_transfers?target_resource=${c.resource}&component=${c.file}`,
      "nobody",
    );
    expect(denied.status).toBe(403);
  });
});

describe("batch_delete", () => {
  it("deletes every record in one go, answering as ArchivesSpace does", async () => {
    const first = await create("accession", source, { id_0: `X${++seq}` });
    const second = await create("accession", source, { id_0: `X${++seq}` });
    const reply = await call("POST", `/batch_delete?record_uris[]=${first}&record_uris[]=${second}`);
    expect(reply).toEqual({
      status: 200,
      body: {
        status: "OK",
        results: [
          { status: "Deleted", id: Number(first.split("/").pop()), uri: first },
          { status: "Deleted", id: Number(second.split("/").pop()), uri: second },
        ],
      },
    });
    expect((await call("GET", first)).status).toBe(404);
  });

  it("deletes nothing when one record cannot be deleted (403 listing the failures)", async () => {
    const c = await collection();
    const gone = `/repositories/${source}/accessions/99999`;
    // The container is still used (a restrict link: 409 on its own), and one uri names nothing (404).
    const reply = await call(
      "POST",
      `/batch_delete?record_uris[]=${c.accession}&record_uris[]=${c.own}&record_uris[]=${gone}`,
    );
    expect(reply.status).toBe(403);
    const failures = (reply.body.error as { failures: string[] }).failures;
    expect(failures).toEqual([
      expect.stringContaining(`${c.own} (409)`),
      `${gone} (404): Record not found`.replace("Record", "Accession"),
    ]);
    expect((await call("GET", c.accession)).status).toBe(200);
  });

  it("checks each record's own delete permission, and the repository of the scoped route", async () => {
    const accession = await create("accession", source, { id_0: `Y${++seq}` });
    expect((await call("POST", `/batch_delete?record_uris[]=${accession}`, "nobody")).status).toBe(403);
    const elsewhere = await call("POST", `/repositories/${target}/batch_delete?record_uris[]=${accession}`);
    expect(elsewhere.status).toBe(403);
    expect((await call("GET", accession)).status).toBe(200);
    expect((await call("POST", `/repositories/${source}/batch_delete?record_uris[]=${accession}`)).status).toBe(200);
  });

  it("answers 400 naming record_uris when none is given", async () => {
    expect(await call("POST", "/batch_delete")).toEqual({
      status: 400,
      body: { error: { record_uris: ["Parameter required but no value provided"] } },
    });
  });
});
