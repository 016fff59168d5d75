// Benchmark of a repository transfer: "a transfer of a record linked from 10,000 others finishes in one
// transaction within 10 s on the embedded engine".
//
//   npm run bench:transfers              (about a minute on the 2-core machine, most of it the set-up)
//
// Set-up: the embedded engine on a fresh data directory (on disk, as `npm run db` runs it), in this process, and
// Arca's record operations over it. Repository A holds a resource with 10,000 archival objects (100 series of 99
// files each), every one linking the resource, and 100 events linking it and nothing else; repository B is empty.
// Measured: the transfer operation (what POST .../resources/:id/transfer runs after reading its parameters) moving
// the resource A -> B, then back B -> A, then A -> B again: 10,101 records moved and relinked each time, one
// transaction each. After each run the result is checked through the operations (every archival object in the
// target, each linking the new uri). Results are printed as markdown and written as JSON to
// $TMPDIR/arca-bench-results/transfers.json.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import mongoose from "mongoose";
import { trusted } from "../src/auth/actor.js";
import { startEngine } from "../src/embedded-mongo/index.js";
import { transferRecord } from "../src/records/operations/transfer.js";
import { openRecords } from "../src/records/setup.js";
import { check, int, log, machineFacts, ms1, setLogPrefix, writeResults } from "./common.js";

const SERIES = 100;
const FILES_PER_SERIES = 99;
const EVENTS = 100;
const RUNS = 3;
const TARGET_MS = 10_000;
const BATCH = 1000;

const system = trusted("bench");

async function main(): Promise<void> {
  setLogPrefix("transfers");
  const dataDir = await mkdtemp(join(os.tmpdir(), "arca-bench-transfers-"));
  const engine = await startEngine({ dataDir, port: 0 });
  const connection = await mongoose.createConnection(engine.uri, { dbName: "arca" }).asPromise();
  try {
    const ops = await openRecords(connection, { resolveMaxRefs: 1000 });
    // Id 1 is the hidden global repository, which no record may be transferred into: start at 2, as a store does.
    await ops.create("repository", {}, { repo_code: "GLOBAL", name: "Global" }, system);
    const a = (await ops.create("repository", {}, { repo_code: "A", name: "Source" }, system)).id;
    const b = (await ops.create("repository", {}, { repo_code: "B", name: "Target" }, system)).id;
    const resource = await ops.create(
      "resource",
      { repoId: a },
      {
        title: "Papers",
        id_0: "BIG",
        level: "collection",
        finding_aid_language: "eng",
        finding_aid_script: "Latn",
        lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
        dates: [{ date_type: "inclusive", label: "creation", expression: "1900-1950" }],
        extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
      },
      system,
    );
    const seedStart = performance.now();
    const link = { ref: resource.uri };
    const series = await ops.createMany(
      "archival_object",
      { repoId: a },
      Array.from({ length: SERIES }, (_, i) => ({ input: { title: `Series ${i}`, level: "series", resource: link } })),
      system,
    );
    const files = series.flatMap((parent) =>
      Array.from({ length: FILES_PER_SERIES }, (_, i) => ({
        input: { title: `File ${i}`, level: "file", resource: link, parent: { ref: parent.uri } },
      })),
    );
    for (let at = 0; at < files.length; at += BATCH)
      await ops.createMany("archival_object", { repoId: a }, files.slice(at, at + BATCH), system);
    const agent = await ops.create(
      "agent_person",
      {},
      { names: [{ primary_name: "Bench", name_order: "inverted" }] },
      system,
    );
    const events = Array.from({ length: EVENTS }, () => ({
      input: {
        event_type: "processed",
        timestamp: "2024-01-01",
        linked_agents: [{ role: "implementer", ref: agent.uri }],
        linked_records: [{ role: "outcome", ref: resource.uri }],
      },
    }));
    await ops.createMany("event", { repoId: a }, events, system);
    const records = SERIES * (1 + FILES_PER_SERIES);
    log(`seeded ${int(records)} archival objects and ${EVENTS} events in ${ms1(performance.now() - seedStart)}`);

    const runs: Array<{ from: number; to: number; ms: number }> = [];
    let from = a;
    let to = b;
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      const answer = await transferRecord(ops.deps, "resource", { repoId: from }, resource.id, to, system);
      const took = performance.now() - start;
      check(answer.status === "Moved" && answer.target === to, `run ${run}: ${JSON.stringify(answer)}`);
      const moved = await ops.deps.store
        .collection("archival_object")
        .countDocuments({ repo_id: to, "resource.ref": `/repositories/${to}/resources/${resource.id}` });
      check(moved === records, `run ${run}: ${moved} archival objects in the target, not ${records}`);
      const left = await ops.deps.store.collection("archival_object").countDocuments({ repo_id: from });
      check(left === 0, `run ${run}: ${left} archival objects left behind`);
      const eventsMoved = await ops.deps.store.collection("event").countDocuments({ repo_id: to });
      check(eventsMoved === EVENTS, `run ${run}: ${eventsMoved} events moved, not ${EVENTS}`);
      runs.push({ from, to, ms: took });
      log(`run ${run + 1}: /repositories/${from} -> /repositories/${to}: ${ms1(took)}`);
      [from, to] = [to, from];
    }
    const worst = Math.max(...runs.map((run) => run.ms));
    const facts = machineFacts("npm run bench:transfers");
    console.log(`\n## Transfer of a resource linked from ${int(records)} archival objects and ${EVENTS} events\n`);
    console.log(`${facts.cpu}, ${facts.cores} cores, node ${facts.node}; embedded engine on disk, one transaction\n`);
    console.log("| run | from -> to | time |\n|---|---|---|");
    runs.forEach((run, i) => console.log(`| ${i + 1} | ${run.from} -> ${run.to} | ${ms1(run.ms)} |`));
    console.log(`\nworst ${ms1(worst)} (target within ${int(TARGET_MS)} ms): ${worst <= TARGET_MS ? "met" : "MISSED"}`);
    const out = await writeResults("transfers.json", { facts, records, events: EVENTS, runs, targetMs: TARGET_MS });
    log(`results in ${out}`);
  } finally {
    await connection.close();
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
