// The import journal. An import's writes are noted (type and id range) in its
// journal entry before they are made; a sweep undoes the writes of entries whose owner is gone
// or whose lease ran out, and leaves live imports alone. Stale upload files are swept the same
// way. Against the embedded engine, through the record operations.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { importFile } from "../../src/importers/committer.js";
import { EadParser } from "../../src/importers/ead.js";
import { beginImport, JOURNAL_COLLECTION, sweepImports, type WrittenBatch } from "../../src/importers/journal.js";
import { DEFAULT_IMPORT_LIMITS } from "../../src/importers/limits.js";
import { sweepUploads } from "../../src/importers/uploads.js";
import type { Change } from "../../src/records/changes.js";
import type { RecordOperations } from "../../src/records/operations/index.js";
import { minimalResource } from "../registry/samples.js";
import { actor, startEadServer, textInput, type EadTestServer } from "./ead-server.js";

let t: EadTestServer;
let ops: RecordOperations;
const LEASE = DEFAULT_IMPORT_LIMITS.journalLeaseSeconds;

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

const journal = () => ops.deps.store.connection.collection(JOURNAL_COLLECTION);

/** Writes records as an import's writing pass does: each batch noted in the entry first. */
async function halfImport(
  repo: number,
  title: string,
  components: number,
  resource?: string,
): Promise<{ id: string; resource: string; components: string[] }> {
  const ticket = await beginImport(ops, {
    repoId: repo,
    file: `${title}.xml`,
    format: "ead",
    username: actor.username,
    leaseSeconds: LEASE,
  });
  let root = resource;
  if (root === undefined) {
    const first = await ops.deps.store.nextIds("resource", 1);
    await ticket.noteBatch({ type: "resource", first, count: 1 });
    root = (
      await ops.createMany(
        "resource",
        { repoId: repo },
        [{ id: first, input: { ...minimalResource(), title, id_0: title } }],
        actor,
      )
    )[0]?.uri as string;
  }
  const first = await ops.deps.store.nextIds("archival_object", components);
  const batch: WrittenBatch = { type: "archival_object", first, count: components };
  await ticket.noteBatch(batch);
  const items = Array.from({ length: components }, (_, i) => ({
    id: first + i,
    input: { title: `${title} ${i}`, level: "file", resource: { ref: root }, position: 1 },
  }));
  const written = await ops.createMany("archival_object", { repoId: repo }, items, actor);
  // The process "dies": its heartbeat stops, its entry stays.
  ticket.abandon();
  return { id: ticket.id, resource: root, components: written.map((result) => result.uri) };
}

const exists = async (uri: string): Promise<boolean> => {
  const parsed = ops.deps.registry.parseUri(uri);
  if (parsed === undefined) throw new Error(uri);
  return (await ops.deps.store.collection(parsed.type).countDocuments({ id: parsed.id })) === 1;
};

beforeAll(async () => {
  t = await startEadServer();
  ops = t.server.ops;
}, 60_000);

afterAll(async () => {
  await t.stop();
});

describe("sweepImports", () => {
  it("leaves an import alone while its owner lives and its lease runs; undoes it once its owner is gone", async () => {
    const repo = await t.newRepository("journal-live");
    const half = await halfImport(repo, "Live", 5);
    // Owned by this process: never swept from here, whatever its lease.
    await journal().updateOne({ _id: half.id as never }, { $set: { lease_until: new Date(0) } });
    expect(await sweepImports(ops, LEASE)).toEqual([]);
    // Owned by a live process of another host, lease running: left alone.
    await journal().updateOne(
      { _id: half.id as never },
      {
        $set: {
          owner: { host: "elsewhere", pid: process.pid, process: "another" },
          lease_until: new Date(Date.now() + 60_000),
        },
      },
    );
    expect(await sweepImports(ops, LEASE)).toEqual([]);
    expect(await exists(half.resource)).toBe(true);
    expect(await Promise.all(half.components.map(exists))).toEqual([true, true, true, true, true]);

    // Owned by a process of this host that has ended: swept at once, lease or not.
    await journal().updateOne(
      { _id: half.id as never },
      { $set: { owner: { host: hostname(), pid: deadPid(), process: "dead" } } },
    );
    expect(await sweepImports(ops, LEASE)).toEqual([{ id: half.id, repoId: repo, file: "Live.xml", records: 6 }]);
    expect(await exists(half.resource)).toBe(false);
    expect(await Promise.all(half.components.map(exists))).toEqual([false, false, false, false, false]);
    expect(await journal().countDocuments({ _id: half.id as never })).toBe(0);
  });

  it("undoes an import of another host once its lease has run out, and tells the change listeners", async () => {
    const repo = await t.newRepository("journal-lease");
    const half = await halfImport(repo, "Leased", 3);
    await journal().updateOne(
      { _id: half.id as never },
      { $set: { owner: { host: "elsewhere", pid: 1, process: "remote" }, lease_until: new Date(Date.now() - 1000) } },
    );
    const heard: Change[] = [];
    ops.deps.changes.subscribe((change) => {
      if (change.scope.repoId === repo) heard.push(change);
    });
    expect((await sweepImports(ops, LEASE)).map((swept) => swept.id)).toEqual([half.id]);
    expect(await exists(half.resource)).toBe(false);
    expect(await t.counts(repo)).toMatchObject({ resource: 0, archival_object: 0 });
    // Each batch's removal, as the id range it was written in: what a search index or a feed needs to drop.
    const idOf = (uri: string) => ops.deps.registry.parseUri(uri)!.id;
    const firstComponent = idOf(half.components[0]!);
    expect(heard).toEqual([
      {
        type: "archival_object",
        operation: "delete",
        ids: { first: firstComponent, end: firstComponent + 3 },
        scope: { repoId: repo },
      },
      {
        type: "resource",
        operation: "delete",
        ids: { first: idOf(half.resource), end: idOf(half.resource) + 1 },
        scope: { repoId: repo },
      },
    ]);
  });

  it("a node the dead import put into an existing tree goes through the tree: its siblings get their places back", async () => {
    const repo = await t.newRepository("journal-tree");
    const resource = (await ops.create("resource", { repoId: repo }, { ...minimalResource(), id_0: "Existing" }, actor))
      .uri;
    const before: string[] = [];
    for (let i = 0; i < 3; i++)
      before.push(
        (
          await ops.create(
            "archival_object",
            { repoId: repo },
            { title: `Kept ${i}`, level: "file", resource: { ref: resource } },
            actor,
          )
        ).uri,
      );
    // Two nodes inserted at position 1: the existing second and third move down.
    const half = await halfImport(repo, "Into", 2, resource);
    const order = async (): Promise<string[]> => {
      const docs = await ops.deps.store
        .collection("archival_object")
        .find({ repo_id: repo })
        .sort({ position: 1 })
        .toArray();
      return docs.map((doc) => `${doc.position}:${doc.title as string}`);
    };
    expect(await order()).toEqual(["0:Kept 0", "1:Into 1", "2:Into 0", "3:Kept 1", "4:Kept 2"]);
    await journal().updateOne(
      { _id: half.id as never },
      { $set: { owner: { host: hostname(), pid: deadPid(), process: "dead" } } },
    );
    await sweepImports(ops, LEASE);
    expect(await order()).toEqual(["0:Kept 0", "1:Kept 1", "2:Kept 2"]);
    expect(await exists(resource)).toBe(true);
  });

  it("before an import: a file whose earlier import died is imported again instead of being skipped as imported", async () => {
    const repo = await t.newRepository("journal-again");
    const ead = `<ead><eadheader><eadid>again-1</eadid><filedesc><titlestmt><titleproper>Again</titleproper></titlestmt></filedesc></eadheader>
      <archdesc level="collection"><did><unittitle>Again</unittitle><unitid>AG.1</unitid><unitdate normal="1900/1910">1900-1910</unitdate>
      <physdesc><extent>2 linear feet</extent></physdesc><langmaterial><language langcode="eng"/></langmaterial></did>
      <dsc>${Array.from({ length: 30 }, (_, i) => `<c level="file"><did><unittitle>File ${i}</unittitle></did></c>`).join("")}</dsc></archdesc></ead>`;
    const parser = () =>
      new EadParser("ead", { vocabulary: t.vocabulary, enumerations: ops.deps.enumerations, window: 10 });
    // The first import "dies" after its resource and 10 components: the records are there, the entry with them.
    const first = await importFile(ops, parser(), textInput("again.xml", ead), {
      repoId: repo,
      actor,
      batchSize: 10,
      limits: DEFAULT_IMPORT_LIMITS,
    });
    expect(first).toMatchObject({ outcome: "imported", created: { resource: 1, archival_object: 30 } });
    const resourceDoc = await ops.deps.store.collection("resource").findOne({ repo_id: repo });
    const aos = await ops.deps.store.collection("archival_object").find({ repo_id: repo }).sort({ id: 1 }).toArray();
    await ops.deps.store.collection("archival_object").deleteMany({ id: { $in: aos.slice(10).map((doc) => doc.id) } });
    await journal().insertOne({
      _id: "died-mid-import" as never,
      repo_id: repo,
      file: "again.xml",
      format: "ead",
      username: actor.username,
      owner: { host: hostname(), pid: deadPid(), process: "dead" },
      started: new Date(),
      lease_until: new Date(Date.now() + 60_000),
      batches: [
        { type: "resource", first: resourceDoc?.id as number, count: 1 },
        { type: "archival_object", first: aos[0]?.id as number, count: 30 },
      ],
    });
    const again = await importFile(ops, parser(), textInput("again.xml", ead), { repoId: repo, actor, batchSize: 10 });
    expect(again).toMatchObject({ outcome: "imported", created: { resource: 1, archival_object: 30 } });
    expect(await t.counts(repo)).toMatchObject({ resource: 1, archival_object: 30 });
    expect(await journal().countDocuments({})).toBe(0);
  });

  it("a finished or failed import leaves no entry, and a record shows nothing of the journal", async () => {
    const repo = await t.newRepository("journal-done");
    const good = `<ead><eadheader><eadid>done-1</eadid></eadheader><archdesc level="collection"><did><unittitle>Done</unittitle><unitid>D.1</unitid>
      <unitdate normal="1900/1910">1900-1910</unitdate><physdesc><extent>2 linear feet</extent></physdesc><langmaterial><language langcode="eng"/></langmaterial></did></archdesc></ead>`;
    const summary = await t.importEad(textInput("done.xml", good), { repoId: repo });
    expect(summary.outcome).toBe("imported");
    expect(await journal().countDocuments({})).toBe(0);
    const resource = await t.get(summary.uris[0] as string);
    // ArchivesSpace's own ARK fields (import_current_ark, import_previous_arks: [] on every read) are the record's.
    const ark = new Set(["import_current_ark", "import_previous_arks"]);
    expect(Object.keys(resource).filter((key) => /journal|import/i.test(key) && !ark.has(key))).toEqual([]);
  });
});

describe("noteBatch", () => {
  it("notes a batch whose ids follow on from the last of its type as one longer range; others apart", async () => {
    const repo = await t.newRepository("journal-ranges");
    const ticket = await beginImport(ops, {
      repoId: repo,
      file: "ranges.xml",
      format: "ead",
      username: actor.username,
      leaseSeconds: LEASE,
    });
    const root = (
      await ops.createMany("resource", { repoId: repo }, [{ input: { ...minimalResource(), id_0: "RANGES" } }], actor)
    )[0]?.uri as string;
    const written: string[] = [];
    const batch = async (count: number) => {
      const first = await ops.deps.store.nextIds("archival_object", count);
      await ticket.noteBatch({ type: "archival_object", first, count });
      const items = Array.from({ length: count }, (_, i) => ({
        id: first + i,
        input: { title: `R ${first + i}`, level: "file", resource: { ref: root }, position: 1 },
      }));
      written.push(...(await ops.createMany("archival_object", { repoId: repo }, items, actor)).map((r) => r.uri));
      return first;
    };
    const first = await batch(3);
    await batch(2);
    await batch(4);
    // Ids taken by someone else in between: the next batch starts a range of its own.
    await ops.deps.store.nextIds("archival_object", 5);
    const later = await batch(2);
    const subjects = await ops.deps.store.nextIds("subject", 2);
    await ticket.noteBatch({ type: "subject", first: subjects, count: 2 });
    const entry = await journal().findOne({ _id: ticket.id as never });
    expect(entry?.batches).toEqual([
      { type: "archival_object", first, count: 9 },
      { type: "archival_object", first: later, count: 2 },
      { type: "subject", first: subjects, count: 2 },
    ]);

    // The process dies: the sweep undoes every component of every range.
    ticket.abandon();
    await journal().updateOne(
      { _id: ticket.id as never },
      { $set: { owner: { host: hostname(), pid: deadPid(), process: "dead" } } },
    );
    await sweepImports(ops, LEASE);
    expect(await Promise.all(written.map(exists))).toEqual(written.map(() => false));
    expect(await exists(root)).toBe(true);
  });
});

describe("sweepUploads", () => {
  it("removes the upload files of processes that are gone and old files of no known process; keeps a live process's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "arca-uploads-test-"));
    try {
      const uuid = "0b7c6c1e-5a6e-4f37-9a51-3a3b0f6a2c11";
      const dead = `${deadPid()}-${uuid}.upload`;
      const earlierSelf = `${process.pid}-${uuid}.upload`;
      const live = `${process.ppid}-${uuid}.upload`;
      for (const name of [dead, earlierSelf, live, "stray-old", "stray-new"]) await writeFile(join(dir, name), "x");
      const past = new Date(Date.now() - (LEASE + 60) * 1000);
      await utimes(join(dir, "stray-old"), past, past);
      const removed = await sweepUploads(dir, LEASE);
      expect(removed.map((path) => path.slice(dir.length + 1)).sort()).toEqual([dead, earlierSelf, "stray-old"].sort());
      expect((await readdir(dir)).sort()).toEqual([live, "stray-new"].sort());
      expect(await sweepUploads(join(dir, "missing"), LEASE)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
