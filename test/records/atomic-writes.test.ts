// Writes of several records are one transaction: a delete and everything it cascades to, a
// repository and its standard groups. A store failure half-way through (MongoDB's failCommand
// fail point, which the embedded engine implements) leaves every record as it was, and the same
// write then succeeds whole.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Document } from "mongodb";
import { minimalResource } from "./harness.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

let server: RecordServer;
const system = trusted("system");

beforeAll(async () => {
  server = await startRecordServer({ testCommands: true });
});
afterAll(() => server.stop());

/** Every document of every collection but the lock and counter bookkeeping, in a stable order. */
async function everything(): Promise<Record<string, Document[]>> {
  const db = server.connection.db!;
  const all: Record<string, Document[]> = {};
  for (const { name } of await db.listCollections().toArray()) {
    if (name === "arca_locks" || name === "arca_counters") continue;
    all[name] = await db
      .collection(name)
      .find({}, { sort: { _id: 1 } })
      .toArray();
  }
  return all;
}

/** The documents of a record type in a dump. */
const docsOf = (all: Record<string, Document[]>, type: string): Document[] =>
  all[server.ops.deps.registry.get(type).collection] ?? [];

/** Arms the fail point: the `command`s after the first `skip` fail. */
async function failAfter(command: "delete" | "insert", skip: number): Promise<void> {
  await server.connection
    .db!.admin()
    .command({ configureFailPoint: "failCommand", mode: { skip }, data: { failCommands: [command], errorCode: 1 } });
}

const failDeletesAfter = (skip: number) => failAfter("delete", skip);

async function failPointOff(): Promise<void> {
  await server.connection.db!.admin().command({ configureFailPoint: "failCommand", mode: "off" });
}

/** A repository holding a resource with a two-level tree, an accession linked to it and a digital object. */
async function collection(code: string): Promise<{ repoId: number; resourceId: number; accessionId: number }> {
  const repoId = (await server.ops.create("repository", {}, { repo_code: code, name: `Repository ${code}` }, system))
    .id;
  const scope = { repoId };
  const accessionId = (await server.ops.create("accession", scope, { title: "Gift", id_0: code }, system)).id;
  const resourceId = (
    await server.ops.create(
      "resource",
      scope,
      minimalResource(code, { related_accessions: [{ ref: `/repositories/${repoId}/accessions/${accessionId}` }] }),
      system,
    )
  ).id;
  const resource = { ref: `/repositories/${repoId}/resources/${resourceId}` };
  for (let series = 0; series < 3; series++) {
    const parent = (
      await server.ops.create(
        "archival_object",
        scope,
        { title: `Series ${series}`, level: "series", resource },
        system,
      )
    ).id;
    for (let file = 0; file < 2; file++) {
      await server.ops.create(
        "archival_object",
        scope,
        {
          title: `File ${series}.${file}`,
          level: "file",
          resource,
          parent: { ref: `/repositories/${repoId}/archival_objects/${parent}` },
        },
        system,
      );
    }
  }
  await server.ops.create("digital_object", scope, { title: "Scan", digital_object_id: `${code}-1` }, system);
  return { repoId, resourceId, accessionId };
}

describe("a delete is all or nothing", () => {
  it("a resource whose cascade fails at its fourth delete keeps all nine of its archival objects; deleted again, all of it goes", async () => {
    const { repoId, resourceId } = await collection("atomic-1");
    const token = await server.login("archivist", globalGrants(["view_repository", "delete_archival_record"]));
    const before = await everything();
    expect(docsOf(before, "archival_object")).toHaveLength(9); // three series of two files each
    await failDeletesAfter(3);
    try {
      const reply = await server.send("DELETE", `/repositories/${repoId}/resources/${resourceId}`, { token });
      expect(reply.status).toBe(500);
    } finally {
      await failPointOff();
    }
    expect(await everything()).toEqual(before);

    expect((await server.send("DELETE", `/repositories/${repoId}/resources/${resourceId}`, { token })).status).toBe(
      200,
    );
    const after = await everything();
    expect(docsOf(after, "resource")).toHaveLength(0);
    expect(docsOf(after, "archival_object")).toHaveLength(0);
    expect(docsOf(after, "accession")).toHaveLength(1); // an accession is not part of the resource
  });

  it("a repository whose delete fails half-way through its records keeps them all", async () => {
    const { repoId } = await collection("atomic-2");
    const before = await everything();
    expect(docsOf(before, "archival_object").filter((doc) => doc.repo_id === repoId)).toHaveLength(9); // three series of two files each
    await failDeletesAfter(4);
    try {
      await expect(server.ops.delete("repository", {}, repoId, system)).rejects.toThrow(/failCommand/);
    } finally {
      await failPointOff();
    }
    expect(await everything()).toEqual(before);
    await server.ops.delete("repository", {}, repoId, system);
    const after = await everything();
    for (const name of ["resource", "archival_object", "accession", "digital_object", "group"]) {
      expect([name, docsOf(after, name).filter((doc) => doc.repo_id === repoId)]).toEqual([name, []]);
    }
    expect(docsOf(after, "repository").some((doc) => doc.id === repoId)).toBe(false);
  });
});

describe("a repository and its standard groups are all or nothing", () => {
  it("a repository whose third standard group fails to be stored is not created, nor are the first two groups", async () => {
    const before = await everything();
    await failAfter("insert", 3); // the repository, then two groups
    try {
      await expect(
        server.ops.create("repository", {}, { repo_code: "half", name: "Half made" }, system),
      ).rejects.toThrow(/failCommand/);
    } finally {
      await failPointOff();
    }
    expect(await everything()).toEqual(before);

    const { id } = await server.ops.create("repository", {}, { repo_code: "half", name: "Half made" }, system);
    const groups = docsOf(await everything(), "group").filter((doc) => doc.repo_id === id);
    expect(groups.length).toBeGreaterThan(3);
  });
});
