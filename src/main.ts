// Start-up: config -> store -> records -> sessions -> accounts (bootstrap) -> HTTP server -> job workers,
// and a graceful stop on SIGTERM/SIGINT (the embedded engine flushes its journal and
// releases its lock).
import { BootstrapError, openAccounts } from "./accounts/index.js";
import { SessionStore } from "./auth/session-store.js";
import { ConfigError, loadConfig } from "./config.js";
import { describeRecovery, recoverImports } from "./importers/recovery.js";
import { startWorkerProcesses } from "./jobs/worker-processes.js";
import { openRecords } from "./records/setup.js";
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
  store.onLost((reason) => fail(`${reason}; stopping`));
  const operations = await openRecords(store.connection, config.records);
  for (const line of describeRecovery(await recoverImports(operations, config.imports)))
    process.stdout.write(`arca: ${line}\n`);
  const sessions = new SessionStore(store.connection, {
    idleSeconds: config.auth.sessionIdleSeconds,
    maxAgeSeconds: config.auth.sessionMaxAgeSeconds,
  });
  await sessions.init();
  const accounts = await openAccounts({
    connection: store.connection,
    operations,
    sessions,
    adminPassword: config.auth.usingDefaultPassword ? undefined : config.auth.adminPassword,
    loginThrottle: config.auth.loginThrottle,
  });
  if (accounts.bootstrap.defaultAdminPasswordInUse) {
    process.stderr.write(
      "arca: WARNING: the admin user's password is the default 'admin'. Set ADMIN_PASSWORD before the first start, or change the password now.\n",
    );
  }
  const platform = await createServer(config, { operations, sessions, accounts });
  await platform.listen();
  process.stdout.write(`arca: listening on ${config.http.host}:${config.http.port}\n`);
  // After the service is up: the workers attach to the embedded engine it started.
  const workers = startWorkerProcesses(config.jobs.workers, (line) => process.stdout.write(`arca: ${line}\n`));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await workers.stop();
    await platform.stop();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StoreUnavailableError || error instanceof BootstrapError)
    fail(error.message);
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
});
