// A running Arca HTTP server on a free loopback port, for tests that speak HTTP to it: either
// the service's own routes only (startApp), or the whole service as src/main.ts builds it
// over a fresh in-memory engine (startFullApp), with the admin logged in.
import type { Application } from "express";
import mongoose from "mongoose";
import { openAccounts } from "../../src/accounts/index.js";
import { SessionStore } from "../../src/auth/session-store.js";
import { loadConfig } from "../../src/config.js";
import { startEngine } from "../../src/embedded-mongo/index.js";
import { openRecords } from "../../src/records/setup.js";
import { createServer } from "../../src/server.js";

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

export interface FullApp extends RunningApp {
  /** The bootstrap admin's session token. */
  adminToken: string;
  /** The express application under Ts.ED (tests read its route table). */
  express: Application;
}

export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const config = loadConfig({ HOST: "127.0.0.1", ...env });
  config.http.port = 0; // any free port; PORT itself must be a real one
  const platform = await createServer(config);
  await platform.listen();
  return {
    url: `http://${String(platform.settings.get("httpPort"))}`,
    stop: () => platform.stop(),
  };
}

export const ADMIN_PASSWORD = "transport-tests";

export async function startFullApp(env: Record<string, string> = {}): Promise<FullApp> {
  const config = loadConfig({ HOST: "127.0.0.1", ADMIN_PASSWORD, ...env });
  config.http.port = 0;
  const engine = await startEngine({ inMemory: true, port: 0 });
  const connection = await mongoose.createConnection(engine.uri, { dbName: "transport" }).asPromise();
  const operations = await openRecords(connection, { resolveMaxRefs: config.records.resolveMaxRefs });
  const sessions = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 7 * 24 * 3600 });
  await sessions.init();
  const accounts = await openAccounts({ connection, operations, sessions, adminPassword: ADMIN_PASSWORD });
  const platform = await createServer(config, { operations, sessions, accounts });
  await platform.listen();
  const url = `http://${String(platform.settings.get("httpPort"))}`;
  const login = await fetch(`${url}/users/admin/login?password=${ADMIN_PASSWORD}`, { method: "POST" });
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const { session } = (await login.json()) as { session: string };
  return {
    url,
    adminToken: session,
    express: platform.app.getApp(),
    async stop() {
      await platform.stop();
      await connection.close();
      await engine.close();
    },
  };
}
