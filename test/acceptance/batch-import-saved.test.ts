// The batch import's ArchivesSpace answer (docs/api.md §16): beside Arca's summary, `saved` maps each
// temporary uri of the batch to [real uri, id], so a client can find what it sent; `skip_results=true`
// leaves it out, as in ArchivesSpace; a dry run and a failed batch have none.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Service } from "../support/service.js";

let service: Service;
let repo: number;

type Json = Record<string, unknown>;

let seq = 0;
function subject(uri: string, extra: Json = {}): Json {
  seq += 1;
  return {
    jsonmodel_type: "subject",
    uri,
    source: "local",
    vocabulary: "/vocabularies/1",
    terms: [{ term: `Saved term ${seq}`, term_type: "topical", vocabulary: "/vocabularies/1" }],
    ...extra,
  };
}

async function importBatch(batch: unknown[], query = "") {
  return service.send("POST", `/repositories/${repo}/batch_imports${query}`, {
    token: service.adminToken,
    body: JSON.stringify(batch),
    headers: { "Content-Type": "application/json" },
  });
}

beforeAll(async () => {
  service = await startService();
  const created = await service.send("POST", "/repositories", {
    token: service.adminToken,
    body: { repo_code: "BATCH", name: "Batch" },
  });
  repo = (created.body as { id: number }).id;
});
afterAll(() => service.stop());

describe("saved, ArchivesSpace's answer to a batch import", () => {
  it("maps each temporary uri to the record's real uri and id, the summary unchanged beside it", async () => {
    const batch = [
      subject("/subjects/import_one"),
      {
        jsonmodel_type: "accession",
        uri: `/repositories/${repo}/accessions/import_acc`,
        title: "Saved accession",
        id_0: "SAVED",
        accession_date: "2024-01-01",
        subjects: [{ ref: "/subjects/import_one" }],
      },
    ];
    const reply = await importBatch(batch);
    expect(reply.status).toBe(200);
    const body = reply.body as Json & { saved: Record<string, [string, number]> };
    expect(body).toMatchObject({ outcome: "imported", created: { subject: 1, accession: 1 }, errors: [] });
    expect(Object.keys(body.saved).sort()).toEqual(
      ["/subjects/import_one", `/repositories/${repo}/accessions/import_acc`].sort(),
    );
    const [subjectUri, subjectId] = body.saved["/subjects/import_one"]!;
    expect(subjectUri).toBe(`/subjects/${subjectId}`);
    const [accessionUri, accessionId] = body.saved[`/repositories/${repo}/accessions/import_acc`]!;
    expect(accessionUri).toBe(`/repositories/${repo}/accessions/${accessionId}`);
    const accession = await service.send("GET", accessionUri, { token: service.adminToken });
    expect(accession.status).toBe(200);
    expect((accession.body as Json).subjects).toEqual([{ ref: subjectUri }]);
  });

  it("skip_results=true leaves it out; a dry run has none; a bad skip_results is a 400 naming it", async () => {
    const skipped = await importBatch([subject("/subjects/import_skip")], "?skip_results=true");
    expect(skipped.status).toBe(200);
    expect(skipped.body).toMatchObject({ outcome: "imported", created: { subject: 1 } });
    expect(skipped.body).not.toHaveProperty("saved");
    const dry = await importBatch([subject("/subjects/import_dry")], "?dry_run=true");
    expect(dry.status).toBe(200);
    expect(dry.body).not.toHaveProperty("saved");
    const bad = await importBatch([subject("/subjects/import_bad")], "?skip_results=perhaps");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { skip_results: [expect.any(String)] } });
  });

  it("a failed batch has no saved map and writes nothing", async () => {
    const reply = await importBatch([
      subject("/subjects/import_ok"),
      subject("/subjects/import_broken", { terms: [] }),
    ]);
    expect(reply.status).toBe(400);
    const summary = (reply.body as { summary: Json }).summary;
    expect(summary.outcome).toBe("failed");
    expect(summary).not.toHaveProperty("saved");
  });

  it("a temporary uri that would reach an object's prototype is a plain key, not a prototype change", async () => {
    const reply = await importBatch([subject("__proto__")]);
    // Whatever the import makes of such a uri, the answer is an answer, never a 500.
    expect([200, 400]).toContain(reply.status);
    if (reply.status === 200) expect(Object.keys((reply.body as { saved: Json }).saved)).toEqual(["__proto__"]);
  });
});
