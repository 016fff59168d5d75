// Feed entries and their changes commit together: a failure of the feed's write leaves neither the record nor an
// entry (and the same write then succeeds whole, with its entry); a batch of creates is one entry per record; the
// many changes of one transaction (a cascade) are inserted with one command, as it ends.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { trusted } from "../../../src/auth/actor.js";
import { feedCollection } from "../../../src/records/feed/change-feed.js";
import { openTestStore, type TestStore } from "../../support/service.js";

const system = trusted("system");
let store: TestStore;
let repoId: number;

const failPoint = (mode: unknown) =>
  store.connection.db!.admin().command({
    configureFailPoint: "failCommand",
    mode,
    data: { failCommands: ["insert"], errorCode: 1 },
  });

const entriesOf = (uri: string) => feedCollection(store.connection).find({ uri }).toArray();

beforeAll(async () => {
  store = await openTestStore({ testCommands: true, monitorCommands: true });
  repoId = (await store.ops.create("repository", {}, { repo_code: "FEED", name: "Feed" }, system)).id;
}, 60_000);

afterAll(() => store.close());

describe("feed entries commit with their changes", () => {
  it("a create whose feed write fails leaves no record and no entry; the same create then succeeds whole", async () => {
    const vocabularies = store.ops.deps.store.collection("vocabulary");
    const before = await vocabularies.countDocuments({});
    const entries = await feedCollection(store.connection).countDocuments({});
    // The record's insert passes; the feed's insert after it fails.
    await failPoint({ skip: 1 });
    try {
      await expect(store.ops.create("vocabulary", {}, { name: "Half", ref_id: "half" }, system)).rejects.toThrow(
        /failCommand/,
      );
    } finally {
      await failPoint("off");
    }
    expect(await vocabularies.countDocuments({})).toBe(before);
    expect(await feedCollection(store.connection).countDocuments({})).toBe(entries);
    const { uri } = await store.ops.create("vocabulary", {}, { name: "Whole", ref_id: "half" }, system);
    expect(await entriesOf(uri)).toEqual([
      expect.objectContaining({ operation: "create", type: "vocabulary", uri, repository: null, seq: null }),
    ]);
  });

  it("an update or delete whose feed write fails changes nothing", async () => {
    const input = { title: "Kept", id_0: "K-1", accession_date: "2020-01-01" };
    const { uri, id } = await store.ops.create("accession", { repoId }, input, system);
    const stored = await store.ops.read("accession", { repoId }, id, system);
    await failPoint({ times: 1 });
    try {
      await expect(
        store.ops.update("accession", { repoId }, id, { ...stored, title: "Changed" }, system),
      ).rejects.toThrow(/failCommand/);
    } finally {
      await failPoint("off");
    }
    expect((await store.ops.read("accession", { repoId }, id, system)).title).toBe("Kept");
    await failPoint({ times: 1 });
    try {
      await expect(store.ops.delete("accession", { repoId }, id, system)).rejects.toThrow(/failCommand/);
    } finally {
      await failPoint("off");
    }
    expect((await store.ops.read("accession", { repoId }, id, system)).title).toBe("Kept");
    expect((await entriesOf(uri)).map((entry) => entry.operation)).toEqual(["create"]);
  });

  it("a batch of creates adds one entry per record, in the batch's order", async () => {
    const inputs = [0, 1, 2].map((i) => ({ input: { name: `Batch ${i}`, ref_id: `batch_${i}` } }));
    const results = await store.ops.createMany("vocabulary", {}, inputs, system);
    const uris = results.map((result) => result.uri);
    const written = await feedCollection(store.connection)
      .find({ uri: { $in: uris } })
      .sort({ _id: 1 })
      .toArray();
    expect(written.map((entry) => entry.uri)).toEqual(uris);
  });

  it("a resource deleted with its components: one entry each, inserted with one command", async () => {
    const resource = await store.ops.create(
      "resource",
      { repoId },
      {
        title: "Cascade",
        id_0: "CASCADE",
        level: "collection",
        extents: [{ portion: "whole", number: "1", extent_type: "cubic_feet" }],
        dates: [{ date_type: "single", label: "creation", begin: "1900" }],
        finding_aid_language: "eng",
        finding_aid_script: "Latn",
        lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
      },
      system,
    );
    const components = [];
    for (let i = 0; i < 3; i++)
      components.push(
        await store.ops.create(
          "archival_object",
          { repoId },
          { title: `Part ${i}`, level: "file", resource: { ref: resource.uri } },
          system,
        ),
      );
    store.commands!.clear();
    await store.ops.delete("resource", { repoId }, resource.id, system);
    const inserts = store.commands!.started.filter(
      (event) => event.commandName === "insert" && event.command.insert === "arca_changes",
    );
    expect(inserts).toHaveLength(1);
    const deleted = await feedCollection(store.connection)
      .find({ operation: "delete", uri: { $in: [resource.uri, ...components.map((one) => one.uri)] } })
      .toArray();
    expect(deleted.map((entry) => entry.uri).sort()).toEqual(
      [resource.uri, ...components.map((one) => one.uri)].sort(),
    );
  });
});
