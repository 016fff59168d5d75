// The record operations against the contract (docs/api.md §3-§6), over the real store.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Document } from "mongodb";
import type { ApiError } from "../../src/errors/api-error.js";
import type { JsonObject } from "../../src/registry/index.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE } from "../../src/records/operations/update.js";
import type { PageEnvelope } from "../../src/records/types.js";
import { admin, openHarness, type RecordsHarness } from "./harness.js";
import { trusted } from "../../src/auth/actor.js";

let h: RecordsHarness;
let repoId: number;
let otherRepoId: number;
beforeAll(async () => {
  h = await openHarness();
  repoId = (await h.ops.create("repository", {}, { repo_code: "main", name: "Main" }, admin)).id;
  otherRepoId = (await h.ops.create("repository", {}, { repo_code: "other", name: "Other" }, admin)).id;
});
afterAll(() => h.close());

let seq = 0;
const accession = (extra: JsonObject = {}): JsonObject => ({
  title: `Accession ${++seq}`,
  id_0: "A",
  id_1: String(seq),
  ...extra,
});
const resource = (extra: JsonObject = {}): JsonObject => ({
  title: `Collection ${++seq}`,
  id_0: "R",
  id_1: String(seq),
  level: "collection",
  extents: [{ portion: "whole", number: "2", extent_type: "linear_feet" }],
  dates: [{ date_type: "inclusive", label: "creation", begin: "1900", end: "1950" }],
  lang_materials: [{ language_and_script: { language: "eng" } }],
  finding_aid_language: "eng",
  finding_aid_script: "Latn",
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected the operation to fail");
}

describe("create and read", () => {
  it("stores a record with server fields, omits nulls, and reports defaults as stale", async () => {
    const result = await h.ops.create("accession", { repoId }, accession({ content_description: null }), admin);
    expect(result).toMatchObject({ status: "Created", lock_version: 0, stale: true, warnings: [] });
    expect(result.uri).toBe(`/repositories/${repoId}/accessions/${result.id}`);
    const record = await h.ops.read("accession", { repoId }, result.id, admin);
    expect(record).toMatchObject({
      jsonmodel_type: "accession",
      uri: result.uri,
      lock_version: 0,
      created_by: "admin",
      last_modified_by: "admin",
      repository: { ref: `/repositories/${repoId}` },
      accession_date: "9999-12-31",
    });
    expect(record.create_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(record).not.toHaveProperty("content_description");
    expect(record).not.toHaveProperty("_id");
    expect(record).not.toHaveProperty("repo_id");
  });

  it("ignores read-only input and says stale: null when nothing was added", async () => {
    const input = accession({
      accession_date: "2020-01-01",
      restrictions_apply: false,
      access_restrictions: false,
      use_restrictions: false,
      uri: "/somewhere/else",
      lock_version: 7,
      created_by: "mallory",
    });
    const result = await h.ops.create("accession", { repoId }, input, admin);
    expect(result.stale).toBeNull();
    const record = await h.ops.read("accession", { repoId }, result.id, admin);
    expect(record).toMatchObject({ lock_version: 0, created_by: "admin", uri: result.uri });
  });

  it("allocates ids per type that are never reused after a delete", async () => {
    const first = await h.ops.create("accession", { repoId }, accession(), admin);
    await h.ops.delete("accession", { repoId }, first.id, admin);
    const second = await h.ops.create("accession", { repoId }, accession(), admin);
    expect(second.id).toBe(first.id + 1);
  });

  it("answers 404 with the type's name for a missing record and for a record of another repository", async () => {
    const mine = await h.ops.create("accession", { repoId }, accession(), admin);
    expect((await failure(h.ops.read("accession", { repoId }, 999_999, admin))).body).toEqual({
      error: "Accession not found",
    });
    expect((await failure(h.ops.read("accession", { repoId: otherRepoId }, mine.id, admin))).status).toBe(404);
    expect((await failure(h.ops.read("accession", { repoId: 424_242 }, mine.id, admin))).body).toEqual({
      error: "Repository not found",
    });
  });
});

describe("input rules", () => {
  it("drops an unknown field, naming it in the result's warnings", async () => {
    const input = { ...(JSON.parse(JSON.stringify(accession())) as JsonObject), surprise: 1 };
    const result = await h.ops.create("accession", { repoId }, input, admin);
    expect(result.warnings).toEqual(["surprise: not a field of this record type; dropped, not stored"]);
    expect(await h.ops.read("accession", { repoId }, result.id, admin)).not.toHaveProperty("surprise");
  });

  it.each([
    ["a $-prefixed key", { $where: "1" }, "$where"],
    ["a dotted key", { "a.b": 1 }, "a.b"],
    ["a nested __proto__ key", { dates: [{ ["__proto__"]: { x: 1 } }] }, "dates/0/__proto__"],
  ])("rejects %s with 400 naming it", async (_name, extra, path) => {
    const input = JSON.parse(JSON.stringify(accession())) as JsonObject;
    Object.assign(input, JSON.parse(JSON.stringify(extra)));
    if (path.includes("__proto__")) (input as Record<string, unknown>).dates = JSON.parse('[{"__proto__": {"x": 1}}]');
    const error = await failure(h.ops.create("accession", { repoId }, input, admin));
    expect(error.status).toBe(400);
    expect(Object.keys(error.detail as Record<string, string[]>)).toContain(path);
  });

  it("enforces the 4-part identifier rules (docs/api.md §10)", async () => {
    expect(
      (await failure(h.ops.create("accession", { repoId }, { title: "x", id_0: "G", id_2: "gap" }, admin))).detail,
    ).toHaveProperty("identifier");
    expect(
      (await failure(h.ops.create("accession", { repoId }, { title: "x", id_0: "y".repeat(51) }, admin))).detail,
    ).toHaveProperty("id_0");
    await h.ops.create("accession", { repoId }, { title: "x", id_0: "DUP", id_1: "1" }, admin);
    expect(
      (await failure(h.ops.create("accession", { repoId }, { title: "y", id_0: "DUP", id_1: "1" }, admin))).detail,
    ).toEqual({ id_0: ["That ID is already in use"] });
    // Unique per repository: the same identifier elsewhere is fine.
    await expect(
      h.ops.create("accession", { repoId: otherRepoId }, { title: "y", id_0: "DUP", id_1: "1" }, admin),
    ).resolves.toMatchObject({ status: "Created" });
  });

  it("keeps ead_id unique within a repository", async () => {
    await h.ops.create("resource", { repoId }, resource({ ead_id: "ead-1" }), admin);
    expect((await failure(h.ops.create("resource", { repoId }, resource({ ead_id: "ead-1" }), admin))).detail).toEqual({
      ead_id: ["That ID is already in use"],
    });
  });

  it("checks links: target type, existence, same repository", async () => {
    const here = await h.ops.create("accession", { repoId }, accession(), admin);
    const there = await h.ops.create("accession", { repoId: otherRepoId }, accession(), admin);
    const bad = [
      { ref: `/repositories/${repoId}/resources/1` },
      { ref: `/repositories/${repoId}/accessions/987654` },
      { ref: there.uri },
      { ref: here.uri },
    ];
    const error = await failure(h.ops.create("resource", { repoId }, resource({ related_accessions: bad }), admin));
    expect(error.status).toBe(400);
    const detail = error.detail as Record<string, string[]>;
    expect(Object.keys(detail).sort()).toEqual([
      "related_accessions/0/ref",
      "related_accessions/1/ref",
      "related_accessions/2/ref",
    ]);
  });
});

describe("update", () => {
  it("needs the current lock_version, and replaces the editable fields in full", async () => {
    const created = await h.ops.create("accession", { repoId }, accession({ content_description: "first" }), admin);
    const record = await h.ops.read("accession", { repoId }, created.id, admin);
    const { content_description: _dropped, ...rest } = record;
    expect(
      (await failure(h.ops.update("accession", { repoId }, created.id, { ...rest, lock_version: undefined }, admin)))
        .body,
    ).toEqual({ error: LOCK_VERSION_MISSING });
    const updated = await h.ops.update(
      "accession",
      { repoId },
      created.id,
      { ...rest, title: "Renamed" },
      trusted("archivist"),
    );
    expect(updated).toMatchObject({ status: "Updated", id: created.id, lock_version: 1 });
    const after = await h.ops.read("accession", { repoId }, created.id, admin);
    expect(after).toMatchObject({
      title: "Renamed",
      lock_version: 1,
      created_by: "admin",
      last_modified_by: "archivist",
    });
    expect(after).not.toHaveProperty("content_description");
    expect(
      (await failure(h.ops.update("accession", { repoId }, created.id, { ...rest, lock_version: 0 }, admin))).body,
    ).toEqual({ error: LOCK_VERSION_STALE });
  });

  it("lets exactly one of two concurrent updates with the same lock_version win", async () => {
    const created = await h.ops.create("accession", { repoId }, accession(), admin);
    const record = await h.ops.read("accession", { repoId }, created.id, admin);
    const outcomes = await Promise.allSettled([
      h.ops.update("accession", { repoId }, created.id, { ...record, title: "A" }, admin),
      h.ops.update("accession", { repoId }, created.id, { ...record, title: "B" }, admin),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const rejected = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect((rejected.reason as ApiError).status).toBe(409);
    expect((await h.ops.read("accession", { repoId }, created.id, admin)).lock_version).toBe(1);
  });

  it("answers 404 for a missing record", async () => {
    expect(
      (await failure(h.ops.update("accession", { repoId }, 777_777, { ...accession(), lock_version: 0 }, admin)))
        .status,
    ).toBe(404);
  });
});

describe("delete", () => {
  it("removes links to the deleted record from the records that held them", async () => {
    const kept = await h.ops.create("accession", { repoId }, accession(), admin);
    const gone = await h.ops.create("accession", { repoId }, accession(), admin);
    const holder = await h.ops.create(
      "resource",
      { repoId },
      resource({ related_accessions: [{ ref: kept.uri }, { ref: gone.uri }] }),
      admin,
    );
    expect(await h.ops.delete("accession", { repoId }, gone.id, admin)).toEqual({ status: "Deleted", id: gone.id });
    const after = await h.ops.read("resource", { repoId }, holder.id, admin);
    expect(after.related_accessions).toEqual([{ ref: kept.uri }]);
    expect(after.lock_version).toBe(1);
    expect((await failure(h.ops.read("accession", { repoId }, gone.id, admin))).status).toBe(404);
    expect((await failure(h.ops.delete("accession", { repoId }, gone.id, admin))).status).toBe(404);
  });

  it("deleting a repository deletes its records; a new repository has the standard groups", async () => {
    const repo = await h.ops.create("repository", {}, { repo_code: "temp", name: "Temporary" }, admin);
    const groups = (await h.ops.list(
      "group",
      { repoId: repo.id },
      { mode: { kind: "idSet", ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] } },
      admin,
    )) as JsonObject[];
    expect(groups.map((g) => g.group_code).sort()).toEqual([
      "repository-advanced-data-entry",
      "repository-archivists",
      "repository-basic-data-entry",
      "repository-managers",
      "repository-project-managers",
      "repository-viewers",
    ]);
    const inside = await h.ops.create("accession", { repoId: repo.id }, accession(), admin);
    await h.ops.delete("repository", {}, repo.id, admin);
    expect(await h.connection.collection("accessions").countDocuments({ repo_id: repo.id })).toBe(0);
    expect(await h.connection.collection("groups").countDocuments({ repo_id: repo.id })).toBe(0);
    expect((await failure(h.ops.read("accession", { repoId: repo.id }, inside.id, admin))).status).toBe(404);
  });
});

describe("list", () => {
  let listRepo: number;
  const ids: number[] = [];
  beforeAll(async () => {
    listRepo = (await h.ops.create("repository", {}, { repo_code: "lists", name: "Lists" }, admin)).id;
    for (const title of ["delta", "alpha", "echo", "charlie", "bravo"])
      ids.push((await h.ops.create("accession", { repoId: listRepo }, accession({ title }), admin)).id);
  });

  it("pages with the envelope, and a page past the end is empty", async () => {
    const page = (await h.ops.list(
      "accession",
      { repoId: listRepo },
      { mode: { kind: "page", page: 2, pageSize: 2 } },
      admin,
    )) as PageEnvelope;
    expect(page).toMatchObject({ first_page: 1, last_page: 3, this_page: 2, total: 5 });
    expect(page.results.map((r) => r.title)).toEqual(["echo", "charlie"]);
    const beyond = (await h.ops.list(
      "accession",
      { repoId: listRepo },
      { mode: { kind: "page", page: 9, pageSize: 2 } },
      admin,
    )) as PageEnvelope;
    expect(beyond).toMatchObject({ last_page: 3, this_page: 9, total: 5, results: [] });
  });

  it("sorts by a field in either direction", async () => {
    const asc = (await h.ops.list(
      "accession",
      { repoId: listRepo },
      { mode: { kind: "page", page: 1, pageSize: 10 }, sortField: "title", sortDirection: "asc" },
      admin,
    )) as PageEnvelope;
    expect(asc.results.map((r) => r.title)).toEqual(["alpha", "bravo", "charlie", "delta", "echo"]);
    const desc = (await h.ops.list(
      "accession",
      { repoId: listRepo },
      { mode: { kind: "page", page: 1, pageSize: 10 }, sortField: "title", sortDirection: "desc" },
      admin,
    )) as PageEnvelope;
    expect(desc.results.map((r) => r.title)).toEqual(["echo", "delta", "charlie", "bravo", "alpha"]);
  });

  it("answers id sets in id order and all ids ascending, only from the repository", async () => {
    const set = (await h.ops.list(
      "accession",
      { repoId: listRepo },
      { mode: { kind: "idSet", ids: [ids[3], ids[0], 999_999] } },
      admin,
    )) as JsonObject[];
    expect(set.map((r) => r.title)).toEqual(["delta", "charlie"]);
    expect(await h.ops.list("accession", { repoId: listRepo }, { mode: { kind: "allIds" } }, admin)).toEqual(ids);
    const empty = (await h.ops.list(
      "accession",
      { repoId: otherRepoId },
      { mode: { kind: "allIds" } },
      admin,
    )) as number[];
    expect(empty.some((id) => ids.includes(id))).toBe(false);
  });

  it("filters by modified_since", async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect(
      await h.ops.list("accession", { repoId: listRepo }, { mode: { kind: "allIds" }, modifiedSince: future }, admin),
    ).toEqual([]);
    expect(
      await h.ops.list("accession", { repoId: listRepo }, { mode: { kind: "allIds" }, modifiedSince: 0 }, admin),
    ).toEqual(ids);
  });
});

describe("resolve[]", () => {
  function countFinds(collection: string): () => number {
    let count = 0;
    const engine = h.engine.engine;
    const original = engine.execute.bind(engine);
    engine.execute = (command: Document, db: string, connectionId: number) => {
      if (command.find === collection) count++;
      return original(command, db, connectionId);
    };
    return () => {
      engine.execute = original;
      return count;
    };
  }

  it("adds _resolved next to each ref, with one query per target type", async () => {
    const targets = await Promise.all([1, 2, 3].map(() => h.ops.create("accession", { repoId }, accession(), admin)));
    const holder = await h.ops.create(
      "resource",
      { repoId },
      resource({ related_accessions: targets.map((t) => ({ ref: t.uri })) }),
      admin,
    );
    const stop = countFinds("accessions");
    const record = await h.ops.read("resource", { repoId }, holder.id, admin, {
      resolve: ["related_accessions"],
    });
    expect(stop()).toBe(1);
    const related = record.related_accessions as Array<{ ref: string; _resolved: JsonObject }>;
    expect(related.map((r) => r._resolved.uri)).toEqual(targets.map((t) => t.uri));
    expect(related[0]._resolved).toEqual(await h.ops.read("accession", { repoId }, targets[0].id, admin));
  });

  it("resolves the repository a record lives in, and nested keys (a::b)", async () => {
    const target = await h.ops.create("accession", { repoId }, accession(), admin);
    const holder = await h.ops.create(
      "resource",
      { repoId },
      resource({ related_accessions: [{ ref: target.uri }] }),
      admin,
    );
    const record = await h.ops.read("resource", { repoId }, holder.id, admin, {
      resolve: ["repository", "related_accessions::repository"],
    });
    expect(record.repository).toMatchObject({
      ref: `/repositories/${repoId}`,
      _resolved: { repo_code: "main", uri: `/repositories/${repoId}` },
    });
    const related = record.related_accessions as Array<{
      _resolved: { repository: { _resolved: { repo_code: string } } };
    }>;
    expect(related[0]._resolved.repository._resolved.repo_code).toBe("main");
  });

  it("stops at the bound and says so", async () => {
    const bounded = await openHarness(2);
    try {
      const repo = (await bounded.ops.create("repository", {}, { repo_code: "b", name: "B" }, admin)).id;
      const targets = await Promise.all(
        [1, 2, 3].map(() => bounded.ops.create("accession", { repoId: repo }, accession(), admin)),
      );
      const holder = await bounded.ops.create(
        "resource",
        { repoId: repo },
        resource({ related_accessions: targets.map((t) => ({ ref: t.uri })) }),
        admin,
      );
      const record = await bounded.ops.read("resource", { repoId: repo }, holder.id, admin, {
        resolve: ["related_accessions"],
      });
      expect(record._resolve_truncated).toBe(true);
      const related = record.related_accessions as JsonObject[];
      expect(related.filter((r) => "_resolved" in r)).toHaveLength(2);
    } finally {
      await bounded.close();
    }
  });
});

describe("sorting is index-served", () => {
  it("refuses a sort field no index orders, naming the sortable ones", async () => {
    const error = await failure(
      h.ops.list(
        "accession",
        { repoId },
        { mode: { kind: "page", page: 1, pageSize: 10 }, sortField: "content_description" },
        admin,
      ),
    );
    expect(error.status).toBe(400);
    expect((error.detail as Record<string, string[]>).sort_field[0]).toMatch(
      /sortable fields: id, system_mtime, title, accession_date/,
    );
  });
});
