// Benchmark of resolve[] over HTTP: "GET of an archival object with
// resolve[]=linked_agents&resolve[]=subjects&resolve[]=top_container (10 links): throughput at
// least half of the same GET without resolve." Arca runs as a child process (`node
// dist/src/main.js`, what `npm start` runs) on one embedded engine, also a child process, as in
// service.ts; the load generator is this process. Loopback only.
//
//   npm run bench                    bench-service, then this (about 70 s for this part)
//   npm run bench -- --profile       also: one run of each GET under `node --cpu-prof`, summarised
//   node dist-bench/bench/resolve.js [--profile]   this part alone (after `npm run build`)
//
// Every loop is bounded (by a count or a few seconds). Results are printed as a markdown table
// and written as JSON to $TMPDIR/arca-bench-results/resolve.json (resolve-profile.json).
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { spawnEngine, type EngineProcess } from "../src/embedded-mongo/launcher.js";
import {
  ADMIN_PASSWORD,
  CLOCK_TICK_MICROS,
  cpuSnapshot,
  type CpuSnapshot,
  type CpuWindowEnd,
  check,
  frameHome,
  frameName,
  httpCall,
  httpJson,
  int,
  latencyStats,
  log,
  machineFacts,
  ms,
  setLogPrefix,
  startArca,
  waitForQuiet,
  writeResults,
  type CpuProfile,
  type LatencyStats,
  type ServiceProcess,
} from "./common.js";

// ---------------------------------------------------------------------------------------------
// Parameters

setLogPrefix("bench-resolve");

const REPO_ID = 2;
const ARCHIVAL_OBJECTS = 200;
const AGENT_POOL = 24; // 6 of each agent type
const SUBJECT_POOL = 24;
const CONTAINER_POOL = 12;
const LINKS = { linked_agents: 4, subjects: 4, top_container: 2 }; // 10 links per archival object
const RESOLVE_QUERY = "resolve[]=linked_agents&resolve[]=subjects&resolve[]=top_container";
const CONCURRENCY = 50;
const WARMUP_MS = 2_000;
const MEASURE_MS = 10_000;
const ROUNDS = 2; // plain, resolve, plain, resolve
const CHECK_EVERY = 10; // parse and check every 10th load response in full
const TARGET_RATIO = 0.5;
type Variant = "plain" | "resolve";

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

// ---------------------------------------------------------------------------------------------
// Data: a resource, its archival objects, and the agents, subjects and top containers they link

const NAMES = [
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
const TOPICS = [
  "Whaling",
  "Shipbuilding",
  "Abolitionists",
  "Lighthouses",
  "Textile industry",
  "Temperance",
  "Railroads",
  "Printing",
  "Immigration",
  "Public health",
  "Astronomy",
  "Cartography",
];

const AGENT_KINDS = [
  {
    path: "/agents/people",
    body: (i: number) => ({
      names: [
        { primary_name: NAMES[i % NAMES.length], rest_of_name: `Person ${i}`, name_order: "inverted", source: "local" },
      ],
      dates_of_existence: [
        {
          date_label: "existence",
          date_type_structured: "range",
          structured_date_range: { begin_date_standardized: `${1800 + i}`, end_date_standardized: `${1870 + i}` },
        },
      ],
    }),
  },
  {
    path: "/agents/corporate_entities",
    body: (i: number) => ({
      names: [
        {
          primary_name: `${NAMES[i % NAMES.length]} & Sons ${i}`,
          subordinate_name_1: "Counting house",
          source: "local",
        },
      ],
    }),
  },
  {
    path: "/agents/families",
    body: (i: number) => ({
      names: [{ family_name: `${NAMES[i % NAMES.length]} family ${i}`, family_type: "Merchants", source: "local" }],
    }),
  },
  {
    path: "/agents/software",
    body: (i: number) => ({ names: [{ software_name: `Scanner ${i}`, version: "1.0", manufacturer: "Acme" }] }),
  },
];

interface Pools {
  agents: string[];
  subjects: string[];
  containers: string[];
  resource: string;
}

function archivalObjectBody(i: number, pools: Pools): Record<string, unknown> {
  const year = 1850 + (i % 100);
  const pick = (pool: string[], n: number, offset: number) =>
    Array.from({ length: n }, (_, k) => pool[(i * n + k + offset) % pool.length]);
  return {
    resource: { ref: pools.resource },
    level: "file",
    title: `${NAMES[i % NAMES.length]} correspondence, ${year}-${year + 5} (file ${i})`,
    component_id: `F-${String(i).padStart(4, "0")}`,
    publish: true,
    dates: [
      {
        date_type: "inclusive",
        label: "creation",
        begin: String(year),
        end: String(year + 5),
        expression: `${year}-${year + 5}`,
      },
    ],
    extents: [{ portion: "whole", number: "1", extent_type: "files" }],
    notes: [
      {
        jsonmodel_type: "note_singlepart",
        type: "abstract",
        content: [`Letters exchanged by the ${NAMES[i % NAMES.length]} family between ${year} and ${year + 5}.`],
      },
    ],
    linked_agents: pick(pools.agents, LINKS.linked_agents, 0).map((ref, k) => ({
      ref,
      role: k === 0 ? "creator" : "subject",
    })),
    subjects: pick(pools.subjects, LINKS.subjects, 3).map((ref) => ({ ref })),
    instances: pick(pools.containers, LINKS.top_container, 5).map((ref, k) => ({
      instance_type: "mixed_materials",
      sub_container: { top_container: { ref }, type_2: "folder", indicator_2: String(k + 1) },
    })),
  };
}

async function createData(agent: http.Agent, port: number, token: string): Promise<{ pools: Pools; ids: number[] }> {
  const create = async (path: string, body: unknown): Promise<{ uri: string; id: number }> => {
    const answer = await httpJson(agent, port, "POST", path, token, body);
    check(
      answer.status === 200 && answer.json?.status === "Created",
      `create at ${path}: ${answer.status} ${JSON.stringify(answer.json)}`,
    );
    return { uri: answer.json.uri as string, id: answer.json.id as number };
  };
  const repo = await create("/repositories", { repo_code: "bench", name: "Bench" });
  check(repo.id === REPO_ID, `the repository is ${REPO_ID} (got ${repo.id})`);
  const vocabulary = (await create("/vocabularies", { name: "Local", ref_id: "local" })).uri;
  const agents: string[] = [];
  for (let i = 0; i < AGENT_POOL; i++) {
    const kind = AGENT_KINDS[i % AGENT_KINDS.length];
    agents.push((await create(kind.path, kind.body(i))).uri);
  }
  const subjects: string[] = [];
  for (let i = 0; i < SUBJECT_POOL; i++) {
    subjects.push(
      (
        await create("/subjects", {
          source: "local",
          vocabulary,
          terms: [{ term: `${TOPICS[i % TOPICS.length]} ${i}`, term_type: "topical", vocabulary }],
          scope_note: `Records about ${TOPICS[i % TOPICS.length].toLowerCase()}.`,
        })
      ).uri,
    );
  }
  const containers: string[] = [];
  for (let i = 0; i < CONTAINER_POOL; i++) {
    containers.push(
      (
        await create(`/repositories/${REPO_ID}/top_containers`, {
          indicator: String(i + 1),
          type: "box",
          barcode: `3900${String(i).padStart(6, "0")}`,
        })
      ).uri,
    );
  }
  const resource = (
    await create(`/repositories/${REPO_ID}/resources`, {
      title: "Bench family papers",
      id_0: "BENCH",
      level: "collection",
      extents: [{ portion: "whole", number: "20", extent_type: "linear_feet" }],
      dates: [{ date_type: "inclusive", label: "creation", begin: "1850", end: "1955" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
    })
  ).uri;
  const pools = { agents, subjects, containers, resource };
  const ids: number[] = [];
  for (let i = 0; i < ARCHIVAL_OBJECTS; i++)
    ids.push((await create(`/repositories/${REPO_ID}/archival_objects`, archivalObjectBody(i, pools))).id);
  return { pools, ids };
}

/** Every `_resolved` in a parsed response, at any depth. */
function resolvedSites(
  value: unknown,
  found: Array<{ ref: unknown; uri: unknown }> = [],
): Array<{ ref: unknown; uri: unknown }> {
  if (Array.isArray(value)) for (const item of value) resolvedSites(item, found);
  else if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    if (object._resolved && typeof object._resolved === "object")
      found.push({ ref: object.ref, uri: (object._resolved as Record<string, unknown>).uri });
    for (const inner of Object.values(object)) resolvedSites(inner, found);
  }
  return found;
}

/** The checks every CHECK_EVERY-th response gets: the right record, and exactly the 10 links resolved (or none). */
function checkBody(variant: Variant, id: number, body: string): string | undefined {
  const doc = JSON.parse(body) as Record<string, unknown>;
  if (doc.uri !== `/repositories/${REPO_ID}/archival_objects/${id}`)
    return `wrong record for id ${id}: ${body.slice(0, 200)}`;
  const sites = resolvedSites(doc);
  if (variant === "plain") return sites.length === 0 ? undefined : `plain GET of ${id} has ${sites.length} _resolved`;
  if (sites.length !== 10) return `resolve GET of ${id} has ${sites.length} _resolved, not 10`;
  if (sites.some((site) => site.ref !== site.uri)) return `resolve GET of ${id}: a _resolved is not its ref's record`;
  if ("_resolve_truncated" in doc) return `resolve GET of ${id} says _resolve_truncated`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Load: CONCURRENCY workers over one keep-alive agent, WARMUP_MS then MEASURE_MS

interface LoadResult {
  variant: Variant;
  requests: number;
  seconds: number;
  reqPerSec: number;
  latency: LatencyStats;
  checked: number;
  responseBytes: number;
  cpuPerRequestMicros: { app: number; engine: number; client: number };
  cpuPercentOfCore: { app: number; engine: number };
  otherCpuPercent: number;
  monotonicWindowMicros: [number, number];
}

async function loadRun(
  variant: Variant,
  app: ServiceProcess,
  engine: EngineProcess,
  token: string,
  ids: number[],
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const headers: http.OutgoingHttpHeaders = { "X-ArchivesSpace-Session": token };
  const suffix = variant === "resolve" ? `?${RESOLVE_QUERY}` : "";
  const starts: number[] = [];
  const ends: number[] = [];
  let errors = 0;
  let checked = 0;
  let responseBytes = 0;
  let firstError = "";
  let stopped = false;
  const snapshot = () => cpuSnapshot(app.pid, engine.pid);
  let begin: CpuSnapshot | undefined;
  let end: CpuWindowEnd | undefined;
  const windowDone = new Promise<void>((done) => {
    setTimeout(() => {
      begin = snapshot();
      setTimeout(() => {
        end = { ...snapshot(), other: begin!.other() };
        stopped = true;
        done();
      }, MEASURE_MS);
    }, WARMUP_MS);
  });
  const worker = async () => {
    let n = 0;
    while (!stopped) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const t0 = performance.now();
      try {
        const answer = await httpCall(
          agent,
          app.port,
          "GET",
          `/repositories/${REPO_ID}/archival_objects/${id}${suffix}`,
          headers,
        );
        const t1 = performance.now();
        if (answer.status !== 200) {
          errors++;
          firstError ||= `${answer.status} ${answer.body.slice(0, 200)}`;
          continue;
        }
        if (n++ % CHECK_EVERY === 0) {
          checked++;
          responseBytes += Buffer.byteLength(answer.body);
          const problem = checkBody(variant, id, answer.body);
          if (problem) {
            errors++;
            firstError ||= problem;
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
  check(begin && end, "the measurement window ran");
  check(errors === 0, `${variant}: ${errors} failed requests (first: ${firstError})`);
  let requests = 0;
  const samples: number[] = [];
  for (let i = 0; i < ends.length; i++) {
    if (ends[i] < begin.t || ends[i] > end.t) continue;
    requests++;
    if (starts[i] >= begin.t) samples.push(ends[i] - starts[i]);
  }
  const seconds = (end.t - begin.t) / 1000;
  const appMicros = (end.app - begin.app) * CLOCK_TICK_MICROS;
  const engineMicros = (end.engine - begin.engine) * CLOCK_TICK_MICROS;
  const clientMicros = end.client.user - begin.client.user + end.client.system - begin.client.system;
  const result: LoadResult = {
    variant,
    requests,
    seconds,
    reqPerSec: requests / seconds,
    latency: latencyStats(samples),
    checked,
    responseBytes: Math.round(responseBytes / Math.max(1, checked)),
    cpuPerRequestMicros: {
      app: appMicros / requests,
      engine: engineMicros / requests,
      client: clientMicros / requests,
    },
    cpuPercentOfCore: { app: appMicros / 1e4 / seconds, engine: engineMicros / 1e4 / seconds },
    otherCpuPercent: end.other,
    monotonicWindowMicros: [begin.mono, end.mono],
  };
  log(
    `GET ${variant}: ${int(result.reqPerSec)} req/s, p50 ${ms(result.latency.p50)}, p99 ${ms(result.latency.p99)}; CPU/req app ${int(result.cpuPerRequestMicros.app)} µs, engine ${int(result.cpuPerRequestMicros.engine)} µs; ${int(result.responseBytes)} B/response; other CPU ${result.otherCpuPercent.toFixed(0)} %`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// Set-up shared by the measurement and the profile

interface Setup {
  scratch: string;
  engine: EngineProcess;
  arca: ServiceProcess;
  token: string;
  ids: number[];
  sample: { plain: unknown; resolved: unknown };
}

async function setUp(): Promise<Setup> {
  const scratch = await mkdtemp(join(os.tmpdir(), "arca-bench-resolve-"));
  const engine = await spawnEngine({
    dataDir: join(scratch, "engine"),
    port: 0,
    fsync: "always",
    startTimeoutMs: 60_000,
  });
  log(`engine pid ${engine.pid} at ${engine.uri}`);
  let arca: ServiceProcess | undefined;
  try {
    arca = await startArca(engine.uri, join(scratch, "arca-data"));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
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
    const t0 = performance.now();
    const { ids } = await createData(agent, arca.port, token);
    log(
      `created ${AGENT_POOL} agents, ${SUBJECT_POOL} subjects, ${CONTAINER_POOL} top containers, a resource and ${ARCHIVAL_OBJECTS} archival objects in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const path = `/repositories/${REPO_ID}/archival_objects/${ids[0]}`;
    const plain = await httpJson(agent, arca.port, "GET", path, token);
    const resolved = await httpJson(agent, arca.port, "GET", `${path}?${RESOLVE_QUERY}`, token);
    check(plain.status === 200 && resolved.status === 200, `sample GETs: ${plain.status}, ${resolved.status}`);
    check(
      checkBody("resolve", ids[0], JSON.stringify(resolved.json)) === undefined,
      `sample resolve GET: ${checkBody("resolve", ids[0], JSON.stringify(resolved.json))}`,
    );
    agent.destroy();
    return { scratch, engine, arca, token, ids, sample: { plain: plain.json, resolved: resolved.json } };
  } catch (error) {
    await arca?.stop().catch(() => undefined);
    await engine.stop().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}

async function tearDown(setup: Setup | undefined, arca?: ServiceProcess): Promise<void> {
  if (!setup) return;
  await arca?.stop().catch(() => undefined);
  await setup.arca.stop().catch(() => undefined);
  await setup.engine.stop().catch(() => undefined);
  await rm(setup.scratch, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The measurement

async function bench(): Promise<void> {
  const startedAt = new Date();
  const machine = machineFacts("npm run bench (dist-bench/bench/resolve.js)");
  log(`machine: ${JSON.stringify(machine)}`);
  const quiet = await waitForQuiet();
  let setup: Setup | undefined;
  try {
    setup = await setUp();
    const runs: Record<Variant, LoadResult[]> = { plain: [], resolve: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of ["plain", "resolve"] as const)
        runs[variant].push(await loadRun(variant, setup.arca, setup.engine, setup.token, setup.ids));
    }
    const plainRps = mean(runs.plain.map((r) => r.reqPerSec));
    const resolveRps = mean(runs.resolve.map((r) => r.reqPerSec));
    const ratio = resolveRps / plainRps;
    const runText = (r: LoadResult) =>
      `${int(r.reqPerSec)} req/s, p50 ${ms(r.latency.p50)}, p99 ${ms(r.latency.p99)} (${int(r.requests)} req; CPU/req app ${int(r.cpuPerRequestMicros.app)} µs, engine ${int(r.cpuPerRequestMicros.engine)} µs; ${int(r.responseBytes)} B/response)`;
    const rows: Array<[string, string, string, string, string]> = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of ["plain", "resolve"] as const) {
        const r = runs[variant][round];
        rows.push([
          `GET archival object, ${variant === "plain" ? "no resolve" : "resolve[] x3 (10 links)"}, run ${round + 1}`,
          runText(r),
          "",
          "",
          `${r.otherCpuPercent.toFixed(0)}%`,
        ]);
      }
    }
    const meanOf = (variant: Variant) =>
      `${int(mean(runs[variant].map((r) => r.reqPerSec)))} req/s, p50 ${ms(mean(runs[variant].map((r) => r.latency.p50)))}, p99 ${ms(mean(runs[variant].map((r) => r.latency.p99)))}`;
    rows.push(["GET archival object, no resolve (mean of runs)", meanOf("plain"), "", "", ""]);
    rows.push(["GET archival object, resolve[] x3 (mean of runs)", meanOf("resolve"), "", "", ""]);
    rows.push([
      "throughput with resolve / without",
      `${(100 * ratio).toFixed(0)} %`,
      `>= ${100 * TARGET_RATIO} %`,
      ratio >= TARGET_RATIO ? "yes" : "**NO**",
      "",
    ]);
    const out = await writeResults("resolve.json", {
      startedAt: startedAt.toISOString(),
      machine,
      quietBeforeStart: quiet,
      runs,
      plainRps,
      resolveRps,
      ratio,
      rows,
      sample: setup.sample,
      loadAverageAtEnd: os.loadavg(),
    });
    process.stdout.write(
      [
        `## resolve[] benchmark (${startedAt.toISOString()})`,
        "",
        `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.totalMemory} RAM, ${machine.platform}, Node ${machine.node}; machine ${quiet.idlePercent.toFixed(0)} % idle before the run (${quiet.quiet ? "two quiet 3 s windows" : "NOT quiet after waiting 60 s"})`,
        `- Arca (\`node dist/src/main.js\`) on one embedded engine (spawnEngine, fsync always) over TCP; ${ARCHIVAL_OBJECTS} archival objects, each with ${LINKS.linked_agents} linked agents, ${LINKS.subjects} subjects and ${LINKS.top_container} instances whose sub_container links a top container, drawn from ${AGENT_POOL} agents (4 types), ${SUBJECT_POOL} subjects and ${CONTAINER_POOL} top containers`,
        `- GET /repositories/${REPO_ID}/archival_objects/<random> with and without \`?${RESOLVE_QUERY}\`; ${CONCURRENCY} keep-alive connections, ${WARMUP_MS / 1000} s warm-up + ${MEASURE_MS / 1000} s measured per run, alternating x${ROUNDS}; every response checked for 200, every ${CHECK_EVERY}th parsed (resolve: exactly 10 _resolved, each its ref's record)`,
        `- JSON: ${out}`,
        "",
        "| Measurement | Result | Target | Met? | Other CPU |",
        "|---|---|---|---|---|",
        ...rows.map((row) => `| ${row.join(" | ")} |`),
        "",
      ].join("\n"),
    );
  } finally {
    await tearDown(setup);
  }
}

// ---------------------------------------------------------------------------------------------
// --profile: one run of each GET against an Arca under `node --cpu-prof`, self time per request
// by function and by where the code lives, and the difference.

/** Self and inclusive µs per request inside the window, by function and by home. */
function summarise(profile: CpuProfile, window: [number, number], requests: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const dt = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    if (t < window[0] || t > window[1]) continue;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
  }
  const add = (map: Map<string, number>, key: string, v: number) => map.set(key, (map.get(key) ?? 0) + v);
  const byHome = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") continue;
    busy += micros;
    add(byHome, frameHome(node.callFrame.url, node.callFrame.functionName), micros);
    add(byFunction, frameName(node), micros);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = frameName(byId.get(cur)!);
      if (!seen.has(name)) {
        seen.add(name);
        add(inclusive, name, micros);
      }
    }
  }
  const perRequest = (map: Map<string, number>) => new Map([...map].map(([k, v]) => [k, v / requests]));
  return {
    busyPerRequest: busy / requests,
    byHome: perRequest(byHome),
    byFunction: perRequest(byFunction),
    inclusive: perRequest(inclusive),
  };
}

async function profiledRun(
  variant: Variant,
  setup: Setup,
): Promise<{ run: LoadResult; summary: ReturnType<typeof summarise>; file: string }> {
  const dir = await mkdtemp(join(os.tmpdir(), `arca-bench-resolve-profile-${variant}-`));
  const arca = await startArca(setup.engine.uri, join(setup.scratch, "arca-data"), [
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
  ]);
  try {
    const run = await loadRun(variant, arca, setup.engine, setup.token, setup.ids);
    await arca.stop(); // SIGTERM -> exit: node writes the profile
    const files = (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"));
    check(files.length === 1, `one .cpuprofile in ${dir}`);
    const file = join(dir, files[0]);
    const profile = JSON.parse(await readFile(file, "utf8")) as CpuProfile;
    return { run, summary: summarise(profile, run.monotonicWindowMicros, run.requests), file };
  } finally {
    await arca.stop().catch(() => undefined);
  }
}

async function profileRun(): Promise<void> {
  const startedAt = new Date();
  const machine = machineFacts("npm run bench -- --profile (dist-bench/bench/resolve.js --profile)");
  const quiet = await waitForQuiet();
  let setup: Setup | undefined;
  try {
    setup = await setUp();
    await setup.arca.stop(); // each profiled run gets its own Arca process
    const plain = await profiledRun("plain", setup);
    const resolved = await profiledRun("resolve", setup);
    const compare = (key: "byHome" | "byFunction" | "inclusive", n: number) =>
      [...new Set([...plain.summary[key].keys(), ...resolved.summary[key].keys()])]
        .map((k) => ({ key: k, plain: plain.summary[key].get(k) ?? 0, resolve: resolved.summary[key].get(k) ?? 0 }))
        .map((r) => ({ ...r, extra: r.resolve - r.plain }))
        .sort((a, b) => b.extra - a.extra)
        .slice(0, n);
    const byHome = compare("byHome", 25);
    const byFunction = compare("byFunction", 25);
    const inclusive = compare("inclusive", 30);
    const out = await writeResults("resolve-profile.json", {
      startedAt: startedAt.toISOString(),
      machine,
      quiet,
      plain: plain.run,
      resolve: resolved.run,
      byHome,
      byFunction,
      inclusive,
      files: [plain.file, resolved.file],
    });
    const table = (title: string, rows: Array<{ key: string; plain: number; resolve: number; extra: number }>) => [
      `### ${title}`,
      "",
      "| where | no resolve µs/req | resolve µs/req | extra µs/req |",
      "|---|---|---|---|",
      ...rows.map(
        (r) =>
          `| ${r.key.replace(/\|/g, "\\|")} | ${r.plain.toFixed(1)} | ${r.resolve.toFixed(1)} | ${r.extra.toFixed(1)} |`,
      ),
      "",
    ];
    process.stdout.write(
      [
        `## resolve[] CPU profile (${startedAt.toISOString()})`,
        "",
        `- Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; machine ${quiet.idlePercent.toFixed(0)} % idle before the run`,
        `- no resolve under --cpu-prof: ${int(plain.run.reqPerSec)} req/s; main thread busy ${plain.summary.busyPerRequest.toFixed(0)} µs/request`,
        `- resolve under --cpu-prof: ${int(resolved.run.reqPerSec)} req/s; main thread busy ${resolved.summary.busyPerRequest.toFixed(0)} µs/request`,
        `- JSON: ${out}; profiles: ${plain.file}, ${resolved.file}`,
        "",
        ...table("Self time by where the code lives (largest extra first)", byHome),
        ...table("Self time by function (largest extra first)", byFunction),
        ...table("Inclusive time by function (largest extra first)", inclusive),
      ].join("\n"),
    );
  } finally {
    await tearDown(setup);
  }
}

const entry = process.argv.includes("--profile") ? profileRun : bench;
entry().catch((error: unknown) => {
  process.stderr.write(`bench-resolve failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
