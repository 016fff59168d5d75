// Benchmark of a merge: "merges of a record linked from 10,000 others finish in one transaction within 10 s on the
// embedded engine". Arca runs as a child process (`node dist/src/main.js`, what `npm start` runs) on one embedded
// engine, also a child process (fsync always), as in trees.ts; the client is this process. Loopback only.
//
//   npm run bench:merges          about a minute on the 2-core machine
//
// Set-up through the API: one repository, two agents (the one kept and its duplicate), a subject pair, and 10,000
// accessions (batch imports of 1,000) each linking the duplicate agent (as creator) and the duplicate subject. Then,
// timed: POST /merge_requests/agent (10,000 accessions re-pointed, one transaction) and POST /merge_requests/subject
// (the same 10,000 again). Each result is checked in the store: every accession names the target, none the victim,
// each one lock_version on per merge, the victim gone. That a failure half-way changes nothing is
// test/acceptance/merges.test.ts (the engine's failCommand fail point). Results are printed as markdown and written
// as JSON to $TMPDIR/arca-bench-results/merges.json.
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { MongoClient } from "mongodb";
import { spawnEngine } from "../src/embedded-mongo/launcher.js";
import {
  ADMIN_PASSWORD,
  DB_NAME,
  check,
  httpJson,
  int,
  log,
  machineFacts,
  ms1,
  procMemory,
  setLogPrefix,
  startArca,
  writeResults,
} from "./common.js";

setLogPrefix("bench-merges");

/** Accessions linking the victims; MERGE_LINKING=n measures another size. */
const LINKING = Number(process.env.MERGE_LINKING ?? 10_000);
const BATCH = 1_000;
const TARGET_MS = 10_000;
const REPO = "/repositories/2";

interface Session {
  agent: http.Agent;
  port: number;
  token: string;
}

async function call(session: Session, method: string, path: string, body?: unknown) {
  return httpJson(session.agent, session.port, method, path, session.token, body);
}

async function created(session: Session, path: string, body: unknown): Promise<string> {
  const answer = await call(session, "POST", path, body);
  check(answer.status === 200, `${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json.uri as string;
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(os.tmpdir(), "arca-bench-merges-"));
  const engine = await spawnEngine({
    dataDir: join(scratch, "engine"),
    port: 0,
    fsync: "always",
    startTimeoutMs: 60_000,
  });
  const arca = await startArca(engine.uri, join(scratch, "arca-data"));
  const client = new MongoClient(engine.uri);
  try {
    await client.connect();
    const db = client.db(DB_NAME);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const login = await httpJson(
      agent,
      arca.port,
      "POST",
      `/users/admin/login?password=${encodeURIComponent(ADMIN_PASSWORD)}&expiring=False`,
    );
    check(login.status === 200, `login: ${login.status}`);
    const session: Session = { agent, port: arca.port, token: login.json.session as string };
    check((await created(session, "/repositories", { repo_code: "bench", name: "Bench" })) === REPO, "repository 2");
    const person = (name: string) =>
      created(session, "/agents/people", { names: [{ primary_name: name, name_order: "inverted", source: "local" }] });
    const targetAgent = await person("Starbuck, Obed");
    const victimAgent = await person("Starbuck, O.");
    const vocabulary = await created(session, "/vocabularies", { name: "Local", ref_id: "local" });
    const subject = (term: string) =>
      created(session, "/subjects", {
        source: "local",
        vocabulary,
        terms: [{ term, term_type: "topical", vocabulary }],
      });
    const targetSubject = await subject("Whaling");
    const victimSubject = await subject("Whaling (duplicate)");

    const t0 = performance.now();
    for (let first = 0; first < LINKING; first += BATCH) {
      const batch = Array.from({ length: BATCH }, (_, i) => ({
        jsonmodel_type: "accession",
        uri: `/repositories/import/accessions/import_${first + i}`,
        title: `Cask ${first + i}`,
        id_0: "CASK",
        id_1: String(first + i),
        accession_date: "2001-01-01",
        linked_agents: [{ ref: victimAgent, role: "creator" }],
        subjects: [{ ref: victimSubject }],
      }));
      const answer = await call(session, "POST", `${REPO}/batch_imports`, batch);
      check(answer.status === 200, `batch import: ${answer.status} ${JSON.stringify(answer.json).slice(0, 500)}`);
    }
    const seedMillis = performance.now() - t0;
    const accessions = db.collection("accessions");
    check((await accessions.countDocuments({ "linked_agents.ref": victimAgent })) === LINKING, "seeded");
    log(`seeded ${int(LINKING)} accessions in ${ms1(seedMillis)}`);

    const results: Record<string, unknown> = {};
    for (const [kind, target, victim, path] of [
      ["agent", targetAgent, victimAgent, "linked_agents.ref"],
      ["subject", targetSubject, victimSubject, "subjects.ref"],
    ] as const) {
      const locksBefore = await accessions.countDocuments({});
      const start = performance.now();
      const answer = await call(session, "POST", `/merge_requests/${kind}`, {
        target: { ref: target },
        victims: [{ ref: victim }],
      });
      const millis = performance.now() - start;
      check(
        answer.status === 200 && answer.json?.status === "OK",
        `merge ${kind}: ${answer.status} after ${ms1(millis)} ${JSON.stringify(answer.json)}\n${arca.output()}`,
      );
      const lock = kind === "agent" ? 1 : 2;
      check((await accessions.countDocuments({ [path]: target, lock_version: lock })) === LINKING, `${kind} moved`);
      check((await accessions.countDocuments({ [path]: victim })) === 0, `${kind} victim unlinked`);
      check((await call(session, "GET", victim)).status === 404, `${kind} victim deleted`);
      check(locksBefore === LINKING, "no accession lost");
      results[kind] = { millis: Number(millis.toFixed(1)), linking: LINKING, withinTarget: millis <= TARGET_MS };
      log(`merge ${kind}: ${int(LINKING)} linking records re-pointed in ${ms1(millis)}`);
    }
    const facts = machineFacts("npm run bench:merges");
    const rss = { arca: procMemory(arca.pid).rss, engine: procMemory(engine.pid).rss };
    const out = await writeResults("merges.json", { facts, seedMillis, results, rss });
    console.log(`\n| merge | linking records | time | target |\n|---|---|---|---|`);
    for (const [kind, value] of Object.entries(results)) {
      const { millis, withinTarget } = value as { millis: number; withinTarget: boolean };
      console.log(`| ${kind} | ${int(LINKING)} | ${ms1(millis)} | ${withinTarget ? "met" : "missed"} (10 s) |`);
    }
    console.log(`\n${facts.cpu}, ${facts.cores} cores, node ${facts.node}; results in ${out}`);
  } finally {
    await client.close().catch(() => undefined);
    await arca.stop().catch(() => undefined);
    await engine.stop().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
