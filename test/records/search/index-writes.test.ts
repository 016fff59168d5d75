// The search index written in the same transaction as the records: a failure of the index write leaves neither
// the record nor its entry (and the same write then succeeds whole); an import's batch is indexed with it; a
// repository's delete takes its entries; reindex rebuilds entries and removes orphans, and the check finds both
// kinds of difference.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { trusted } from "../../../src/auth/actor.js";
import { SEARCH_COLLECTION } from "../../../src/records/search/entries.js";
import { inconsistencies, reindex } from "../../../src/records/search/reindex.js";
import { openTestStore, type TestStore } from "../../support/service.js";

const system = trusted("system");
let store: TestStore;
let repoId: number;
let vocabulary: string;

const index = () => store.connection.collection(SEARCH_COLLECTION);
const entry = (uri: string) => index().findOne({ _id: uri as never });

async function failIndexWrites(): Promise<void> {
  // The entries are written with one bulk write: an upsert is an "update" command.
  await store.connection.db!.admin().command({
    configureFailPoint: "failCommand",
    mode: { times: 1 },
    data: { failCommands: ["update"], errorCode: 1 },
  });
}

beforeAll(async () => {
  store = await openTestStore({ testCommands: true });
  repoId = (await store.ops.create("repository", {}, { repo_code: "IDX", name: "Index" }, system)).id;
  vocabulary = (await store.ops.create("vocabulary", {}, { name: "Local", ref_id: "local" }, system)).uri;
}, 60_000);

afterAll(() => store.close());

describe("index entries and their records commit together", () => {
  it("a create whose index write fails leaves no record and no entry; the same create then succeeds whole", async () => {
    const accessions = store.ops.deps.store.collection("accession");
    const before = await accessions.countDocuments({});
    await failIndexWrites();
    await expect(
      store.ops.create("accession", { repoId }, { title: "Half", id_0: "H-1", accession_date: "2020-01-01" }, system),
    ).rejects.toThrow(/failCommand/);
    expect(await accessions.countDocuments({})).toBe(before);
    const { uri } = await store.ops.create(
      "accession",
      { repoId },
      { title: "Whole", id_0: "H-1", accession_date: "2020-01-01" },
      system,
    );
    expect(await entry(uri)).toEqual(expect.objectContaining({ title: "Whole", primary_type: "accession" }));
  });

  it("an update whose index write fails changes nothing; a delete takes the entry", async () => {
    const { uri, id } = await store.ops.create("subject", {}, subjectInput("Canals"), system);
    const stored = await store.ops.read("subject", {}, id, system);
    await failIndexWrites();
    await expect(
      store.ops.update("subject", {}, id, { ...stored, terms: [termInput("Locks")] }, system),
    ).rejects.toThrow(/failCommand/);
    expect((await store.ops.read("subject", {}, id, system)).title).toBe("Canals");
    expect((await entry(uri))?.title).toBe("Canals");
    await store.ops.update("subject", {}, id, { ...stored, terms: [termInput("Locks")] }, system);
    expect((await entry(uri))?.title).toBe("Locks");
    await store.ops.delete("subject", {}, id, system);
    expect(await entry(uri)).toBeNull();
  });

  it("a batch of creates is indexed with it; a repository's delete takes every entry of it", async () => {
    const other = (await store.ops.create("repository", {}, { repo_code: "GONE", name: "Gone" }, system)).id;
    const created = await store.ops.createMany(
      "accession",
      { repoId: other },
      Array.from({ length: 30 }, (_, i) => ({
        input: { title: `Batch ${i}`, id_0: `B-${i}`, accession_date: "2021-01-01" },
      })),
      system,
    );
    expect(await index().countDocuments({ _id: { $in: created.map((one) => one.uri) as never[] } })).toBe(30);
    await store.ops.delete("repository", {}, other, system);
    expect(await index().countDocuments({ repository: `/repositories/${other}`, primary_type: "accession" })).toBe(0);
  });
});

describe("reindex and the consistency check", () => {
  it("finds a missing entry and an orphan, and reindex mends both", async () => {
    const { uri } = await store.ops.create("subject", {}, subjectInput("Aqueducts"), system);
    await index().deleteOne({ _id: uri as never });
    await index().insertOne({ _id: "/subjects/999999" as never, primary_type: "subject" });
    expect(await inconsistencies(store.ops.deps)).toEqual({ missing: [uri], orphans: ["/subjects/999999"] });
    const summary = await reindex(store.ops.deps);
    expect(summary.entries.subject).toBeGreaterThanOrEqual(1);
    expect(await inconsistencies(store.ops.deps)).toEqual({ missing: [], orphans: [] });
    expect((await entry(uri))?.title).toBe("Aqueducts");
  });

  it("an entry written from a record as created or replaced is the one reindex builds from the stored record", async () => {
    // A create and a replacement hand their records to the index as written, unread: what the store holds must
    // index the same (values the store drops or converts, links' titles, computed fields).
    const agent = await store.ops.create(
      "agent_person",
      {},
      { names: [{ primary_name: "Olmsted", rest_of_name: "Frederick Law", name_order: "inverted", source: "local" }] },
      system,
    );
    const subject = await store.ops.create("subject", {}, subjectInput("Parks"), system);
    const input = {
      title: "Park <emph render='italic'>plans</emph>",
      id_0: "ENT-1",
      accession_date: "2020-05-01",
      content_description: "Drawings of the Emerald Necklace, café sketches and letters.",
      publish: true,
      subjects: [{ ref: subject.uri }],
      linked_agents: [{ ref: agent.uri, role: "creator" }],
      dates: [{ label: "creation", date_type: "inclusive", begin: "1878", end: "1895" }],
      extents: [{ portion: "whole", number: "3", extent_type: "linear_feet" }],
    };
    const created = await store.ops.create("accession", { repoId }, input, system);
    const replaced = await store.ops.create("accession", { repoId }, { ...input, id_0: "ENT-2" }, system);
    const stored = await store.ops.read("accession", { repoId }, replaced.id, system);
    await store.ops.update(
      "accession",
      { repoId },
      replaced.id,
      { ...stored, title: "Parkway plans", content_description: undefined },
      system,
    );
    const uris = [created.uri, replaced.uri, agent.uri, subject.uri];
    const written = await Promise.all(uris.map(entry));
    expect(written.map((one) => one?.title)).toEqual([
      "Park  plans ", // markup out of the title's text
      "Parkway plans",
      "Olmsted, Frederick Law",
      "Parks",
    ]);
    await reindex(store.ops.deps);
    expect(await Promise.all(uris.map(entry))).toEqual(written);
  });
});

function termInput(term: string) {
  return { term, term_type: "topical", vocabulary };
}

function subjectInput(term: string) {
  return { source: "local", vocabulary, terms: [termInput(term)] };
}
