// `npm run worker`: a job worker on its own, for more nodes (and what `npm start` runs beside the service). It uses
// the store MONGODB_URI names, or else the embedded engine a running Arca serves on this DATA_DIR (or, when none
// runs, its own). It stops on SIGTERM/SIGINT, and when the service that started it is gone (its IPC channel closes),
// giving its running job back to the queue with what it wrote undone.
import { setPriority } from "node:os";
import { loadConfig } from "../config.js";
import { openRecords } from "../records/setup.js";
import { attachToRunningEngine, openStore } from "../storage/store.js";
import { openJobs } from "./index.js";
import { JobWorker } from "./worker.js";

const say = (line: string) => process.stdout.write(`arca worker ${process.pid}: ${line}\n`);

/** A worker's CPU niceness: beside the service on one machine, the service's requests come first. */
const NICENESS = 10;

async function main(): Promise<void> {
  const config = loadConfig();
  setPriority(NICENESS);
  const store = (await attachToRunningEngine(config.store)) ?? (await openStore(config.store));
  store.onLost((reason) => {
    say(`${reason}; stopping`);
    process.exit(1);
  });
  const operations = await openRecords(store.connection, config.records);
  const { queue, files } = await openJobs(store.connection, config.jobs.leaseSeconds);
  const worker = new JobWorker({
    operations,
    queue,
    files,
    limits: config.imports,
    pollMs: config.jobs.pollMs,
    maxAttempts: config.jobs.maxAttempts,
    batchRecords: config.jobs.batchRecords,
    say,
  });
  worker.start();
  say(`running jobs from ${store.description}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.stop();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  process.on("disconnect", () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`arca worker: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
