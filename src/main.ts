// Start-up: config -> store -> HTTP server, and a graceful stop on SIGTERM/SIGINT (the
// embedded engine flushes its journal and releases its lock).
import { ConfigError, loadConfig } from "./config.js";
import { createServer } from "./server.js";
import { openStore, StoreUnavailableError } from "./storage/store.js";

function fail(message: string): never {
  process.stderr.write(`arca: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config.store);
  process.stdout.write(`arca: store: ${store.description}\n`);
  const platform = await createServer(config);
  await platform.listen();
  process.stdout.write(`arca: listening on ${config.http.host}:${config.http.port}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await platform.stop();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StoreUnavailableError) fail(error.message);
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
});
