// Benchmark of the service over HTTP: Arca as a child process (`node
// dist/src/main.js`, what `npm start` runs) against one embedded engine, also a child process,
// compared with a bare express 5 + mongoose app, a barer handler (node:http and the driver's
// findOne) and the framework floor (an empty Ts.ED controller doing that findOne) that answer
// the same GET from the same database with no auth and no shaping.
// Loopback only.
//
//   npm run bench                    the measurements (about 3 minutes)
//   npm run bench -- --profile       one Arca load run under `node --cpu-prof`, summarised
//   node dist-bench/bench/service.js --bare-server     the bare app (the benchmark starts it)
//   node dist-bench/bench/service.js --driver-server   the bare handler (likewise)
//   node dist-bench/bench/service.js --tsed-server     the framework floor (likewise)
//
// Every loop is bounded (by a count or a few seconds). Results are printed as a markdown table
// and written as JSON to $TMPDIR/arca-bench-results/service.json (service-profile.json for
// --profile).
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import "@tsed/platform-express";
import { Configuration, Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { PlatformExpress } from "@tsed/platform-express";
import { Context } from "@tsed/platform-params";
import { Get } from "@tsed/schema";
import express from "express";
import { MongoClient, type Document } from "mongodb";
import mongoose from "mongoose";
import { spawnEngine, type EngineProcess } from "../src/embedded-mongo/launcher.js";
import {
  CLOCK_TICK_MICROS,
  cpuSnapshot,
  type CpuSnapshot,
  type CpuWindowEnd,
  COMPACT_THRESHOLD_BYTES,
  DB_NAME,
  ADMIN_PASSWORD,
  check,
  cpuWindow,
  httpCall,
  httpJson,
  int,
  latencyStats,
  listDir,
  log,
  machineFacts,
  median,
  mib,
  ms,
  ms1,
  procMemory,
  RssSampler,
  startArca,
  startService,
  summariseProfile,
  waitForQuiet,
  writeResults,
  type LatencyStats,
  type CpuProfile,
  type ProfileSummary,
  type Ranked,
  type ServiceProcess,
} from "./common.js";

// ---------------------------------------------------------------------------------------------
// Parameters

const REPO_ID = 2;
const SEQUENTIAL_CREATES = 500;
const CONCURRENT_CREATES = 500; // ids 501..1,000
const CREATE_CLIENTS = 8;
const SMALL = SEQUENTIAL_CREATES + CONCURRENT_CREATES; // 1,000
const LARGE = 100_000;
const INSERT_BATCH = 10_000;
const CONCURRENCY = 50;
const WARMUP_MS = 2_000;
const MEASURE_MS = 10_000;
const ROUNDS = 2; // each round: Arca, the bare app, the bare handler, the Ts.ED floor
const LIST_WARMUP = 30;
const LIST_RUNS = 300;
const PAGE_SIZE = 10;
const DEEP_PAGE = 5_000;
const COLD_STARTS = 3;
const CHECK_EVERY = 10; // parse and check every 10th load response in full

const THIS_SCRIPT = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------------------------------------
// Helpers: nearest-rank percentiles, /proc for RSS and CPU, the HTTP client, child processes,
// profile summaries are in common.ts (shared with trees.ts).

function startBare(engineUri: string): Promise<ServiceProcess> {
  return startService("bare app", [], THIS_SCRIPT, ["--bare-server"], { MONGODB_URI: engineUri, MONGODB_DB: DB_NAME });
}

function startDriverBare(engineUri: string): Promise<ServiceProcess> {
  return startService("bare handler", [], THIS_SCRIPT, ["--driver-server"], {
    MONGODB_URI: engineUri,
    MONGODB_DB: DB_NAME,
  });
}

function startTsedFloor(engineUri: string): Promise<ServiceProcess> {
  return startService("Ts.ED floor", [], THIS_SCRIPT, ["--tsed-server"], {
    MONGODB_URI: engineUri,
    MONGODB_DB: DB_NAME,
  });
}

// ---------------------------------------------------------------------------------------------
// The bare baseline: express 5 + mongoose, the same lookup Arca's read does (locate.ts,
// findStored: `collection.findOne({id, repo_id})` on mongoose's raw collection, a plain
// object), answered with res.json. No auth, no repository check, no shaping.

async function bareServer(): Promise<void> {
  const connection = await mongoose
    .createConnection(process.env.MONGODB_URI!, { dbName: process.env.MONGODB_DB ?? DB_NAME })
    .asPromise();
  const accessions = connection.collection("accessions");
  const app = express();
  app.get("/repositories/:repo/accessions/:id", async (req, res) => {
    const doc = await accessions.findOne({ id: Number(req.params.id), repo_id: Number(req.params.repo) });
    if (!doc) {
      res.status(404).json({ error: "Accession not found" });
      return;
    }
    res.json(doc);
  });
  const host = process.env.HOST ?? "127.0.0.1";
  const port = Number(process.env.PORT);
  const server = app.listen(port, host, () => process.stdout.write(`bare: listening on ${host}:${port}\n`));
  const stop = () => server.close(() => void connection.close().then(() => process.exit(0)));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

// The framework floor: one Ts.ED controller on platform-express, configured as Arca's server
// is (no ETag), whose handler does what the bare handler below does. No middleware, no auth, no
// shaping: what the stack the design names costs a record GET before Arca adds anything.

@Configuration({ httpsPort: false, logger: { disableRoutesSummary: true, level: "warn" } })
class FloorServer {}

let floorAccessions: ReturnType<ReturnType<MongoClient["db"]>["collection"]> | undefined;

@Controller("/repositories/:repo_id/accessions")
class FloorController {
  @Get("/:id")
  async read(@Context() ctx: PlatformContext): Promise<void> {
    const req = ctx.getRequest<express.Request>();
    const doc = await floorAccessions!.findOne({ id: Number(req.params.id), repo_id: Number(req.params.repo_id) });
    const body = JSON.stringify(doc ?? { error: "Accession not found" });
    ctx
      .getResponse<express.Response>()
      .writeHead(doc ? 200 : 404, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) })
      .end(body);
  }
}

async function tsedServer(): Promise<void> {
  const client = new MongoClient(process.env.MONGODB_URI!);
  await client.connect();
  floorAccessions = client.db(process.env.MONGODB_DB ?? DB_NAME).collection("accessions");
  const host = process.env.HOST ?? "127.0.0.1";
  const port = Number(process.env.PORT);
  const platform = await PlatformExpress.bootstrap(FloorServer, {
    httpPort: `${host}:${port}`,
    mount: { "/": [FloorController] },
  });
  platform.app.getApp().set("etag", false);
  await platform.listen();
  process.stdout.write(`Ts.ED floor: listening on ${host}:${port}\n`);
  const stop = () => void platform.stop().then(() => client.close().then(() => process.exit(0)));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

// The barest handler: node:http and the driver's findOne on the same engine, over TCP, the
// document written with JSON.stringify. No framework, no auth, no shaping: the floor a record
// GET can cost in Node with this driver.

async function driverServer(): Promise<void> {
  const client = new MongoClient(process.env.MONGODB_URI!);
  await client.connect();
  const accessions = client.db(process.env.MONGODB_DB ?? DB_NAME).collection("accessions");
  const route = /^\/repositories\/(\d+)\/accessions\/(\d+)$/;
  const server = http.createServer((req, res) => {
    const match = req.method === "GET" ? route.exec(req.url ?? "") : null;
    if (!match) {
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":"Not found"}');
      return;
    }
    accessions.findOne({ id: Number(match[2]), repo_id: Number(match[1]) }).then(
      (doc) => {
        const body = JSON.stringify(doc ?? { error: "Accession not found" });
        res.writeHead(doc ? 200 : 404, {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
        });
        res.end(body);
      },
      () => res.writeHead(500).end(),
    );
  });
  const host = process.env.HOST ?? "127.0.0.1";
  const port = Number(process.env.PORT);
  server.listen(port, host, () => process.stdout.write(`bare handler: listening on ${host}:${port}\n`));
  const stop = () => server.close(() => void client.close().then(() => process.exit(0)));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

// ---------------------------------------------------------------------------------------------
// Load: CONCURRENCY workers over one keep-alive agent, WARMUP_MS then MEASURE_MS.

interface LoadResult {
  target: "arca" | "bare" | "driver" | "floor";
  requests: number;
  seconds: number;
  reqPerSec: number;
  latency: LatencyStats;
  errors: number;
  checked: number;
  /** CPU per request, µs, from /proc/<pid>/stat (app, engine) and process.cpuUsage() (this client). */
  cpuPerRequestMicros: { app: number; engine: number; client: number };
  /** Each process's CPU over the window, in % of one core. */
  cpuPercentOfCore: { app: number; engine: number; client: number };
  otherCpuPercent: number;
  appRssPeak: number;
  rssSamples: number;
  /** CLOCK_MONOTONIC at the window's ends, µs (to cut a --cpu-prof profile to the window). */
  monotonicWindowMicros: [number, number];
}

async function loadRun(
  target: "arca" | "bare" | "driver" | "floor",
  app: ServiceProcess,
  engine: EngineProcess,
  token: string | undefined,
  ids: number,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const headers: http.OutgoingHttpHeaders = token ? { "X-ArchivesSpace-Session": token } : {};
  const starts: number[] = [];
  const ends: number[] = [];
  let errors = 0;
  let checked = 0;
  let firstError = "";
  let stopped = false;
  const sampler = new RssSampler(app.pid).start();

  const snapshot = () => cpuSnapshot(app.pid, engine.pid);
  let begin: CpuSnapshot | undefined;
  let end: CpuWindowEnd | undefined;
  const windowDone = new Promise<void>((done) => {
    setTimeout(() => {
      begin = snapshot();
      setTimeout(() => {
        const s = snapshot();
        end = { ...s, other: begin!.other() };
        stopped = true;
        done();
      }, MEASURE_MS);
    }, WARMUP_MS);
  });

  const checkBody = (id: number, body: string): boolean => {
    const doc = JSON.parse(body) as Record<string, unknown>;
    return target === "arca"
      ? doc.uri === `/repositories/${REPO_ID}/accessions/${id}` && typeof doc.title === "string"
      : doc.id === id && doc.repo_id === REPO_ID;
  };

  const worker = async () => {
    let n = 0;
    while (!stopped) {
      const id = 1 + Math.floor(Math.random() * ids);
      const t0 = performance.now();
      try {
        const answer = await httpCall(agent, app.port, "GET", `/repositories/${REPO_ID}/accessions/${id}`, headers);
        const t1 = performance.now();
        if (answer.status !== 200) {
          errors++;
          firstError ||= `${answer.status} ${answer.body.slice(0, 200)}`;
          continue;
        }
        if (n++ % CHECK_EVERY === 0) {
          checked++;
          if (!checkBody(id, answer.body)) {
            errors++;
            firstError ||= `wrong record for id ${id}: ${answer.body.slice(0, 200)}`;
          }
        }
        starts.push(t0);
        ends.push(t1);
      } catch (error) {
        errors++;
        firstError ||= String(error);
      }
    }
  };
  await Promise.all([windowDone, ...Array.from({ length: CONCURRENCY }, worker)]);
  agent.destroy();
  const appRssPeak = sampler.stop();
  check(begin && end, "the measurement window ran");
  check(errors === 0, `${target}: ${errors} failed requests (first: ${firstError})`);

  const from = begin.t;
  const until = end.t;
  let requests = 0;
  const samples: number[] = [];
  for (let i = 0; i < ends.length; i++) {
    if (ends[i] < from || ends[i] > until) continue;
    requests++;
    if (starts[i] >= from) samples.push(ends[i] - starts[i]);
  }
  const seconds = (until - from) / 1000;
  const clientMicros = end.client.user - begin.client.user + end.client.system - begin.client.system;
  const appMicros = (end.app - begin.app) * CLOCK_TICK_MICROS;
  const engineMicros = (end.engine - begin.engine) * CLOCK_TICK_MICROS;
  const result: LoadResult = {
    target,
    requests,
    seconds,
    reqPerSec: requests / seconds,
    latency: latencyStats(samples),
    errors,
    checked,
    cpuPerRequestMicros: {
      app: appMicros / requests,
      engine: engineMicros / requests,
      client: clientMicros / requests,
    },
    cpuPercentOfCore: {
      app: appMicros / 1e4 / seconds,
      engine: engineMicros / 1e4 / seconds,
      client: clientMicros / 1e4 / seconds,
    },
    otherCpuPercent: end.other,
    appRssPeak,
    rssSamples: sampler.samples,
    monotonicWindowMicros: [begin.mono, end.mono],
  };
  log(
    `GET load, ${target}: ${int(result.reqPerSec)} req/s, p50 ${ms(result.latency.p50)}, p99 ${ms(result.latency.p99)}; CPU/req app ${int(result.cpuPerRequestMicros.app)} µs, engine ${int(result.cpuPerRequestMicros.engine)} µs, client ${int(result.cpuPerRequestMicros.client)} µs; other CPU ${result.otherCpuPercent.toFixed(0)} %`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// Data

const SURNAMES = [
  "Abbott",
  "Baptiste",
  "Castellanos",
  "Delacroix",
  "Eriksen",
  "Fairweather",
  "Gallagher",
  "Hargreaves",
  "Ibarra",
  "Jablonski",
  "Kowalczyk",
  "Lindqvist",
];
const SUBJECTS = [
  "correspondence and diaries",
  "business records",
  "photographs and negatives",
  "sermons and lecture notes",
  "architectural drawings",
  "oral history recordings",
];

/** An accession as a cataloguer would enter it (~1 KB of JSON). */
function accessionBody(i: number): Record<string, unknown> {
  const year = 1850 + (i % 150);
  const family = SURNAMES[i % SURNAMES.length];
  const subject = SUBJECTS[i % SUBJECTS.length];
  const month = String(1 + (i % 12)).padStart(2, "0");
  const day = String(1 + (i % 28)).padStart(2, "0");
  return {
    title: `${family} family papers, ${year}-${year + 20} (accession ${i})`,
    id_0: "2026",
    id_1: String(i).padStart(6, "0"),
    accession_date: `2026-${month}-${day}`,
    acquisition_type: "gift",
    resource_type: "papers",
    publish: i % 5 !== 0,
    content_description: `The ${family} family papers comprise ${subject}, ledgers, clippings and printed ephemera documenting three generations of the family and their business and civic life between ${year} and ${year + 20}. Includes letters exchanged with relatives abroad, and a small number of photographs.`,
    condition_description: "Good; some foxing on early letters. Two ledgers have detached boards.",
    provenance: `Donated by a descendant of the ${family} family in 2026.`,
    dates: [
      {
        date_type: "inclusive",
        label: "creation",
        begin: String(year),
        end: String(year + 20),
        expression: `${year}-${year + 20}`,
      },
    ],
    extents: [
      {
        portion: "whole",
        number: String(1 + (i % 40)),
        extent_type: "linear_feet",
        container_summary: `${2 + (i % 30)} record cartons`,
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Results

interface Row {
  section: string;
  measurement: string;
  result: string;
  target?: string;
  met?: boolean;
  otherCpu?: number;
}

function markdownTable(rows: Row[]): string {
  const escape = (s: string) => s.replace(/\|/g, "\\|");
  const lines = ["| # | Measurement | Result | Target | Met? | Other CPU |", "|---|---|---|---|---|---|"];
  for (const r of rows) {
    const met = r.met === undefined ? "" : r.met ? "yes" : "**NO**";
    const other = r.otherCpu === undefined ? "" : `${r.otherCpu.toFixed(0)}%`;
    lines.push(
      `| ${r.section} | ${escape(r.measurement)} | ${escape(r.result)} | ${escape(r.target ?? "")} | ${met} | ${other} |`,
    );
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Shared set-up: engine, Arca, login, repository, accessions

interface Setup {
  scratch: string;
  engine: EngineProcess;
  arca: ServiceProcess;
  agent: http.Agent;
  token: string;
  creates: {
    sequential: { seconds: number; latency: LatencyStats };
    concurrent: { seconds: number; latency: LatencyStats };
  };
  arcaIdleRss: number;
  otherCpu: Record<string, number>;
  livePids: Set<number>;
}

async function setUp(arcaNodeArgs: string[] = []): Promise<Setup> {
  const scratch = await mkdtemp(join(os.tmpdir(), "arca-bench-service-"));
  const livePids = new Set<number>();
  const otherCpu: Record<string, number> = {};
  const phase = () => {
    const done = cpuWindow(() => [...livePids]);
    return (name: string) => (otherCpu[name] = Number(done().toFixed(1)));
  };
  const engine = await spawnEngine({
    dataDir: join(scratch, "engine"),
    port: 0,
    fsync: "always",
    startTimeoutMs: 60_000,
  });
  livePids.add(engine.pid);
  log(`engine pid ${engine.pid} at ${engine.uri}; scratch ${scratch}`);
  const arca = await startArca(engine.uri, join(scratch, "arca-data"), arcaNodeArgs);
  livePids.add(arca.pid);
  log(`arca pid ${arca.pid} on port ${arca.port}, first start (fresh database, bootstrap) ${ms1(arca.startMillis)}`);
  await sleep(1_000);
  const arcaIdleRss = procMemory(arca.pid).rss;

  const agent = new http.Agent({ keepAlive: true, maxSockets: CREATE_CLIENTS });
  const login = await httpJson(
    agent,
    arca.port,
    "POST",
    `/users/admin/login?password=${encodeURIComponent(ADMIN_PASSWORD)}&expiring=False`,
  );
  check(
    login.status === 200 && typeof login.json?.session === "string",
    `admin login: ${login.status} ${JSON.stringify(login.json)}`,
  );
  const token = login.json.session as string;
  const repo = await httpJson(agent, arca.port, "POST", "/repositories", token, { repo_code: "bench", name: "Bench" });
  check(repo.status === 200 && repo.json?.id === REPO_ID, `repository: ${repo.status} ${JSON.stringify(repo.json)}`);

  const create = async (i: number): Promise<number> => {
    const t0 = performance.now();
    const answer = await httpJson(
      agent,
      arca.port,
      "POST",
      `/repositories/${REPO_ID}/accessions`,
      token,
      accessionBody(i),
    );
    check(
      answer.status === 200 && answer.json?.status === "Created",
      `create accession ${i}: ${answer.status} ${JSON.stringify(answer.json)}`,
    );
    return performance.now() - t0;
  };
  // Creates, sequential: one request in flight.
  let endPhase = phase();
  const seqSamples: number[] = [];
  let t0 = performance.now();
  for (let i = 1; i <= SEQUENTIAL_CREATES; i++) seqSamples.push(await create(i));
  const seqSeconds = (performance.now() - t0) / 1000;
  endPhase("createSequential");
  // Creates, CREATE_CLIENTS concurrent clients.
  endPhase = phase();
  const conSamples: number[] = [];
  let next = SEQUENTIAL_CREATES + 1;
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: CREATE_CLIENTS }, async () => {
      while (next <= SMALL) conSamples.push(await create(next++));
    }),
  );
  const conSeconds = (performance.now() - t0) / 1000;
  endPhase("createConcurrent");
  const all = await httpJson(agent, arca.port, "GET", `/repositories/${REPO_ID}/accessions?all_ids=True`, token);
  check(
    Array.isArray(all.json) && all.json.length === SMALL && all.json[0] === 1 && all.json[SMALL - 1] === SMALL,
    `ids 1..${SMALL} after the creates`,
  );
  const creates = {
    sequential: { seconds: seqSeconds, latency: latencyStats(seqSamples) },
    concurrent: { seconds: conSeconds, latency: latencyStats(conSamples) },
  };
  log(
    `creates: ${SEQUENTIAL_CREATES} sequential in ${seqSeconds.toFixed(2)} s, ${CONCURRENT_CREATES} with ${CREATE_CLIENTS} clients in ${conSeconds.toFixed(2)} s`,
  );
  return { scratch, engine, arca, agent, token, creates, arcaIdleRss, otherCpu, livePids };
}

// ---------------------------------------------------------------------------------------------
// The benchmark

async function bench(): Promise<void> {
  const startedAt = new Date();
  const benchStart = performance.now();
  const machine = machineFacts("npm run bench");
  const raw: Record<string, unknown> = { startedAt: startedAt.toISOString(), machine };
  log(`machine: ${JSON.stringify(machine)}`);
  const quiet = await waitForQuiet();
  raw.quietBeforeStart = quiet;
  log(`machine ${quiet.idlePercent.toFixed(0)} % idle before the run (waited ${(quiet.waitedMs / 1000).toFixed(0)} s)`);

  let setup: Setup | undefined;
  let bare: ServiceProcess | undefined;
  let driver: ServiceProcess | undefined;
  let floor: ServiceProcess | undefined;
  const extraChildren: ServiceProcess[] = [];
  let client: MongoClient | undefined;
  try {
    setup = await setUp();
    const { engine, arca, agent, token, otherCpu, livePids } = setup;
    const wholeRun = cpuWindow(() => [...livePids]);
    const phase = () => {
      const done = cpuWindow(() => [...livePids]);
      return (name: string) => (otherCpu[name] = Number(done().toFixed(1)));
    };

    // --- List pages at 1k (sequential, interleaved like bench-engine's measureInterleaved).
    const listPage = async (page: number) => {
      const answer = await httpCall(
        agent,
        arca.port,
        "GET",
        `/repositories/${REPO_ID}/accessions?page=${page}&page_size=${PAGE_SIZE}`,
        { "X-ArchivesSpace-Session": token },
      );
      if (answer.status !== 200) throw new Error(`list page ${page}: ${answer.status} ${answer.body.slice(0, 200)}`);
      return answer.body;
    };
    const checkPage = async (page: number, total: number) => {
      const envelope = JSON.parse(await listPage(page)) as {
        total: number;
        this_page: number;
        results: Array<{ uri: string }>;
      };
      const firstId = (page - 1) * PAGE_SIZE + 1;
      check(
        envelope.total === total && envelope.this_page === page && envelope.results.length === PAGE_SIZE,
        `page ${page}: total ${envelope.total}, ${envelope.results.length} results`,
      );
      check(
        envelope.results[0].uri === `/repositories/${REPO_ID}/accessions/${firstId}`,
        `page ${page} starts at id ${firstId} (got ${envelope.results[0].uri})`,
      );
    };
    const measurePages = async (pages: number[]): Promise<LatencyStats[]> => {
      for (let i = 0; i < LIST_WARMUP; i++) for (const p of pages) await listPage(p);
      const samples: number[][] = pages.map(() => []);
      for (let i = 0; i < LIST_RUNS; i++) {
        for (let j = 0; j < pages.length; j++) {
          const k = (i + j) % pages.length;
          const t0 = performance.now();
          await listPage(pages[k]);
          samples[k].push(performance.now() - t0);
        }
      }
      return samples.map(latencyStats);
    };
    const lastSmallPage = SMALL / PAGE_SIZE;
    await checkPage(1, SMALL);
    await checkPage(lastSmallPage, SMALL);
    let endPhase = phase();
    const [list1k, list1kLast] = await measurePages([1, lastSmallPage]);
    endPhase("list1k");
    log(`list at 1k: page 1 p50 ${ms(list1k.p50)}, page ${lastSmallPage} p50 ${ms(list1kLast.p50)}`);

    // --- GET load: Arca and the bare app, alternating.
    bare = await startBare(engine.uri);
    livePids.add(bare.pid);
    log(`bare app pid ${bare.pid} on port ${bare.port}`);
    const probe = await httpCall(agent, bare.port, "GET", `/repositories/${REPO_ID}/accessions/1`);
    check(
      probe.status === 200 && (JSON.parse(probe.body) as { id: number }).id === 1,
      `bare app answers accession 1: ${probe.status}`,
    );
    const arcaProbe = await httpJson(agent, arca.port, "GET", `/repositories/${REPO_ID}/accessions/1`, token);
    check(arcaProbe.status === 200, `arca answers accession 1: ${arcaProbe.status}`);
    raw.sampleResponses = {
      arcaBytes: Buffer.byteLength(JSON.stringify(arcaProbe.json)),
      bareBytes: Buffer.byteLength(probe.body),
      arca: arcaProbe.json,
      bare: JSON.parse(probe.body),
    };
    driver = await startDriverBare(engine.uri);
    livePids.add(driver.pid);
    const driverProbe = await httpCall(agent, driver.port, "GET", `/repositories/${REPO_ID}/accessions/1`);
    check(driverProbe.status === 200, `bare handler answers accession 1: ${driverProbe.status}`);
    const arcaRuns: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    floor = await startTsedFloor(engine.uri);
    livePids.add(floor.pid);
    const floorProbe = await httpCall(agent, floor.port, "GET", `/repositories/${REPO_ID}/accessions/1`);
    check(floorProbe.status === 200, `Ts.ED floor answers accession 1: ${floorProbe.status}`);
    const driverRuns: LoadResult[] = [];
    const floorRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      arcaRuns.push(await loadRun("arca", arca, engine, token, SMALL));
      bareRuns.push(await loadRun("bare", bare, engine, undefined, SMALL));
      driverRuns.push(await loadRun("driver", driver, engine, undefined, SMALL));
      floorRuns.push(await loadRun("floor", floor, engine, undefined, SMALL));
    }
    raw.load = { arca: arcaRuns, bare: bareRuns, driver: driverRuns, floor: floorRuns };

    // --- 99k more accessions straight into the collection, in Arca's stored shape.
    client = new MongoClient(engine.uri, { maxPoolSize: 1 });
    await client.connect();
    const db = client.db(DB_NAME);
    const accessions = db.collection("accessions");
    const template = await accessions.findOne({ repo_id: REPO_ID, id: 1 });
    check(template, "accession 1 is stored");
    const { _id: _ignored, ...shape } = template;
    raw.storedShape = Object.keys(shape);
    endPhase = phase();
    const tInsert = performance.now();
    for (let start = SMALL + 1; start <= LARGE; start += INSERT_BATCH) {
      const batch: Document[] = [];
      for (let k = start; k < Math.min(start + INSERT_BATCH, LARGE + 1); k++) {
        batch.push({
          ...shape,
          id: k,
          id_1: String(k).padStart(6, "0"),
          title: `${SURNAMES[k % SURNAMES.length]} family papers (accession ${k})`,
        });
      }
      await accessions.insertMany(batch);
    }
    await db
      .collection<{ _id: string; seq: number }>("arca_counters")
      .updateOne({ _id: "accession" }, { $set: { seq: LARGE } });
    const insertSeconds = (performance.now() - tInsert) / 1000;
    endPhase("bulkInsert");
    check(
      (await accessions.countDocuments({ repo_id: REPO_ID })) === LARGE,
      `${LARGE} accessions after the bulk insert`,
    );
    log(`bulk insert of ${LARGE - SMALL} accessions: ${insertSeconds.toFixed(1)} s`);
    // The insert grows the journal past the engine's compaction threshold; let the snapshot
    // land before timing, so compaction is not charged to the 100k list.
    const dataDir = join(setup.scratch, "engine");
    let files = await listDir(dataDir);
    const journalBytes = () => files.filter((f) => /^journal\.\d+\.log$/.test(f.name)).reduce((s, f) => s + f.bytes, 0);
    const settled = () =>
      files.some((f) => /^snapshot\.\d+\.bson$/.test(f.name)) &&
      files.filter((f) => /^journal\.\d+\.log$/.test(f.name)).length === 1 &&
      !files.some((f) => f.name.endsWith(".tmp"));
    const tCompact = performance.now();
    if (journalBytes() >= COMPACT_THRESHOLD_BYTES || files.some((f) => f.name.startsWith("snapshot."))) {
      for (let waited = 0; waited < 60_000 && !settled(); waited += 200) {
        await sleep(200);
        files = await listDir(dataDir);
      }
    }
    raw.compaction = { waitedMillis: performance.now() - tCompact, files };
    log(`engine files: ${files.map((f) => `${f.name} (${int(f.bytes)} B)`).join(", ")}`);

    // --- List pages at 100k.
    await checkPage(1, LARGE);
    await checkPage(DEEP_PAGE, LARGE);
    const last = await httpJson(agent, arca.port, "GET", `/repositories/${REPO_ID}/accessions/${LARGE}`, token);
    check(
      last.status === 200 && last.json.uri === `/repositories/${REPO_ID}/accessions/${LARGE}`,
      `accession ${LARGE} reads through Arca`,
    );
    endPhase = phase();
    const [list100k, list100kDeep] = await measurePages([1, DEEP_PAGE]);
    endPhase("list100k");
    log(`list at 100k: page 1 p50 ${ms(list100k.p50)}, page ${DEEP_PAGE} p50 ${ms(list100kDeep.p50)}`);
    raw.list = {
      page1_1k: list1k,
      [`page${lastSmallPage}_1k`]: list1kLast,
      page1_100k: list100k,
      [`page${DEEP_PAGE}_100k`]: list100kDeep,
    };
    const engineRss = procMemory(engine.pid);
    raw.engineRssAt100k = engineRss;

    // --- Cold starts against the existing engine (100k accessions in it).
    await bare.stop();
    livePids.delete(bare.pid);
    await arca.stop();
    livePids.delete(arca.pid);
    endPhase = phase();
    const coldStarts: number[] = [];
    for (let i = 0; i < COLD_STARTS; i++) {
      const started = await startArca(engine.uri, join(setup.scratch, "arca-data"));
      extraChildren.push(started);
      coldStarts.push(started.startMillis);
      await started.stop();
    }
    endPhase("coldStart");
    raw.coldStartMillis = coldStarts;
    log(`cold starts: ${coldStarts.map(ms1).join(", ")}`);

    // ------------------------------------------------------------------------------------------
    // Rows
    const rows: Row[] = [];
    const { creates } = setup;
    const createResult = (c: { seconds: number; latency: LatencyStats }, n: number) =>
      `${int(n / c.seconds)} creates/s (${n} in ${c.seconds.toFixed(2)} s; p50 ${ms(c.latency.p50)}, p99 ${ms(c.latency.p99)})`;
    rows.push({
      section: "1",
      measurement: "create accession (POST), sequential",
      result: createResult(creates.sequential, SEQUENTIAL_CREATES),
      otherCpu: otherCpu.createSequential,
    });
    rows.push({
      section: "1",
      measurement: `create accession (POST), ${CREATE_CLIENTS} concurrent clients`,
      result: createResult(creates.concurrent, CONCURRENT_CREATES),
      otherCpu: otherCpu.createConcurrent,
    });
    const runText = (r: LoadResult) => `${int(r.reqPerSec)} req/s, p50 ${ms(r.latency.p50)}, p99 ${ms(r.latency.p99)}`;
    const cpuText = (r: LoadResult) =>
      `CPU/req app ${int(r.cpuPerRequestMicros.app)} µs, engine ${int(r.cpuPerRequestMicros.engine)} µs, client ${int(r.cpuPerRequestMicros.client)} µs`;
    const targetName = {
      arca: "Arca",
      bare: "bare",
      driver: "bare handler (node:http + driver)",
      floor: "Ts.ED floor (empty controller + driver)",
    } as const;
    for (let round = 0; round < ROUNDS; round++) {
      for (const r of [arcaRuns[round], bareRuns[round], driverRuns[round], floorRuns[round]]) {
        rows.push({
          section: "3",
          measurement: `GET accession, ${targetName[r.target]}, run ${round + 1}`,
          result: `${runText(r)} (${int(r.requests)} req; ${cpuText(r)})`,
          otherCpu: r.otherCpuPercent,
        });
      }
    }
    const arcaRps = median(arcaRuns.map((r) => r.reqPerSec));
    const bareRps = median(bareRuns.map((r) => r.reqPerSec));
    const arcaP99 = median(arcaRuns.map((r) => r.latency.p99));
    const bareP99 = median(bareRuns.map((r) => r.latency.p99));
    const arcaP50 = median(arcaRuns.map((r) => r.latency.p50));
    const bareP50 = median(bareRuns.map((r) => r.latency.p50));
    rows.push({
      section: "3",
      measurement: "GET accession, Arca (median of runs)",
      result: `${int(arcaRps)} req/s, p50 ${ms(arcaP50)}, p99 ${ms(arcaP99)}`,
    });
    rows.push({
      section: "3",
      measurement: "GET accession, bare (median of runs)",
      result: `${int(bareRps)} req/s, p50 ${ms(bareP50)}, p99 ${ms(bareP99)}`,
    });
    rows.push({
      section: "3",
      measurement: "throughput Arca / bare",
      result: `${((100 * arcaRps) / bareRps).toFixed(0)} %`,
      target: ">= 60 %",
      met: arcaRps >= 0.6 * bareRps,
    });
    rows.push({
      section: "3",
      measurement: "p99 Arca / bare",
      result: `${(arcaP99 / bareP99).toFixed(2)}x`,
      target: "<= 2x",
      met: arcaP99 <= 2 * bareP99,
    });
    const driverRps = median(driverRuns.map((r) => r.reqPerSec));
    const driverP99 = median(driverRuns.map((r) => r.latency.p99));
    rows.push({
      section: "3",
      measurement: "GET accession, bare handler (median of runs)",
      result: `${int(driverRps)} req/s, p50 ${ms(median(driverRuns.map((r) => r.latency.p50)))}, p99 ${ms(driverP99)}`,
    });
    rows.push({
      section: "3",
      measurement: "throughput Arca / bare handler (node:http + driver)",
      result: `${((100 * arcaRps) / driverRps).toFixed(0)} %`,
      target: ">= 60 %",
      met: arcaRps >= 0.6 * driverRps,
    });
    rows.push({
      section: "3",
      measurement: "p99 Arca / bare handler",
      result: `${(arcaP99 / driverP99).toFixed(2)}x`,
      target: "<= 2x",
      met: arcaP99 <= 2 * driverP99,
    });
    // What the framework alone allows, and how much of it Arca keeps.
    const floorRps = median(floorRuns.map((r) => r.reqPerSec));
    const floorP99 = median(floorRuns.map((r) => r.latency.p99));
    rows.push({
      section: "3",
      measurement: "GET accession, Ts.ED floor (median of runs)",
      result: `${int(floorRps)} req/s, p50 ${ms(median(floorRuns.map((r) => r.latency.p50)))}, p99 ${ms(floorP99)}`,
    });
    rows.push({
      section: "3",
      measurement: "throughput Ts.ED floor / bare handler",
      result: `${((100 * floorRps) / driverRps).toFixed(0)} %`,
    });
    rows.push({
      section: "3",
      measurement: "throughput Arca / Ts.ED floor; p99 Arca / Ts.ED floor",
      result: `${((100 * arcaRps) / floorRps).toFixed(0)} %; ${(arcaP99 / floorP99).toFixed(2)}x`,
    });
    const pct = (s: LatencyStats) => `p50 ${ms(s.p50)} / p95 ${ms(s.p95)} (p99 ${ms(s.p99)})`;
    const flat = (s: LatencyStats) => s.p50 <= 2 * list1k.p50;
    rows.push({
      section: "4",
      measurement: "list page 1, 1k accessions",
      result: pct(list1k),
      otherCpu: otherCpu.list1k,
    });
    rows.push({
      section: "4",
      measurement: `list page ${lastSmallPage} (last), 1k accessions`,
      result: pct(list1kLast),
      otherCpu: otherCpu.list1k,
    });
    rows.push({
      section: "4",
      measurement: "list page 1, 100k accessions",
      result: `${pct(list100k)}; p50 = ${(list100k.p50 / list1k.p50).toFixed(2)}x 1k`,
      target: "flat: p50 <= 2x 1k page 1",
      met: flat(list100k),
      otherCpu: otherCpu.list100k,
    });
    rows.push({
      section: "4",
      measurement: `list page ${DEEP_PAGE.toLocaleString("en-US")}, 100k accessions`,
      result: `${pct(list100kDeep)}; p50 = ${(list100kDeep.p50 / list1k.p50).toFixed(2)}x 1k`,
      target: "flat: p50 <= 2x 1k page 1",
      met: flat(list100kDeep),
      otherCpu: otherCpu.list100k,
    });
    rows.push({
      section: "4",
      measurement: `bulk insert of ${int(LARGE - SMALL)} accessions (driver)`,
      result: `${insertSeconds.toFixed(1)} s; then ${ms1((raw.compaction as { waitedMillis: number }).waitedMillis)} waiting for the engine's compaction`,
      otherCpu: otherCpu.bulkInsert,
    });
    rows.push({ section: "5", measurement: "Arca RSS idle", result: mib(setup.arcaIdleRss) });
    rows.push({
      section: "5",
      measurement: "Arca RSS peak under GET load",
      result: `${mib(Math.max(...arcaRuns.map((r) => r.appRssPeak)))} (bare app: ${mib(Math.max(...bareRuns.map((r) => r.appRssPeak)))})`,
    });
    rows.push({
      section: "5",
      measurement: "Arca cold start (spawn -> listening)",
      result: `mean ${ms1(coldStarts.reduce((a, b) => a + b, 0) / coldStarts.length)} (${coldStarts.map(ms1).join(", ")}); first start on the empty database ${ms1(arca.startMillis)}`,
      otherCpu: otherCpu.coldStart,
    });

    const totalSeconds = (performance.now() - benchStart) / 1000;
    const loadAtEnd = os.loadavg().map((v) => Number(v.toFixed(2)));
    otherCpu.wholeRun = Number(wholeRun().toFixed(1));
    Object.assign(raw, {
      creates,
      otherCpuPercentByPhase: otherCpu,
      arcaIdleRss: setup.arcaIdleRss,
      arcaFirstStartMillis: arca.startMillis,
      rows,
      medians: { arcaRps, bareRps, arcaP50, bareP50, arcaP99, bareP99 },
      targets: rows.filter((r) => r.target).map((r) => ({ measurement: r.measurement, target: r.target, met: r.met })),
      totalSeconds,
      loadAverageAtEnd: loadAtEnd,
    });
    const out = await writeResults("service.json", raw);

    const header = [
      `## Service benchmark (${startedAt.toISOString()})`,
      "",
      `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.totalMemory} RAM, ${machine.platform}`,
      `- Node ${machine.node}; command: \`${machine.command}\` (${machine.argv})`,
      `- One engine (spawnEngine, fsync always, fresh temp dir), Arca (\`node dist/src/main.js\`, MONGODB_URI = the engine over TCP) and the bare app as child processes; load generator in this process; 127.0.0.1 only`,
      `- GET load: ${CONCURRENCY} keep-alive connections, ${CONCURRENCY} workers, ${WARMUP_MS / 1000} s warm-up + ${MEASURE_MS / 1000} s measured, Arca/bare alternating x${ROUNDS}; random ids 1..${SMALL}; every response checked for status 200, every ${CHECK_EVERY}th parsed and checked`,
      `- Load average (1/5/15 min) at start ${machine.loadAverageAtStart.join(" / ")}, at end ${loadAtEnd.join(" / ")}; machine ${quiet.idlePercent.toFixed(0)} % idle just before the run (${quiet.quiet ? "two quiet 3 s windows" : "NOT quiet after waiting 60 s"}); other processes used ${otherCpu.wholeRun.toFixed(0)} % of the machine over the run`,
      `- Total run time: ${totalSeconds.toFixed(1)} s; JSON: ${out}`,
      "",
    ].join("\n");
    process.stdout.write(`${header}${markdownTable(rows)}\n`);
    const missed = rows.filter((r) => r.target && !r.met);
    process.stdout.write(
      missed.length === 0
        ? "\nAll targets met.\n"
        : `\nTargets missed: ${missed.map((r) => r.measurement).join("; ")}\n`,
    );
  } finally {
    await client?.close().catch(() => undefined);
    setup?.agent.destroy();
    for (const p of [bare, driver, floor, setup?.arca, ...extraChildren]) await p?.stop().catch(() => undefined);
    await setup?.engine.stop().catch(() => undefined);
    if (setup) await rm(setup.scratch, { recursive: true, force: true });
  }
}

/** Runs the load against `app` (started with --cpu-prof into `profDir`), stops it, reads its profile. */
async function profiledLoad(
  target: LoadResult["target"],
  app: ServiceProcess,
  engine: EngineProcess,
  token: string | undefined,
  profDir: string,
) {
  const run = await loadRun(target, app, engine, token, SMALL);
  await app.stop(); // SIGTERM -> process.exit(0): node writes the profile on exit
  const files = (await readdir(profDir)).filter((f) => f.endsWith(".cpuprofile"));
  check(files.length === 1, `one .cpuprofile in ${profDir} (found ${files.join(", ") || "none"})`);
  const profileFile = join(profDir, files[0]);
  const profile = JSON.parse(await readFile(profileFile, "utf8")) as CpuProfile;
  return { run, summary: summariseProfile(profile, run.monotonicWindowMicros, run.requests), profileFile };
}

async function profileRun(): Promise<void> {
  const startedAt = new Date();
  const machine = machineFacts("npm run bench -- --profile");
  log(`machine: ${JSON.stringify(machine)}`);
  const quiet = await waitForQuiet();
  const dirs = {
    arca: await mkdtemp(join(os.tmpdir(), "arca-bench-profile-arca-")),
    floor: await mkdtemp(join(os.tmpdir(), "arca-bench-profile-floor-")),
    bare: await mkdtemp(join(os.tmpdir(), "arca-bench-profile-bare-")),
  };
  let setup: Setup | undefined;
  const others: ServiceProcess[] = [];
  try {
    setup = await setUp(cpuProf(dirs.arca));
    const engineEnv = { MONGODB_URI: setup.engine.uri, MONGODB_DB: DB_NAME };
    const arca = await profiledLoad("arca", setup.arca, setup.engine, setup.token, dirs.arca);
    // What the framework costs alone (an empty Ts.ED controller), then the floor the speed
    // target is measured against (node:http and the driver's findOne).
    const floorServer = await startService(
      "Ts.ED floor",
      cpuProf(dirs.floor),
      THIS_SCRIPT,
      ["--tsed-server"],
      engineEnv,
    );
    others.push(floorServer);
    const floor = await profiledLoad("floor", floorServer, setup.engine, undefined, dirs.floor);
    const bareServer = await startService(
      "bare handler",
      cpuProf(dirs.bare),
      THIS_SCRIPT,
      ["--driver-server"],
      engineEnv,
    );
    others.push(bareServer);
    const baseline = await profiledLoad("driver", bareServer, setup.engine, undefined, dirs.bare);
    // Self time per request by where the code lives: Arca, the floor and the bare handler.
    const byHome = (s: ProfileSummary) => new Map(s.byHome.map((r) => [r.key, r.microsPerRequest]));
    const [arcaByHome, floorByHome, bareByHome] = [arca, floor, baseline].map((p) => byHome(p.summary));
    const comparison = [...new Set([...arcaByHome.keys(), ...floorByHome.keys(), ...bareByHome.keys()])]
      .map((key) => ({
        key,
        arca: arcaByHome.get(key) ?? 0,
        floor: floorByHome.get(key) ?? 0,
        bare: bareByHome.get(key) ?? 0,
      }))
      .map((r) => ({ ...r, extra: Number((r.arca - r.bare).toFixed(1)) }))
      .sort((a, b) => b.extra - a.extra);
    const out = await writeResults("service-profile.json", {
      startedAt: startedAt.toISOString(),
      machine,
      quietBeforeStart: quiet,
      arca,
      floor,
      bare: baseline,
      comparison,
    });

    const perReq = (s: ProfileSummary) => s.busyMicros / s.requests;
    const table = (title: string, rows: Ranked[], n: number) =>
      [
        `### ${title}`,
        "",
        "| function / package | ms | % of busy | µs/request |",
        "|---|---|---|---|",
        ...rows
          .slice(0, n)
          .map(
            (r) =>
              `| ${r.key.replace(/\|/g, "\\|")} | ${r.ms.toFixed(1)} | ${r.percent.toFixed(1)} | ${r.microsPerRequest.toFixed(1)} |`,
          ),
        "",
      ].join("\n");
    const runLine = (name: string, r: LoadResult, s: ProfileSummary) =>
      `- ${name} under --cpu-prof: ${int(r.reqPerSec)} req/s, p50 ${ms(r.latency.p50)}, p99 ${ms(r.latency.p99)}; CPU/req (from /proc) app ${int(r.cpuPerRequestMicros.app)} µs, engine ${int(r.cpuPerRequestMicros.engine)} µs, client ${int(r.cpuPerRequestMicros.client)} µs; app ${r.cpuPercentOfCore.app.toFixed(0)} % of a core; other CPU ${r.otherCpuPercent.toFixed(0)} %; main thread sampled busy ${int(perReq(s))} µs/request (${(s.busyMicros / 1000).toFixed(0)} ms of ${(s.windowMicros / 1000).toFixed(0)} ms${s.cutToWindow ? ", cut to the measured window" : ", whole process life"})`;
    const us = (n: number) => n.toFixed(1);
    process.stdout.write(
      [
        `## Arca CPU profile (${startedAt.toISOString()})`,
        "",
        `- Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; command: \`${machine.command}\`; machine ${quiet.idlePercent.toFixed(0)} % idle before the run`,
        runLine("Arca", arca.run, arca.summary),
        runLine("Ts.ED floor", floor.run, floor.summary),
        runLine("bare handler", baseline.run, baseline.summary),
        `- JSON: ${out}; profiles (open in Chrome DevTools): ${arca.profileFile}, ${floor.profileFile}, ${baseline.profileFile}`,
        "",
        "### Self time per request by where the code lives: Arca, the Ts.ED floor, the bare handler (largest Arca − bare first)",
        "",
        "| package / module | Arca µs/req | floor µs/req | bare µs/req | Arca − bare |",
        "|---|---|---|---|---|",
        ...comparison
          .slice(0, 30)
          .map((r) => `| ${r.key} | ${us(r.arca)} | ${us(r.floor)} | ${us(r.bare)} | ${us(r.extra)} |`),
        `| **total (main thread, sampled)** | ${us(perReq(arca.summary))} | ${us(perReq(floor.summary))} | ${us(perReq(baseline.summary))} | ${us(perReq(arca.summary) - perReq(baseline.summary))} |`,
        "",
        table("Arca: self time by function", arca.summary.selfTop, 30),
        table("Arca: inclusive time by function", arca.summary.inclusiveTop, 60),
        table("Arca: self time charged to the nearest Arca frame on the stack", arca.summary.byNearestArcaFrame, 25),
        table("Ts.ED floor: self time by function", floor.summary.selfTop, 20),
        table("Bare handler: self time by function", baseline.summary.selfTop, 20),
      ].join("\n"),
    );
  } finally {
    setup?.agent.destroy();
    for (const p of others) await p.stop().catch(() => undefined);
    await setup?.arca.stop().catch(() => undefined);
    await setup?.engine.stop().catch(() => undefined);
    if (setup) await rm(setup.scratch, { recursive: true, force: true });
  }
}

/** Node arguments that write a CPU profile into `dir` when the process exits. */
function cpuProf(dir: string): string[] {
  return ["--cpu-prof", `--cpu-prof-dir=${dir}`];
}

// ---------------------------------------------------------------------------------------------

const mode = process.argv[2];
const entry =
  mode === "--bare-server"
    ? bareServer
    : mode === "--driver-server"
      ? driverServer
      : mode === "--tsed-server"
        ? tsedServer
        : mode === "--profile"
          ? profileRun
          : bench;
entry().catch((error: unknown) => {
  process.stderr.write(`bench-service failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
