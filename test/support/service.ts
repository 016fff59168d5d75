// The one way tests start Arca over HTTP, on a fresh in-memory embedded engine, and the one
// client they call it with. Two kinds of service:
//   - startService: the real one, as src/main.ts builds it (createServer with the real accounts:
//     logins, users, groups, every route), for tests of the service as clients meet it;
//   - startRecordServer: the record and enumeration routes with the parts every request meets
//     (the session middleware, the body parsers, the one error filter), where what each user may
//     do comes from a permission map the test sets (PermissionTable), for tests of the record
//     engine's rules without building users and groups first.
// Ts.ED's injector is global to the process: start one server per test file.
import "@tsed/platform-express"; // PlatformTest/bootstrap hang without it in the module graph
import { Configuration } from "@tsed/di";
import { PlatformExpress } from "@tsed/platform-express";
import type { Application } from "express";
import type { CommandStartedEvent } from "mongodb";
import mongoose, { type Connection } from "mongoose";
import { openAccounts, type Accounts, type LoginThrottleOptions } from "../../src/accounts/index.js";
import type { AccessControl } from "../../src/auth/access-control.js";
import type { PermissionMap } from "../../src/auth/permissions.js";
import { sessionMiddleware } from "../../src/auth/session-middleware.js";
import { SessionStore } from "../../src/auth/session-store.js";
import { loadConfig } from "../../src/config.js";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";
import { ErrorFilter } from "../../src/errors/error-filter.js";
import { bodyParsers } from "../../src/http/body-parsers.js";
import { enumerationController } from "../../src/records/enumerations/index.js";
import { mergeController } from "../../src/records/merges/index.js";
import { recordControllers } from "../../src/records/http/index.js";
import { publicationController } from "../../src/records/http/publication-controller.js";
import { transferController } from "../../src/records/transfers/controller.js";
import type { RecordOperations } from "../../src/records/operations/index.js";
import { openRecords, type RecordsOptions } from "../../src/records/setup.js";
import type { Registry } from "../../src/registry/index.js";
import { createServer } from "../../src/server.js";

export const SESSION_HEADER = "X-ArchivesSpace-Session";

// ---------------------------------------------------------------------------------------------
// The client.

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: unknown;
}

export interface RequestOptions {
  token?: string;
  /** A value is sent as JSON text (Content-Type application/json unless `headers` says otherwise), a string as is. */
  body?: unknown;
  /** Sent as an application/x-www-form-urlencoded body instead. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** One request to `base` (`http://127.0.0.1:port`): its status, headers, text and parsed JSON. */
export async function request(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers[SESSION_HEADER] = options.token;
  let body: string | undefined;
  if (options.form !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  } else if (typeof options.body === "string") body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

// ---------------------------------------------------------------------------------------------
// The store under either service.

/** Store commands the server sent, as the driver reports them (the `monitorCommands` option). */
export class CommandLog {
  readonly started: CommandStartedEvent[] = [];

  clear(): void {
    this.started.length = 0;
  }

  /**
   * The collection lookups sent since the last clear, optionally only those on one collection,
   * each as `{find: <collection>, filter}`: a `find` command is one; an `aggregate` whose
   * leading $match and $unionWith stages reach several collections (resolve[]'s one query per
   * level) is one per collection it matches in; a counting aggregate (countDocuments) is none.
   */
  finds(collection?: string): Array<Record<string, unknown>> {
    const lookups = this.started.flatMap((event): Array<Record<string, unknown>> => {
      const command = event.command as Record<string, unknown>;
      if (event.commandName === "find") return [command];
      if (event.commandName !== "aggregate") return [];
      const stages = command.pipeline as Array<Record<string, Record<string, unknown>>>;
      // countDocuments ($match + $group) counts, it does not fetch records.
      if (stages.some((stage) => stage.$group)) return [];
      const lead = stages[0]?.$match;
      const unions = stages.flatMap((stage) => (stage.$unionWith ? [stage.$unionWith] : []));
      return [
        ...(lead ? [{ find: command.aggregate, filter: lead }] : []),
        ...unions.map((union) => ({
          find: union.coll,
          filter: (union.pipeline as Array<Record<string, unknown>>)[0]?.$match,
        })),
      ];
    });
    return lookups.filter((lookup) => collection === undefined || lookup.find === collection);
  }

  /**
   * Round trips that read records themselves (a read, a page, resolve lookups): find and aggregate commands, leaving
   * out the session store's and the computed fields' queries (see isComputedFieldQuery).
   */
  recordRoundTrips(): number {
    return this.started.filter((event) => {
      if (event.commandName !== "find" && event.commandName !== "aggregate") return false;
      const command = event.command as Record<string, unknown>;
      if (command[event.commandName] === "sessions") return false;
      const filter =
        event.commandName === "find"
          ? command.filter
          : (command.pipeline as Array<Record<string, unknown>> | undefined)?.[0]?.$match;
      return !isComputedFieldQuery(filter);
    }).length;
  }

  /** Store round trips (find and aggregate commands) since the last clear, leaving out the session store's. */
  roundTrips(): number {
    return this.started.filter(
      (event) =>
        (event.commandName === "find" || event.commandName === "aggregate") &&
        (event.command as Record<string, unknown>)[event.commandName] !== "sessions",
    ).length;
  }

  /** How many lookups (see finds) each collection received since the last clear. */
  findsByCollection(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const command of this.finds()) counts[String(command.find)] = (counts[String(command.find)] ?? 0) + 1;
    return counts;
  }
}

/**
 * Whether a query's filter is one of the computed fields' (docs/api.md §3): records linking to those shown, found by
 * a dotted link path, or which of their repositories are published.
 */
export function isComputedFieldQuery(filter: unknown): boolean {
  if (filter === null || typeof filter !== "object") return false;
  return Object.keys(filter).some((key) => key.includes(".") || key === "publish");
}

export interface StoreOptions {
  /** Record every command the driver sends (MongoDB command monitoring) in `commands`. */
  monitorCommands?: boolean;
  /** Let the engine take test commands (the failCommand fail point). */
  testCommands?: boolean;
  /** The database's name (default `arca_test`). */
  dbName?: string;
  /** Record settings (default: resolve[] bounded at 1,000 refs) and, for a drop-in test, another registry. */
  records?: Partial<RecordsOptions> & { registry?: Registry };
}

/** The store a test service runs on (or an operation-level test uses alone). */
export interface TestStore {
  engine: RunningEngine;
  connection: Connection;
  ops: RecordOperations;
  sessions: SessionStore;
  commands?: CommandLog;
  close(): Promise<void>;
}

export async function openTestStore(options: StoreOptions = {}): Promise<TestStore> {
  const engine = await startEngine({ inMemory: true, port: 0, testCommands: options.testCommands });
  const monitorCommands = options.monitorCommands === true;
  const connection = await mongoose
    .createConnection(engine.uri, { dbName: options.dbName ?? "arca_test", monitorCommands })
    .asPromise();
  let commands: CommandLog | undefined;
  if (monitorCommands) {
    const log = (commands = new CommandLog());
    connection.getClient().on("commandStarted", (event) => log.started.push(event));
  }
  const ops = await openRecords(connection, { resolveMaxRefs: 1000, ...options.records });
  const sessions = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 7 * 24 * 3600 });
  await sessions.init();
  return {
    engine,
    connection,
    ops,
    sessions,
    commands,
    async close() {
      await connection.close();
      await engine.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The real service.

export const ADMIN_PASSWORD = "test-admin-password";

export interface ServiceOptions extends StoreOptions {
  /** Environment for loadConfig (HOST and PORT are set here). */
  env?: Record<string, string>;
  /** ADMIN_PASSWORD for the bootstrap admin; unset: ADMIN_PASSWORD above. */
  adminPassword?: string;
  /** Login throttling; unset: the defaults, with throttle decisions kept out of the test output. */
  loginThrottle?: Partial<LoginThrottleOptions>;
}

export interface Service {
  url: string;
  ops: RecordOperations;
  sessions: SessionStore;
  accounts: Accounts;
  connection: Connection;
  /** The store's connection string, for a process of its own to share it (a job worker). */
  engineUri: string;
  commands?: CommandLog;
  /** The express application under Ts.ED (tests read its route table). */
  express: Application;
  /** The bootstrap admin's password, and a session of the admin's made at start. */
  adminPassword: string;
  adminToken: string;
  /** Logs in through POST /users/:username/login; answers the session token (throws on any other answer). */
  login(username: string, password: string): Promise<string>;
  send(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  /**
   * Makes a user (password `pw-secret-1`) holding `grants` in repository `repoId` through a group of their own, as the
   * admin; answers their session token.
   */
  userWith(username: string, repoId: number, grants: readonly string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const config = loadConfig({ HOST: "127.0.0.1", ...options.env });
  const store = await openTestStore({ ...options, records: { ...config.records, ...options.records } });
  const adminPassword = options.adminPassword ?? ADMIN_PASSWORD;
  config.http.port = 0; // any free port; PORT itself must be a real one
  const accounts = await openAccounts({
    connection: store.connection,
    operations: store.ops,
    sessions: store.sessions,
    adminPassword,
    loginThrottle: { log: () => undefined, ...options.loginThrottle },
  });
  const platform = await createServer(config, { operations: store.ops, sessions: store.sessions, accounts });
  await platform.listen();
  const url = `http://${String(platform.settings.get("httpPort"))}`;
  const send = (method: string, path: string, requestOptions?: RequestOptions) =>
    request(url, method, path, requestOptions);
  const login = async (username: string, password: string): Promise<string> => {
    const path = `/users/${encodeURIComponent(username)}/login?password=${encodeURIComponent(password)}`;
    const reply = await send("POST", path);
    if (reply.status !== 200) throw new Error(`login of ${username} failed: ${reply.status} ${reply.text}`);
    return (reply.body as { session: string }).session;
  };
  const adminToken = await login("admin", adminPassword);
  const asAdmin = async (path: string, body: unknown): Promise<void> => {
    const reply = await send("POST", path, { token: adminToken, body });
    if (reply.status !== 200) throw new Error(`POST ${path}: ${reply.status} ${reply.text}`);
  };
  const userWith = async (username: string, repoId: number, grants: readonly string[]): Promise<string> => {
    await asAdmin("/users?password=pw-secret-1", { username, name: username });
    await asAdmin(`/repositories/${repoId}/groups`, {
      group_code: `${username}-group`,
      description: username,
      grants_permissions: grants,
      member_usernames: [username],
    });
    return login(username, "pw-secret-1");
  };
  return {
    url,
    ops: store.ops,
    sessions: store.sessions,
    accounts,
    connection: store.connection,
    engineUri: store.engine.uri,
    commands: store.commands,
    express: platform.app.getApp(),
    adminPassword,
    adminToken,
    login,
    send,
    userWith,
    async stop() {
      await platform.stop();
      await store.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The record routes with permissions the test sets.

@Configuration({
  httpsPort: false,
  imports: [ErrorFilter],
  logger: { disableRoutesSummary: true, level: "off" },
})
class RecordRoutesServer {}

/** Permission maps by username; a user missing here is unknown to the access control. */
export class PermissionTable implements AccessControl {
  private readonly maps = new Map<string, PermissionMap>();

  set(username: string, map: PermissionMap): void {
    this.maps.set(username, map);
  }

  async permissionsOf(username: string): Promise<PermissionMap | undefined> {
    return this.maps.get(username);
  }
}

export interface RecordServer {
  url: string;
  ops: RecordOperations;
  sessions: SessionStore;
  permissions: PermissionTable;
  connection: Connection;
  /** The store commands sent, when started with `monitorCommands`; otherwise undefined. */
  commands?: CommandLog;
  /** A session token for `username`, whose permissions become `map`. */
  login(username: string, map: PermissionMap): Promise<string>;
  send(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  stop(): Promise<void>;
}

/** The record and enumeration routes of `options.records.registry` (default: the generated one). */
export async function startRecordServer(options: StoreOptions = {}): Promise<RecordServer> {
  const store = await openTestStore(options);
  const { ops, sessions } = store;
  // Id 1 is the hidden global repository, which takes no records (src/auth/hidden-repository.ts):
  // taken here as the accounts' bootstrap takes it, so the first repository a test makes is 2.
  await ops.deps.store.nextId("repository");
  const permissions = new PermissionTable();
  const platform = await PlatformExpress.bootstrap(RecordRoutesServer, {
    httpPort: "127.0.0.1:0",
    mount: {
      "/": [
        ...recordControllers({ operations: ops, accessControl: permissions }),
        publicationController({ operations: ops, accessControl: permissions }),
        enumerationController(ops.deps, permissions),
        mergeController(ops.deps, permissions),
        transferController({ operations: ops, access: permissions }),
      ],
    },
    middlewares: [
      sessionMiddleware(sessions, { names: ["X-Service-Session", SESSION_HEADER] }),
      ...bodyParsers({ limitBytes: 1024 * 1024 }),
    ],
  });
  await platform.listen();
  const url = `http://${String(platform.settings.get("httpPort"))}`;
  return {
    url,
    ops,
    sessions,
    permissions,
    connection: store.connection,
    commands: store.commands,
    async login(username, map) {
      permissions.set(username, map);
      return (await sessions.create(username, true)).token;
    },
    send: (method, path, requestOptions) => request(url, method, path, requestOptions),
    async stop() {
      await platform.stop();
      await store.close();
    },
  };
}

/** Every permission code, granted everywhere (as the administrators group grants them). */
export function globalGrants(codes: string[]): PermissionMap {
  return { _archivesspace: codes };
}

export function repositoryGrants(repoId: number, codes: string[]): PermissionMap {
  return { [`/repositories/${repoId}`]: codes };
}

// ---------------------------------------------------------------------------------------------
// Refusals of the operations.

/** The status and detail of the ApiError `promise` rejects with; fails the test when it resolves. */
export async function refusal(promise: Promise<unknown>): Promise<{ status: number; detail: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { status, detail } = error as { status: number; detail: unknown };
    return { status, detail };
  }
  throw new Error("expected the operation to be refused");
}
