// Change feed benchmark (issue 16): "The change feed keeps up with 500 writes/s and a consumer that resumes after a
// crash sees every change once."
//
//   npm run bench:changes
//   CHANGES_RATE=500 CHANGES_SECONDS=20 npm run bench:changes
//
// The embedded engine (fsync always) and Arca run as child processes. This process is a second node on the same
// store: it writes through Arca's record operations at CHANGES_RATE changes a second for CHANGES_SECONDS (batches of
// vocabulary creates, a transaction each, and single deletes of earlier ones, from several writers at once), and
// notes when each write returned (its commit). A consumer follows GET /changes?since=&wait=5&limit=1000 on Arca over
// HTTP, as an integrator would. Half way, the consumer crashes (its request aborted, all it held lost but the last
// sequence it processed) and Arca is killed with SIGKILL and started again on the same store; a new consumer resumes
// from that sequence on the new process while the writes go on. At the end every change written must have been
// received exactly once (none missing, none twice) with sequence numbers without gaps, and the consumer's lag
// (from a write's commit to its change being received) is reported.
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import mongoose from "mongoose";
import { trusted } from "../src/auth/actor.js";
import { spawnEngine, type EngineProcess } from "../src/embedded-mongo/launcher.js";
import type { RecordOperations } from "../src/records/operations/index.js";
import { openRecords } from "../src/records/setup.js";
import {
  ADMIN_PASSWORD,
  DB_NAME,
  check,
  httpJson,
  int,
  latencyStats,
  log,
  machineFacts,
  ms,
  setLogPrefix,
  startArca,
  type LatencyStats,
  type ServiceProcess,
  writeResults,
} from "./common.js";

setLogPrefix("bench-changes");

const RATE = Number(process.env.CHANGES_RATE ?? 500);
const SECONDS = Number(process.env.CHANGES_SECONDS ?? 20);
const WRITERS = 4;
/** Creates per batch (one transaction); every DELETE_EVERY-th write is instead a delete of an earlier record. */
const BATCH = 10;
const DELETE_EVERY = 5;
const TARGET_RATE = 500;
const system = trusted("bench");

interface Received {
  sequence: number;
  uri: string;
  operation: string;
  at: number;
}

interface Written {
  uri: string;
  operation: "create" | "delete";
  at: number;
}

/** Writes at `rate` changes/s until `until`, from WRITERS loops; each write's changes and when it returned. */
async function write(ops: RecordOperations, rate: number, until: number, written: Written[]): Promise<void> {
  const live: string[] = [];
  let made = 0;
  let step = 0;
  const start = performance.now();
  const writer = async () => {
    while (performance.now() < until) {
      // Paced: each write waits for its place in the schedule, so the rate is the one asked for, not the store's.
      const due = start + (made / rate) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const mine = step++;
      const victim = mine % DELETE_EVERY === DELETE_EVERY - 1 ? live.shift() : undefined;
      if (victim !== undefined) {
        made += 1;
        await ops.delete("vocabulary", {}, Number(victim.split("/").pop()), system);
        written.push({ uri: victim, operation: "delete", at: performance.now() });
        continue;
      }
      made += BATCH;
      const items = Array.from({ length: BATCH }, (_, i) => ({
        input: { name: `Feed bench ${mine}-${i}`, ref_id: `feed_${mine}_${i}` },
      }));
      const results = await ops.createMany("vocabulary", {}, items, system);
      const at = performance.now();
      for (const result of results) {
        written.push({ uri: result.uri, operation: "create", at });
        live.push(result.uri);
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

interface Consumer {
  /** The last sequence processed: what a consumer keeps durably. */
  last: number;
  stop(): void;
  done: Promise<void>;
}

/** Follows the feed from `since` until stopped, noting every change received and when. */
function consume(port: number, token: string, since: number, into: Received[]): Consumer {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: 4_000 });
  const state = { last: since, stopped: false, request: undefined as http.ClientRequest | undefined };
  const read = (after: number) =>
    new Promise<{ changes: Array<{ sequence: number; uri: string; operation: string }>; last_sequence: number }>(
      (resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: "127.0.0.1",
            port,
            path: `/changes?since=${after}&wait=5&limit=1000`,
            headers: { "X-ArchivesSpace-Session": token },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => {
              if (res.statusCode !== 200) reject(new Error(`GET /changes: ${res.statusCode}`));
              else resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
            });
            res.on("error", reject);
          },
        );
        state.request = req;
        req.on("error", reject);
        req.end();
      },
    );
  const done = (async () => {
    while (!state.stopped) {
      let page;
      try {
        page = await read(state.last);
      } catch (error) {
        if (state.stopped) return;
        throw error;
      }
      const at = performance.now();
      for (const change of page.changes) into.push({ ...change, at });
      state.last = page.last_sequence;
    }
  })();
  return {
    get last() {
      return state.last;
    },
    stop() {
      state.stopped = true;
      state.request?.destroy();
      agent.destroy();
    },
    done,
  };
}

async function login(port: number): Promise<string> {
  const agent = new http.Agent();
  const answer = await httpJson(
    agent,
    port,
    "POST",
    `/users/admin/login?password=${encodeURIComponent(ADMIN_PASSWORD)}&expiring=False`,
  );
  agent.destroy();
  check(answer.status === 200, `login: ${answer.status}`);
  return answer.json.session as string;
}

interface Result {
  rateAsked: number;
  seconds: number;
  changesWritten: number;
  rateAchieved: number;
  received: number;
  missing: number;
  duplicates: number;
  gaps: number;
  lag: LatencyStats;
  /** Of the changes written away from the crash (before it, or a second after the consumer resumed). */
  steadyLag: LatencyStats;
  restartMillis: number;
  resumedFrom: number;
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(os.tmpdir(), "arca-bench-changes-"));
  let engine: EngineProcess | undefined;
  let arca: ServiceProcess | undefined;
  let connection: mongoose.Connection | undefined;
  try {
    engine = await spawnEngine({ dataDir: join(scratch, "engine"), port: 0, fsync: "always" });
    arca = await startArca(engine.uri, join(scratch, "arca-data"));
    connection = await mongoose.createConnection(engine.uri, { dbName: DB_NAME }).asPromise();
    const ops = await openRecords(connection, { resolveMaxRefs: 1000 });
    let token = await login(arca.port);
    const first = await httpJson(new http.Agent(), arca.port, "GET", "/changes?since=0&limit=1", token);
    check(first.status === 200, `GET /changes: ${first.status}`);
    // What start-up wrote is skipped: the consumer starts from the feed's end (ask from 0 and take last_sequence
    // until an answer is empty).
    let since = 0;
    for (;;) {
      const page = await httpJson(new http.Agent(), arca.port, "GET", `/changes?since=${since}&limit=1000`, token);
      if (page.json.changes.length === 0) break;
      since = page.json.last_sequence;
    }
    log(`engine pid ${engine.pid}, arca pid ${arca.pid}; feed at ${since}; writing ${RATE}/s for ${SECONDS} s`);

    const received: Received[] = [];
    const written: Written[] = [];
    const start = performance.now();
    const writing = write(ops, RATE, start + SECONDS * 1000, written);
    let consumer = consume(arca.port, token, since, received);

    await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 2));
    // The crash: the consumer loses everything but its last sequence; Arca dies mid-work.
    const resumedFrom = consumer.last;
    const crashedAt = performance.now();
    consumer.stop();
    await consumer.done.catch(() => undefined);
    const kept = received.filter((change) => change.sequence <= resumedFrom);
    received.length = 0;
    received.push(...kept);
    const killedAt = performance.now();
    arca.child.kill("SIGKILL");
    await arca.stop();
    arca = await startArca(engine.uri, join(scratch, "arca-data"));
    const restartMillis = performance.now() - killedAt;
    token = await login(arca.port);
    log(`consumer crashed at sequence ${resumedFrom}; Arca killed and back in ${ms(restartMillis)}`);
    consumer = consume(arca.port, token, resumedFrom, received);
    const resumedAt = performance.now() + 1_000;

    await writing;
    const writeMillis = performance.now() - start;
    // Caught up: every change written received, or 30 s more.
    const deadline = performance.now() + 30_000;
    while (received.length < written.length && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    consumer.stop();
    await consumer.done.catch(() => undefined);

    const byUri = new Map<string, Received[]>();
    for (const change of received)
      byUri.set(`${change.operation} ${change.uri}`, [
        ...(byUri.get(`${change.operation} ${change.uri}`) ?? []),
        change,
      ]);
    let missing = 0;
    let duplicates = 0;
    const lags: number[] = [];
    const steadyLags: number[] = [];
    for (const one of written) {
      const got = byUri.get(`${one.operation} ${one.uri}`) ?? [];
      if (got.length === 0) missing++;
      if (got.length > 1) duplicates += got.length - 1;
      if (got[0] === undefined) continue;
      lags.push(got[0].at - one.at);
      // Away from the crash: written a second or more before it, or a second after the consumer resumed.
      if (one.at < crashedAt - 1_000 || one.at > resumedAt) steadyLags.push(got[0].at - one.at);
    }
    const sequences = received.map((change) => change.sequence);
    let gaps = 0;
    for (let i = 1; i < sequences.length; i++) if (sequences[i] !== (sequences[i - 1] ?? 0) + 1) gaps++;
    const result: Result = {
      rateAsked: RATE,
      seconds: SECONDS,
      changesWritten: written.length,
      rateAchieved: (written.length * 1000) / writeMillis,
      received: received.length,
      missing,
      duplicates,
      gaps,
      lag: latencyStats(lags),
      steadyLag: latencyStats(steadyLags),
      restartMillis,
      resumedFrom,
    };
    report(result);
    await writeResults("changes.json", { machine: machineFacts("npm run bench:changes"), result });
    check(missing === 0 && duplicates === 0 && gaps === 0, "the feed lost, repeated or skipped a change");
  } finally {
    await connection?.close();
    await arca?.stop();
    await engine?.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

function report(r: Result): void {
  const verdict = r.rateAchieved >= TARGET_RATE * 0.98 && r.missing === 0 && r.duplicates === 0 ? "met" : "MISSED";
  const facts = machineFacts("npm run bench:changes");
  console.log(`\n## Change feed (issue 16)\n`);
  console.log(
    `${facts.cpu}, ${facts.cores} cores, node ${facts.node}; engine (fsync always) and Arca as child processes`,
  );
  console.log(`\n| | measured | target |\n|---|---|---|`);
  console.log(
    `| writes | ${int(r.changesWritten)} changes in ${r.seconds} s: ${int(r.rateAchieved)}/s (asked ${r.rateAsked}/s) | ` +
      `${TARGET_RATE}/s |`,
  );
  console.log(
    `| consumer, crashed half way and resumed on a restarted Arca | ${int(r.received)} received; missing ` +
      `${r.missing}, twice ${r.duplicates}, sequence gaps ${r.gaps} (${verdict}) | every change once |`,
  );
  console.log(
    `| lag, commit to received, away from the crash | p50 ${ms(r.steadyLag.p50)}, p95 ${ms(r.steadyLag.p95)}, ` +
      `p99 ${ms(r.steadyLag.p99)}, max ${ms(r.steadyLag.max)} | keeps up |`,
  );
  console.log(
    `| lag, every change (the crash and restart included) | p50 ${ms(r.lag.p50)}, p99 ${ms(r.lag.p99)}, max ` +
      `${ms(r.lag.max)} | |`,
  );
  console.log(`| Arca killed and started again | ${ms(r.restartMillis)} | |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
