// Jobs benchmark (issue 16):
//   - a 50 MB EAD through jobs_with_files: the request answers in < 1 s; the service's RSS grows < 50 MB while the
//     worker imports; GET p99 during the import ≤ 2× idle; the job's components/s within 10 % of `npm run import`'s
//     on the same file, with the same reads beside each;
//   - kill -9 of a worker half-way through an import: the job is run again (or ends failed) and nothing of the
//     killed run remains; two API nodes and two workers on one store run each of 100 jobs exactly once.
//
//   npm run bench:jobs
//   JOBS_SERIES=20 npm run bench:jobs          a fifth of the EAD (a quicker look)
//   JOBS_UPLOAD_ONLY=1 npm run bench:jobs      only the 56 MB upload's request, with the reads beside it (a minute)
//
// The embedded engine (fsync always), the Arca nodes and the workers are child processes (workers started with
// `node dist/src/jobs/worker-main.js`, what `npm run worker` runs). Results are printed and written as JSON to
// $TMPDIR/arca-bench-results/jobs.json.
import { spawn, type ChildProcess } from "node:child_process";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { spawnEngine, type EngineProcess } from "../src/embedded-mongo/launcher.js";
import {
  ADMIN_PASSWORD,
  DB_NAME,
  ROOT,
  check,
  exited,
  httpJson,
  int,
  latencyStats,
  log,
  machineFacts,
  mib,
  ms,
  procMemory,
  RssSampler,
  setLogPrefix,
  startArca,
  waitForQuiet,
  writeResults,
  type ServiceProcess,
} from "./common.js";
import { writeEad } from "./ead-file.js";

setLogPrefix("bench-jobs");

const SERIES = Number(process.env.JOBS_SERIES ?? 100);
const FILES_PER_SERIES = 999;
const COMPONENTS = SERIES + SERIES * FILES_PER_SERIES;
const WORKER_MAIN = join(ROOT, "dist", "src", "jobs", "worker-main.js");
const CLI = join(ROOT, "dist", "src", "importers", "cli.js");
const SMALL_JOBS = 100;
/** JOBS_UPLOAD_ONLY=1: only the upload's request (with the reads beside it), no worker, job or command after it. */
const UPLOAD_ONLY = process.env.JOBS_UPLOAD_ONLY === "1";
/** How long the reads run alone before the upload: their latencies and Arca's RSS peak under them. */
const IDLE_READS_MS = 30_000;

interface RssGrowth {
  /** Arca's peak under the reads alone, its RSS when the upload started, and its peak until the job ended. */
  idlePeak: number;
  before: number;
  peak: number;
  /** What the import adds: its peak over the peak of the same reads without it. */
  growth: number;
  /** Its peak over the RSS at one instant before (what earlier runs reported; a point in the collector's swing). */
  growthFromBefore: number;
}

function rssGrowth(idlePeak: number, before: number, peak: number): RssGrowth {
  return { idlePeak, before, peak, growth: peak - idlePeak, growthFromBefore: peak - before };
}

const shownRss = (rss: RssGrowth) =>
  `+${mib(rss.growth)} over its peak under the reads alone (+${mib(rss.growthFromBefore)} over the instant before)`;

interface Job {
  id: number;
  status: string;
  attempts: number;
  time_started?: string;
  time_finished?: string;
  progress?: { records: number };
}

async function login(port: number): Promise<string> {
  const answer = await httpJson(new http.Agent(), port, "POST", `/users/admin/login?password=${ADMIN_PASSWORD}`);
  check(answer.status === 200, `login: ${answer.status}`);
  return answer.json.session as string;
}

function startWorker(engineUri: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WORKER_MAIN], {
    env: { ...process.env, MONGODB_URI: engineUri, MONGODB_DB: DB_NAME, JOB_POLL_MS: "100" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((done, fail) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("running jobs")) done(child);
    });
    child.once("exit", (code) => fail(new Error(`worker exited (${code}): ${out}`)));
  });
}

/** POST …/jobs_with_files with one file, streamed from disk; answers the job id and how long the request took. */
async function submit(port: number, token: string, repoId: number, name: string, body: Buffer | string) {
  const boundary = `----arca-bench-${Math.random().toString(16).slice(2)}`;
  const job = JSON.stringify({ job_type: "import_job", job: { import_type: "ead_xml", filenames: [name] } });
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="job"\r\n\r\n${job}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${name}"\r\n` +
      "Content-Type: application/xml\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const content = typeof body === "string" ? Buffer.from(body) : body;
  const started = performance.now();
  const answer = await new Promise<{ status: number; text: string }>((done, fail) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: `/repositories/${repoId}/jobs_with_files`,
        headers: {
          "X-ArchivesSpace-Session": token,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": head.length + content.length + tail.length,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => done({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", fail);
    req.write(head);
    req.write(content);
    req.end(tail);
  });
  const millis = performance.now() - started;
  check(answer.status === 200, `jobs_with_files: ${answer.status} ${answer.text}`);
  return { id: (JSON.parse(answer.text) as { id: number }).id, millis };
}

async function readJob(port: number, token: string, repoId: number, id: number): Promise<Job> {
  const answer = await httpJson(new http.Agent(), port, "GET", `/repositories/${repoId}/jobs/${id}`, token);
  check(answer.status === 200, `GET job ${id}: ${answer.status}`);
  return answer.json as Job;
}

async function waitFor(what: string, probe: () => Promise<boolean>, seconds = 900): Promise<void> {
  const until = performance.now() + seconds * 1000;
  while (!(await probe())) {
    check(performance.now() < until, `waited ${seconds} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** GETs of one accession from `clients` loops until `stop`, their latencies. */
async function reads(port: number, token: string, path: string, stop: () => boolean, clients = 2): Promise<number[]> {
  const samples: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stop()) {
        const t0 = performance.now();
        const answer = await httpJson(agent, port, "GET", path, token);
        samples.push(performance.now() - t0);
        check(answer.status === 200, `GET ${path}: ${answer.status}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }),
  );
  agent.destroy();
  return samples;
}

async function count(port: number, token: string, repoId: number, type: string): Promise<number> {
  const answer = await httpJson(new http.Agent(), port, "GET", `/repositories/${repoId}/${type}?all_ids=true`, token);
  check(answer.status === 200, `all_ids ${type}: ${answer.status}`);
  return (answer.json as number[]).length;
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(os.tmpdir(), "arca-bench-jobs-"));
  let engine: EngineProcess | undefined;
  const nodes: ServiceProcess[] = [];
  const workers: ChildProcess[] = [];
  const results: Record<string, unknown> = { machine: machineFacts("npm run bench:jobs") };
  try {
    const file = join(scratch, "big.xml");
    const bytes = await writeEad(file, { series: SERIES, filesPerSeries: FILES_PER_SERIES, filesPerBox: 20 });
    log(`EAD of ${int(COMPONENTS)} components, ${mib(bytes)}`);
    engine = await spawnEngine({ dataDir: join(scratch, "engine"), port: 0, fsync: "always" });
    let engineSaid = "";
    engine.child.stderr!.on("data", (chunk: Buffer) => (engineSaid = (engineSaid + chunk.toString()).slice(-4_000)));
    engine.child.once("exit", (code, signal) => log(`the engine exited (${signal ?? code}): ${engineSaid}`));
    const a = await startArca(engine.uri, join(scratch, "a"));
    nodes.push(a);
    const token = await login(a.port);
    const repo = async (code: string) =>
      (await httpJson(new http.Agent(), a.port, "POST", "/repositories", token, { repo_code: code, name: code })).json
        .id as number;
    const [jobsRepo, cliRepo, killRepo, manyRepo] = [
      await repo("J"),
      await repo("C"),
      await repo("K"),
      await repo("M"),
    ];
    const accession = await httpJson(new http.Agent(), a.port, "POST", `/repositories/${jobsRepo}/accessions`, token, {
      id_0: "A-1",
      title: "Read during the import",
      accession_date: "2026-01-01",
    });
    const readPath = accession.json.uri as string;

    // 1. A 50 MB EAD through a job, against the same file through the command.
    if (!UPLOAD_ONLY) workers.push(await startWorker(engine.uri));
    const quiet = await waitForQuiet();
    log(`machine ${quiet.quiet ? "quiet" : "not quiet"} (${quiet.idlePercent}% idle)`);
    // The reads alone first, long enough for the collector's cycles under them: Arca's RSS swings by 60-90 MiB
    // with reads and nothing else, so the import's share is its peak against the peak of the same reads before it.
    let idleDone = false;
    const idleTimer = setTimeout(() => (idleDone = true), IDLE_READS_MS);
    const idleRss = new RssSampler(a.pid).start();
    const idle = latencyStats(await reads(a.port, token, readPath, () => idleDone));
    clearTimeout(idleTimer);
    const rssIdlePeak = idleRss.stop();
    const content = await readFile(file);
    const rssBefore = procMemory(a.pid).rss;
    const importRss = new RssSampler(a.pid).start();
    let importing = true;
    const during = reads(a.port, token, readPath, () => !importing);
    const { id, millis: requestMillis } = await submit(a.port, token, jobsRepo, "big.xml", content);
    log(`jobs_with_files answered in ${ms(requestMillis)}`);
    if (UPLOAD_ONLY) {
      importing = false;
      const serviceRss = rssGrowth(rssIdlePeak, rssBefore, importRss.stop());
      const duringUpload = latencyStats(await during);
      results.upload = { bytes, requestMillis, serviceRss, getIdle: idle, getDuring: duringUpload };
      log(
        `GET p99 ${ms(idle.p99)} idle, ${ms(duringUpload.p99)} during the upload; Arca's RSS ${shownRss(serviceRss)}`,
      );
      log(`results: ${await writeResults("jobs-upload.json", results)}`);
      return;
    }
    let job = await readJob(a.port, token, jobsRepo, id);
    await waitFor("the job", async () => {
      job = await readJob(a.port, token, jobsRepo, id);
      return job.status !== "queued" && job.status !== "running";
    });
    importing = false;
    const serviceRss = rssGrowth(rssIdlePeak, rssBefore, importRss.stop());
    const busy = latencyStats(await during);
    check(job.status === "completed", `the job ended ${job.status}`);
    const jobSeconds = (Date.parse(job.time_finished!) - Date.parse(job.time_started!)) / 1000;
    const jobRate = COMPONENTS / jobSeconds;
    log(
      `job: ${jobSeconds.toFixed(1)} s, ${int(jobRate)} components/s; GET p99 ${ms(idle.p99)} idle, ${ms(busy.p99)} during`,
    );

    const cli = spawn(
      process.execPath,
      ["--max-old-space-size=384", CLI, "--repo", String(cliRepo), "--format", "ead", file],
      {
        env: { ...process.env, MONGODB_URI: engine.uri, MONGODB_DB: DB_NAME },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let cliOut = "";
    cli.stdout!.on("data", (chunk: Buffer) => (cliOut += chunk.toString()));
    cli.stderr!.on("data", (chunk: Buffer) => (cliOut += chunk.toString()));
    // The same reads beside the command as beside the job: both rates are of an import sharing the machine with them.
    let commandRunning = true;
    const duringCommand = reads(a.port, token, readPath, () => !commandRunning);
    await exited(cli);
    commandRunning = false;
    const busyCommand = latencyStats(await duringCommand);
    check(cli.exitCode === 0, `npm run import failed: ${cliOut}`);
    const cliSeconds = Number(/imported in ([\d.]+) s/.exec(cliOut)?.[1]);
    const cliRate = COMPONENTS / cliSeconds;
    log(`npm run import: ${cliSeconds.toFixed(1)} s, ${int(cliRate)} components/s; GET p99 ${ms(busyCommand.p99)}`);
    results.bigImport = {
      bytes,
      components: COMPONENTS,
      requestMillis,
      serviceRss,
      getIdle: idle,
      getDuring: busy,
      getDuringCommand: busyCommand,
      p99Ratio: busy.p99 / idle.p99,
      job: { seconds: jobSeconds, perSecond: jobRate },
      command: { seconds: cliSeconds, perSecond: cliRate },
      throughputRatio: jobRate / cliRate,
    };

    // 2. A worker killed half-way: the job is run again, once.
    const killFile = join(scratch, "kill.xml");
    await writeEad(killFile, { series: 20, filesPerSeries: FILES_PER_SERIES, filesPerBox: 20, eadid: "kill.20k" });
    const killed = await submit(a.port, token, killRepo, "kill.xml", await readFile(killFile));
    await waitFor(
      "a written batch",
      async () => ((await readJob(a.port, token, killRepo, killed.id)).progress?.records ?? 0) > 5_000,
    );
    const victim = workers.shift()!;
    victim.kill("SIGKILL");
    await exited(victim);
    const leftBehind = await count(a.port, token, killRepo, "archival_objects");
    workers.push(await startWorker(engine.uri));
    let after = await readJob(a.port, token, killRepo, killed.id);
    await waitFor("the killed job", async () => {
      after = await readJob(a.port, token, killRepo, killed.id);
      return after.status !== "queued" && after.status !== "running";
    });
    const killComponents = 20 + 20 * FILES_PER_SERIES;
    const kept = {
      resources: await count(a.port, token, killRepo, "resources"),
      archivalObjects: await count(a.port, token, killRepo, "archival_objects"),
    };
    log(
      `killed with ${int(leftBehind)} components written; the job ended ${after.status} after ${after.attempts} runs with ${JSON.stringify(kept)}`,
    );
    const exactlyOnce =
      after.status === "completed"
        ? kept.resources === 1 && kept.archivalObjects === killComponents
        : kept.resources === 0 && kept.archivalObjects === 0;
    results.killed = {
      leftBehind,
      status: after.status,
      attempts: after.attempts,
      kept,
      expected: killComponents,
      exactlyOnce,
    };

    // 3. Two nodes, two workers, 100 jobs.
    const b = await startArca(engine.uri, join(scratch, "b"));
    nodes.push(b);
    const tokenB = await login(b.port);
    workers.push(await startWorker(engine.uri));
    const started = performance.now();
    const ids = await Promise.all(
      Array.from({ length: SMALL_JOBS }, async (_, i) => {
        const node = i % 2 === 0 ? a : b;
        const body = `<?xml version="1.0"?><ead xmlns="urn:isbn:1-931666-22-9"><eadheader><eadid>small-${i}</eadid></eadheader><archdesc level="collection"><did><unittitle>Small ${i}</unittitle><unitid>SMALL.${i}</unitid><unitdate>1900</unitdate><physdesc><extent>1 linear feet</extent></physdesc></did><dsc><c01><did><unittitle>Folder</unittitle><unitdate>1900</unitdate></did></c01></dsc></archdesc></ead>`;
        return (await submit(node.port, i % 2 === 0 ? token : tokenB, manyRepo, `small-${i}.xml`, body)).id;
      }),
    );
    const ended: Job[] = [];
    await waitFor("100 jobs", async () => {
      const answer = await httpJson(new http.Agent(), b.port, "GET", `/repositories/${manyRepo}/jobs/active`, tokenB);
      return (answer.json as Job[]).length === 0;
    });
    const manySeconds = (performance.now() - started) / 1000;
    for (const jobId of ids) ended.push(await readJob(a.port, token, manyRepo, jobId));
    const resources = await count(a.port, token, manyRepo, "resources");
    const objects = await count(a.port, token, manyRepo, "archival_objects");
    const completed = ended.filter((each) => each.status === "completed" && each.attempts === 1).length;
    log(
      `${SMALL_JOBS} jobs on 2 nodes and 2 workers in ${manySeconds.toFixed(1)} s: ${completed} completed in one run; ${resources} resources, ${objects} components`,
    );
    results.many = {
      jobs: SMALL_JOBS,
      seconds: manySeconds,
      completedOnce: completed,
      resources,
      archivalObjects: objects,
    };

    const big = results.bigImport as {
      requestMillis: number;
      serviceRss: RssGrowth;
      p99Ratio: number;
      throughputRatio: number;
    };
    const verdict = (met: boolean) => (met ? "met" : "MISSED");
    console.log(`
| target | measured | |
|---|---|---|
| 50 MB EAD: request answers < 1 s | ${ms(big.requestMillis)} (${mib(bytes)}) | ${verdict(big.requestMillis < 1000)} |
| service RSS grows < 50 MB during the import | ${shownRss(big.serviceRss)} | ${verdict(big.serviceRss.growth < 50 * 1024 * 1024)} |
| GET p99 during the import ≤ 2× idle | ${ms(busy.p99)} vs ${ms(idle.p99)} = ${big.p99Ratio.toFixed(2)}× | ${verdict(big.p99Ratio <= 2)} |
| job throughput within 10 % of npm run import | ${int(jobRate)} vs ${int(cliRate)} components/s = ${(big.throughputRatio * 100).toFixed(0)} % | ${verdict(big.throughputRatio >= 0.9)} |
| worker kill -9 half-way: rerun or failed, nothing half-written | ${after.status} after ${after.attempts} runs, ${int(kept.archivalObjects)} of ${int(killComponents)} components | ${verdict(exactlyOnce)} |
| 2 nodes + 2 workers: 100 jobs each run once | ${completed} of ${SMALL_JOBS} completed in one run; ${resources} resources, ${objects} components | ${verdict(completed === SMALL_JOBS && resources === SMALL_JOBS && objects === SMALL_JOBS)} |
`);
    log(`results: ${await writeResults("jobs.json", results)}`);
  } catch (error) {
    for (const node of nodes) log(`arca ${node.pid} said:\n${node.output()}`);
    throw error;
  } finally {
    for (const worker of workers) worker.kill("SIGTERM");
    await Promise.all(workers.map((worker) => exited(worker)));
    for (const node of nodes) await node.stop();
    await engine?.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
