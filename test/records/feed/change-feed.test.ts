// The change feed against the real service: every committed create, update and delete once, in order, resumable
// from the last sequence seen; nothing of a write that failed; the repository's feed, the type filter, waiting for
// a change; ArchivesSpace's /update-feed and /delete-feed; retention; permissions; bad parameters.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { feedCollection, prune, sequence } from "../../../src/records/feed/change-feed.js";
import { startService, type Reply, type Service } from "../../support/service.js";

type Json = Record<string, unknown>;

interface Change {
  sequence: number;
  operation: string;
  type: string;
  uri: string | null;
  repository: string | null;
  at: string;
  all?: boolean;
}

interface ChangesPage {
  changes: Change[];
  last_sequence: number;
}

let service: Service;
let repo: number;
let otherRepo: number;

const MAX_WAIT = 3;

const send = (method: string, path: string, body?: unknown, token: string | null = service.adminToken) =>
  service.send(method, path, token === null ? { ...(body !== undefined && { body }) } : { token, body });

async function created(path: string, body: Json): Promise<string> {
  const reply = await send("POST", path, body);
  expect([path, reply.status, reply.body]).toEqual([path, 200, expect.objectContaining({ status: "Created" })]);
  return (reply.body as { uri: string }).uri;
}

async function changes(query: string, token?: string): Promise<ChangesPage> {
  const reply = await send("GET", `/changes?${query}`, undefined, token);
  expect([query, reply.status]).toEqual([query, 200]);
  return reply.body as ChangesPage;
}

/** Every change after `since`, page by page, as a consumer reads them. */
async function allSince(since: number, path = "/changes"): Promise<ChangesPage> {
  const seen: Change[] = [];
  let last = since;
  for (;;) {
    const reply = await send("GET", `${path}?since=${last}&limit=7`);
    expect(reply.status).toBe(200);
    const page = reply.body as ChangesPage;
    seen.push(...page.changes);
    if (page.changes.length === 0) return { changes: seen, last_sequence: last };
    last = page.last_sequence;
  }
}

async function position(): Promise<number> {
  return (await allSince(0)).last_sequence;
}

/** A user holding exactly these codes in `repoId`, through a group of their own. */
const accession = (id0: string, title = `Accession ${id0}`) => ({
  id_0: id0,
  title,
  accession_date: "2024-01-01",
});
const idOf = (uri: string) => Number(uri.split("/").pop());

beforeAll(async () => {
  service = await startService({ dbName: "change_feed", env: { CHANGES_MAX_WAIT_SECONDS: String(MAX_WAIT) } });
  repo = idOf(await created("/repositories", { repo_code: "feed", name: "Feed" }));
  otherRepo = idOf(await created("/repositories", { repo_code: "feed2", name: "Feed 2" }));
}, 30_000);
afterAll(() => service.stop());

describe("GET /changes", () => {
  it("tells each create, update and delete once, in order, and from the last sequence seen only what followed", async () => {
    const start = await position();
    const uri = await created(`/repositories/${repo}/accessions`, accession("F-1"));
    const current = (await send("GET", uri)).body as Json;
    expect((await send("POST", uri, { ...current, title: "Renamed" })).status).toBe(200);
    const subject = await created("/subjects", subjectBody("Canals"));
    expect((await send("DELETE", uri)).status).toBe(200);

    const { changes: after, last_sequence } = await allSince(start);
    expect(after.map(({ operation, uri: at, type }) => [operation, type, at])).toEqual([
      ["create", "accession", uri],
      ["update", "accession", uri],
      ["create", "subject", subject],
      ["delete", "accession", uri],
    ]);
    expect(after.map((change) => change.sequence)).toEqual([start + 1, start + 2, start + 3, start + 4]);
    expect(after[0]).toEqual({
      sequence: start + 1,
      operation: "create",
      type: "accession",
      uri,
      repository: `/repositories/${repo}`,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(after[2]?.repository).toBeNull();
    // Resumed from the last sequence: nothing again.
    expect((await changes(`since=${last_sequence}`)).changes).toEqual([]);
    expect((await changes(`since=${last_sequence}`)).last_sequence).toBe(last_sequence);
  });

  it("holds nothing of a write that failed: an invalid record, a duplicate identifier", async () => {
    const start = await position();
    expect((await send("POST", `/repositories/${repo}/accessions`, { title: "No identifier" })).status).toBe(400);
    await created(`/repositories/${repo}/accessions`, accession("DUP"));
    const again = await send("POST", `/repositories/${repo}/accessions`, accession("DUP"));
    expect(again.status).toBe(400);
    const after = (await allSince(start)).changes;
    expect(after.map((change) => change.operation)).toEqual(["create"]);
  });

  it("numbers concurrent writes once each, without gaps, in one order every reader sees", async () => {
    const start = await position();
    const uris = await Promise.all(
      Array.from({ length: 30 }, (_, i) => created(`/repositories/${repo}/accessions`, accession(`C-${i}`))),
    );
    // Two readers at once number what is waiting: they meet on the feed's counter, and neither numbers twice.
    const [first, second] = await Promise.all([allSince(start), allSince(start)]);
    expect(first.changes.map((change) => change.sequence)).toEqual(Array.from({ length: 30 }, (_, i) => start + 1 + i));
    expect(second.changes).toEqual(first.changes);
    expect(first.changes.map((change) => change.uri).sort()).toEqual([...uris].sort());
  });

  it("numbers what two processes find waiting once (their numbering transactions meet on the counter)", async () => {
    const start = await position();
    const feed = feedCollection(service.connection);
    await Promise.all(Array.from({ length: 12 }, (_, i) => created("/subjects", subjectBody(`Waiting ${i}`))));
    const waiting = await feed.countDocuments({ seq: null });
    expect(waiting).toBe(12);
    const counts = await Promise.all([sequence(service.ops.deps.store), sequence(service.ops.deps.store)]);
    expect(counts[0] + counts[1]).toBe(12);
    const numbers = (await feed.find({ seq: { $gt: start } }).toArray()).map((entry) => entry.seq);
    expect([...numbers].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: 12 }, (_, i) => start + 1 + i),
    );
  });

  it("narrows to types; a repository's feed holds its records' changes only", async () => {
    const start = await position();
    const here = await created(`/repositories/${repo}/accessions`, accession("R-1"));
    const there = await created(`/repositories/${otherRepo}/accessions`, accession("R-2"));
    const subject = await created("/subjects", subjectBody("Locks"));
    const onlySubjects = (await changes(`since=${start}&type[]=subject`)).changes;
    expect(onlySubjects.map((change) => change.uri)).toEqual([subject]);
    const both = (await changes(`since=${start}&type[]=subject&type[]=accession`)).changes;
    expect(both.map((change) => change.uri)).toEqual([here, there, subject]);
    const inRepo = (await allSince(start, `/repositories/${otherRepo}/changes`)).changes;
    expect(inRepo.map((change) => change.uri)).toEqual([there]);
  });

  it("waits for a change with wait=, and answers at once when there is one", async () => {
    const start = await position();
    const begun = Date.now();
    const waiting = send("GET", `/changes?since=${start}&wait=${MAX_WAIT}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const uri = await created(`/repositories/${repo}/accessions`, accession("W-1"));
    const reply = await waiting;
    expect(reply.status).toBe(200);
    expect((reply.body as ChangesPage).changes.map((change) => change.uri)).toEqual([uri]);
    expect(Date.now() - begun).toBeLessThan(MAX_WAIT * 1000);
    // Nothing new: the answer comes after the wait, empty.
    const last = (reply.body as ChangesPage).last_sequence;
    const idle = Date.now();
    expect((await changes(`since=${last}&wait=1`)).changes).toEqual([]);
    expect(Date.now() - idle).toBeGreaterThanOrEqual(900);
  });

  it("answers 400 naming each bad parameter", async () => {
    const cases: Array<[string, string]> = [
      ["since=-1", "since"],
      ["since=x", "since"],
      [`wait=${MAX_WAIT + 1}`, "wait"],
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["type[]=nothing", "type[]"],
      ["since=1&since=2", "since"],
    ];
    for (const [query, name] of cases) {
      const reply = await send("GET", `/changes?${query}`);
      expect([query, reply.status, reply.body]).toEqual([query, 400, { error: { [name]: [expect.any(String)] } }]);
    }
  });

  it("403 without a session or the permission; 404 for a repository that does not exist", async () => {
    const viewer = await service.userWith("feed-viewer", repo, ["view_repository"]);
    expect((await send("GET", "/changes", undefined, null)).status).toBe(403);
    expect((await send("GET", "/changes", undefined, viewer)).status).toBe(403);
    expect((await send("GET", `/repositories/${repo}/changes`, undefined, viewer)).status).toBe(200);
    expect((await send("GET", `/repositories/${otherRepo}/changes`, undefined, viewer)).status).toBe(403);
    const missing = await send("GET", "/repositories/999/changes");
    expect([missing.status, missing.body]).toEqual([404, { error: "Repository not found" }]);
    expect((await send("GET", "/update-feed", undefined, viewer)).status).toBe(403);
    expect((await send("GET", "/delete-feed?page=1", undefined, viewer)).status).toBe(403);
  });

  it("a repository deleted with its records: the repository's delete and one `all` per type it held", async () => {
    const doomed = idOf(await created("/repositories", { repo_code: "doomed", name: "Doomed" }));
    await created(`/repositories/${doomed}/accessions`, accession("D-1"));
    const start = await position();
    const reply = await send("DELETE", `/repositories/${doomed}`);
    expect(reply.status).toBe(200);
    const after = (await allSince(start)).changes;
    expect(after).toContainEqual(expect.objectContaining({ operation: "delete", uri: `/repositories/${doomed}` }));
    expect(after).toContainEqual(
      expect.objectContaining({
        operation: "delete",
        type: "accession",
        uri: null,
        repository: `/repositories/${doomed}`,
        all: true,
      }),
    );
  });
});

function subjectBody(term: string): Json {
  return {
    terms: [{ term, term_type: "topical", vocabulary: "/vocabularies/1" }],
    vocabulary: "/vocabularies/1",
    source: "local",
  };
}

describe("ArchivesSpace's /update-feed and /delete-feed", () => {
  it('/update-feed: each changed record\'s JSON as it is now, or "deleted", after last_sequence', async () => {
    const start = await position();
    const kept = await created(`/repositories/${repo}/accessions`, accession("U-1", "Kept"));
    const gone = await created(`/repositories/${repo}/accessions`, accession("U-2", "Gone"));
    expect((await send("DELETE", gone)).status).toBe(200);
    const reply = await send("GET", `/update-feed?last_sequence=${start}`);
    expect(reply.status).toBe(200);
    const updates = reply.body as Array<{ sequence: number; uri: string; record: Json | string; timestamp: number }>;
    expect(updates.map(({ uri, sequence: n }) => [uri, n])).toEqual([
      [kept, start + 1],
      [gone, start + 2],
      [gone, start + 3],
    ]);
    expect(updates[0]?.record).toEqual(
      expect.objectContaining({ uri: kept, title: "Kept", jsonmodel_type: "accession" }),
    );
    expect(updates[1]?.record).toBe("deleted");
    expect(updates[2]?.record).toBe("deleted");
    expect(typeof updates[0]?.timestamp).toBe("number");
    const bad = await send("GET", "/update-feed?last_sequence=-3");
    expect([bad.status, bad.body]).toEqual([400, { error: { last_sequence: [expect.any(String)] } }]);
  });

  it("/update-feed: resolve[] embeds the linked records, as a read does; a malformed one is a 400", async () => {
    const subject = await created("/subjects", subjectBody("Feed resolve"));
    const start = await position();
    const linked = await created(`/repositories/${repo}/accessions`, {
      ...accession("U-R", "Linked"),
      subjects: [{ ref: subject }],
    });
    const reply = await send("GET", `/update-feed?last_sequence=${start}&resolve[]=subjects`);
    const [update] = reply.body as Array<{ uri: string; record: Json }>;
    expect(update?.uri).toBe(linked);
    expect(update?.record.subjects).toEqual([
      expect.objectContaining({
        ref: subject,
        _resolved: expect.objectContaining({ uri: subject, title: "Feed resolve" }),
      }),
    ]);
    const bad = await send("GET", `/update-feed?last_sequence=${start}&resolve[]=sub%20jects`);
    expect([bad.status, bad.body]).toEqual([400, { error: { "resolve[]": [expect.any(String)] } }]);
  });

  it("/delete-feed: the uris deleted since a time, paged", async () => {
    const before = Math.floor(Date.now() / 1000);
    const deleted: string[] = [];
    for (let i = 0; i < 3; i++) {
      const uri = await created(`/repositories/${repo}/accessions`, accession(`DF-${i}`));
      expect((await send("DELETE", uri)).status).toBe(200);
      deleted.push(uri);
    }
    type DeletePage = { first_page: number; last_page: number; this_page: number; results: string[] };
    const pageOf = async (n: number) =>
      (await send("GET", `/delete-feed?page=${n}&page_size=2&modified_since=${before}`)).body as DeletePage;
    const first = await pageOf(1);
    expect(first).toEqual(expect.objectContaining({ first_page: 1, this_page: 1 }));
    expect(first.results).toHaveLength(2);
    const all = [...first.results];
    for (let n = 2; n <= first.last_page; n++) all.push(...(await pageOf(n)).results);
    // Oldest first; earlier deletes of the same second come before these.
    expect(all.slice(-3)).toEqual(deleted);
    const future = await send("GET", `/delete-feed?page=1&modified_since=${before + 3600}`);
    expect(future.body).toEqual({ first_page: 1, last_page: 1, this_page: 1, total: 0, results: [] });
    const noPage = await send("GET", "/delete-feed");
    expect([noPage.status, noPage.body]).toEqual([400, { error: { page: [expect.any(String)] } }]);
  });
});

describe("retention", () => {
  it("removes what is past it; a reader asking from before it is told (410), the update feed answers what is left", async () => {
    const old = await position();
    await created(`/repositories/${repo}/accessions`, accession("OLD-1"));
    const kept = await position();
    // Everything written so far counts as past retention.
    const removed = await prune(service.connection, new Date(Date.now() + 1000));
    expect(removed).toBeGreaterThan(0);
    const refused: Reply = await send("GET", `/changes?since=${old}`);
    expect([refused.status, refused.body]).toEqual([410, { error: { since: [expect.stringContaining(`${kept}`)] } }]);
    expect((await send("GET", `/changes?since=${kept}`)).status).toBe(200);
    const fresh = await created(`/repositories/${repo}/accessions`, accession("NEW-1"));
    expect((await allSince(kept)).changes.map((change) => change.uri)).toEqual([fresh]);
    const updates = await send("GET", "/update-feed?last_sequence=0");
    expect(updates.status).toBe(200);
    expect((updates.body as Array<{ uri: string }>).map((update) => update.uri)).toEqual([fresh]);
  });
});
