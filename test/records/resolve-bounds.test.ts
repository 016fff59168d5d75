// resolve[] against hostile input, over HTTP with the real engine:
// resolve paths never become keys of plain objects (no prototype pollution, no field that
// merely shares a name with Object.prototype matches), resolved targets are shared rather
// than copied per ref, and RESOLVE_MAX_BYTES bounds the bytes a response's `_resolved` values
// add, counting a shared target once per place the response shows it.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import type { JsonObject } from "../../src/registry/index.js";
import { DEFAULT_RESOLVE_MAX_BYTES } from "../../src/records/setup.js";
import type { Json } from "./catalogue/fixtures.js";
import { globalGrants, repositoryGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

const SYSTEM = trusted("system");
const TRUNCATED_BYTES = Buffer.byteLength(',"_resolve_truncated":true');
const RESOLVED_KEY_BYTES = Buffer.byteLength(',"_resolved":');

let server: RecordServer;
let token: string;
let repo: number;

beforeAll(async () => {
  server = await startRecordServer();
  // Repository 1 is the hidden global one, which takes no records.
  await server.ops.create("repository", {}, { repo_code: "global", name: "Global" }, SYSTEM);
  repo = (await server.ops.create("repository", {}, { repo_code: "bounds", name: "Bounds" }, SYSTEM)).id;
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
  await server.ops.create("vocabulary", {}, { name: "global", ref_id: "global" }, SYSTEM);
  await server.ops.create("agent_person", {}, { names: [{ primary_name: "Probe", name_order: "inverted" }] }, SYSTEM);
});
afterAll(() => server.stop());

async function get(path: string, as = token): Promise<{ status: number; body: Json; bytes: number }> {
  const reply = await server.send("GET", path, { token: as });
  return { status: reply.status, body: reply.body as Json, bytes: Buffer.byteLength(reply.text) };
}

async function create(path: string, body: Json): Promise<string> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

const idOf = (uri: string) => Number(uri.split("/").pop());
const text = (length: number, seed: string) => seed.repeat(Math.ceil(length / seed.length)).slice(0, length);

function resourceBody(i: number, extra: Json = {}): Json {
  return {
    title: `Resource ${i}`,
    id_0: "RB",
    id_1: String(i),
    level: "collection",
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    dates: [{ date_type: "inclusive", label: "creation", begin: "1900", end: "1950" }],
    lang_materials: [{ language_and_script: { language: "eng" } }],
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    ...extra,
  };
}

/** Every `_resolved` value in a response, at any depth (inside resolved records too). */
function resolvedValues(value: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) resolvedValues(item, found);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "_resolved") found.push(inner);
      resolvedValues(inner, found);
    }
  }
  return found;
}

describe("resolve paths that name Object.prototype's keys (C1)", () => {
  const probes: Array<{ path: string; polluted: string }> = [
    { path: "__proto__::zzprobe", polluted: "zzprobe" },
    { path: "constructor::prototype::x", polluted: "x" },
    { path: "__proto__::_archivesspace", polluted: "_archivesspace" },
    { path: "__proto__", polluted: "__proto__" },
    { path: "constructor::constructor::prototype::zzdeep", polluted: "zzdeep" },
  ];

  it.each(probes)("resolve[]=$path answers 200 and leaves every object's prototype alone", async ({ path }) => {
    const list = await get(`/agents/people?page=1&resolve[]=${path}`);
    expect(list.status).toBe(200);
    expect((list.body.results as Json[]).length).toBeGreaterThan(0);
    expect(list.body).not.toHaveProperty("_resolve_truncated");
    const read = await get(`/agents/people/1?resolve[]=${path}&resolve[]=names`);
    expect(read.status).toBe(200);

    const fresh: Record<string, unknown> = {};
    expect(fresh.zzprobe).toBeUndefined();
    expect(fresh.x).toBeUndefined();
    expect(fresh._archivesspace).toBeUndefined();
    expect(Object.getPrototypeOf(fresh)).toBe(Object.prototype);
    expect(
      Object.getOwnPropertyNames(Object.prototype).filter((name) =>
        ["zzprobe", "x", "_archivesspace", "zzdeep"].includes(name),
      ),
    ).toEqual([]);
    expect(typeof Object.prototype.toString).toBe("function");
  });

  it("after every probe, creates and updates work and a bad record is still a 400 naming its field", async () => {
    for (const { path } of probes) expect((await get(`/agents/people?page=1&resolve[]=${path}`)).status).toBe(200);

    const uri = await create(`/repositories/${repo}/accessions`, { title: "After the probes", id_0: "PROBE" });
    const stored = await get(uri);
    const updated = await server.send("POST", uri, {
      token,
      body: { ...stored.body, title: "Updated after the probes" },
    });
    expect([updated.status, updated.body]).toEqual([200, expect.objectContaining({ status: "Updated" })]);

    const bad = await server.send("POST", `/repositories/${repo}/accessions`, {
      token,
      body: { title: "Bad", id_0: "PROBE2", accession_date: "not a date" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { accession_date: [expect.any(String)] } });
  });

  it("after __proto__::_archivesspace, a user with repository rights only reads as before and a user without any is refused", async () => {
    expect((await get(`/agents/people?page=1&resolve[]=__proto__::_archivesspace`)).status).toBe(200);
    const uri = await create(`/repositories/${repo}/accessions`, { title: "Viewed", id_0: "VIEWED" });
    const viewer = await server.login("viewer", repositoryGrants(repo, ["view_repository"]));
    expect((await get(uri, viewer)).status).toBe(200);
    const nobody = await server.login("nobody", {});
    expect(await get(uri, nobody)).toMatchObject({ status: 403, body: { error: "Access denied" } });
  });

  it("a stored field that shares a name with Object.prototype's keys is no resolve key unless asked for", async () => {
    const subject = (
      await server.ops.create(
        "subject",
        {},
        {
          source: "local",
          vocabulary: "/vocabularies/1",
          terms: [{ term: "Proto", term_type: "topical", vocabulary: "/vocabularies/1" }],
        },
        SYSTEM,
      )
    ).uri;
    const uri = await create(`/repositories/${repo}/accessions`, {
      title: "Odd fields",
      id_0: "ODD",
      subjects: [{ ref: subject }],
    });
    // Such fields can only reach the store around the API: put them there directly. (Not as
    // arrays: the driver's bson hands back an array under a key Object.prototype has as raw bytes.)
    const updated = await server.connection
      .collection("accessions")
      .updateOne(
        { repo_id: repo, id: idOf(uri) },
        { $set: { constructor: { ref: subject }, extra: { constructor: { ref: subject } } } },
      );
    expect(updated.modifiedCount).toBe(1);
    const record = (await get(`${uri}?resolve[]=subjects`)).body;
    expect((record.subjects as Json[])[0]?._resolved).toEqual(expect.objectContaining({ uri: subject }));
    expect(record.constructor).toEqual({ ref: subject });
    expect(record.extra).toEqual({ constructor: { ref: subject } });
    expect(resolvedValues(record)).toHaveLength(1);

    // Asked for by name, they are fields like any other.
    const asked = (await get(`${uri}?resolve[]=constructor`)).body;
    expect((asked.constructor as unknown as Json)._resolved).toEqual(expect.objectContaining({ uri: subject }));
    expect(((asked.extra as Json).constructor as unknown as Json)._resolved).toEqual(
      expect.objectContaining({ uri: subject }),
    );
    expect(resolvedValues(asked)).toHaveLength(2);
  });
});

describe("shared targets and RESOLVE_MAX_BYTES (H3)", () => {
  const COPIES = 40;
  let bigAccession: string; // ~120 KB of text
  let resource: string; // ~60 KB of text, related_accessions: [bigAccession] x 3
  let holder: string; // related_resources: [resource] x COPIES
  let resourceBytes: number;
  let accessionBytes: number;

  beforeAll(async () => {
    bigAccession = await create(`/repositories/${repo}/accessions`, {
      title: "Big",
      id_0: "BIG",
      content_description: text(60_000, "content "),
      inventory: text(60_000, "inventory "),
    });
    resource = await create(
      `/repositories/${repo}/resources`,
      resourceBody(1, {
        repository_processing_note: text(60_000, "note "),
        related_accessions: [{ ref: bigAccession }, { ref: bigAccession }, { ref: bigAccession }],
      }),
    );
    holder = await create(`/repositories/${repo}/accessions`, {
      title: "Holder",
      id_0: "HOLDER",
      related_resources: Array.from({ length: COPIES }, () => ({ ref: resource })),
    });
    resourceBytes = (await get(resource)).bytes;
    accessionBytes = (await get(bigAccession)).bytes;
  });

  afterAll(() => {
    server.ops.deps.resolveMaxBytes = DEFAULT_RESOLVE_MAX_BYTES;
  });

  it("within the budget every ref gets the target as its own GET returns it; through the operations, one shared object", async () => {
    const { body, status } = await get(`${holder}?resolve[]=related_resources`);
    expect(status).toBe(200);
    const own = (await get(resource)).body;
    const links = body.related_resources as Json[];
    expect(links).toHaveLength(COPIES);
    for (const link of links) expect(link._resolved).toEqual(own);
    expect(body).not.toHaveProperty("_resolve_truncated");

    const record = await server.ops.read("accession", { repoId: repo }, idOf(holder), trusted("test"), {
      resolve: ["related_resources"],
    });
    const targets = new Set((record.related_resources as JsonObject[]).map((link) => link._resolved));
    expect(targets.size).toBe(1);
  });

  it("a::b: the second level resolves inside one shared copy of the first, not inside the plain target", async () => {
    // Every copy of every level fits: some 17 MB, past the default.
    server.ops.deps.resolveMaxBytes = 64 * 1024 * 1024;
    const { body } = await get(`${holder}?resolve[]=related_resources::related_accessions`);
    expect(body).not.toHaveProperty("_resolve_truncated");
    const big = (await get(bigAccession)).body;
    const own = (await get(resource)).body;
    for (const link of body.related_resources as Json[]) {
      const target = link._resolved as Json;
      expect({ ...target, related_accessions: own.related_accessions }).toEqual(own);
      expect(target.related_accessions).toEqual([0, 1, 2].map(() => ({ ref: bigAccession, _resolved: big })));
    }
    expect(resolvedValues(body)).toHaveLength(COPIES + COPIES * 3);

    const record = await server.ops.read("accession", { repoId: repo }, idOf(holder), trusted("test"), {
      resolve: ["related_resources::related_accessions", "related_resources"],
    });
    const links = record.related_resources as JsonObject[];
    expect(new Set(links.map((link) => link._resolved)).size).toBe(1);
    // The same subtree reached by two paths is still one object.
    const viaTwoPaths = await server.ops.read("accession", { repoId: repo }, idOf(holder), trusted("test"), {
      resolve: ["related_resources::related_accessions", "related_resources::related_accessions::related_resources"],
    });
    expect(new Set((viaTwoPaths.related_resources as JsonObject[]).map((link) => link._resolved)).size).toBe(1);
  });

  it("past the budget the rest of the refs carry no _resolved, the response says _resolve_truncated, and the resolved bytes stay within it", async () => {
    const fit = 7;
    const budget = fit * (resourceBytes + RESOLVED_KEY_BYTES) + 100;
    server.ops.deps.resolveMaxBytes = budget;
    const plain = await get(holder);
    const { body, bytes, status } = await get(`${holder}?resolve[]=related_resources`);
    expect(status).toBe(200);
    expect(body._resolve_truncated).toBe(true);
    const links = body.related_resources as Json[];
    expect(links.map((link) => "_resolved" in link)).toEqual(Array.from({ length: COPIES }, (_, i) => i < fit));
    expect(bytes - plain.bytes - TRUNCATED_BYTES).toBeLessThanOrEqual(budget);
    expect(bytes - plain.bytes - TRUNCATED_BYTES).toBeGreaterThan(budget - resourceBytes);
  });

  it("a ref inside a shared target costs once per place the target appears (a::b)", async () => {
    // All 40 copies of the resource, plus the first of its three related accessions in each
    // (40 occurrences), but not the second.
    const budget = COPIES * (resourceBytes + RESOLVED_KEY_BYTES) + COPIES * (accessionBytes + RESOLVED_KEY_BYTES) + 100;
    server.ops.deps.resolveMaxBytes = budget;
    const plain = await get(holder);
    const { body, bytes, status } = await get(`${holder}?resolve[]=related_resources::related_accessions`);
    expect(status).toBe(200);
    expect(body._resolve_truncated).toBe(true);
    for (const link of body.related_resources as Json[]) {
      const related = (link._resolved as Json).related_accessions as Json[];
      expect(related.map((item) => "_resolved" in item)).toEqual([true, false, false]);
    }
    expect(bytes - plain.bytes - TRUNCATED_BYTES).toBeLessThanOrEqual(budget);
  });

  it("a target larger than the whole budget is not resolved at all", async () => {
    // The budget counts stored sizes, a little under the JSON's: half the target is surely short.
    server.ops.deps.resolveMaxBytes = Math.floor(resourceBytes / 2);
    const { body, status } = await get(`${holder}?resolve[]=related_resources`);
    expect(status).toBe(200);
    expect(body._resolve_truncated).toBe(true);
    expect(resolvedValues(body)).toEqual([]);
  });

  it("distinct targets past the budget: store reads stop, and what is resolved stays within it", async () => {
    const others: string[] = [];
    for (let i = 2; i <= 6; i++)
      others.push(
        await create(
          `/repositories/${repo}/resources`,
          resourceBody(i, { repository_processing_note: text(60_000, `r${i} `) }),
        ),
      );
    const many = await create(`/repositories/${repo}/accessions`, {
      title: "Many",
      id_0: "MANY",
      related_resources: others.map((ref) => ({ ref })),
    });
    const budget = 2 * (resourceBytes + RESOLVED_KEY_BYTES) + 100;
    server.ops.deps.resolveMaxBytes = budget;
    const plain = await get(many);
    const { body, bytes, status } = await get(`${many}?resolve[]=related_resources`);
    expect(status).toBe(200);
    expect(body._resolve_truncated).toBe(true);
    const flags = (body.related_resources as Json[]).map((link) => "_resolved" in link);
    // Resolved refs come first, in record order, and no more than fit.
    expect(flags).toEqual([true, true, false, false, false]);
    expect(bytes - plain.bytes - TRUNCATED_BYTES).toBeLessThanOrEqual(budget);
  });

  it("a list shares the byte budget among its records, in list order", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(
        (
          await server.ops.create(
            "accession",
            { repoId: repo },
            { id_0: "BYTES", id_1: String(i), related_resources: [{ ref: resource }, { ref: resource }] },
            SYSTEM,
          )
        ).id,
      );
    }
    server.ops.deps.resolveMaxBytes = 5 * (resourceBytes + RESOLVED_KEY_BYTES) + 100;
    // The newest four of the repository: these, newest first.
    const { body, status } = await get(
      `/repositories/${repo}/accessions?page=1&page_size=4&sort_direction=desc&resolve[]=related_resources`,
    );
    expect(status).toBe(200);
    expect(body._resolve_truncated).toBe(true);
    expect((body.results as Json[]).map((record) => record.uri)).toEqual(
      [...ids].reverse().map((id) => `/repositories/${repo}/accessions/${id}`),
    );
    expect(
      (body.results as Json[]).map((record) => (record.related_resources as Json[]).map((link) => "_resolved" in link)),
    ).toEqual([
      [true, true],
      [true, true],
      [true, false],
      [false, false],
    ]);
  });
});
