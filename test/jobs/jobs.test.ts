// Jobs over HTTP, run by workers on the service's store: an import job's files streamed in, imported all or nothing
// (a bad file, a cancel, a worker killed half-way: nothing kept, or the job run again whole and exactly once), its
// log, records and outputs; report jobs' CSV; and every refusal a caller can cause.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { openJobs, JobWorker, type Jobs } from "../../src/jobs/index.js";
import { JOB_FILES_BUCKET } from "../../src/jobs/job-files.js";
import { DEFAULT_IMPORT_LIMITS } from "../../src/importers/limits.js";
import { exited, waitForLine } from "../support/process.js";
import { startService, type Service } from "../support/service.js";

type Json = Record<string, unknown>;
const DATA = join(process.cwd(), "..", "shared", "data");
const FILE_LIMIT = 2_000_000;
const WORKER_MAIN = join(process.cwd(), "dist", "src", "jobs", "worker-main.js");

let service: Service;
let jobs: Jobs;
let worker: JobWorker;
let repo: number;
let otherRepo: number;

const send = (method: string, path: string, body?: unknown, token = service.adminToken) =>
  service.send(method, path, { token, ...(body !== undefined && { body }) });

async function created(path: string, body: unknown): Promise<string> {
  const reply = await send("POST", path, body);
  expect([path, reply.status, reply.text]).toEqual([path, 200, expect.any(String)]);
  return (reply.body as { uri: string }).uri;
}
const idOf = (uri: string) => Number(uri.split("/").pop());

const importJob = (importType: string, filenames: string[] = []) =>
  JSON.stringify({
    jsonmodel_type: "job",
    job_type: "import_job",
    job: { jsonmodel_type: "import_job", import_type: importType, filenames },
  });

/** POST …/jobs_with_files as a multipart form, as ArchivesSpace clients send it. */
async function upload(
  repoId: number,
  job: string | undefined,
  files: Array<{ name: string; content: string | Buffer; field?: string }>,
  token: string | null = service.adminToken,
): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  if (job !== undefined) form.append("job", job);
  for (const file of files) form.append(file.field ?? "files[]", new Blob([file.content]), file.name);
  const response = await fetch(`${service.url}/repositories/${repoId}/jobs_with_files`, {
    method: "POST",
    body: form,
    headers: token === null ? {} : { "X-ArchivesSpace-Session": token },
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function job(repoId: number, id: number): Promise<Json> {
  const reply = await send("GET", `/repositories/${repoId}/jobs/${id}`);
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

async function log(repoId: number, id: number, offset = 0): Promise<string> {
  const reply = await send("GET", `/repositories/${repoId}/jobs/${id}/log?offset=${offset}`);
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toMatch(/^text\/plain/);
  return reply.text;
}

const count = (type: string) => service.ops.deps.store.collection(type).countDocuments({});

/** A generated EAD 2002 finding aid with `components` files in one series. */
function generatedEad(eadid: string, components: number): string {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?><ead xmlns="urn:isbn:1-931666-22-9"><eadheader><eadid>${eadid}</eadid>`,
    `<filedesc><titlestmt><titleproper>${eadid}</titleproper></titlestmt></filedesc></eadheader>`,
    `<archdesc level="collection"><did><unittitle>${eadid} papers</unittitle><unitid>${eadid}</unitid>`,
    `<unitdate normal="1900/1950">1900-1950</unitdate><physdesc><extent>2 linear feet</extent></physdesc></did>`,
    `<dsc><c01 level="series"><did><unittitle>Series</unittitle></did>`,
  ];
  for (let i = 1; i <= components; i++)
    parts.push(`<c02 level="file"><did><unittitle>Folder ${i}</unittitle><unitdate>19${i % 50}</unitdate></did></c02>`);
  parts.push("</c01></dsc></archdesc></ead>");
  return parts.join("");
}

/** A user holding exactly these codes in `repoId`, through a group of their own. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resume) => setTimeout(resume, 20));
  }
}

beforeAll(async () => {
  service = await startService({ dbName: "jobs", env: { JOB_FILE_LIMIT_BYTES: String(FILE_LIMIT) } });
  jobs = await openJobs(service.connection, 30);
  worker = new JobWorker({
    operations: service.ops,
    ...jobs,
    limits: DEFAULT_IMPORT_LIMITS,
    pollMs: 50,
    batchRecords: 100,
    maxAttempts: 2,
    heartbeatMs: 25,
  });
  repo = idOf(await created("/repositories", { repo_code: "jobs", name: "Jobs" }));
  otherRepo = idOf(await created("/repositories", { repo_code: "jobs2", name: "Jobs 2" }));
}, 30_000);
afterAll(() => service.stop());

describe("an import job", () => {
  it("imports every file it was given, outside the request, and tells its records, log and summary", async () => {
    const ferris = await readFile(join(DATA, "ead2002", "ferris.xml"));
    const ead3 = await readFile(join(DATA, "ead3", "EAD3test.xml"));
    const resources = await count("resource");
    const submitted = await upload(repo, importJob("ead_xml", ["ferris.xml", "EAD3test.xml"]), [
      { name: "ferris.xml", content: ferris },
      { name: "../../EAD3test.xml", content: ead3, field: "files[1]" },
    ]);
    expect(submitted).toEqual({
      status: 200,
      body: expect.objectContaining({
        status: "Created",
        uri: expect.stringMatching(/^\/repositories\/\d+\/jobs\/\d+$/),
      }),
    });
    const id = submitted.body.id as number;
    // Queued: nothing is imported by the request.
    expect(await job(repo, id)).toMatchObject({ status: "queued", queue_position: 1, owner: "admin" });
    expect(await count("resource")).toBe(resources);

    expect(await worker.runOne()).toBe(true);
    const ended = await job(repo, id);
    expect(ended).toMatchObject({
      jsonmodel_type: "job",
      job_type: "import_job",
      job: { jsonmodel_type: "import_job", import_type: "ead_xml", filenames: ["ferris.xml", "EAD3test.xml"] },
      status: "completed",
      attempts: 1,
    });
    expect(Date.parse(ended.time_finished as string)).toBeGreaterThanOrEqual(Date.parse(ended.time_started as string));
    expect(await count("resource")).toBe(resources + 2);

    const text = await log(repo, id);
    expect(text).toMatch(/Importing ferris\.xml \(ead, \d+ bytes\), file 1 of 2/);
    expect(text).toMatch(/Importing EAD3test\.xml \(ead3/);
    expect(text).toMatch(/Warning: EAD3test\.xml, line \d+/);
    expect(text).toMatch(/Completed\n$/);
    // From an offset: the bytes after it.
    const bytes = Buffer.byteLength(text);
    expect(await log(repo, id, bytes - 10)).toBe(
      Buffer.from(text)
        .subarray(bytes - 10)
        .toString(),
    );
    expect(await log(repo, id, bytes + 100)).toBe("");

    const first = await send("GET", `/repositories/${repo}/jobs/${id}/records?page=1&page_size=5`);
    const page = first.body as { total: number; last_page: number; results: Array<{ record: { ref: string } }> };
    expect(page.results).toHaveLength(5);
    expect(page.last_page).toBe(Math.ceil(page.total / 5));
    const refs: string[] = [];
    for (let p = 1; p <= page.last_page; p++) {
      const reply = await send("GET", `/repositories/${repo}/jobs/${id}/records?page=${p}&page_size=5`);
      refs.push(...(reply.body as typeof page).results.map((item) => item.record.ref));
    }
    expect(new Set(refs).size).toBe(page.total);
    expect(refs.filter((ref) => /\/resources\//.test(ref))).toHaveLength(2);
    for (const ref of [refs[0], refs.at(-1)]) expect((await send("GET", ref as string)).status).toBe(200);

    const outputs = (await send("GET", `/repositories/${repo}/jobs/${id}/output_files`)).body as number[];
    expect(outputs).toHaveLength(1);
    const summary = await send("GET", `/repositories/${repo}/jobs/${id}/output_files/${outputs[0]}`);
    expect(summary.headers.get("content-type")).toBe("application/json");
    expect(summary.body).toEqual([
      expect.objectContaining({ file: "ferris.xml", outcome: "imported" }),
      expect.objectContaining({ file: "EAD3test.xml", outcome: "imported" }),
    ]);
  });

  it("keeps nothing when one of its files is bad, and says where", async () => {
    const before = { resource: await count("resource"), archival_object: await count("archival_object") };
    const submitted = await upload(repo, importJob("ead"), [
      { name: "good.xml", content: generatedEad("GOOD-1", 20) },
      { name: "bad.xml", content: generatedEad("BAD-1", 5).replace("</c01>", "</c03></c01>") },
    ]);
    expect(submitted.status).toBe(200);
    const id = submitted.body.id as number;
    await worker.runOne();
    expect(await job(repo, id)).toMatchObject({ status: "failed" });
    expect({ resource: await count("resource"), archival_object: await count("archival_object") }).toEqual(before);
    const text = await log(repo, id);
    expect(text).toMatch(/good\.xml: created 1 resource, 21 archival_object/);
    expect(text).toMatch(/Error: bad\.xml, line \d+/);
    expect(text).toMatch(/Undid the 22 records/);
    expect(text).toMatch(/Failed; nothing kept\n$/);
    const records = await send("GET", `/repositories/${repo}/jobs/${id}/records?page=1`);
    expect(records.body).toMatchObject({ total: 0, results: [] });
  });

  it("tells a file that is not the import type it names", async () => {
    const submitted = await upload(repo, importJob("ead_xml"), [{ name: "x.xml", content: "<eac-cpf/>" }]);
    await worker.runOne();
    expect(await job(repo, submitted.body.id as number)).toMatchObject({ status: "failed" });
    expect(await log(repo, submitted.body.id as number)).toMatch(/x\.xml: not ead_xml \(ead or ead3\)/);
  });
});

describe("cancel", () => {
  it("cancels a queued job at once; a worker never runs it", async () => {
    const submitted = await upload(repo, importJob("ead"), [{ name: "q.xml", content: generatedEad("Q-1", 3) }]);
    const id = submitted.body.id as number;
    const canceled = await send("POST", `/repositories/${repo}/jobs/${id}/cancel`);
    expect(canceled.body).toMatchObject({ status: "canceled", time_finished: expect.any(String) });
    expect(await worker.runOne()).toBe(false);
    // Canceling an ended job changes nothing.
    expect((await send("POST", `/repositories/${repo}/jobs/${id}/cancel`)).body).toMatchObject({ status: "canceled" });
  });

  it("stops a running import between batches and undoes what it wrote", async () => {
    const before = await count("archival_object");
    const submitted = await upload(repo, importJob("ead"), [{ name: "big.xml", content: generatedEad("BIG-1", 6000) }]);
    const id = submitted.body.id as number;
    const running = worker.runOne();
    await waitFor("the import's first batch", async () => ((await job(repo, id)).progress ? true : undefined));
    const asked = await send("POST", `/repositories/${repo}/jobs/${id}/cancel`);
    expect(asked.body).toMatchObject({ status: "running", cancel_requested: true });
    await running;
    expect(await job(repo, id)).toMatchObject({ status: "canceled" });
    expect(await count("archival_object")).toBe(before);
    expect(await log(repo, id)).toMatch(/Canceled; nothing kept\n$/);
  }, 60_000);
});

describe("a worker killed half-way", () => {
  it("leaves nothing half-written: the job is run again whole, once", async () => {
    const components = 1000;
    const before = { resource: await count("resource"), archival_object: await count("archival_object") };
    const submitted = await upload(repo, importJob("ead"), [
      { name: "crash.xml", content: generatedEad("CRASH-1", components) },
    ]);
    const id = submitted.body.id as number;
    // A real worker process on the service's store, killed once it has written a batch.
    const child = spawn(process.execPath, [WORKER_MAIN], {
      env: { ...process.env, MONGODB_URI: service.engineUri, MONGODB_DB: "jobs", JOB_POLL_MS: "50" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await waitForLine(child, /running jobs/, "worker");
    await waitFor("a written batch", async () => {
      const progress = (await job(repo, id)).progress as { records: number } | undefined;
      return progress !== undefined && progress.records > 1 ? true : undefined;
    });
    child.kill("SIGKILL");
    await exited(child);
    expect(await count("archival_object")).toBeGreaterThan(before.archival_object);

    // Its lease has not run out, but its process is gone: this worker takes the job over at once.
    expect(await worker.runOne()).toBe(true);
    expect(await job(repo, id)).toMatchObject({ status: "completed", attempts: 2 });
    expect({ resource: await count("resource"), archival_object: await count("archival_object") }).toEqual({
      resource: before.resource + 1,
      archival_object: before.archival_object + components + 1,
    });
    expect(await log(repo, id)).toMatch(/Run 2: the worker of the run before stopped/);
  }, 90_000);
});

describe("a report job", () => {
  it("writes the repository's accessions as CSV, cells that look like formulas quoted", async () => {
    await created(`/repositories/${repo}/accessions`, {
      id_0: "R-1",
      id_1: "2024",
      title: '=HYPERLINK("http://evil")',
      accession_date: "2024-01-01",
      extents: [{ portion: "whole", number: "3", extent_type: "linear_feet" }],
    });
    await created(`/repositories/${otherRepo}/accessions`, {
      id_0: "O-1",
      title: "Other",
      accession_date: "2024-01-01",
    });
    const reply = await send("POST", `/repositories/${repo}/jobs`, {
      job_type: "report_job",
      job: { jsonmodel_type: "report_job", report_type: "accession_report", format: "csv" },
    });
    expect(reply.status).toBe(200);
    const id = (reply.body as Json).id as number;
    await worker.runOne();
    expect(await job(repo, id)).toMatchObject({ status: "completed", job: { report_type: "accession_report" } });
    const [fileId] = (await send("GET", `/repositories/${repo}/jobs/${id}/output_files`)).body as number[];
    const csv = await send("GET", `/repositories/${repo}/jobs/${id}/output_files/${fileId}`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="accession_report.csv"');
    const lines = csv.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("uri,identifier,title,accession_date,acquisition_type,resource_type,extents,dates,publish");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^\/repositories\/\d+\/accessions\/\d+,R-1-2024,"'=HYPERLINK\(""http:\/\/evil""\)",2024-01-01/,
    );
    expect(lines[1]).toContain("3 linear_feet (whole)");
  });

  it("needs the report's own permission: the user report, manage_users", async () => {
    const token = await service.userWith("reporter", repo, ["create_job", "view_repository"]);
    const body = (report: string) => ({ job_type: "report_job", job: { report_type: report, format: "csv" } });
    expect((await send("POST", `/repositories/${repo}/jobs`, body("user_report"), token)).status).toBe(403);
    const located = await send("POST", `/repositories/${repo}/jobs`, body("location_report"), token);
    expect(located.status).toBe(200);
    await worker.runOne();
    expect(await job(repo, (located.body as Json).id as number)).toMatchObject({
      status: "completed",
      owner: "reporter",
    });
  });
});

describe("lists, types, delete", () => {
  it("lists jobs newest first, active ones running then queued, archived ones latest ended first", async () => {
    const a = await upload(repo, importJob("ead"), [{ name: "a.xml", content: generatedEad("LIST-A", 1) }]);
    const b = await upload(repo, importJob("ead"), [{ name: "b.xml", content: generatedEad("LIST-B", 1) }]);
    const active = (await send("GET", `/repositories/${repo}/jobs/active`)).body as Json[];
    expect(active.map((item) => [item.id, item.status, item.queue_position])).toEqual([
      [a.body.id, "queued", 1],
      [b.body.id, "queued", 2],
    ]);
    const list = (await send("GET", `/repositories/${repo}/jobs?page=1&page_size=2`)).body as { results: Json[] };
    expect(list.results.map((item) => item.id)).toEqual([b.body.id, a.body.id]);
    await worker.runOne();
    await worker.runOne();
    const archived = (await send("GET", `/repositories/${repo}/jobs/archived?page=1&page_size=2`)).body as {
      results: Json[];
    };
    expect(archived.results.map((item) => item.id)).toEqual([b.body.id, a.body.id]);
    expect((await send("GET", `/repositories/${repo}/jobs/active`)).body).toEqual([]);
    // The other repository's list holds none of them.
    expect((await send("GET", `/repositories/${otherRepo}/jobs?page=1`)).body).toMatchObject({ total: 0 });
  });

  it("names the job types, import types and reports", async () => {
    for (const path of ["/job_types", `/repositories/${repo}/jobs/types`])
      expect((await send("GET", path)).body).toMatchObject({
        job_types: ["import_job", "report_job"],
        import_job: { import_types: expect.arrayContaining(["ead_xml", "marcxml", "eac_xml", "accession_csv"]) },
        report_job: { report_types: expect.arrayContaining([expect.objectContaining({ code: "resource_report" })]) },
      });
    const types = (await send("GET", `/repositories/${repo}/jobs/import_types`)).body as Json[];
    expect(types).toContainEqual({ name: "ead_xml", formats: ["ead", "ead3"] });
  });

  it("deletes an ended job with its log and files; an active one is a 409", async () => {
    const queued = await upload(repo, importJob("ead"), [{ name: "d.xml", content: generatedEad("DEL-1", 1) }]);
    const id = queued.body.id as number;
    const refused = await send("DELETE", `/repositories/${repo}/jobs/${id}`);
    expect(refused).toMatchObject({ status: 409, body: { error: "The job is queued or running: cancel it first" } });
    await worker.runOne();
    const resources = await count("resource");
    expect((await send("DELETE", `/repositories/${repo}/jobs/${id}`)).body).toEqual({ status: "Deleted", id });
    expect((await send("GET", `/repositories/${repo}/jobs/${id}`)).status).toBe(404);
    const files = await service.connection
      .collection(`${JOB_FILES_BUCKET}.files`)
      .countDocuments({ "metadata.job_id": id });
    expect(files).toBe(0);
    // The records it created stay.
    expect(await count("resource")).toBe(resources);
  });
});

describe("refusals", () => {
  const filesInStore = () => service.connection.collection(`${JOB_FILES_BUCKET}.files`).countDocuments({});

  it("refuses an upload before reading it: no session, no import_records, no repository", async () => {
    const stored = await filesInStore();
    const file = [{ name: "x.xml", content: generatedEad("NO-1", 1) }];
    expect((await upload(repo, importJob("ead"), file, null)).status).toBe(403);
    const viewer = await service.userWith("viewer", repo, ["view_repository", "create_job"]);
    expect((await upload(repo, importJob("ead"), file, viewer)).status).toBe(403);
    expect(await upload(999, importJob("ead"), file)).toEqual({ status: 404, body: { error: "Repository not found" } });
    expect(await filesInStore()).toBe(stored);
  });

  it("answers 400 naming what is wrong with the job, and keeps none of its files", async () => {
    const stored = await filesInStore();
    const file: Array<{ name: string; content: string; field?: string }> = [{ name: "x.xml", content: "<ead/>" }];
    const cases: Array<[string | undefined, typeof file, string]> = [
      [undefined, file, "job"],
      ["{not json", file, "job"],
      ['{"job_type":"import_job"}', file, "job"],
      [importJob("pdf"), file, "job/import_type"],
      [importJob("ead"), [], "files"],
      ['{"job_type":"report_job","job":{"report_type":"accession_report"}}', file, "files"],
      ['{"job_type":"export_job","job":{}}', file, "job_type"],
      ['{"job_type":"import_job","job":{"jsonmodel_type":"report_job"}}', file, "job_type"],
      [importJob("ead"), [{ name: "x.xml", content: "<ead/>", field: "attachment" }], "files"],
    ];
    for (const [jobText, files, field] of cases) {
      const reply = await upload(repo, jobText, files);
      expect([jobText, reply.status, Object.keys(reply.body.error as Json)]).toEqual([jobText, 400, [field]]);
    }
    expect(await filesInStore()).toBe(stored);
  });

  it("answers 413 for a file over JOB_FILE_LIMIT_BYTES, 400 past the files allowed, and keeps nothing", async () => {
    const stored = await filesInStore();
    const big = await upload(repo, importJob("ead"), [
      { name: "ok.xml", content: "<ead/>" },
      { name: "big.xml", content: Buffer.alloc(FILE_LIMIT + 1, 32) },
    ]);
    expect(big).toEqual({ status: 413, body: { error: `A file is over ${FILE_LIMIT} bytes (JOB_FILE_LIMIT_BYTES)` } });
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.xml`, content: "<ead/>" }));
    expect(await upload(repo, importJob("ead"), many)).toMatchObject({
      status: 400,
      body: { error: { files: [expect.any(String)] } },
    });
    expect(await filesInStore()).toBe(stored);
  });

  it("answers 400 for a body that is not multipart, and for a report job sent without its report", async () => {
    const raw = await fetch(`${service.url}/repositories/${repo}/jobs_with_files`, {
      method: "POST",
      headers: { "X-ArchivesSpace-Session": service.adminToken, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(raw.status).toBe(400);
    const report = await send("POST", `/repositories/${repo}/jobs`, {
      job_type: "report_job",
      job: { report_type: "x" },
    });
    expect(report).toMatchObject({ status: 400, body: { error: { "job/report_type": [expect.any(String)] } } });
    const importWithout = await send("POST", `/repositories/${repo}/jobs`, {
      job_type: "import_job",
      job: { import_type: "ead" },
    });
    expect(importWithout).toMatchObject({
      status: 400,
      body: { error: { files: [expect.stringMatching(/jobs_with_files/)] } },
    });
  });

  it("answers 404 for a job of another repository or none, 400 for bad parameters", async () => {
    const submitted = await upload(repo, importJob("ead"), [{ name: "p.xml", content: generatedEad("P-1", 1) }]);
    const id = submitted.body.id as number;
    expect((await send("GET", `/repositories/${otherRepo}/jobs/${id}`)).status).toBe(404);
    expect((await send("GET", `/repositories/${repo}/jobs/999999`)).status).toBe(404);
    expect((await send("GET", `/repositories/${repo}/jobs/${id}/output_files/999999`)).status).toBe(404);
    expect((await send("GET", `/repositories/${repo}/jobs/${id}/log?offset=-1`)).status).toBe(400);
    expect((await send("GET", `/repositories/${repo}/jobs/${id}/records`)).status).toBe(400);
    expect((await send("GET", `/repositories/${repo}/jobs?page=0`)).status).toBe(400);
    const viewer = await service.login("viewer", "pw-secret-1");
    expect((await send("POST", `/repositories/${repo}/jobs/${id}/cancel`, undefined, viewer)).status).toBe(403);
    expect((await send("DELETE", `/repositories/${repo}/jobs/${id}`, undefined, viewer)).status).toBe(403);
    await send("POST", `/repositories/${repo}/jobs/${id}/cancel`);
  });
});
