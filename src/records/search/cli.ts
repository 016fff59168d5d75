// npm run reindex [-- --check]
// Rebuilds the search index from the records (reindex.ts), or with --check only compares the two and says what
// differs (exit status 1 when anything does). The store is the service's: MONGODB_URI, or the embedded engine a
// running Arca started on DATA_DIR (shared over its socket), or else the engine started here.
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { attachToRunningEngine, openStore } from "../../storage/store.js";
import { openRecords } from "../setup.js";
import { inconsistencies, reindex } from "./reindex.js";

/** How many uris of each kind a check prints. */
const SHOWN = 20;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
  const config = loadConfig();
  const store = (await attachToRunningEngine(config.store)) ?? (await openStore(config.store));
  try {
    const operations = await openRecords(store.connection, config.records);
    if (values.check) {
      const { missing, orphans } = await inconsistencies(operations.deps);
      process.stdout.write(
        `${JSON.stringify({ missing: missing.length, orphans: orphans.length, examples: { missing: missing.slice(0, SHOWN), orphans: orphans.slice(0, SHOWN) } })}\n`,
      );
      return missing.length + orphans.length === 0 ? 0 : 1;
    }
    const started = Date.now();
    const summary = await reindex(operations.deps);
    process.stdout.write(`${JSON.stringify({ ...summary, seconds: (Date.now() - started) / 1000 })}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

process.exitCode = await main();
