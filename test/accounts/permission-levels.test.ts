// Permission levels and what a repository's roles reach, through real
// users, groups and the record routes: a repository's group grants only repository-level codes;
// records every repository shares are edited with a grant from any repository (as in
// ArchivesSpace) but deleted only with a global grant; the hidden repository 1 takes no records.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { call, login, startAccountsApp, type AccountsApp } from "./harness.js";

let app: AccountsApp;
let admin: string;
const tokens = new Map<string, string>();

const DENIED = { status: 403, body: { error: "Access denied" } };
const HIDDEN = { status: 403, body: { error: "The global repository holds no records" } };
const agent = (name: string) => ({
  names: [{ primary_name: name, name_order: "direct", source: "local", sort_name: name }],
});

async function groupOf(repoId: number, code: string): Promise<Record<string, unknown>> {
  const list = await call(app, `/repositories/${repoId}/groups?group_code=${code}`, { token: admin });
  expect(list.body).toHaveLength(1);
  return list.body[0]!;
}

async function join(repoId: number, code: string, username: string): Promise<void> {
  const group = await groupOf(repoId, code);
  const reply = await call(app, group.uri as string, {
    method: "POST",
    token: admin,
    json: { ...group, member_usernames: [...(group.member_usernames as string[]), username] },
  });
  expect(reply.status).toBe(200);
}

async function create(path: string, json: unknown, token = admin): Promise<string> {
  const reply = await call(app, path, { method: "POST", token, json });
  expect([reply.status, reply.text]).toEqual([200, expect.stringContaining("Created")]);
  return reply.body.uri as string;
}

beforeAll(async () => {
  app = await startAccountsApp();
  admin = await login(app, "admin", "admin");
  await create("/repositories", { repo_code: "A", name: "A" }); // 2
  await create("/repositories", { repo_code: "B", name: "B" }); // 3
  for (const name of ["manager", "archivist", "cataloguer"])
    await create(`/users?password=${name}-pw`, { username: name, name });
  await join(2, "repository-managers", "manager");
  await join(2, "repository-archivists", "archivist");
  for (const name of ["manager", "archivist", "cataloguer"]) tokens.set(name, await login(app, name, `${name}-pw`));
});
afterAll(() => app.close());

describe("a repository's group grants only repository-level permissions", () => {
  it("a create naming a global-level code is a 400 naming it", async () => {
    const manager = tokens.get("manager")!;
    const reply = await call(app, "/repositories/2/groups", {
      method: "POST",
      token: manager,
      json: {
        group_code: "deleters",
        grants_permissions: ["view_repository", "delete_agent_record", "delete_subject_record", "manage_users"],
        member_usernames: ["manager"],
      },
    });
    expect(reply).toMatchObject({
      status: 400,
      body: {
        error: {
          "grants_permissions/1": [
            "'delete_agent_record' is a global permission: only a group of the global repository may grant it",
          ],
          "grants_permissions/2": [
            "'delete_subject_record' is a global permission: only a group of the global repository may grant it",
          ],
          "grants_permissions/3": [
            "'manage_users' is a global permission: only a group of the global repository may grant it",
          ],
        },
      },
    });
    expect(
      (await call(app, "/repositories/2/groups", { token: manager })).body.map((group) => group.group_code),
    ).not.toContain("deleters");
  });

  it("so does an update, an administrator's included", async () => {
    const managers = await groupOf(2, "repository-managers");
    const reply = await call(app, managers.uri as string, {
      method: "POST",
      token: admin,
      json: { ...managers, grants_permissions: [...(managers.grants_permissions as string[]), "delete_agent_record"] },
    });
    expect(reply.status).toBe(400);
    expect(Object.values(reply.body.error as Record<string, string[]>)).toEqual([
      ["'delete_agent_record' is a global permission: only a group of the global repository may grant it"],
    ]);
  });

  it("repository-level codes, update_agent_record among them, are granted there as before", async () => {
    const manager = tokens.get("manager")!;
    expect(
      (
        await call(app, "/repositories/2/groups", {
          method: "POST",
          token: manager,
          json: {
            group_code: "agent-editors",
            grants_permissions: ["update_agent_record", "update_subject_record", "manage_agent_record"],
          },
        })
      ).status,
    ).toBe(200);
  });

  it("a global-level code a repository's group already holds in the store grants nothing", async () => {
    const managers = await groupOf(2, "repository-managers");
    const id = Number(String(managers.uri).split("/").pop());
    // Written straight to the store (the group rules refuse it), as a store from before levels
    // were checked may hold it.
    await app.operations.deps.store.collection("group").updateOne(
      { id, repo_id: 2 },
      {
        $set: {
          grants_permissions: [
            ...(managers.grants_permissions as string[]),
            "delete_agent_record",
            "administer_system",
          ],
        },
      },
    );
    await app.accounts.accessControl.invalidate();
    const me = await call(app, "/users/current-user", { token: tokens.get("manager")! });
    const granted = (me.body.permissions as Record<string, string[]>)["/repositories/2"];
    expect(granted).toContain("manage_repository");
    expect(granted).not.toContain("delete_agent_record");
    expect(granted).not.toContain("administer_system");
    const victim = await create("/agents/people", agent("Legacy Victim"));
    expect(await call(app, victim, { method: "DELETE", token: tokens.get("manager")! })).toMatchObject(DENIED);
  });
});

describe("records every repository shares", () => {
  it("a repository manager edits a global agent but cannot delete it, nor touch another repository's records through it", async () => {
    const manager = tokens.get("manager")!;
    const person = await create("/agents/people", agent("Shared Person"));
    const accession = await create("/repositories/3/accessions", {
      title: "Held by B",
      id_0: "B",
      id_1: "1",
      linked_agents: [{ ref: person, role: "creator" }],
    });
    const before = (await call(app, accession, { token: admin })).body;
    const record = (await call(app, person, { token: manager })).body;
    expect(
      (await call(app, person, { method: "POST", token: manager, json: { ...record, publish: true } })).status,
    ).toBe(200);
    expect(await call(app, person, { method: "DELETE", token: manager })).toMatchObject(DENIED);
    expect((await call(app, person, { token: manager })).status).toBe(200);
    expect((await call(app, accession, { token: admin })).body).toEqual(before);
  });

  it("subjects and vocabularies alike", async () => {
    const manager = tokens.get("manager")!;
    const subject = await create("/subjects", {
      source: "local",
      vocabulary: "/vocabularies/1",
      terms: [{ term: "Shared", term_type: "topical", vocabulary: "/vocabularies/1" }],
    });
    expect(await call(app, subject, { method: "DELETE", token: manager })).toMatchObject(DENIED);
    const vocabulary = await create("/vocabularies", { name: "Local", ref_id: "local" });
    expect(await call(app, vocabulary, { method: "DELETE", token: manager })).toMatchObject(DENIED);
  });

  it("an archivist creates and edits container and location profiles, and a manager locations, but neither deletes them", async () => {
    const archivist = tokens.get("archivist")!;
    const manager = tokens.get("manager")!;
    const box = await create(
      "/container_profiles",
      { name: "Box", dimension_units: "inches", extent_dimension: "width", height: "10", width: "12", depth: "15" },
      archivist,
    );
    const shelf = await create("/location_profiles", { name: "Shelf" }, archivist);
    const place = await create("/locations", { building: "Annex" }, manager);
    for (const [uri, token] of [
      [box, archivist],
      [shelf, archivist],
      [place, manager],
    ] as const) {
      const record = (await call(app, uri, { token })).body;
      expect((await call(app, uri, { method: "POST", token, json: record })).status).toBe(200);
      expect(await call(app, uri, { method: "DELETE", token })).toMatchObject(DENIED);
      expect((await call(app, uri, { token })).status).toBe(200);
    }
  });

  it("a global grant deletes them", async () => {
    const group = await call(app, "/repositories/1/groups", {
      method: "POST",
      token: admin,
      json: {
        group_code: "cataloguers",
        grants_permissions: ["delete_agent_record", "manage_container_profile_record"],
        member_usernames: ["cataloguer"],
      },
    });
    expect(group.status).toBe(200);
    const cataloguer = tokens.get("cataloguer")!;
    const person = await create("/agents/people", agent("Deletable"));
    expect((await call(app, person, { method: "DELETE", token: cataloguer })).status).toBe(200);
    const box = await create("/container_profiles", {
      name: "Doomed box",
      dimension_units: "inches",
      extent_dimension: "width",
      height: "1",
      width: "1",
      depth: "1",
    });
    expect((await call(app, box, { method: "DELETE", token: cataloguer })).status).toBe(200);
  });
});

describe("the hidden repository 1 takes no records", () => {
  it("refuses creates, updates and deletes there, to an administrator too", async () => {
    expect(
      await call(app, "/repositories/1/accessions", {
        method: "POST",
        token: admin,
        json: { title: "Hidden", id_0: "H", id_1: "1" },
      }),
    ).toMatchObject(HIDDEN);
    expect(
      await call(app, "/repositories/1/resources/1", { method: "POST", token: admin, json: { title: "Hidden" } }),
    ).toMatchObject(HIDDEN);
    expect(await call(app, "/repositories/1/accessions/1", { method: "DELETE", token: admin })).toMatchObject(HIDDEN);
    expect((await call(app, "/repositories/1/accessions?all_ids=true", { token: admin })).body).toEqual([]);
  });

  it("refuses imports there", async () => {
    const batch = [
      {
        jsonmodel_type: "accession",
        title: "Imported",
        id_0: "I",
        id_1: "1",
        uri: "/repositories/1/accessions/import_1",
      },
    ];
    expect(
      await call(app, "/repositories/1/batch_imports", { method: "POST", token: admin, json: batch }),
    ).toMatchObject(HIDDEN);
    expect((await call(app, "/repositories/1/accessions?all_ids=true", { token: admin })).body).toEqual([]);
  });

  it("answers a caller without a global grant as it answers any missing permission", async () => {
    expect(
      await call(app, "/repositories/1/accessions", {
        method: "POST",
        token: tokens.get("manager")!,
        json: { title: "Hidden", id_0: "H", id_1: "2" },
      }),
    ).toMatchObject(DENIED);
    expect(
      await call(app, "/repositories/1/accessions", {
        method: "POST",
        json: { title: "Hidden", id_0: "H", id_1: "3" },
      }),
    ).toMatchObject(DENIED);
  });

  it("still holds the global groups", async () => {
    expect((await groupOf(1, "administrators")).member_usernames).toEqual(["admin"]);
  });
});

describe("built-in method names as keys of user and group bodies", () => {
  const KEYS = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf"];

  it.each(KEYS)("a user body with top-level %s is a 400 naming it, or the key is dropped; never a 500", async (key) => {
    const raw = `{"username": "k-${key.toLowerCase().replace(/_/g, "")}", "name": "K", ${JSON.stringify(key)}: {"is_admin": true}}`;
    const reply = await call(app, "/users?password=pw", {
      method: "POST",
      token: admin,
      raw,
      headers: { "Content-Type": "application/json" },
    });
    expect([200, 400]).toContain(reply.status);
    if (reply.status === 400) {
      expect(Object.keys(reply.body.error as Record<string, unknown>)).toEqual([key]);
      const listed = (await call(app, "/users?page=1&page_size=250", { token: admin })).body
        .results as unknown as Array<Record<string, unknown>>;
      expect(listed.map((user) => user.username)).not.toContain(`k-${key.toLowerCase().replace(/_/g, "")}`);
    } else {
      const user = (await call(app, reply.body.uri as string, { token: admin })).body;
      expect(user.is_admin).toBe(false);
      expect(Object.hasOwn(user, key)).toBe(false);
    }
  });

  it.each(KEYS)("a group body with top-level %s likewise", async (key) => {
    const raw = `{"group_code": "g-${key.toLowerCase().replace(/_/g, "")}", "member_usernames": [], ${JSON.stringify(key)}: ["administer_system"]}`;
    const reply = await call(app, "/repositories/2/groups", {
      method: "POST",
      token: admin,
      raw,
      headers: { "Content-Type": "application/json" },
    });
    expect([200, 400]).toContain(reply.status);
    if (reply.status === 400) expect(Object.keys(reply.body.error as Record<string, unknown>)).toEqual([key]);
    else expect(Object.hasOwn((await call(app, reply.body.uri as string, { token: admin })).body, key)).toBe(false);
  });

  it.each(KEYS)("a group update with top-level %s likewise, the group unchanged on a 400", async (key) => {
    const viewers = await groupOf(2, "repository-viewers");
    const { uri, ...rest } = viewers;
    const raw = JSON.stringify(rest).replace(/^\{/, `{${JSON.stringify(key)}: 1, `);
    const reply = await call(app, uri as string, {
      method: "POST",
      token: tokens.get("manager")!,
      raw,
      headers: { "Content-Type": "application/json" },
    });
    expect([200, 400]).toContain(reply.status);
    const after = await groupOf(2, "repository-viewers");
    if (reply.status === 400) {
      expect(Object.keys(reply.body.error as Record<string, unknown>)).toEqual([key]);
      expect(after).toEqual(viewers);
    } else expect(Object.hasOwn(after, key)).toBe(false);
  });
});
