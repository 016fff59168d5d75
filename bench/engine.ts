// Benchmark of the embedded engine through the official `mongodb` driver, the engine running
// as a child process (as in production) on a fresh temporary data directory, loopback only.
//
//   npm run bench:engine
//
// Every loop is bounded (by a count or a few seconds) so the whole run stays well under five
// minutes. Results are printed as a markdown table and written as JSON to
// bench-results/engine.json when that path is gitignored, otherwise under os.tmpdir().
import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { BSON, MongoClient, ObjectId, type Collection, type Document } from "mongodb";
import { engineSocketUri, engineUri } from "../src/embedded-mongo/index.js";
import { spawnEngine, type EngineProcess } from "../src/embedded-mongo/launcher.js";
import {
  CLOCK_TICK_MICROS,
  COMPACT_THRESHOLD_BYTES,
  check,
  int,
  latencyStats,
  log,
  machineTicks,
  mib,
  ms1,
  processTicks,
  procMemory,
  RSS_SAMPLE_MS,
  RssSampler,
  type LatencyStats,
} from "./common.js";

// ---------------------------------------------------------------------------------------------
// Parameters

const SMALL_DOCS = 1_000;
const LARGE_DOCS = 100_000;
const INSERT_BATCH = 10_000;
const REPO_ID = 2;
const PAGE_SIZE = 10;
const DEEP_PAGE = 5_000; // skip (DEEP_PAGE - 1) * PAGE_SIZE = 49,990
const QUERY_WARMUP = 200;
const QUERY_RUNS = 2_000;
const COUNT_WARMUP = 50;
const COUNT_RUNS = 500;
const TIMED_LOOP_MS = 5_000;
const TIMED_LOOP_MAX_OPS = 200_000;
const RESTARTS = 3;
const MAX_COMPACTION_ROUNDS = 4;

// ---------------------------------------------------------------------------------------------
// Helpers

function median(values: number[]): number {
  return latencyStats(values).p50;
}

const ms = (v: number) => `${v.toFixed(3)} ms`;
/**
 * Measures how much CPU other processes on the machine used over a window, as a share of
 * the whole machine: the benchmark and its engines are separated out (the live engines by
 * their /proc stat, exited ones through this process's reaped-children counters).
 */
function cpuWindow(livePids: () => number[]): () => { otherCpuPercent: number; ownCpuPercent: number } {
  const own = () =>
    processTicks("self", true) +
    livePids().reduce((sum, pid) => {
      try {
        return sum + processTicks(pid, false);
      } catch {
        return sum; // exited between listing and reading; counted once reaped
      }
    }, 0);
  const machine0 = machineTicks();
  const own0 = own();
  return () => {
    const machine1 = machineTicks();
    const total = machine1.total - machine0.total;
    const ownUsed = own() - own0;
    const busy = machine1.busy - machine0.busy;
    return {
      otherCpuPercent: total > 0 ? Math.max(0, (100 * (busy - ownUsed)) / total) : 0,
      ownCpuPercent: total > 0 ? (100 * ownUsed) / total : 0,
    };
  };
}

interface DirFile {
  name: string;
  bytes: number;
}

/** The files of a data directory; one deleted or renamed meanwhile (compaction) is left out. */
async function listDir(dir: string): Promise<DirFile[]> {
  const names = (await readdir(dir)).sort();
  const files = await Promise.all(
    names.map(async (name) => {
      try {
        return { name, bytes: (await stat(join(dir, name))).size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    }),
  );
  return files.filter((f): f is DirFile => f !== undefined);
}

const describeFiles = (files: DirFile[]) =>
  files.map((f) => `${f.name} (${f.bytes.toLocaleString("en-US")} B)`).join(", ");
const hasSnapshot = (files: DirFile[]) => files.some((f) => /^snapshot\.\d+\.bson$/.test(f.name));

/** Runs `op` sequentially for up to `durationMs` (and at most TIMED_LOOP_MAX_OPS times). */
interface LoopResult {
  ops: number;
  seconds: number;
  opsPerSec: number;
  latency: LatencyStats;
  /** CPU time per operation in the engine process and in this (client) process, in microseconds. */
  engineCpuMicros: number;
  clientCpuMicros: number;
}

async function timedLoop(enginePid: number, durationMs: number, op: (i: number) => Promise<void>): Promise<LoopResult> {
  const samples: number[] = [];
  const engineTicks0 = processTicks(enginePid, false);
  const client0 = process.cpuUsage();
  const started = performance.now();
  const deadline = started + durationMs;
  let i = 0;
  for (; i < TIMED_LOOP_MAX_OPS; i++) {
    const t0 = performance.now();
    if (t0 >= deadline) break;
    await op(i);
    samples.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  const engineMicros = (processTicks(enginePid, false) - engineTicks0) * CLOCK_TICK_MICROS;
  const client = process.cpuUsage(client0);
  return {
    ops: i,
    seconds,
    opsPerSec: i / seconds,
    latency: latencyStats(samples),
    engineCpuMicros: engineMicros / i,
    clientCpuMicros: (client.user + client.system) / i,
  };
}

/**
 * Times several operations against each other: every round runs each of them once, one at a
 * time, in an order that rotates from round to round, so drift (GC, JIT, the machine) is
 * shared by all of them rather than charged to whichever ran first.
 */
async function measureInterleaved(
  warmup: number,
  runs: number,
  ops: Array<() => Promise<void>>,
): Promise<LatencyStats[]> {
  for (let i = 0; i < warmup; i++) for (const op of ops) await op();
  const samples: number[][] = ops.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < ops.length; j++) {
      const k = (i + j) % ops.length;
      const t0 = performance.now();
      await ops[k]();
      samples[k].push(performance.now() - t0);
    }
  }
  return samples.map(latencyStats);
}

// A realistic archival-object-like record (~320 bytes of BSON).
const DATE_BASE = Date.UTC(2020, 0, 1);
function makeDoc(repoId: number, id: number): Document {
  const year = 1850 + (id % 150);
  return {
    _id: new ObjectId(),
    repo_id: repoId,
    id,
    title: `Correspondence, series ${Math.floor(id / 100) + 1}, folder ${id}`,
    level: "file",
    publish: id % 7 !== 0,
    dates: [{ date_type: "inclusive", begin: `${year}-01-01`, end: `${year + 5}-12-31` }],
    extents: [{ portion: "whole", number: String(1 + (id % 12)), extent_type: "linear_feet" }],
    lock_version: 0,
    updated_at: new Date(DATE_BASE + id * 1000),
  };
}

const randomId = (n: number) => 1 + Math.floor(Math.random() * n);

// ---------------------------------------------------------------------------------------------
// Results

interface Row {
  section: string;
  measurement: string;
  result: string;
  target?: string;
  met?: boolean;
  method: string;
  /** CPU share of the whole machine used by other processes while this was measured. */
  otherCpu?: number;
}

const rows: Row[] = [];
const raw: Record<string, unknown> = {};

function row(r: Row): void {
  rows.push(r);
  log(`${r.measurement}: ${r.result}${r.target ? ` (target ${r.target}: ${r.met ? "met" : "NOT met"})` : ""}`);
}

function markdownTable(): string {
  const escape = (s: string) => s.replace(/\|/g, "\\|");
  const lines = ["| # | Measurement | Result | Target | Met? | Other CPU | Method |", "|---|---|---|---|---|---|---|"];
  for (const r of rows) {
    const met = r.met === undefined ? "" : r.met ? "yes" : "**NO**";
    const other = r.otherCpu === undefined ? "" : `${r.otherCpu.toFixed(0)}%`;
    lines.push(
      `| ${r.section} | ${escape(r.measurement)} | ${escape(r.result)} | ${escape(r.target ?? "")} | ${met} | ${other} | ${escape(r.method)} |`,
    );
  }
  return lines.join("\n");
}

/** bench-results/engine.json if git ignores it, else a directory under os.tmpdir(). */
function resultsPath(): string {
  const inRepo = resolve("bench-results", "engine.json");
  try {
    execFileSync("git", ["check-ignore", "-q", inRepo], { stdio: "ignore" });
    return inRepo;
  } catch {
    return join(os.tmpdir(), "arca-bench-results", "engine.json");
  }
}

// ---------------------------------------------------------------------------------------------
// The benchmark

async function timedSpawn(
  dataDir: string,
  fsync: "always" | "interval",
): Promise<{ engine: EngineProcess; millis: number }> {
  const t0 = performance.now();
  // The Unix socket sits beside the data directory, as a co-located service would use it.
  const engine = await spawnEngine({
    dataDir,
    port: 0,
    fsync,
    socketPath: join(dirname(dataDir), `${fsync}.sock`),
    startTimeoutMs: 120_000,
  });
  return { engine, millis: performance.now() - t0 };
}

/**
 * Starts floor-server.ts in a child process in front of the engine: it answers every find
 * with one canned reply, so a findOne loop through it measures the round trip alone.
 */
function spawnFloorServer(
  enginePort: number,
  socketPath: string,
): Promise<{ uri: string; socketUri: string; pid: number; stop: () => void }> {
  const script = join(dirname(fileURLToPath(import.meta.url)), "floor-server.js");
  const child = spawn(process.execPath, [script, String(enginePort), socketPath], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let stdout = "";
    child.once("exit", (code) => reject(new Error(`bench-floor-server exited with ${code} before listening`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match)
        resolve({
          uri: engineUri(Number(match[1])),
          socketUri: engineSocketUri(socketPath),
          pid: child.pid!,
          stop: () => child.kill(),
        });
    });
  });
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const benchStart = performance.now();
  const machine = {
    cpu: os.cpus()[0]?.model ?? "unknown",
    cores: os.cpus().length,
    totalMemory: mib(os.totalmem()),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    command: "npm run bench:engine",
    argv: process.argv.join(" "),
    /** 1/5/15-minute load averages: other work on the machine skews every figure. */
    loadAverageAtStart: os.loadavg().map((v) => Number(v.toFixed(2))),
  };
  raw.machine = machine;
  raw.startedAt = startedAt.toISOString();
  log(`machine: ${JSON.stringify(machine)}`);

  const scratch = await mkdtemp(join(os.tmpdir(), "arca-bench-engine-"));
  const dataDir = join(scratch, "data-always");
  const emptyDir = join(scratch, "data-empty");
  const intervalDir = join(scratch, "data-interval");
  raw.scratch = scratch;
  log(`data directories under ${scratch}`);

  const engines: EngineProcess[] = [];
  const clients: MongoClient[] = [];
  /** bench-floor-server processes: ours, so not "other" CPU. */
  const floorPids: number[] = [];
  const connect = async (uri: string) => {
    const client = new MongoClient(uri, { maxPoolSize: 1 });
    await client.connect();
    clients.push(client);
    return client;
  };
  // CPU used by other processes during a phase, in % of the machine (see cpuWindow).
  const cpu: Record<string, number> = {};
  raw.otherCpuPercentByPhase = cpu;
  const phase = () => {
    const done = cpuWindow(() => [...engines.map((e) => e.pid), ...floorPids]);
    return (name: string) => (cpu[name] = Number(done().otherCpuPercent.toFixed(1)));
  };
  const wholeRun = phase();
  const closeClient = async (client: MongoClient) => {
    await client.close().catch(() => undefined);
    clients.splice(clients.indexOf(client), 1);
  };

  try {
    // --- Baseline: start time of the engine on an empty directory (process start + listen).
    const emptyStarts: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      await rm(emptyDir, { recursive: true, force: true });
      const { engine, millis } = await timedSpawn(emptyDir, "always");
      emptyStarts.push(millis);
      await engine.stop();
    }
    raw.emptyStartMillis = emptyStarts;

    // --- 7a. Idle RSS.
    let { engine } = await timedSpawn(dataDir, "always");
    engines.push(engine);
    await sleep(1_000);
    const idle = procMemory(engine.pid);
    raw.rssIdle = idle;

    let client = await connect(engine.uri);
    let db = client.db("bench");
    const small: Collection = db.collection("list_1k");
    const large: Collection = db.collection("list_100k");
    for (const coll of [small, large]) await coll.createIndex({ repo_id: 1, id: 1 }, { unique: true });

    // --- 1/5. Populate: 1,000 docs in one insertMany, 100,000 in ten insertMany of 10,000.
    const endLoad = phase();
    const smallDocs = Array.from({ length: SMALL_DOCS }, (_, i) => makeDoc(REPO_ID, i + 1));
    const docBytes = smallDocs.map((d) => BSON.calculateObjectSize(d));
    const t1k = performance.now();
    await small.insertMany(smallDocs);
    const insert1kMillis = performance.now() - t1k;

    const largeIds: ObjectId[] = [];
    const batchMillis: number[] = [];
    let largeBytes = 0;
    for (let start = 1; start <= LARGE_DOCS; start += INSERT_BATCH) {
      const batch = Array.from({ length: INSERT_BATCH }, (_, i) => makeDoc(REPO_ID, start + i));
      for (const d of batch) {
        largeIds.push(d._id as ObjectId);
        largeBytes += BSON.calculateObjectSize(d);
      }
      const t0 = performance.now();
      await large.insertMany(batch);
      batchMillis.push(performance.now() - t0);
    }
    endLoad("load");
    raw.insertManyBatchMillis = batchMillis;
    const insertStats = latencyStats(batchMillis);
    const avgDoc = largeBytes / LARGE_DOCS;
    raw.avgDocBytes = avgDoc;
    check((await large.estimatedDocumentCount()) === LARGE_DOCS, "100k collection holds 100,000 documents");
    log(
      `loaded: avg doc ${avgDoc.toFixed(0)} B BSON; 1k doc sizes ${Math.min(...docBytes)}..${Math.max(...docBytes)} B`,
    );

    await sleep(500);
    const afterLoad = procMemory(engine.pid);
    raw.rssAfterLoad = afterLoad;
    const filesAfterLoad = await listDir(dataDir);
    raw.filesAfterLoad = filesAfterLoad;
    const journalBytesAfterLoad = filesAfterLoad
      .filter((f) => f.name.startsWith("journal."))
      .reduce((s, f) => s + f.bytes, 0);
    const compactedDuringLoad = hasSnapshot(filesAfterLoad);

    // --- 6. Journal replay: SIGKILL, then time restarts until "listening".
    await closeClient(client);
    await engine.kill();
    engines.splice(engines.indexOf(engine), 1);
    const replayMillis: number[] = [];
    const endReplay = phase();
    for (let i = 0; i < RESTARTS; i++) {
      const started = await timedSpawn(dataDir, "always");
      replayMillis.push(started.millis);
      engine = started.engine;
      engines.push(engine);
      if (i < RESTARTS - 1) {
        await engine.kill();
        engines.splice(engines.indexOf(engine), 1);
      }
    }
    endReplay("replay");
    raw.replayMillis = replayMillis;
    await sleep(500);
    const afterReplay = procMemory(engine.pid);
    raw.rssAfterReplay = afterReplay;
    const filesAfterReplay = await listDir(dataDir);
    raw.filesAfterReplay = filesAfterReplay;

    client = await connect(engine.uri);
    db = client.db("bench");
    const small2 = db.collection("list_1k");
    const large2 = db.collection("list_100k");
    check(
      (await large2.countDocuments({ repo_id: REPO_ID })) === LARGE_DOCS,
      "all 100,000 documents survived the SIGKILL + replay",
    );
    check(
      (await small2.countDocuments({ repo_id: REPO_ID })) === SMALL_DOCS,
      "all 1,000 documents survived the SIGKILL + replay",
    );

    // --- 1. Indexed list query flatness, with the RSS sampler running (7c).
    const endQueries = phase();
    const sampler = new RssSampler(engine.pid).start();
    const page = async (coll: Collection, pageNo: number) => {
      const docs = await coll
        .find({ repo_id: REPO_ID })
        .sort({ id: 1 })
        .skip((pageNo - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE)
        .toArray();
      return docs;
    };
    const firstIds = (await page(small2, 1)).map((d) => d.id);
    check(
      JSON.stringify(firstIds) === JSON.stringify([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
      `1k page 1 is ids 1..10 (got ${firstIds})`,
    );
    const deepIds = (await page(large2, DEEP_PAGE)).map((d) => d.id);
    const expectedDeep = Array.from({ length: PAGE_SIZE }, (_, i) => (DEEP_PAGE - 1) * PAGE_SIZE + 1 + i);
    check(
      JSON.stringify(deepIds) === JSON.stringify(expectedDeep),
      `100k page ${DEEP_PAGE} is ids ${expectedDeep[0]}..${expectedDeep.at(-1)} (got ${deepIds})`,
    );

    const [q1k, q100k, qDeep] = await measureInterleaved(QUERY_WARMUP, QUERY_RUNS, [
      async () => void (await page(small2, 1)),
      async () => void (await page(large2, 1)),
      async () => void (await page(large2, DEEP_PAGE)),
    ]);
    const [c1k, c100k] = await measureInterleaved(COUNT_WARMUP, COUNT_RUNS, [
      async () => void (await small2.countDocuments({ repo_id: REPO_ID })),
      async () => void (await large2.countDocuments({ repo_id: REPO_ID })),
    ]);
    const queryPeak = sampler.stop();
    endQueries("queries");
    const hwmAfterQueries = procMemory(engine.pid).hwm;
    raw.queries = {
      page1_1k: q1k,
      page1_100k: q100k,
      [`page${DEEP_PAGE}_100k`]: qDeep,
      count_1k: c1k,
      count_100k: c100k,
    };
    raw.rssPeakDuringQueries = { peakSampled: queryPeak, samples: sampler.samples, vmHwmSinceRestart: hwmAfterQueries };

    // --- 2. findOne by unique key, and by _id.
    // Baseline: the cheapest round trip there is, to separate per-request overhead (driver,
    // wire protocol, two processes on loopback) from the engine's query work.
    let endPhase = phase();
    const ping = await timedLoop(engine.pid, TIMED_LOOP_MS, async () => void (await db.command({ ping: 1 })));
    endPhase("ping");
    raw.ping = ping;
    endPhase = phase();
    const byKey = await timedLoop(engine.pid, TIMED_LOOP_MS, async () => {
      const id = randomId(LARGE_DOCS);
      const doc = await large2.findOne({ repo_id: REPO_ID, id });
      if (!doc || doc.id !== id) throw new Error(`findOne({repo_id: 2, id: ${id}}) returned ${doc?.id}`);
    });
    endPhase("findOneByKey");
    // The same lookups over the Unix domain socket (what a co-located service uses).
    endPhase = phase();
    const unixColl = (await connect(engine.socketUri!)).db("bench").collection("list_100k");
    const byKeyUnix = await timedLoop(engine.pid, TIMED_LOOP_MS, async () => {
      const id = randomId(LARGE_DOCS);
      const doc = await unixColl.findOne({ repo_id: REPO_ID, id });
      if (!doc || doc.id !== id)
        throw new Error(`findOne({repo_id: 2, id: ${id}}) over the Unix socket returned ${doc?.id}`);
    });
    endPhase("findOneByKeyUnix");
    // The floor: the same loops against a server that answers each find with a canned reply.
    const floorServer = await spawnFloorServer(engine.port, join(scratch, "floor.sock"));
    floorPids.push(floorServer.pid);
    const floorLoop = async (uri: string, phaseName: string) => {
      const end = phase();
      const coll = (await connect(uri)).db("bench").collection("list_100k");
      const result = await timedLoop(floorServer.pid, TIMED_LOOP_MS, async () => {
        const doc = await coll.findOne({ repo_id: REPO_ID, id: randomId(LARGE_DOCS) });
        if (doc?.repo_id !== REPO_ID) throw new Error("the floor server's canned reply holds no document");
      });
      end(phaseName);
      return result;
    };
    const floor = await floorLoop(floorServer.uri, "findOneFloor");
    const floorUnix = await floorLoop(floorServer.socketUri, "findOneFloorUnix");
    floorServer.stop();
    endPhase = phase();
    const byObjectId = await timedLoop(engine.pid, TIMED_LOOP_MS, async () => {
      const _id = largeIds[randomId(LARGE_DOCS) - 1];
      const doc = await large2.findOne({ _id });
      if (!doc || !_id.equals(doc._id as ObjectId))
        throw new Error(`findOne({_id: ${_id.toHexString()}}) found nothing`);
    });
    endPhase("findOneById");
    raw.findOne = { byKey, byKeyUnix, floor, floorUnix, byObjectId };

    // --- 4. updateOne by key (fsync always).
    endPhase = phase();
    const updates = await timedLoop(engine.pid, TIMED_LOOP_MS, async (i) => {
      const id = randomId(LARGE_DOCS);
      const result = await large2.updateOne(
        { repo_id: REPO_ID, id },
        { $set: { title: `Updated folder ${id} (${i})`, updated_at: new Date() } },
      );
      if (result.matchedCount !== 1) throw new Error(`updateOne id ${id} matched ${result.matchedCount}`);
    });
    endPhase("updateOne");
    raw.updateOneAlways = updates;

    // --- 3. insertOne (fsync always), into its own indexed collection.
    const inserts = db.collection("inserts");
    await inserts.createIndex({ repo_id: 1, id: 1 }, { unique: true });
    endPhase = phase();
    const insertAlways = await timedLoop(
      engine.pid,
      TIMED_LOOP_MS,
      async (i) => void (await inserts.insertOne(makeDoc(REPO_ID, i + 1))),
    );
    endPhase("insertOneAlways");
    raw.insertOneAlways = insertAlways;

    // --- 6b. Restart after a compaction. No command triggers one, so grow the journal past
    // the 64 MiB threshold with updateMany over the 100k collection (each journals every
    // changed document), wait for the snapshot, SIGKILL, and time restarts.
    const updateManyMillis: number[] = [];
    const pingDuringUpdateMany: number[] = [];
    endPhase = phase();
    let filesCompacted = await listDir(dataDir);
    for (let round = 0; round < MAX_COMPACTION_ROUNDS && !hasSnapshot(filesCompacted); round++) {
      // A second client pings every 10 ms meanwhile: how long does anyone else wait?
      const prober = await connect(engine.uri);
      await prober.db("admin").command({ ping: 1 });
      let probing = true;
      const probe = (async () => {
        while (probing) {
          const p0 = performance.now();
          await prober.db("admin").command({ ping: 1 });
          pingDuringUpdateMany.push(performance.now() - p0);
          await sleep(10);
        }
      })();
      const t0 = performance.now();
      const result = await large2.updateMany({ repo_id: REPO_ID }, { $inc: { lock_version: 1 } });
      updateManyMillis.push(performance.now() - t0);
      probing = false;
      await probe;
      await closeClient(prober);
      check(result.modifiedCount === LARGE_DOCS, `updateMany modified ${result.modifiedCount}`);
      // Compaction runs in the background once the journal passes the threshold: give it time
      // to publish the snapshot and delete the generation it supersedes.
      filesCompacted = await listDir(dataDir);
      const journalBytes = filesCompacted
        .filter((f) => /^journal\.\d+\.log$/.test(f.name))
        .reduce((sum, f) => sum + f.bytes, 0);
      if (journalBytes < COMPACT_THRESHOLD_BYTES && !hasSnapshot(filesCompacted)) continue;
      for (let waited = 0; waited < 30_000; waited += 100) {
        filesCompacted = await listDir(dataDir);
        const journals = filesCompacted.filter((f) => /^journal\.\d+\.log$/.test(f.name));
        if (
          hasSnapshot(filesCompacted) &&
          journals.length === 1 &&
          !filesCompacted.some((f) => f.name.endsWith(".tmp"))
        )
          break;
        await sleep(100);
      }
    }
    endPhase("updateMany");
    raw.updateManyMillis = updateManyMillis;
    raw.pingDuringUpdateMany = pingDuringUpdateMany.length > 0 ? latencyStats(pingDuringUpdateMany) : undefined;
    raw.filesBeforeCompactedRestart = filesCompacted;
    const compacted = hasSnapshot(filesCompacted);
    const compactedRestartMillis: number[] = [];
    endPhase = phase();
    if (compacted) {
      await closeClient(client);
      for (let i = 0; i < RESTARTS; i++) {
        await engine.kill();
        engines.splice(engines.indexOf(engine), 1);
        const started = await timedSpawn(dataDir, "always");
        compactedRestartMillis.push(started.millis);
        engine = started.engine;
        engines.push(engine);
      }
      client = await connect(engine.uri);
      check(
        (await client.db("bench").collection("list_100k").countDocuments({ repo_id: REPO_ID })) === LARGE_DOCS,
        "100,000 documents after the compacted restart",
      );
    }
    endPhase("compactedRestart");
    raw.compactedRestartMillis = compactedRestartMillis;
    await closeClient(client);
    await engine.stop();
    engines.splice(engines.indexOf(engine), 1);

    // --- 3b. insertOne with fsync "interval" on a fresh directory.
    const intervalStarted = await timedSpawn(intervalDir, "interval");
    engines.push(intervalStarted.engine);
    const intervalClient = await connect(intervalStarted.engine.uri);
    const intervalInserts = intervalClient.db("bench").collection("inserts");
    await intervalInserts.createIndex({ repo_id: 1, id: 1 }, { unique: true });
    endPhase = phase();
    const insertInterval = await timedLoop(
      intervalStarted.engine.pid,
      TIMED_LOOP_MS,
      async (i) => void (await intervalInserts.insertOne(makeDoc(REPO_ID, i + 1))),
    );
    endPhase("insertOneInterval");
    raw.insertOneInterval = insertInterval;
    await closeClient(intervalClient);
    await intervalStarted.engine.stop();
    engines.splice(engines.indexOf(intervalStarted.engine), 1);

    // ------------------------------------------------------------------------------------------
    // Rows
    const flat = (v: number) => v <= 2 * q1k.p50;
    const qMethod = `find({repo_id: 2}).sort({id: 1}).skip(k).limit(10).toArray(); ${QUERY_WARMUP} warmup + ${QUERY_RUNS} timed runs of each of the 3 queries, sequential (one in flight), interleaved round-robin with rotating order; one client; index {repo_id: 1, id: 1}; engine restarted after SIGKILL + replay`;
    const pct = (s: LatencyStats) => `p50 ${ms(s.p50)} / p95 ${ms(s.p95)} / p99 ${ms(s.p99)} (max ${ms1(s.max)})`;
    row({
      section: "1",
      measurement: "1k coll, page 1 (skip 0)",
      result: pct(q1k),
      method: qMethod,
      otherCpu: cpu.queries,
    });
    row({
      section: "1",
      measurement: "100k coll, page 1 (skip 0)",
      result: `${pct(q100k)}; p50 = ${(q100k.p50 / q1k.p50).toFixed(2)}x 1k`,
      target: "p50 <= 2x 1k p50",
      met: flat(q100k.p50),
      method: qMethod,
      otherCpu: cpu.queries,
    });
    row({
      section: "1",
      measurement: `100k coll, page ${DEEP_PAGE.toLocaleString("en-US")} (skip 49,990)`,
      result: `${pct(qDeep)}; p50 = ${(qDeep.p50 / q1k.p50).toFixed(2)}x 1k`,
      target: "p50 <= 2x 1k p50",
      met: flat(qDeep.p50),
      method: qMethod,
      otherCpu: cpu.queries,
    });
    const cMethod = `countDocuments({repo_id: 2}); ${COUNT_WARMUP} warmup + ${COUNT_RUNS} timed runs on each collection, sequential, interleaved`;
    row({
      section: "1",
      measurement: "countDocuments, 1k coll",
      result: `p50 ${ms(c1k.p50)} (p95 ${ms(c1k.p95)}, p99 ${ms(c1k.p99)})`,
      method: cMethod,
      otherCpu: cpu.queries,
    });
    row({
      section: "1",
      measurement: "countDocuments, 100k coll",
      result: `p50 ${ms(c100k.p50)} (p95 ${ms(c100k.p95)}, p99 ${ms(c100k.p99)})`,
      method: cMethod,
      otherCpu: cpu.queries,
    });

    const loopMethod = (what: string) =>
      `${what}; one client, sequential (await each), ${TIMED_LOOP_MS / 1000} s wall clock; ops/s = ops / elapsed; CPU/op from /proc/<engine pid>/stat and process.cpuUsage()`;
    const opsResult = (r: LoopResult) =>
      `${int(r.opsPerSec)} ops/s (${int(r.ops)} ops; p50 ${ms(r.latency.p50)}, p99 ${ms(r.latency.p99)}; CPU/op: engine ${int(r.engineCpuMicros)} µs, client ${int(r.clientCpuMicros)} µs)`;
    row({
      section: "2",
      measurement: "baseline: ping round trip",
      result: opsResult(ping),
      method: loopMethod("db.command({ping: 1}): no data access, the floor for any command"),
      otherCpu: cpu.ping,
    });
    row({
      section: "2",
      measurement: "findOne by unique key, 100k coll",
      result: opsResult(byKey),
      target: ">= 5,000 ops/s",
      met: byKey.opsPerSec >= 5_000,
      method: loopMethod("findOne({repo_id: 2, id: random 1..100,000})"),
      otherCpu: cpu.findOneByKey,
    });
    row({
      section: "2",
      measurement: "findOne by unique key, 100k coll, Unix socket",
      result: opsResult(byKeyUnix),
      target: ">= 5,000 ops/s",
      met: byKeyUnix.opsPerSec >= 5_000,
      method: loopMethod("the same over the engine's Unix domain socket (--socket)"),
      otherCpu: cpu.findOneByKeyUnix,
    });
    const floorMethod = (transport: string) =>
      loopMethod(
        `the same findOne ${transport} through bench/floor-server.ts, which decodes each request and writes one canned reply (no query, no encoding): what any engine could reach with this driver and Node here`,
      );
    row({
      section: "2",
      measurement: "floor: findOne answered with a canned reply",
      result: opsResult(floor).replace("engine", "floor server"),
      method: floorMethod("over TCP"),
      otherCpu: cpu.findOneFloor,
    });
    row({
      section: "2",
      measurement: "floor: the same, Unix socket",
      result: opsResult(floorUnix).replace("engine", "floor server"),
      method: floorMethod("over a Unix socket"),
      otherCpu: cpu.findOneFloorUnix,
    });
    row({
      section: "2",
      measurement: "findOne by _id, 100k coll",
      result: opsResult(byObjectId),
      method: loopMethod("findOne({_id: random existing ObjectId})"),
      otherCpu: cpu.findOneById,
    });
    row({
      section: "3",
      measurement: "insertOne, fsync always",
      result: opsResult(insertAlways),
      method: loopMethod("insertOne(~320 B doc) into a collection with a unique {repo_id, id} index"),
      otherCpu: cpu.insertOneAlways,
    });
    row({
      section: "3",
      measurement: "insertOne, fsync interval (100 ms)",
      result: opsResult(insertInterval),
      method: loopMethod("same, fresh engine with --fsync interval"),
      otherCpu: cpu.insertOneInterval,
    });
    row({
      section: "4",
      measurement: "updateOne by key, fsync always, 100k coll",
      result: opsResult(updates),
      method: loopMethod("updateOne({repo_id: 2, id: random}, {$set: {title, updated_at}})"),
      otherCpu: cpu.updateOne,
    });
    if (updateManyMillis.length > 0) {
      row({
        section: "4",
        measurement: "updateMany of 100,000 docs, fsync always",
        result: `${updateManyMillis.map(ms1).join(", ")} (${int(LARGE_DOCS / (updateManyMillis[0] / 1000))} docs/s); meanwhile another client's ping took up to ${ms1(Math.max(...pingDuringUpdateMany))} (${pingDuringUpdateMany.length} pings)`,
        method:
          "updateMany({repo_id: 2}, {$inc: {lock_version: 1}}) on the 100k collection, one call timed (run to grow the journal for section 6b), while a second client sends ping every 10 ms and records each round trip",
        otherCpu: cpu.updateMany,
      });
    }
    row({
      section: "5",
      measurement: "insertMany of 10,000 docs, fsync always",
      result: `median ${ms1(insertStats.p50)} (min ${ms1(insertStats.min)}, max ${ms1(insertStats.max)}); ${int(INSERT_BATCH / (insertStats.p50 / 1000))} docs/s at the median; first write to the fresh engine, the 1,000-doc insertMany: ${ms1(insert1kMillis)}`,
      method: `10 sequential insertMany calls of 10,000 docs (avg ${avgDoc.toFixed(0)} B BSON) into the indexed 100k collection, growing 0 -> 100k; each call timed`,
      otherCpu: cpu.load,
    });
    row({
      section: "6",
      measurement: "restart after SIGKILL, 101k docs in journal only",
      result: `median ${ms1(median(replayMillis))} (runs: ${replayMillis.map(ms1).join(", ")}); empty-dir start median ${ms1(median(emptyStarts))}`,
      method: `SIGKILL after the load, then spawnEngine() until "listening" (includes node process start), x${RESTARTS}; journal ${mib(journalBytesAfterLoad)}, compaction during load: ${compactedDuringLoad ? "YES" : "no"}; files: ${describeFiles(filesAfterLoad)}`,
      otherCpu: cpu.replay,
    });
    row({
      section: "6",
      measurement: "restart after SIGKILL, after a compaction",
      result: compacted
        ? `median ${ms1(median(compactedRestartMillis))} (runs: ${compactedRestartMillis.map(ms1).join(", ")})`
        : `no compaction happened after ${updateManyMillis.length} updateMany rounds`,
      method: `journal grown past 64 MiB by updateMany({repo_id: 2}, {$inc: {lock_version: 1}}) over 100k docs (${updateManyMillis.map(ms1).join(", ")} each), waited for the snapshot, SIGKILL, restart x${RESTARTS}; files: ${describeFiles(filesCompacted)}`,
      otherCpu: cpu.compactedRestart,
    });
    const rssMethod = "VmRSS from /proc/<engine pid>/status";
    row({
      section: "7",
      measurement: "engine RSS idle after start",
      result: mib(idle.rss),
      method: `${rssMethod}, 1 s after listening, empty dir`,
    });
    row({
      section: "7",
      measurement: "engine RSS after loading 101k docs",
      result: `${mib(afterLoad.rss)} (VmHWM ${mib(afterLoad.hwm)}); after SIGKILL + replay: ${mib(afterReplay.rss)} (VmHWM ${mib(afterReplay.hwm)})`,
      method: `${rssMethod}, 0.5 s after the last insertMany / after restart`,
    });
    row({
      section: "7",
      measurement: "engine RSS peak during query runs",
      result: `${mib(queryPeak)} (sampled ${sampler.samples}x); VmHWM since restart ${mib(hwmAfterQueries)}`,
      method: `${rssMethod} sampled every ${RSS_SAMPLE_MS} ms during section 1`,
    });

    const totalSeconds = (performance.now() - benchStart) / 1000;
    raw.totalSeconds = totalSeconds;
    const loadAtEnd = os.loadavg().map((v) => Number(v.toFixed(2)));
    raw.loadAverageAtEnd = loadAtEnd;
    wholeRun("wholeRun");
    raw.rows = rows;
    raw.targets = rows
      .filter((r) => r.target)
      .map((r) => ({ measurement: r.measurement, target: r.target, met: r.met }));

    const out = resultsPath();
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(raw, null, 2)}\n`);

    const header = [
      `## Embedded engine benchmark (${startedAt.toISOString()})`,
      "",
      `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.totalMemory} RAM, ${machine.platform}`,
      `- Node ${machine.node}; command: \`${machine.command}\` (${machine.argv})`,
      `- Engine: child process via spawnEngine(), fsync "always" unless stated, fresh temp data dir; driver: mongodb (official), loopback 127.0.0.1`,
      `- Docs: avg ${avgDoc.toFixed(0)} B BSON (title, level, publish, dates[], extents[], lock_version, updated_at)`,
      `- Load average (1/5/15 min) at start ${machine.loadAverageAtStart.join(" / ")}, at end ${loadAtEnd.join(" / ")} (lags, and counts this benchmark's own fsync waits)`,
      `- Other processes used ${cpu.wholeRun.toFixed(0)}% of the machine's CPU over the run (per phase in the "Other CPU" column: /proc/stat minus this process, its engines and their reaped children); figures from phases where it is above a few % are not comparable with quiet runs`,
      `- Total run time: ${totalSeconds.toFixed(1)} s; JSON: ${out}`,
      "",
    ].join("\n");
    process.stdout.write(`${header}${markdownTable()}\n`);
    const missed = rows.filter((r) => r.target && !r.met);
    process.stdout.write(
      missed.length === 0
        ? "\nAll targets met.\n"
        : `\nTargets missed: ${missed.map((r) => r.measurement).join("; ")}\n`,
    );
  } finally {
    for (const client of [...clients]) await client.close().catch(() => undefined);
    for (const engine of engines) await engine.kill().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-engine failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
