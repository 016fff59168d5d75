// Benchmark of the large-tree reads: "tree/root and a tree/waypoint of a resource
// with 100,000 archival objects: p50 within 2x of the same calls on a resource with 1,000."
// Arca runs as a child process (`node dist/src/main.js`, what `npm start` runs) on one embedded
// engine, also a child process, as in service.ts; the client is this process, one request
// in flight. Loopback only.
//
//   npm run bench:trees                  the measurements (3-6 minutes on the 2-core machine)
//   npm run bench:trees -- --profile     the same set-up with Arca and the engine under
//                                        `node --cpu-prof`, each call profiled in its own window
//
// Set-up: one repository; resource A gets 1,000 top-level archival objects plus 300 under its
// first one (a series) through the HTTP API; resource B gets 100,000 top-level plus 300 under
// its series, seeded with the driver (insertMany) as exactly the documents Arca writes (checked
// against A's stored documents), ids taken from Arca's own counter. Everything is checked
// through the API before measuring. Every loop is bounded by a count. Results are printed as
// markdown and written as JSON to $TMPDIR/arca-bench-results/trees.json (trees-profile.json).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import { MongoClient, type Db, type Document } from "mongodb";
import { engineUri } from "../src/embedded-mongo/index.js";
import { cliPath, spawnEngine, type EngineProcess } from "../src/embedded-mongo/launcher.js";
import {
  ADMIN_PASSWORD,
  CLOCK_TICK_MICROS,
  COMPACT_THRESHOLD_BYTES,
  DB_NAME,
  check,
  cpuWindow,
  httpCall,
  httpJson,
  int,
  latencyStats,
  listDir,
  log,
  machineFacts,
  mib,
  ms,
  ms1,
  procMemory,
  RssSampler,
  safeTicks,
  setLogPrefix,
  startArca,
  summariseProfile,
  waitForQuiet,
  writeResults,
  type CpuProfile,
  type LatencyStats,
  type ProfileSummary,
  type Ranked,
  type ServiceProcess,
} from "./common.js";

setLogPrefix("bench-trees");

// ---------------------------------------------------------------------------------------------
// Parameters

const REPO_ID = 2;
const SMALL = 1_000; // top-level archival objects of resource A (HTTP)
const LARGE = 100_000; // top-level archival objects of resource B (driver)
const NESTED = 300; // under the series at position 0 of each: two waypoints (200 + 100)
const INSERT_BATCH = 10_000;
const WAYPOINT_SIZE = 200; // src/records/operations/tree-views.ts
const WARMUP_ROUNDS = 20;
const RUNS = 300; // timed requests per call
const PROFILE_RUNS = 200; // per call, under --cpu-prof
const CHECK_EVERY = 10; // parse and check every 10th timed response in full
const TARGET_RATIO = 2;
const USERNAME = "admin";
const COLLECTION = "archival_objects"; // record-types/archival_object.schema.json x-collection

// ---------------------------------------------------------------------------------------------
// The archival objects: the same fields for both resources

const SUBJECTS = [
  "Correspondence",
  "Ledgers and account books",
  "Photographs",
  "Sermons and lecture notes",
  "Architectural drawings",
  "Oral history recordings",
  "Clippings",
  "Minutes",
];

interface NodeFields {
  title: string;
  component_id: string;
  level: string;
}

/** The top-level node at `position`: a series first, then files. */
function topFields(position: number): NodeFields {
  if (position === 0) return { title: "Correspondence", component_id: "S1", level: "series" };
  const year = 1850 + (position % 150);
  return {
    title: `${SUBJECTS[position % SUBJECTS.length]}, ${year}-${year + 1 + (position % 9)}`,
    component_id: `F${position}`,
    level: "file",
  };
}

/** The `k`th node under the series. */
function nestedFields(k: number): NodeFields {
  return {
    title: `Letter to ${["J. Abbott", "M. Baptiste", "R. Castellanos", "E. Delacroix"][k % 4]}, ${1880 + (k % 40)}`,
    component_id: `S1-${k + 1}`,
    level: "item",
  };
}

/** The body a client POSTs. */
function nodeBody(fields: NodeFields, resourceUri: string, parentUri?: string): Record<string, unknown> {
  return {
    ...fields,
    resource: { ref: resourceUri },
    ...(parentUri === undefined ? {} : { parent: { ref: parentUri } }),
  };
}

/**
 * The document Arca stores for that body (src/records/operations/create.ts, prepare.ts and
 * trees/node-writes.ts): the validated fields (restrictions_apply defaulted, ref_id generated:
 * 32 hex), the server fields, then the tree's storage field and the position it was placed at.
 */
function storedNode(
  fields: NodeFields,
  resourceUri: string,
  parentUri: string | undefined,
  id: number,
  position: number,
  refId: string,
  now: Date,
): Document {
  return {
    ...nodeBody(fields, resourceUri, parentUri),
    restrictions_apply: false,
    ref_id: refId,
    id,
    repo_id: REPO_ID,
    lock_version: 0,
    created_by: USERNAME,
    last_modified_by: USERNAME,
    create_time: now,
    system_mtime: now,
    user_mtime: now,
    tree_parent: parentUri ?? resourceUri,
    position,
  };
}

const aoUri = (id: number) => `/repositories/${REPO_ID}/archival_objects/${id}`;

/** One resource's tree: ids by position. */
interface Tree {
  label: "A" | "B";
  uri: string;
  size: number;
  /** ids of the top-level nodes, by position (the series is [0]). */
  top: number[];
  /** ids of the nodes under the series, by position. */
  nested: number[];
  seriesUri: string;
}

// ---------------------------------------------------------------------------------------------
// Set-up

interface Setup {
  scratch: string;
  engine: EngineProcess;
  arca: ServiceProcess;
  agent: http.Agent;
  token: string;
  client: MongoClient;
  a: Tree;
  b: Tree;
  facts: Record<string, unknown>;
  otherCpu: Record<string, number>;
  livePids: Set<number>;
}

async function call(
  setup: Pick<Setup, "agent" | "arca" | "token">,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  return httpJson(setup.agent, setup.arca.port, method, path, setup.token, body);
}

async function created(
  setup: Pick<Setup, "agent" | "arca" | "token">,
  path: string,
  body: unknown,
): Promise<{ id: number; uri: string }> {
  const answer = await call(setup, "POST", path, body);
  check(
    answer.status === 200 && answer.json?.status === "Created",
    `POST ${path}: ${answer.status} ${JSON.stringify(answer.json)}`,
  );
  return { id: answer.json.id as number, uri: answer.json.uri as string };
}

function newResource(setup: Pick<Setup, "agent" | "arca" | "token">, n: number, title: string) {
  return created(setup, `/repositories/${REPO_ID}/resources`, {
    title,
    id_0: `BENCH-${n}`,
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    dates: [{ label: "creation", date_type: "inclusive", begin: "1850", end: "2000" }],
    lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
  });
}

/** Ids as Arca allocates them (RecordStore.nextId), `n` at once. Returns the first. */
async function allocateIds(db: Db, n: number): Promise<number> {
  const counter = await db
    .collection<{ _id: string; seq: number }>("arca_counters")
    .findOneAndUpdate({ _id: "archival_object" }, { $inc: { seq: n } }, { upsert: true, returnDocument: "after" });
  check(counter, "the archival_object id counter answered");
  return counter.seq - n + 1;
}

/**
 * The engine as spawnEngine starts it (the same CLI and options), with node options of its own
 * (--cpu-prof, which NODE_OPTIONS does not accept).
 */
function spawnEngineWith(nodeArgs: string[], dataDir: string): Promise<EngineProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, cliPath(), "--port", "0", "--fsync", "always", "--exit-with-parent", "--dbpath", dataDir],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  child.stdin!.on("error", () => undefined);
  const exited = () =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((done) => child.once("exit", () => done()));
  return new Promise((done, fail) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`the engine did not start within 60 s: ${out}`));
    }, 60_000);
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      const port = Number(match[1]);
      done({
        port,
        uri: engineUri(port),
        pid: child.pid!,
        child,
        async stop() {
          child.kill("SIGTERM");
          await exited();
        },
        async kill() {
          child.kill("SIGKILL");
          await exited();
        },
      });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`the engine exited (${signal ?? code}) before listening: ${out}`));
    });
  });
}

/** Waits for the engine to finish a compaction the bulk insert started (as service.ts does). */
async function settleEngine(
  dataDir: string,
): Promise<{ waitedMillis: number; files: Array<{ name: string; bytes: number }> }> {
  let files = await listDir(dataDir);
  const journalBytes = () => files.filter((f) => /^journal\.\d+\.log$/.test(f.name)).reduce((s, f) => s + f.bytes, 0);
  const settled = () =>
    files.some((f) => /^snapshot\.\d+\.bson$/.test(f.name)) &&
    files.filter((f) => /^journal\.\d+\.log$/.test(f.name)).length === 1 &&
    !files.some((f) => f.name.endsWith(".tmp"));
  const t0 = performance.now();
  if (journalBytes() >= COMPACT_THRESHOLD_BYTES || files.some((f) => f.name.startsWith("snapshot."))) {
    for (let waited = 0; waited < 60_000 && !settled(); waited += 200) {
      await sleep(200);
      files = await listDir(dataDir);
    }
  }
  return { waitedMillis: performance.now() - t0, files };
}

async function setUp(arcaNodeArgs: string[], engineNodeArgs: string[]): Promise<Setup> {
  const scratch = await mkdtemp(join(os.tmpdir(), "arca-bench-trees-"));
  const livePids = new Set<number>();
  const otherCpu: Record<string, number> = {};
  const facts: Record<string, unknown> = {};
  const phase = () => {
    const done = cpuWindow(() => [...livePids]);
    return (name: string) => (otherCpu[name] = Number(done().toFixed(1)));
  };
  const engine =
    engineNodeArgs.length === 0
      ? await spawnEngine({ dataDir: join(scratch, "engine"), port: 0, fsync: "always", startTimeoutMs: 60_000 })
      : await spawnEngineWith(engineNodeArgs, join(scratch, "engine"));
  livePids.add(engine.pid);
  log(`engine pid ${engine.pid} at ${engine.uri}; scratch ${scratch}`);
  const arca = await startArca(engine.uri, join(scratch, "arca-data"), arcaNodeArgs);
  livePids.add(arca.pid);
  log(`arca pid ${arca.pid} on port ${arca.port}, first start ${ms1(arca.startMillis)}`);
  await sleep(1_000);
  facts.rssIdle = { arca: procMemory(arca.pid).rss, engine: procMemory(engine.pid).rss };

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
  const session = { agent, arca, token: login.json.session as string };
  const repo = await call(session, "POST", "/repositories", { repo_code: "bench", name: "Bench" });
  check(repo.status === 200 && repo.json?.id === REPO_ID, `repository: ${repo.status} ${JSON.stringify(repo.json)}`);
  const resourceA = await newResource(session, 1, "Bench papers A (1,000 components)");
  const resourceB = await newResource(session, 2, "Bench papers B (100,000 components)");

  // --- Resource A through the API, one create at a time: the series, its 300 items, then files.
  let endPhase = phase();
  const createSamples: number[] = [];
  const timedCreate = async (body: unknown) => {
    const t0 = performance.now();
    const made = await created(session, `/repositories/${REPO_ID}/archival_objects`, body);
    createSamples.push(performance.now() - t0);
    return made;
  };
  const tCreate = performance.now();
  const seriesA = await timedCreate(nodeBody(topFields(0), resourceA.uri));
  const a: Tree = {
    label: "A",
    uri: resourceA.uri,
    size: SMALL,
    top: [seriesA.id],
    nested: [],
    seriesUri: seriesA.uri,
  };
  for (let k = 0; k < NESTED; k++)
    a.nested.push((await timedCreate(nodeBody(nestedFields(k), resourceA.uri, seriesA.uri))).id);
  for (let p = 1; p < SMALL; p++) a.top.push((await timedCreate(nodeBody(topFields(p), resourceA.uri))).id);
  const createSeconds = (performance.now() - tCreate) / 1000;
  endPhase("httpCreates");
  facts.httpCreates = { count: createSamples.length, seconds: createSeconds, latency: latencyStats(createSamples) };
  log(
    `resource A: ${createSamples.length} archival objects created over HTTP in ${createSeconds.toFixed(1)} s (p50 ${ms(latencyStats(createSamples).p50)})`,
  );

  // --- The stored shape: rebuild A's documents from their values and compare.
  const client = new MongoClient(engine.uri, { maxPoolSize: 1 });
  await client.connect();
  const db = client.db(DB_NAME);
  const nodes = db.collection(COLLECTION);
  const sameShape = async (id: number, fields: NodeFields, parentUri: string | undefined, position: number) => {
    const stored = await nodes.findOne({ repo_id: REPO_ID, id });
    check(stored, `archival object ${id} is stored`);
    const { _id: _ignored, ...doc } = stored;
    const rebuilt = storedNode(
      fields,
      resourceA.uri,
      parentUri,
      id,
      position,
      doc.ref_id as string,
      doc.create_time as Date,
    );
    check(/^[0-9a-f]{32}$/.test(doc.ref_id as string), `ref_id of ${id} is 32 hex (${doc.ref_id})`);
    check(
      doc.create_time instanceof Date &&
        isDeepStrictEqual(doc.system_mtime, doc.create_time) &&
        isDeepStrictEqual(doc.user_mtime, doc.create_time),
      `the times of ${id} are one Date`,
    );
    check(
      isDeepStrictEqual(doc, rebuilt) && Object.keys(doc).join() === Object.keys(rebuilt).join(),
      `the bulk documents have Arca's stored shape:\n  stored  ${JSON.stringify(doc)}\n  rebuilt ${JSON.stringify(rebuilt)}`,
    );
    return doc;
  };
  facts.storedShapeTop = await sameShape(a.top[1], topFields(1), undefined, 1);
  facts.storedShapeNested = await sameShape(a.nested[0], nestedFields(0), seriesA.uri, 0);
  await sameShape(a.top[0], topFields(0), undefined, 0);
  log(`stored shape: ${Object.keys(facts.storedShapeTop as Document).join(", ")}`);

  // --- Resource B with the driver: the series, its 300 items, then 99,999 files.
  const b: Tree = { label: "B", uri: resourceB.uri, size: LARGE, top: [], nested: [], seriesUri: "" };
  const specs: Array<{ fields: NodeFields; parent?: "series"; position: number }> = [
    { fields: topFields(0), position: 0 },
  ];
  for (let k = 0; k < NESTED; k++) specs.push({ fields: nestedFields(k), parent: "series", position: k });
  for (let p = 1; p < LARGE; p++) specs.push({ fields: topFields(p), position: p });
  endPhase = phase();
  const tInsert = performance.now();
  for (let start = 0; start < specs.length; start += INSERT_BATCH) {
    const batch = specs.slice(start, start + INSERT_BATCH);
    const firstId = await allocateIds(db, batch.length);
    const now = new Date();
    const docs = batch.map((spec, i) => {
      const id = firstId + i;
      if (spec.parent === undefined && spec.position === 0) b.seriesUri = aoUri(id);
      (spec.parent === undefined ? b.top : b.nested).push(id);
      return storedNode(
        spec.fields,
        resourceB.uri,
        spec.parent === undefined ? undefined : b.seriesUri,
        id,
        spec.position,
        randomBytes(16).toString("hex"),
        now,
      );
    });
    await nodes.insertMany(docs);
  }
  const insertSeconds = (performance.now() - tInsert) / 1000;
  endPhase("bulkInsert");
  check(b.top.length === LARGE && b.nested.length === NESTED, "B's ids by position");
  check(
    (await nodes.countDocuments({ repo_id: REPO_ID, "resource.ref": resourceB.uri })) === LARGE + NESTED,
    `${LARGE + NESTED} archival objects in B`,
  );
  log(`resource B: ${int(specs.length)} archival objects inserted with the driver in ${insertSeconds.toFixed(1)} s`);
  facts.bulkInsert = { count: specs.length, seconds: insertSeconds, batch: INSERT_BATCH };
  facts.compaction = await settleEngine(join(scratch, "engine"));
  log(
    `engine files: ${(facts.compaction as { files: Array<{ name: string; bytes: number }> }).files.map((f) => `${f.name} (${int(f.bytes)} B)`).join(", ")}`,
  );

  // --- A later API create gets the next id after the seeded ones (the counter was bumped).
  const resourceC = await newResource(session, 3, "Bench papers C");
  const after = await created(
    session,
    `/repositories/${REPO_ID}/archival_objects`,
    nodeBody(topFields(1), resourceC.uri),
  );
  const lastSeeded = Math.max(...b.top, ...b.nested);
  check(after.id === lastSeeded + 1, `an API create after the seed gets id ${lastSeeded + 1} (got ${after.id})`);
  facts.rssSeeded = { arca: procMemory(arca.pid).rss, engine: procMemory(engine.pid).rss };
  return { scratch, engine, arca, agent, token: session.token, client, a, b, facts, otherCpu, livePids };
}

// ---------------------------------------------------------------------------------------------
// The calls and their checks

const lastOffset = (tree: Tree) => Math.ceil(tree.size / WAYPOINT_SIZE) - 1;
const midOffset = (tree: Tree) => Math.floor((lastOffset(tree) + 1) / 2);

interface TreeCall {
  key: string;
  name: string;
  tree: Tree;
  path: string;
  /** Checks a parsed answer; returns a problem or "". */
  check(json: any): string;
}

/** What a waypoint of `holder` at `offset` must list. */
function waypointProblem(tree: Tree, json: any, offset: number, nested: boolean): string {
  const ids = nested ? tree.nested : tree.top;
  const from = offset * WAYPOINT_SIZE;
  const expected = Math.max(0, Math.min(WAYPOINT_SIZE, ids.length - from));
  if (!Array.isArray(json) || json.length !== expected)
    return `offset ${offset}: ${Array.isArray(json) ? json.length : typeof json} entries, expected ${expected}`;
  const parentId = nested ? tree.top[0] : null;
  for (let i = 0; i < json.length; i++) {
    const entry = json[i];
    if (
      entry.position !== from + i ||
      entry.uri !== aoUri(ids[from + i]) ||
      entry.parent_id !== parentId ||
      entry.jsonmodel_type !== "archival_object"
    ) {
      return `offset ${offset}, entry ${i}: ${JSON.stringify(entry)}; expected position ${from + i}, ${aoUri(ids[from + i])}, parent_id ${parentId}`;
    }
  }
  return "";
}

function rootProblem(tree: Tree, json: any): string {
  const first = json?.precomputed_waypoints?.[""]?.["0"];
  if (
    json?.child_count !== tree.size ||
    json.waypoints !== Math.ceil(tree.size / WAYPOINT_SIZE) ||
    json.waypoint_size !== WAYPOINT_SIZE ||
    json.uri !== tree.uri ||
    json.jsonmodel_type !== "resource"
  ) {
    return `root: ${JSON.stringify({ ...json, precomputed_waypoints: undefined })}`;
  }
  if (!Array.isArray(first)) return "root: no precomputed waypoint 0";
  const wp = waypointProblem(tree, first, 0, false);
  if (wp) return `root's precomputed waypoint: ${wp}`;
  const series = first[0];
  if (
    series.child_count !== NESTED ||
    series.waypoints !== Math.ceil(NESTED / WAYPOINT_SIZE) ||
    series.title !== "Correspondence" ||
    series.level !== "series" ||
    series.component_id !== "S1"
  ) {
    return `root's first child: ${JSON.stringify(series)}`;
  }
  return "";
}

function callsOf(tree: Tree): TreeCall[] {
  const waypoint = (key: string, name: string, offset: number): TreeCall => ({
    key: `${key}${tree.label}`,
    name,
    tree,
    path: `${tree.uri}/tree/waypoint?offset=${offset}`,
    check: (json) => waypointProblem(tree, json, offset, false),
  });
  return [
    {
      key: `root${tree.label}`,
      name: "tree/root",
      tree,
      path: `${tree.uri}/tree/root`,
      check: (json) => rootProblem(tree, json),
    },
    waypoint("first", "tree/waypoint offset=0", 0),
    waypoint("middle", "tree/waypoint, middle offset", midOffset(tree)),
    waypoint("last", "tree/waypoint, last offset", lastOffset(tree)),
    {
      key: `nested${tree.label}`,
      name: `tree/waypoint offset=0&parent_node=<series> (${NESTED} children)`,
      tree,
      path: `${tree.uri}/tree/waypoint?offset=0&parent_node=${encodeURIComponent(tree.seriesUri)}`,
      check: (json) => waypointProblem(tree, json, 0, true),
    },
  ];
}

async function getJson(setup: Setup, path: string): Promise<any> {
  const answer = await call(setup, "GET", path);
  check(answer.status === 200, `GET ${path}: ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
  return answer.json;
}

/** Everything the measurement relies on, through the API, before timing anything. */
async function verify(setup: Setup): Promise<Record<string, unknown>> {
  const { a, b } = setup;
  for (const tree of [a, b]) {
    for (const c of callsOf(tree)) {
      const problem = c.check(await getJson(setup, c.path));
      check(problem === "", `${tree.label} ${c.name}: ${problem}`);
    }
    const second = await getJson(
      setup,
      `${tree.uri}/tree/waypoint?offset=1&parent_node=${encodeURIComponent(tree.seriesUri)}`,
    );
    check(
      waypointProblem(tree, second, 1, true) === "",
      `${tree.label} nested waypoint 1: ${waypointProblem(tree, second, 1, true)}`,
    );
    const past = await getJson(setup, `${tree.uri}/tree/waypoint?offset=${lastOffset(tree) + 1}`);
    check(Array.isArray(past) && past.length === 0, `${tree.label}: the waypoint past the last is empty`);
  }
  // Deep in B: waypoint 400 is positions 80,000..80,199, in order.
  const deep = await getJson(setup, `${b.uri}/tree/waypoint?offset=400`);
  check(
    waypointProblem(b, deep, 400, false) === "" && deep[0].position === 80_000 && deep[199].position === 80_199,
    `B waypoint 400: ${waypointProblem(b, deep, 400, false)}`,
  );
  // The API-created and the seeded trees read the same: the same keys in the same order.
  const entryA = (await getJson(setup, `${a.uri}/tree/waypoint?offset=0`))[1];
  const entryB = (await getJson(setup, `${b.uri}/tree/waypoint?offset=0`))[1];
  check(
    Object.keys(entryA).join() === Object.keys(entryB).join(),
    `waypoint entries A ${JSON.stringify(entryA)} and B ${JSON.stringify(entryB)} have the same keys`,
  );
  const { uri: _ua, ...restA } = entryA;
  const { uri: _ub, ...restB } = entryB;
  check(
    isDeepStrictEqual(restA, restB),
    `waypoint entry 1 of A and B differ only in uri: ${JSON.stringify(entryA)} / ${JSON.stringify(entryB)}`,
  );
  const recordA = await getJson(setup, aoUri(a.top[1]));
  const recordB = await getJson(setup, aoUri(b.top[1]));
  check(
    Object.keys(recordA).join() === Object.keys(recordB).join(),
    `GET archival object: A keys ${Object.keys(recordA).join()} / B keys ${Object.keys(recordB).join()}`,
  );
  check(
    recordB.position === 1 &&
      recordB.resource?.ref === b.uri &&
      recordB.title === topFields(1).title &&
      recordB.lock_version === 0,
    `GET a seeded archival object: ${JSON.stringify(recordB)}`,
  );
  log(
    `verified: tree/root child_count ${a.size} / ${b.size}, every waypoint measured, B waypoint 400 = positions 80,000..80,199, A and B entries and records alike`,
  );
  return { waypointEntryA: entryA, waypointEntryB: entryB, archivalObjectA: recordA, archivalObjectB: recordB };
}

// ---------------------------------------------------------------------------------------------
// Measurement: one request in flight, every call in turn (a rotating order), WARMUP_ROUNDS then RUNS

interface CallResult {
  key: string;
  name: string;
  tree: "A" | "B";
  path: string;
  latency: LatencyStats;
  /** One client, one request in flight: 1000 / mean latency. */
  reqPerSec: number;
  responseBytes: number;
  checked: number;
  /**
   * CPU per request, µs, from /proc/<pid>/stat read just before and after each timed request
   * (outside the timing): what the call costs Arca and the engine, whatever else the machine runs.
   */
  cpuPerRequestMicros: { arca: number; engine: number };
}

async function measure(setup: Setup, calls: TreeCall[], warmup: number, runs: number): Promise<CallResult[]> {
  const headers = { "X-ArchivesSpace-Session": setup.token };
  const samples: number[][] = calls.map(() => []);
  const bytes: number[] = calls.map(() => 0);
  const checked: number[] = calls.map(() => 0);
  const ticks = calls.map(() => ({ arca: 0, engine: 0 }));
  for (let round = 0; round < warmup + runs; round++) {
    for (let j = 0; j < calls.length; j++) {
      const k = (round + j) % calls.length;
      const arca0 = safeTicks(setup.arca.pid);
      const engine0 = safeTicks(setup.engine.pid);
      const t0 = performance.now();
      const answer = await httpCall(setup.agent, setup.arca.port, "GET", calls[k].path, headers);
      const elapsed = performance.now() - t0;
      const arcaTicks = safeTicks(setup.arca.pid) - arca0;
      const engineTicks = safeTicks(setup.engine.pid) - engine0;
      if (answer.status !== 200) throw new Error(`GET ${calls[k].path}: ${answer.status} ${answer.body.slice(0, 300)}`);
      if (round < warmup) continue;
      samples[k].push(elapsed);
      ticks[k].arca += arcaTicks;
      ticks[k].engine += engineTicks;
      bytes[k] = Buffer.byteLength(answer.body);
      if (samples[k].length % CHECK_EVERY === 1) {
        const problem = calls[k].check(JSON.parse(answer.body));
        check(problem === "", `${calls[k].tree.label} ${calls[k].name} during the measurement: ${problem}`);
        checked[k]++;
      }
    }
  }
  return calls.map((c, k) => {
    const latency = latencyStats(samples[k]);
    const cpuPerRequestMicros = {
      arca: (ticks[k].arca * CLOCK_TICK_MICROS) / samples[k].length,
      engine: (ticks[k].engine * CLOCK_TICK_MICROS) / samples[k].length,
    };
    return {
      key: c.key,
      name: c.name,
      tree: c.tree.label,
      path: c.path,
      latency,
      reqPerSec: 1000 / latency.mean,
      responseBytes: bytes[k],
      checked: checked[k],
      cpuPerRequestMicros,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The benchmark

async function tearDown(setup: Setup | undefined): Promise<void> {
  await setup?.client.close().catch(() => undefined);
  setup?.agent.destroy();
  await setup?.arca.stop().catch(() => undefined);
  await setup?.engine.stop().catch(() => undefined);
  if (setup) await rm(setup.scratch, { recursive: true, force: true });
}

async function bench(): Promise<void> {
  const startedAt = new Date();
  const benchStart = performance.now();
  const machine = machineFacts("npm run bench:trees");
  const raw: Record<string, unknown> = { startedAt: startedAt.toISOString(), machine };
  log(`machine: ${JSON.stringify(machine)}`);
  const quiet = await waitForQuiet();
  raw.quietBeforeStart = quiet;
  let setup: Setup | undefined;
  try {
    setup = await setUp([], []);
    const { arca, engine, a, b, facts, otherCpu, livePids } = setup;
    Object.assign(raw, { setup: facts });
    raw.verified = await verify(setup);

    const calls = [...callsOf(a), ...callsOf(b)];
    const samplers = { arca: new RssSampler(arca.pid).start(), engine: new RssSampler(engine.pid).start() };
    const done = cpuWindow(() => [...livePids]);
    const tMeasure = performance.now();
    const results = await measure(setup, calls, WARMUP_ROUNDS, RUNS);
    const measureSeconds = (performance.now() - tMeasure) / 1000;
    otherCpu.measure = Number(done().toFixed(1));
    const rssPeak = { arca: samplers.arca.stop(), engine: samplers.engine.stop() };
    const rssAfter = { arca: procMemory(arca.pid), engine: procMemory(engine.pid) };
    raw.results = results;
    raw.rss = {
      idle: facts.rssIdle,
      seeded: facts.rssSeeded,
      peakDuringMeasurement: rssPeak,
      afterMeasurement: rssAfter,
    };

    const byKey = new Map(results.map((r) => [r.key, r]));
    const pairs = callsOf(a).map((c) => {
      const small = byKey.get(c.key)!;
      const large = byKey.get(c.key.replace(/A$/, "B"))!;
      const ratio = large.latency.p50 / small.latency.p50;
      return {
        name: c.name
          .replace(/middle offset/, `middle offset (A ${midOffset(a)}, B ${midOffset(b)})`)
          .replace(/last offset/, `last offset (A ${lastOffset(a)}, B ${lastOffset(b)})`),
        small,
        large,
        ratio,
        met: ratio <= TARGET_RATIO,
      };
    });
    raw.ratios = pairs.map((p) => ({
      name: p.name,
      p50Ratio: p.ratio,
      p95Ratio: p.large.latency.p95 / p.small.latency.p95,
      p99Ratio: p.large.latency.p99 / p.small.latency.p99,
      met: p.met,
    }));
    const totalSeconds = (performance.now() - benchStart) / 1000;
    const loadAtEnd = os.loadavg().map((v) => Number(v.toFixed(2)));
    Object.assign(raw, { otherCpuPercentByPhase: otherCpu, measureSeconds, totalSeconds, loadAverageAtEnd: loadAtEnd });
    const out = await writeResults("trees.json", raw);

    const pct = (r: CallResult) => `${ms(r.latency.p50)} / ${ms(r.latency.p95)} / ${ms(r.latency.p99)}`;
    const cpu = (r: CallResult) => `${int(r.cpuPerRequestMicros.arca)} + ${int(r.cpuPerRequestMicros.engine)}`;
    const creates = facts.httpCreates as { count: number; seconds: number; latency: LatencyStats };
    const insert = facts.bulkInsert as { count: number; seconds: number };
    const idle = facts.rssIdle as { arca: number; engine: number };
    const seeded = facts.rssSeeded as { arca: number; engine: number };
    const lines = [
      `## Tree benchmark (${startedAt.toISOString()})`,
      "",
      `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.totalMemory} RAM, ${machine.platform}; Node ${machine.node}; command: \`${machine.command}\``,
      `- Load average at start ${machine.loadAverageAtStart.join(" / ")}, at end ${loadAtEnd.join(" / ")}; machine ${quiet.idlePercent.toFixed(0)} % idle before the run (${quiet.quiet ? "two quiet 3 s windows" : "NOT quiet after 60 s"}); other processes: ${otherCpu.httpCreates.toFixed(0)} % during the creates, ${otherCpu.bulkInsert.toFixed(0)} % during the insert, ${otherCpu.measure.toFixed(0)} % during the measurement`,
      `- A: ${int(SMALL)} top-level + ${NESTED} nested archival objects, ${int(creates.count)} POSTs one at a time in ${creates.seconds.toFixed(1)} s (p50 ${ms(creates.latency.p50)}); B: ${int(LARGE)} + ${NESTED}, ${int(insert.count)} documents by insertMany (batches of ${int(INSERT_BATCH)}) in ${insert.seconds.toFixed(1)} s, in the shape checked against A's stored documents`,
      `- One request in flight; ${WARMUP_ROUNDS} warm-up rounds then ${RUNS} timed requests per call, all ${calls.length} calls in a rotating order; every response 200, every ${CHECK_EVERY}th checked in full; req/s = 1000 / mean latency (one client); CPU/req from /proc/<pid>/stat around each request; ${measureSeconds.toFixed(1)} s measuring, ${totalSeconds.toFixed(1)} s in all; JSON: ${out}`,
      "",
      `| Call | A (${int(SMALL)}): p50 / p95 / p99 | A req/s | A CPU/req µs Arca + engine | B (${int(LARGE)}): p50 / p95 / p99 | B req/s | B CPU/req µs Arca + engine | p50 B/A | p99 B/A | Target p50 B/A | Met? |`,
      "|---|---|---|---|---|---|---|---|---|---|---|",
      ...pairs.map(
        (p) =>
          `| ${p.name} | ${pct(p.small)} | ${int(p.small.reqPerSec)} | ${cpu(p.small)} | ${pct(p.large)} | ${int(p.large.reqPerSec)} | ${cpu(p.large)} | ${p.ratio.toFixed(2)}x | ${(p.large.latency.p99 / p.small.latency.p99).toFixed(2)}x | <= ${TARGET_RATIO}x | ${p.met ? "yes" : "**NO**"} |`,
      ),
      "",
      `- Response sizes: ${pairs.map((p) => `${p.name.split(" (")[0]} ${int(p.small.responseBytes)} / ${int(p.large.responseBytes)} B`).join("; ")}`,
      `- RSS, Arca: ${mib(idle.arca)} idle, ${mib(seeded.arca)} after the set-up, peak ${mib(rssPeak.arca)} while measuring; engine: ${mib(idle.engine)} idle, ${mib(seeded.engine)} after the seed, peak ${mib(rssPeak.engine)} while measuring (VmHWM ${mib(rssAfter.engine.hwm)})`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    const missed = pairs.filter((p) => !p.met);
    process.stdout.write(
      missed.length === 0 ? "\nAll targets met.\n" : `\nTargets missed: ${missed.map((p) => p.name).join("; ")}\n`,
    );
  } finally {
    await tearDown(setup);
  }
}

// ---------------------------------------------------------------------------------------------
// --profile: Arca and the engine under --cpu-prof; each call in a window of its own

async function readProfile(dir: string): Promise<{ file: string; profile: CpuProfile }> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"));
  check(files.length === 1, `one .cpuprofile in ${dir} (found ${files.join(", ") || "none"})`);
  const file = join(dir, files[0]);
  return { file, profile: JSON.parse(await readFile(file, "utf8")) as CpuProfile };
}

async function profileRun(): Promise<void> {
  const startedAt = new Date();
  const machine = machineFacts("npm run bench:trees -- --profile");
  log(`machine: ${JSON.stringify(machine)}`);
  const quiet = await waitForQuiet();
  const arcaDir = await mkdtemp(join(os.tmpdir(), "arca-bench-trees-profile-arca-"));
  const engineDir = await mkdtemp(join(os.tmpdir(), "arca-bench-trees-profile-engine-"));
  let setup: Setup | undefined;
  try {
    setup = await setUp(["--cpu-prof", `--cpu-prof-dir=${arcaDir}`], ["--cpu-prof", `--cpu-prof-dir=${engineDir}`]);
    await verify(setup);
    const calls = [...callsOf(setup.a), ...callsOf(setup.b)];
    const windows: Array<{ call: TreeCall; result: CallResult; window: [number, number] }> = [];
    for (const c of calls) {
      await measure(setup, [c], WARMUP_ROUNDS, 0);
      const begin = Number(process.hrtime.bigint() / 1000n);
      const [result] = await measure(setup, [c], 0, PROFILE_RUNS);
      windows.push({ call: c, result, window: [begin, Number(process.hrtime.bigint() / 1000n)] });
      log(`${c.tree.label} ${c.name}: p50 ${ms(result.latency.p50)} under --cpu-prof`);
    }
    await setup.client.close();
    await setup.arca.stop();
    await setup.engine.stop();
    const arcaProfile = await readProfile(arcaDir);
    const engineProfile = await readProfile(engineDir);
    const summaries = windows.map((w) => ({
      key: w.call.key,
      name: `${w.call.tree.label}: ${w.call.name}`,
      latency: w.result.latency,
      arca: summariseProfile(arcaProfile.profile, w.window, w.result.latency.runs),
      engine: summariseProfile(engineProfile.profile, w.window, w.result.latency.runs),
    }));
    const out = await writeResults("trees-profile.json", {
      startedAt: startedAt.toISOString(),
      machine,
      quietBeforeStart: quiet,
      summaries,
      profiles: [arcaProfile.file, engineProfile.file],
    });
    const perReq = (s: ProfileSummary) => s.busyMicros / s.requests;
    const table = (title: string, rows: Ranked[], n: number) =>
      [
        `#### ${title}`,
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
    const lines = [
      `## Tree reads under --cpu-prof (${startedAt.toISOString()})`,
      "",
      `- Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; command: \`${machine.command}\`; machine ${quiet.idlePercent.toFixed(0)} % idle before the run`,
      `- Each call: ${WARMUP_ROUNDS} warm-up requests, then ${PROFILE_RUNS} in a window of its own; main-thread busy time sampled in that window, per request`,
      `- JSON: ${out}; profiles (open in Chrome DevTools): ${arcaProfile.file}, ${engineProfile.file}`,
      "",
      "| Call | p50 (profiled) | Arca busy µs/req | engine busy µs/req |",
      "|---|---|---|---|",
      ...summaries.map(
        (s) => `| ${s.name} | ${ms(s.latency.p50)} | ${int(perReq(s.arca))} | ${int(perReq(s.engine))} |`,
      ),
      "",
    ];
    for (const s of summaries.filter((x) => x.key.endsWith("B") || x.key === "rootA")) {
      lines.push(`### ${s.name}`, "");
      lines.push(table("engine: self time by package / module", s.engine.byHome, 8));
      lines.push(table("engine: self time by function", s.engine.selfTop, 12));
      lines.push(table("engine: inclusive time by function", s.engine.inclusiveTop, 25));
      lines.push(table("Arca: self time by package / module", s.arca.byHome, 8));
      lines.push(table("Arca: inclusive time by function", s.arca.inclusiveTop, 15));
    }
    process.stdout.write(lines.join("\n"));
  } finally {
    await tearDown(setup);
  }
}

// ---------------------------------------------------------------------------------------------

const entry = process.argv[2] === "--profile" ? profileRun : bench;
entry().catch((error: unknown) => {
  process.stderr.write(`bench-trees failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
