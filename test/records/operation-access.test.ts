// The operations check who calls them (src/auth/operation-access.ts): a user against the type's
// x-permissions, nobody only for a public read, trusted code not at all; a refused operation
// changes nothing. The same rule the HTTP routes apply, whoever calls.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ANONYMOUS, trusted, type UserActor } from "../../src/auth/actor.js";
import { HIDDEN_REPOSITORY_MESSAGE } from "../../src/auth/hidden-repository.js";
import { refusal } from "../support/service.js";
import { admin, openHarness, type RecordsHarness } from "./harness.js";

let h: RecordsHarness;
let repoId: number;
let otherRepoId: number;
let accessionId: number;

const user = (permissions: Record<string, string[]>): UserActor => ({ kind: "user", username: "someone", permissions });
const accession = (n: number) => ({ title: `Accession ${n}`, id_0: "OA", id_1: String(n) });

beforeAll(async () => {
  h = await openHarness();
  // With no start-up in front, the first repository made here is id 1, the hidden global one.
  const global = await h.ops.create("repository", {}, { repo_code: "_archivesspace", name: "Global" }, admin);
  expect(global.id).toBe(1);
  repoId = (await h.ops.create("repository", {}, { repo_code: "access", name: "Access" }, admin)).id;
  otherRepoId = (await h.ops.create("repository", {}, { repo_code: "elsewhere", name: "Elsewhere" }, admin)).id;
  accessionId = (await h.ops.create("accession", { repoId }, accession(0), admin)).id;
});
afterAll(() => h.close());

describe("a user", () => {
  const cataloguer = () =>
    user({ [`/repositories/${repoId}`]: ["view_repository", "update_accession_record", "delete_archival_record"] });

  it("may do what the type's permissions grant them, in the repository they hold them in", async () => {
    const who = cataloguer();
    expect(await h.ops.read("accession", { repoId }, accessionId, who)).toMatchObject({ title: "Accession 0" });
    const created = await h.ops.create("accession", { repoId }, accession(1), who);
    expect(created.status).toBe("Created");
    expect(await h.ops.list("accession", { repoId }, { mode: { kind: "allIds" } }, who)).toContain(created.id);
    expect((await h.ops.delete("accession", { repoId }, created.id, who)).status).toBe("Deleted");
  });

  it("is refused elsewhere and without the code, before anything is read or written", async () => {
    const who = cataloguer();
    const before = await h.ops.deps.store.collection("accession").countDocuments();
    expect(await refusal(h.ops.create("accession", { repoId: otherRepoId }, accession(2), who))).toEqual({
      status: 403,
      detail: "Access denied",
    });
    expect((await refusal(h.ops.read("accession", { repoId: otherRepoId }, accessionId, who))).status).toBe(403);
    const reader = user({ [`/repositories/${repoId}`]: ["view_repository"] });
    expect((await refusal(h.ops.create("accession", { repoId }, accession(3), reader))).status).toBe(403);
    const current = await h.ops.read("accession", { repoId }, accessionId, reader);
    expect((await refusal(h.ops.update("accession", { repoId }, accessionId, current, reader))).status).toBe(403);
    expect((await refusal(h.ops.delete("accession", { repoId }, accessionId, reader))).status).toBe(403);
    // A refused read of a record that does not exist is a 403 too: the check comes first.
    expect((await refusal(h.ops.read("accession", { repoId: 999 }, 999, reader))).status).toBe(403);
    expect(await h.ops.deps.store.collection("accession").countDocuments()).toBe(before);
    expect((await h.ops.read("accession", { repoId }, accessionId, admin)).lock_version).toBe(0);
  });

  it("is refused a write into the hidden global repository, even as an administrator, except for its groups", async () => {
    const administrator = user({
      _archivesspace: ["administer_system", "manage_repository", "update_accession_record"],
    });
    expect(await refusal(h.ops.create("accession", { repoId: 1 }, accession(4), administrator))).toEqual({
      status: 403,
      detail: HIDDEN_REPOSITORY_MESSAGE,
    });
    const group = await h.ops.create(
      "group",
      { repoId: 1 },
      { group_code: "global-probe", description: "", member_usernames: [], grants_permissions: [] },
      administrator,
    );
    expect(group.status).toBe("Created");
  });
});

describe("nobody logged in", () => {
  it("reads only what is public", async () => {
    expect(await h.ops.read("repository", {}, repoId, ANONYMOUS)).toMatchObject({ repo_code: "access" });
    expect((await refusal(h.ops.read("accession", { repoId }, accessionId, ANONYMOUS))).status).toBe(403);
    expect((await refusal(h.ops.create("subject", {}, { title: "x" }, ANONYMOUS))).status).toBe(403);
    expect((await refusal(h.ops.list("accession", { repoId }, { mode: { kind: "allIds" } }, ANONYMOUS))).status).toBe(
      403,
    );
  });
});

describe("trusted code", () => {
  it("is checked for nothing, and named as the writer", async () => {
    const created = await h.ops.create("accession", { repoId }, accession(5), trusted("migration"));
    expect(await h.ops.read("accession", { repoId }, created.id, trusted("migration"))).toMatchObject({
      created_by: "migration",
      last_modified_by: "migration",
    });
  });
});
