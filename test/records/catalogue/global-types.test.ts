// The global catalogue types (vocabulary, subject, the four agents), served by the
// generic record controller from their schemas alone: CRUD at their paths, the real
// ArchivesSpace records of ../shared/data/archivesspace-json, list modes and permissions.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { PageEnvelope } from "../../../src/records/operations/index.js";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { AGENT_PATHS, readRecords, type Json } from "./fixtures.js";
import { trusted } from "../../../src/auth/actor.js";

const CATALOGUER = [
  "update_vocabulary_record",
  "delete_vocabulary_record",
  "update_subject_record",
  "delete_subject_record",
  "update_agent_record",
  "delete_agent_record",
];

let server: RecordServer;
let token: string;
let vocabulary: string;

beforeAll(async () => {
  server = await startRecordServer();
  token = await server.login("cataloguer", globalGrants(CATALOGUER));
  const created = await server.send("POST", "/vocabularies", { token, body: { name: "global", ref_id: "global" } });
  vocabulary = (created.body as { uri: string }).uri;
});
afterAll(() => server.stop());

async function create(path: string, body: Json): Promise<string> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

async function read(uri: string): Promise<Json> {
  const reply = await server.send("GET", uri, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

const MINIMAL: Record<
  string,
  { path: string; body: Json; change: (record: Json) => Json; check: (record: Json) => unknown }
> = {
  vocabulary: {
    path: "/vocabularies",
    body: { name: "Local terms", ref_id: "local_terms" },
    change: (record) => ({ ...record, name: "Local terms (2)" }),
    check: (record) => record.name,
  },
  subject: {
    path: "/subjects",
    body: {
      source: "lcsh",
      vocabulary: "/vocabularies/1",
      terms: [{ term: "Whaling", term_type: "topical", vocabulary: "/vocabularies/1" }],
    },
    change: (record) => ({ ...record, scope_note: "Whales and their hunters" }),
    check: (record) => record.scope_note,
  },
  agent_person: {
    path: "/agents/people",
    body: {
      names: [
        {
          primary_name: "Melville",
          rest_of_name: "Herman",
          name_order: "inverted",
          source: "naf",
          sort_name: "Melville, Herman",
        },
      ],
    },
    change: (record) => ({ ...record, publish: true }),
    check: (record) => record.publish,
  },
  agent_corporate_entity: {
    path: "/agents/corporate_entities",
    body: { names: [{ primary_name: "Nantucket Whaling Museum", subordinate_name_1: "Library" }] },
    change: (record) => ({ ...record, publish: true }),
    check: (record) => record.publish,
  },
  agent_family: {
    path: "/agents/families",
    body: { names: [{ family_name: "Coffin family", family_type: "Whalers" }] },
    change: (record) => ({ ...record, publish: true }),
    check: (record) => record.publish,
  },
  agent_software: {
    path: "/agents/software",
    body: { names: [{ software_name: "ArchivesSpace", version: "3.5.1", manufacturer: "Lyrasis" }] },
    change: (record) => ({ ...record, publish: true }),
    check: (record) => record.publish,
  },
};

describe("CRUD at each type's path", () => {
  it.each(Object.entries(MINIMAL))("%s: create, read, update, delete", async (type, { path, body, change, check }) => {
    const uri = await create(path, body);
    expect(uri).toMatch(new RegExp(`^${path}/[1-9][0-9]*$`));
    const record = await read(uri);
    expect(record).toMatchObject({ ...body, uri, jsonmodel_type: type, lock_version: 0 });
    const updated = await server.send("POST", uri, { token, body: change(record) });
    expect(updated.body).toMatchObject({ status: "Updated", uri, lock_version: 1 });
    const after = await read(uri);
    expect(check(after)).toEqual(check(change(record)));
    expect((await server.send("DELETE", uri, { token })).body).toEqual({
      status: "Deleted",
      id: Number(uri.split("/").pop()),
    });
    expect((await server.send("GET", uri, { token })).status).toBe(404);
  });

  it("agents record their kind and take the shared subrecords: dates of existence, a bioghist note", async () => {
    const uri = await create("/agents/people", {
      names: [
        { primary_name: "Mitchell", rest_of_name: "Maria", name_order: "inverted", authorized: true, use_dates: [] },
      ],
      dates_of_existence: [
        {
          date_label: "existence",
          date_type_structured: "range",
          structured_date_range: {
            begin_date_standardized: "1818-08-01",
            end_date_standardized: "1889-06-28",
            end_date_expression: "June 1889",
          },
        },
      ],
      notes: [
        {
          jsonmodel_type: "note_bioghist",
          label: "Biography",
          subnotes: [{ jsonmodel_type: "note_text", content: "Astronomer." }],
        },
      ],
    });
    expect(await read(uri)).toMatchObject({
      agent_type: "agent_person",
      names: [
        { jsonmodel_type: "name_person", authorized: true, is_display_name: false, sort_name_auto_generate: true },
      ],
      dates_of_existence: [
        {
          jsonmodel_type: "structured_date_label",
          structured_date_range: { jsonmodel_type: "structured_date_range", begin_date_standardized_type: "standard" },
        },
      ],
      notes: [{ jsonmodel_type: "note_bioghist", subnotes: [{ content: "Astronomer." }] }],
    });
  });

  it("refuses what the schemas refuse, naming the field", async () => {
    const errorsOf = async (path: string, body: Json) => {
      const reply = await server.send("POST", path, { token, body });
      expect(reply.status).toBe(400);
      return Object.keys((reply.body as { error: Record<string, string[]> }).error).sort();
    };
    expect(await errorsOf("/agents/people", { names: [] })).toEqual(["names"]);
    expect(await errorsOf("/agents/people", {})).toEqual(["names"]);
    expect(await errorsOf("/agents/people", { names: [{ primary_name: "No order" }] })).toEqual(["names/0/name_order"]);
    expect(await errorsOf("/agents/families", { names: [{ primary_name: "Not a family field" }] })).toEqual(
      expect.arrayContaining(["names/0/family_name"]),
    );
    expect(
      await errorsOf("/agents/corporate_entities", { agent_type: "agent_person", names: [{ primary_name: "X" }] }),
    ).toEqual(["agent_type"]);
    expect(
      await errorsOf("/agents/people", {
        names: [{ primary_name: "X", name_order: "direct" }],
        notes: [{ jsonmodel_type: "note_bioghist", subnotes: [{ jsonmodel_type: "note_text" }] }],
      }),
    ).toEqual(["notes/0/subnotes/0/content"]);
    const existence = (date: Json) => ({
      names: [{ primary_name: "D", name_order: "direct" }],
      dates_of_existence: [{ date_label: "existence", ...date }],
    });
    expect(
      await errorsOf(
        "/agents/people",
        existence({ date_type_structured: "range", structured_date_range: { end_date_expression: "1900" } }),
      ),
    ).toEqual(["dates_of_existence/0/structured_date_range/begin_date_standardized"]);
    expect(await errorsOf("/agents/people", existence({ date_type_structured: "single" }))).toEqual([
      "dates_of_existence/0/structured_date_single",
    ]);
    expect(await errorsOf("/subjects", { source: "lcsh", vocabulary: vocabulary, terms: [] })).toEqual(["terms"]);
    expect(
      await errorsOf("/subjects", {
        source: "made_up",
        vocabulary: "vocab 1",
        terms: [{ term: "T", term_type: "nonsense", vocabulary }],
      }),
    ).toEqual(["source", "terms/0/term_type", "vocabulary"]);
    expect(await errorsOf("/vocabularies", { name: "No ref id" })).toEqual(["ref_id"]);
  });

  it("keeps vocabulary names and ref_ids unique, and a subject authority_id unique per vocabulary", async () => {
    expect(
      (await server.send("POST", "/vocabularies", { token, body: { name: "global", ref_id: "other" } })).body,
    ).toEqual({ error: { name: ["That ID is already in use"] } });
    expect(
      (await server.send("POST", "/vocabularies", { token, body: { name: "other", ref_id: "global" } })).body,
    ).toEqual({ error: { ref_id: ["That ID is already in use"] } });
    const subject = {
      source: "local",
      vocabulary,
      authority_id: "sh-1",
      terms: [{ term: "Once", term_type: "topical", vocabulary }],
    };
    await create("/subjects", subject);
    expect((await server.send("POST", "/subjects", { token, body: subject })).body).toEqual({
      error: { authority_id: ["That ID is already in use"] },
    });
    const { authority_id: _id, ...withoutId } = subject;
    await create("/subjects", withoutId);
    await create("/subjects", withoutId);
  });
});

describe("the real ArchivesSpace records (../shared/data/archivesspace-json)", () => {
  it("every subject of subjects.json is created as it is and reads back with its values", async () => {
    for (const real of readRecords("subjects.json")) {
      const uri = await create("/subjects", real);
      expect(uri).not.toBe(real.uri);
      const record = await read(uri);
      const terms = real.terms as Json[];
      expect(record).toMatchObject({
        source: "local",
        vocabulary: "/vocabularies/1",
        publish: true,
        terms: terms.map((term) => expect.objectContaining(term)),
      });
      expect(record.authority_id).toBe(real.authority_id);
      // Computed as ArchivesSpace computes them: the terms joined, and no record here links the subject.
      expect(record.title).toBe(real.title);
      expect(record.is_linked_to_published_record).toBe(false);
    }
  });

  it("every agent of agents.json is created at its type's path and reads back with its names", async () => {
    for (const real of readRecords("agents.json")) {
      const path = AGENT_PATHS[real.jsonmodel_type as string];
      if (path === undefined) throw new Error(`no path for ${String(real.jsonmodel_type)}`);
      const uri = await create(path, real);
      const record = await read(uri);
      expect(record).toMatchObject({
        jsonmodel_type: real.jsonmodel_type,
        agent_type: real.agent_type,
        publish: real.publish,
        names: real.names,
      });
      // Computed as ArchivesSpace computes them (no record here links the agent yet).
      expect(record).toMatchObject({
        title: real.title,
        display_name: expect.objectContaining((real.display_name as Json | undefined) ?? {}),
        linked_agent_roles: [],
        is_linked_to_published_record: false,
      });
    }
    const corporate = (await server.send("GET", "/agents/corporate_entities?page=1", { token })).body as PageEnvelope;
    expect(corporate.results.map((record) => (record as { names: Json[] }).names[0]?.primary_name)).toContain(
      "UNPUBLISHED Corporate Agent",
    );
  });
});

describe("list modes", () => {
  const idsOf = (records: unknown[]) =>
    records.map((record) => Number((record as { uri: string }).uri.split("/").pop()));

  it.each([
    ["/vocabularies", { name: "v", ref_id: "v" }],
    [
      "/subjects",
      {
        source: "aat",
        vocabulary: "/vocabularies/1",
        terms: [{ term: "Prints", term_type: "genre_form", vocabulary: "/vocabularies/1" }],
      },
    ],
    ["/agents/people", { names: [{ primary_name: "P", name_order: "direct" }] }],
    ["/agents/software", { names: [{ software_name: "S" }] }],
  ] as const)("%s: page, all_ids and id_set", async (path, body) => {
    const made: number[] = [];
    for (let i = 0; i < 3; i++) {
      const sample: Json = path === "/vocabularies" ? { name: `list ${i}`, ref_id: `list_${i}` } : body;
      made.push(Number((await create(path, sample)).split("/").pop()));
    }
    const all = (await server.send("GET", `${path}?all_ids=true`, { token })).body as number[];
    expect(all).toEqual(expect.arrayContaining(made));
    expect(all).toEqual([...all].sort((a, b) => a - b));
    const page = (await server.send("GET", `${path}?page=1&page_size=2`, { token })).body as PageEnvelope;
    expect(page).toMatchObject({
      first_page: 1,
      this_page: 1,
      total: all.length,
      last_page: Math.ceil(all.length / 2),
    });
    expect(idsOf(page.results)).toEqual(all.slice(0, 2));
    const set = (await server.send("GET", `${path}?id_set=${made[2]},${made[0]},999999`, { token })).body as unknown[];
    expect(idsOf(set)).toEqual([made[0], made[2]]);
  });

  it("sorts vocabularies by name (their one extra index)", async () => {
    const page = (await server.send("GET", "/vocabularies?page=1&page_size=100&sort_field=name", { token }))
      .body as PageEnvelope;
    const names = page.results.map((record) => (record as { name: string }).name);
    expect(names).toEqual([...names].sort());
  });
});

describe("permissions", () => {
  it("reading needs a session (docs/api.md §2) but no permission code (read: null)", async () => {
    const uri = await create("/agents/families", { names: [{ family_name: "Open family" }] });
    for (const path of [uri, "/agents/families?page=1", "/subjects?page=1", "/vocabularies?all_ids=true"]) {
      expect(await server.send("GET", path)).toMatchObject({ status: 403, body: { error: "Access denied" } });
    }
    const nobody = await server.login("no-grants", globalGrants([]));
    expect((await server.send("GET", uri, { token: nobody })).status).toBe(200);
    expect((await server.send("GET", "/subjects?page=1", { token: nobody })).status).toBe(200);
    expect((await server.send("GET", "/vocabularies?all_ids=true", { token: nobody })).status).toBe(200);
  });

  it("repositories alone are readable without a session (x-public-read)", async () => {
    const { id } = await server.ops.create("repository", {}, { repo_code: "open", name: "Open" }, trusted("admin"));
    const list = await server.send("GET", "/repositories?page=1");
    expect(list.body).toMatchObject({ results: [expect.objectContaining({ repo_code: "open" })] });
    expect((await server.send("GET", `/repositories/${id}`)).body).toMatchObject({ name: "Open" });
  });

  it("writing needs the type's own code, granted globally", async () => {
    const subjectsOnly = await server.login("subjects-only", globalGrants(["update_subject_record"]));
    expect(
      (
        await server.send("POST", "/agents/people", {
          token: subjectsOnly,
          body: { names: [{ primary_name: "N", name_order: "direct" }] },
        })
      ).body,
    ).toEqual({ error: "Access denied" });
    expect(
      (await server.send("POST", "/vocabularies", { token: subjectsOnly, body: { name: "n", ref_id: "n" } })).status,
    ).toBe(403);
    const subject = await server.send("POST", "/subjects", { token: subjectsOnly, body: MINIMAL.subject?.body });
    expect(subject.status).toBe(200);
    expect((await server.send("DELETE", (subject.body as { uri: string }).uri, { token: subjectsOnly })).status).toBe(
      403,
    );
    expect((await server.send("POST", "/subjects", { body: MINIMAL.subject?.body })).status).toBe(403);
  });
});

describe("a subject's vocabulary is a link with integrity", () => {
  it("must exist, and cannot be deleted while a subject uses it", async () => {
    const missing = await server.send("POST", "/subjects", {
      token,
      body: {
        source: "local",
        vocabulary: "/vocabularies/424242",
        terms: [{ term: "Ghosts", term_type: "topical", vocabulary: "/vocabularies/424242" }],
      },
    });
    expect(missing.status).toBe(400);
    expect(Object.keys((missing.body as { error: Record<string, string[]> }).error).sort()).toEqual([
      "terms/0/vocabulary",
      "vocabulary",
    ]);

    const own = await server.send("POST", "/vocabularies", { token, body: { name: "temporary", ref_id: "temporary" } });
    const vocabularyUri = (own.body as { uri: string }).uri;
    const subject = await server.send("POST", "/subjects", {
      token,
      body: {
        source: "local",
        vocabulary: vocabularyUri,
        terms: [{ term: "Lighthouses", term_type: "topical", vocabulary: vocabularyUri }],
      },
    });
    const subjectUri = (subject.body as { uri: string }).uri;
    const refused = await server.send("DELETE", vocabularyUri, { token });
    expect(refused.status).toBe(409);
    expect((refused.body as { error: string }).error).toContain(subjectUri);

    expect((await server.send("DELETE", subjectUri, { token })).status).toBe(200);
    expect((await server.send("DELETE", vocabularyUri, { token })).status).toBe(200);
  });
});
