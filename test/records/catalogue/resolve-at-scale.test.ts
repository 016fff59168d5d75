// resolve[] at scale (docs/api.md §6), over HTTP with the real engine, counting
// the store's `find` commands through the driver's command monitoring: at most
// RESOLVE_MAX_REFS refs per response, `_resolve_truncated: true` past it, one query per target
// type per level (`a::b` included, and for a whole list page), and no `_resolved` on a broken ref.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import type { PageEnvelope } from "../../../src/records/operations/index.js";
import {
  globalGrants,
  isComputedFieldQuery,
  startRecordServer,
  type CommandLog,
  type RecordServer,
} from "../../support/service.js";
import type { Json } from "./fixtures.js";
import { trusted } from "../../../src/auth/actor.js";

const DEFAULT_MAX_REFS = 1000; // RESOLVE_MAX_REFS's default, which startRecordServer uses
const SYSTEM = trusted("system");

const idOf = (uri: string) => Number(uri.split("/").pop());
const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

/** Every `_resolved` value in a response, at any depth (inside resolved records too). */
function resolvedValues(value: unknown, found: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const item of value) resolvedValues(item, found);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "_resolved") found.push(inner as Json);
      resolvedValues(inner, found);
    }
  }
  return found;
}

/** The ids a `find` command asked for with `{id: {$in: [...]}}`, ascending. */
function idsAskedFor(command: Record<string, unknown>): number[] {
  const filter = command.filter as { id?: { $in?: number[] } };
  expect(Array.isArray(filter.id?.$in)).toBe(true);
  return sorted(filter.id!.$in!);
}

/** Creates `count` records through the operations object, `parallel` at a time. */
async function createMany(
  server: RecordServer,
  type: string,
  count: number,
  body: (i: number) => Json,
  parallel = 25,
): Promise<string[]> {
  const uris: string[] = new Array(count);
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, k) => start + k);
    await Promise.all(batch.map(async (i) => (uris[i] = (await server.ops.create(type, {}, body(i), SYSTEM)).uri)));
  }
  return uris;
}

const person = (i: number): Json => ({
  names: [{ primary_name: `Person ${i}`, rest_of_name: "A.", name_order: "inverted" }],
});
const corporate = (i: number): Json => ({ names: [{ primary_name: `Society ${i}` }] });
const subjectBody = (i: number): Json => ({
  source: "local",
  vocabulary: "/vocabularies/1",
  terms: [{ term: `Topic ${i}`, term_type: "topical", vocabulary: "/vocabularies/1" }],
});
const profileBody = (i: number): Json => ({
  name: `Profile ${i}`,
  dimension_units: "inches",
  extent_dimension: "width",
  height: "10",
  width: "12",
  depth: "15",
});

let server: RecordServer;
let commands: CommandLog;
let token: string;
let repo: number;

beforeAll(async () => {
  server = await startRecordServer({ monitorCommands: true });
  commands = server.commands!;
  repo = (await server.ops.create("repository", {}, { repo_code: "scale", name: "Scale" }, SYSTEM)).id;
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
  await server.ops.create("vocabulary", {}, { name: "global", ref_id: "global" }, SYSTEM);
});
afterAll(() => server.stop());

async function create(path: string, body: Json): Promise<string> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

/** GET with the session, after emptying the command log, so the log holds this request's commands only. */
async function get(path: string): Promise<Json> {
  commands.clear();
  const reply = await server.send("GET", path, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

/** The finds of the last request by collection, leaving out the session store's own lookups. */
/**
 * Finds of records per collection: the record read, the page, the resolve lookups. The computed fields' own queries
 * (records linking here, found by a dotted link path; which repositories are published) are not what these tests count.
 */
function recordFinds(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const command of commands.finds()) {
    if (command.find === "sessions" || isComputedFieldQuery(command.filter)) continue;
    counts[String(command.find)] = (counts[String(command.find)] ?? 0) + 1;
  }
  return counts;
}

function onlyFind(collection: string): Record<string, unknown> {
  const finds = commands.finds(collection);
  expect(finds).toHaveLength(1);
  return finds[0]!;
}

describe("a resource with 2,000 linked agents", () => {
  const AGENTS = 2000;
  let agents: string[]; // in the order the resource links them
  let subjects: string[];
  let resource: string;

  beforeAll(async () => {
    // Every tenth agent is a corporate entity, so that the refs span two target types.
    const people = await createMany(server, "agent_person", AGENTS - AGENTS / 10, person);
    const societies = await createMany(server, "agent_corporate_entity", AGENTS / 10, corporate);
    agents = Array.from({ length: AGENTS }, (_, i) =>
      i % 10 === 9 ? societies[(i - 9) / 10]! : people[i - Math.floor(i / 10)]!,
    );
    subjects = await createMany(server, "subject", 3, subjectBody);
    resource = await create(`/repositories/${repo}/resources`, {
      title: "A very well connected collection",
      id_0: "SCALE",
      level: "collection",
      extents: [{ portion: "whole", number: "2", extent_type: "linear_feet" }],
      dates: [{ date_type: "inclusive", label: "creation", begin: "1900", end: "1950" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      linked_agents: agents.map((ref, i) => ({ ref, role: i % 2 === 0 ? "creator" : "subject" })),
      subjects: subjects.map((ref) => ({ ref })),
    });
  }, 120_000);

  it("keeps all 2,000 links, and resolves none of them without resolve[]", async () => {
    const record = await get(resource);
    expect((record.linked_agents as Json[]).map((link) => link.ref)).toEqual(agents);
    expect(resolvedValues(record)).toEqual([]);
    expect(record).not.toHaveProperty("_resolve_truncated");
    expect(recordFinds()).toEqual({ resources: 1 });
  });

  it("resolves exactly RESOLVE_MAX_REFS of them (the first, in record order) and says _resolve_truncated", async () => {
    const record = await get(`${resource}?resolve[]=linked_agents`);
    expect(record._resolve_truncated).toBe(true);
    const links = record.linked_agents as Json[];
    expect(links).toHaveLength(AGENTS);
    const resolved = links.filter((link) => "_resolved" in link);
    expect(resolved).toHaveLength(DEFAULT_MAX_REFS);
    expect(resolvedValues(record)).toHaveLength(DEFAULT_MAX_REFS);
    // The first 1,000 carry their own target; the other 1,000 are left as they are stored.
    links.slice(0, DEFAULT_MAX_REFS).forEach((link, i) => {
      expect((link._resolved as Json).uri).toBe(agents[i]);
      expect((link._resolved as Json).jsonmodel_type).toBe(i % 10 === 9 ? "agent_corporate_entity" : "agent_person");
    });
    links.slice(DEFAULT_MAX_REFS).forEach((link, i) =>
      expect(link).toEqual({
        ref: agents[DEFAULT_MAX_REFS + i],
        role: i % 2 === 0 ? "creator" : "subject",
        terms: [],
      }),
    );
    // The subjects were not asked for.
    expect((record.subjects as Json[]).every((link) => !("_resolved" in link))).toBe(true);

    // One query per target type, each for exactly the refs within the bound.
    expect(recordFinds()).toEqual({ resources: 1, agent_people: 1, agent_corporate_entities: 1 });
    const firstThousand = agents.slice(0, DEFAULT_MAX_REFS);
    expect(idsAskedFor(onlyFind("agent_people"))).toEqual(
      sorted(firstThousand.filter((uri) => uri.startsWith("/agents/people/")).map(idOf)),
    );
    expect(idsAskedFor(onlyFind("agent_corporate_entities"))).toEqual(
      sorted(firstThousand.filter((uri) => uri.startsWith("/agents/corporate_entities/")).map(idOf)),
    );
    expect(idsAskedFor(onlyFind("agent_people"))).toHaveLength(900);
  });

  it("counts the bound per response, across every resolve[] key", async () => {
    const record = await get(`${resource}?resolve[]=subjects&resolve[]=linked_agents`);
    expect(record._resolve_truncated).toBe(true);
    expect(resolvedValues(record)).toHaveLength(DEFAULT_MAX_REFS);
    const resolvedAgents = (record.linked_agents as Json[]).filter((link) => "_resolved" in link).length;
    const resolvedSubjects = (record.subjects as Json[]).filter((link) => "_resolved" in link).length;
    // Refs are taken in record order, whichever key names them: the 3 subjects count against
    // the bound when they come first.
    const subjectsFirst = Object.keys(record).indexOf("subjects") < Object.keys(record).indexOf("linked_agents");
    expect([resolvedSubjects, resolvedAgents]).toEqual(
      subjectsFirst ? [3, DEFAULT_MAX_REFS - 3] : [0, DEFAULT_MAX_REFS],
    );
    expect(recordFinds()).toEqual({
      resources: 1,
      agent_people: 1,
      agent_corporate_entities: 1,
      ...(subjectsFirst ? { subjects: 1 } : {}),
    });
  });

  it("under the bound resolves everything asked for and says nothing about truncation", async () => {
    const record = await get(`${resource}?resolve[]=subjects`);
    expect((record.subjects as Json[]).map((link) => (link._resolved as Json).uri)).toEqual(subjects);
    expect(resolvedValues(record)).toHaveLength(3);
    expect(record).not.toHaveProperty("_resolve_truncated");
    expect(recordFinds()).toEqual({ resources: 1, subjects: 1 });
    expect(idsAskedFor(onlyFind("subjects"))).toEqual(sorted(subjects.map(idOf)));
  });
});

describe("nested a::b: one find per target type per level", () => {
  let profiles: string[];
  let containers: string[];
  let people: string[];
  let society: string;
  let subjects: string[];
  let accession: string;
  /** The containers of the accession's instances, in order: the first container twice. */
  let instanceContainers: string[];

  beforeAll(async () => {
    profiles = await createMany(server, "container_profile", 2, profileBody);
    containers = [];
    for (const [i, profile] of [profiles[0], profiles[0], profiles[1]].entries()) {
      containers.push(
        await create(`/repositories/${repo}/top_containers`, {
          indicator: `N${i}`,
          type: "box",
          container_profile: { ref: profile },
        }),
      );
    }
    people = await createMany(server, "agent_person", 3, (i) => person(100_000 + i));
    society = (await createMany(server, "agent_corporate_entity", 1, (i) => corporate(100_000 + i)))[0]!;
    subjects = await createMany(server, "subject", 3, (i) => subjectBody(100 + i));
    const object = await create(`/repositories/${repo}/digital_objects`, {
      title: "Scan",
      digital_object_id: "nested-1",
    });
    instanceContainers = [containers[0]!, containers[1]!, containers[2]!, containers[0]!];
    accession = await create(`/repositories/${repo}/accessions`, {
      title: "Nested",
      id_0: "NEST",
      linked_agents: [
        { ref: people[0], role: "creator" },
        { ref: society, role: "source" },
        { ref: people[1], role: "subject" },
        { ref: people[0], role: "subject" },
        { ref: people[2], role: "creator" },
      ],
      subjects: subjects.map((ref) => ({ ref })),
      instances: [
        ...instanceContainers.map((ref, i) => ({
          instance_type: "mixed_materials",
          sub_container: { top_container: { ref }, type_2: "folder", indicator_2: String(i + 1) },
        })),
        { instance_type: "digital_object", digital_object: { ref: object } },
      ],
    });
  });

  const nestedQuery = "?resolve[]=linked_agents&resolve[]=subjects&resolve[]=top_container::container_profile";

  it("linked_agents + subjects + top_container::container_profile: five target types, each looked up once, one round trip per level", async () => {
    const record = await get(`${accession}${nestedQuery}`);
    expect(recordFinds()).toEqual({
      accessions: 1,
      agent_people: 1,
      agent_corporate_entities: 1,
      subjects: 1,
      top_containers: 1,
      container_profiles: 1,
    });
    // The accession, then one query for the four types of the first level, one for the second.
    expect(commands.recordRoundTrips()).toBe(3);
    // Each query asks for the distinct targets of its level, once each.
    expect(idsAskedFor(onlyFind("agent_people"))).toEqual(sorted(people.map(idOf)));
    expect(idsAskedFor(onlyFind("agent_corporate_entities"))).toEqual([idOf(society)]);
    expect(idsAskedFor(onlyFind("subjects"))).toEqual(sorted(subjects.map(idOf)));
    expect(idsAskedFor(onlyFind("top_containers"))).toEqual(sorted(containers.map(idOf)));
    expect(idsAskedFor(onlyFind("container_profiles"))).toEqual(sorted(profiles.map(idOf)));
    expect(onlyFind("top_containers").filter).toMatchObject({ repo_id: repo });
    // The second level is asked after the first.
    const order = commands.finds().map((command) => command.find);
    expect(order.indexOf("container_profiles")).toBeGreaterThan(order.indexOf("top_containers"));

    // Every site is resolved, repeated targets included, at both levels.
    expect((record.linked_agents as Json[]).map((link) => (link._resolved as Json).uri)).toEqual([
      people[0],
      society,
      people[1],
      people[0],
      people[2],
    ]);
    expect((record.subjects as Json[]).map((link) => (link._resolved as Json).uri)).toEqual(subjects);
    const instances = record.instances as Json[];
    const tops = instances.slice(0, 4).map((instance) => (instance.sub_container as Json).top_container as Json);
    expect(tops.map((link) => (link._resolved as Json).uri)).toEqual(instanceContainers);
    expect(tops.map((link) => (((link._resolved as Json).container_profile as Json)._resolved as Json).uri)).toEqual([
      profiles[0],
      profiles[0],
      profiles[1],
      profiles[0],
    ]);
    // The digital object was not asked for; nothing was cut.
    expect(instances[4]?.digital_object).toEqual({ ref: expect.any(String) });
    expect(resolvedValues(record)).toHaveLength(5 + 3 + 4 + 4);
    expect(record).not.toHaveProperty("_resolve_truncated");
  });

  it("a resolved record is the target exactly as its own GET returns it", async () => {
    const record = await get(`${accession}${nestedQuery}`);
    const top = ((record.instances as Json[])[2]!.sub_container as Json).top_container as Json;
    const resolvedTop = top._resolved as Json;
    const profile = resolvedTop.container_profile as Json;
    expect({ ...resolvedTop, container_profile: { ref: profile.ref } }).toEqual(await get(containers[2]!));
    expect(profile._resolved).toEqual(await get(profiles[1]!));
    expect((record.linked_agents as Json[])[1]?._resolved).toEqual(await get(society));
  });

  it("without ::container_profile the second level is neither resolved nor queried", async () => {
    const record = await get(`${accession}?resolve[]=top_container`);
    expect(recordFinds()).toEqual({ accessions: 1, top_containers: 1 });
    const tops = (record.instances as Json[])
      .slice(0, 4)
      .map((instance) => (instance.sub_container as Json).top_container as Json);
    expect(tops.map((link) => (link._resolved as Json).container_profile as Json)).toEqual(
      [profiles[0], profiles[0], profiles[1], profiles[0]].map((ref) => ({ ref })),
    );
    expect(resolvedValues(record)).toHaveLength(4);
  });
});

describe("a list page: one find per target type for all its records", () => {
  const RECORDS = 60;
  const PAGE_SIZE = 50;
  let listRepo: number;
  let subjects: string[];
  let records: Array<{ uri: string; subjects: string[] }>;

  beforeAll(async () => {
    // A repository of their own, so that page 1 is exactly their first 50.
    listRepo = (await server.ops.create("repository", {}, { repo_code: "pages", name: "Pages" }, SYSTEM)).id;
    subjects = await createMany(server, "subject", 8, (i) => subjectBody(200 + i));
    records = [];
    for (let i = 0; i < RECORDS; i++) {
      // Page 1 links only the first six subjects (one or two each); the last two appear past it.
      const own =
        i < PAGE_SIZE ? [...new Set([subjects[i % 6]!, subjects[(i * 5 + 1) % 6]!])] : [subjects[6]!, subjects[7]!];
      const { uri } = await server.ops.create(
        "accession",
        { repoId: listRepo },
        { title: `Listed ${i}`, id_0: "LIST", id_1: String(i), subjects: own.map((ref) => ({ ref })) },
        SYSTEM,
      );
      records.push({ uri, subjects: own });
    }
  });

  const base = () => `/repositories/${listRepo}/accessions`;

  it("page=1&page_size=50&resolve[]=subjects resolves every subject of the 50 records with one subjects query", async () => {
    const page = (await get(`${base()}?page=1&page_size=${PAGE_SIZE}&resolve[]=subjects`)) as unknown as PageEnvelope;
    expect(page).toMatchObject({ this_page: 1, total: RECORDS, last_page: 2 });
    expect(page.results.map((record) => record.uri)).toEqual(records.slice(0, PAGE_SIZE).map((record) => record.uri));

    expect(recordFinds()).toEqual({ accessions: 1, subjects: 1 });
    // The one query asks for this page's subjects, each once, and no others.
    expect(idsAskedFor(onlyFind("subjects"))).toEqual(sorted(subjects.slice(0, 6).map(idOf)));

    page.results.forEach((result, i) => {
      expect((result.subjects as Json[]).map((link) => (link._resolved as Json).uri)).toEqual(records[i]!.subjects);
    });
    expect(resolvedValues(page)).toHaveLength(
      records.slice(0, PAGE_SIZE).reduce((sum, record) => sum + record.subjects.length, 0),
    );
    expect(page).not.toHaveProperty("_resolve_truncated");
  });

  it("the same in id_set mode", async () => {
    const chosen = records.slice(-12);
    const list = (await get(
      `${base()}?id_set=${chosen.map((record) => idOf(record.uri)).join(",")}&resolve[]=subjects`,
    )) as unknown as Json[];
    expect(list.map((record) => record.uri)).toEqual(chosen.map((record) => record.uri));
    expect(recordFinds()).toEqual({ accessions: 1, subjects: 1 });
    expect(idsAskedFor(onlyFind("subjects"))).toEqual(
      sorted(new Set(chosen.flatMap((record) => record.subjects).map(idOf))),
    );
    list.forEach((record, i) =>
      expect((record.subjects as Json[]).map((link) => (link._resolved as Json).uri)).toEqual(chosen[i]!.subjects),
    );
  });
});

describe("broken refs", () => {
  it("a ref whose target is gone has no _resolved; the others resolve, with the same single query per type", async () => {
    const [kept] = await createMany(server, "subject", 1, (i) => subjectBody(300 + i));
    const [agent] = await createMany(server, "agent_person", 1, (i) => person(300_000 + i));
    const container = await create(`/repositories/${repo}/top_containers`, { indicator: "B1" });
    const accession = await create(`/repositories/${repo}/accessions`, {
      title: "Broken",
      id_0: "BROKEN",
      subjects: [{ ref: kept }],
      linked_agents: [{ ref: agent, role: "creator" }],
      instances: [{ instance_type: "text", sub_container: { top_container: { ref: container } } }],
    });
    // Refs to records that no longer exist can only reach the store around the API (writes
    // check links, deletes remove or refuse them): put them there directly.
    const missingContainer = `/repositories/${repo}/top_containers/999999`;
    const updated = await server.connection.collection("accessions").updateOne(
      { repo_id: repo, id: idOf(accession) },
      {
        $push: {
          subjects: { $each: [{ ref: "/subjects/999999" }], $position: 0 },
          linked_agents: { ref: "/agents/people/999999", role: "subject" },
          instances: {
            jsonmodel_type: "instance",
            instance_type: "text",
            sub_container: { jsonmodel_type: "sub_container", top_container: { ref: missingContainer } },
          },
        } as never,
      },
    );
    expect(updated.modifiedCount).toBe(1);

    const record = await get(`${accession}?resolve[]=subjects&resolve[]=linked_agents&resolve[]=top_container`);
    expect(record.subjects).toEqual([
      { ref: "/subjects/999999" },
      { ref: kept, _resolved: expect.objectContaining({ uri: kept }) },
    ]);
    expect(record.linked_agents).toEqual([
      { ref: agent, role: "creator", terms: [], _resolved: expect.objectContaining({ uri: agent }) },
      { ref: "/agents/people/999999", role: "subject", terms: [] },
    ]);
    const tops = (record.instances as Json[]).map((instance) => (instance.sub_container as Json).top_container);
    expect(tops).toEqual([
      { ref: container, _resolved: expect.objectContaining({ uri: container }) },
      { ref: missingContainer },
    ]);
    expect(record).not.toHaveProperty("_resolve_truncated");
    expect(recordFinds()).toEqual({ accessions: 1, subjects: 1, agent_people: 1, top_containers: 1 });
    expect(idsAskedFor(onlyFind("subjects"))).toEqual(sorted([idOf(kept!), 999999]));
  });
});

describe("the bound across levels (RESOLVE_MAX_REFS = 4)", () => {
  let profile: string;
  let container: string;
  let subjects: string[];

  // The file's server with a bound of 4 for these cases (a second server cannot run beside it:
  // see startRecordServer). The operations read the bound on every request.
  beforeAll(async () => {
    server.ops.deps.resolveMaxRefs = 4;
    profile = (await server.ops.create("container_profile", {}, profileBody(900), SYSTEM)).uri;
    container = (
      await server.ops.create(
        "top_container",
        { repoId: repo },
        { indicator: "bound", container_profile: { ref: profile } },
        SYSTEM,
      )
    ).uri;
    subjects = await createMany(server, "subject", 3, (i) => subjectBody(900 + i));
  });
  afterAll(() => {
    server.ops.deps.resolveMaxRefs = DEFAULT_MAX_REFS;
  });

  async function readWith(subjectCount: number): Promise<Json> {
    const { uri } = await server.ops.create(
      "accession",
      { repoId: repo },
      {
        id_0: "BOUND",
        id_1: String(subjectCount),
        subjects: subjects.slice(0, subjectCount).map((ref) => ({ ref })),
        instances: [{ instance_type: "text", sub_container: { top_container: { ref: container } } }],
      },
      SYSTEM,
    );
    return get(`${uri}?resolve[]=subjects&resolve[]=top_container::container_profile`);
  }

  const profileLink = (record: Json) =>
    ((((record.instances as Json[])[0]!.sub_container as Json).top_container as Json)._resolved as Json)
      .container_profile as Json;

  it("exactly at the bound (2 subjects + 1 container + its profile = 4): all resolved, no truncation", async () => {
    const record = await readWith(2);
    expect(resolvedValues(record)).toHaveLength(4);
    expect((profileLink(record)._resolved as Json).uri).toBe(profile);
    expect(record).not.toHaveProperty("_resolve_truncated");
    expect(recordFinds()).toEqual({ accessions: 1, subjects: 1, top_containers: 1, container_profiles: 1 });
  });

  it("one over (3 subjects + 1 container fill the bound at the first level): the profile is neither resolved nor queried", async () => {
    const record = await readWith(3);
    expect(record._resolve_truncated).toBe(true);
    expect(resolvedValues(record)).toHaveLength(4);
    expect((record.subjects as Json[]).every((link) => "_resolved" in link)).toBe(true);
    expect(profileLink(record)).toEqual({ ref: profile });
    expect(recordFinds()).toEqual({ accessions: 1, subjects: 1, top_containers: 1 });
  });

  it("a list page shares one bound among all its records, in page order", async () => {
    const own = (await server.ops.create("repository", {}, { repo_code: "bounded", name: "Bounded" }, SYSTEM)).id;
    const six = await createMany(server, "subject", 6, (i) => subjectBody(950 + i));
    for (let i = 0; i < 3; i++) {
      await server.ops.create(
        "accession",
        { repoId: own },
        { id_0: "PAGE", id_1: String(i), subjects: six.slice(2 * i, 2 * i + 2).map((ref) => ({ ref })) },
        SYSTEM,
      );
    }
    const page = (await get(`/repositories/${own}/accessions?page=1&resolve[]=subjects`)) as unknown as PageEnvelope;
    expect(page._resolve_truncated).toBe(true);
    expect(page.results.map((record) => (record.subjects as Json[]).map((link) => "_resolved" in link))).toEqual([
      [true, true],
      [true, true],
      [false, false],
    ]);
    expect(recordFinds()).toEqual({ accessions: 1, subjects: 1 });
    expect(idsAskedFor(onlyFind("subjects"))).toEqual(sorted(six.slice(0, 4).map(idOf)));
  });
});
