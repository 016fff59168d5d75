// The real service (src/server.ts with the real accounts) over an in-memory embedded engine,
// for the export tests: the export route is mounted as the service mounts it, and logins,
// groups and permissions are the real ones. Store commands are recorded, to count queries.
import type { PlatformBuilder } from "@tsed/platform-http";
import type { Application } from "express";
import type { CommandStartedEvent } from "mongodb";
import mongoose, { type Connection } from "mongoose";
import { createServer as createNetServer } from "node:net";
import { openAccounts } from "../../src/accounts/index.js";
import { SessionStore } from "../../src/auth/session-store.js";
import { loadConfig } from "../../src/config.js";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";
import type { RecordOperations } from "../../src/records/operations/index.js";
import { openRecords } from "../../src/records/setup.js";
import { createServer } from "../../src/server.js";

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

export interface ExportService {
  base: string;
  operations: RecordOperations;
  connection: Connection;
  /** Store commands sent since the last `commands.length = 0`. */
  commands: CommandStartedEvent[];
  admin: string;
  call(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<Reply>;
  /** POSTs a record as the admin; returns its uri (throws with the answer otherwise). */
  create(path: string, body: unknown): Promise<string>;
  login(username: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export async function startExportService(dbName: string): Promise<ExportService> {
  const engine: RunningEngine = await startEngine({ inMemory: true, port: 0 });
  const connection = await mongoose.createConnection(engine.uri, { dbName, monitorCommands: true }).asPromise();
  const commands: CommandStartedEvent[] = [];
  connection.getClient().on("commandStarted", (event) => commands.push(event));
  const operations = await openRecords(connection, { resolveMaxRefs: 1000 });
  const sessions = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 3600 });
  await sessions.init();
  const accounts = await openAccounts({ connection, operations, sessions });
  const port = await freePort();
  const platform: PlatformBuilder<Application> = await createServer(
    loadConfig({ PORT: String(port), HOST: "127.0.0.1" }),
    { operations, sessions, accounts },
  );
  await platform.listen();
  const base = `http://127.0.0.1:${port}`;

  const call: ExportService["call"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = options.token ? { "X-ArchivesSpace-Session": options.token } : {};
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, text, body };
  };
  const login = async (username: string, password: string) => {
    const reply = await call("POST", `/users/${username}/login?password=${encodeURIComponent(password)}`);
    if (reply.status !== 200) throw new Error(`login ${username}: ${reply.status} ${reply.text}`);
    return (reply.body as { session: string }).session;
  };
  const admin = await login("admin", "admin");
  const create = async (path: string, body: unknown) => {
    const reply = await call("POST", path, { token: admin, body });
    if (reply.status !== 200) throw new Error(`POST ${path}: ${reply.status} ${reply.text}`);
    return (reply.body as { uri: string }).uri;
  };
  return {
    base,
    operations,
    connection,
    commands,
    admin,
    call,
    create,
    login,
    async stop() {
      await platform.stop();
      await connection.close();
      await engine.close();
    },
  };
}

/** The id at the end of a uri. */
export function idOf(uri: string): number {
  return Number(uri.split("/").at(-1));
}
