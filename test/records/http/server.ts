// A real HTTP server with only the record routes and the parts every request meets in the real
// one (the session middleware, the body parsers, the one error filter), over the embedded engine.
// Callers are logged in through a real SessionStore; what each user may do comes from a
// permission map the test chooses, behind the AccessControl interface.
import "@tsed/platform-express"; // PlatformTest/bootstrap hang without it in the module graph
import { Configuration } from "@tsed/di";
import { PlatformExpress } from "@tsed/platform-express";
import type { CommandStartedEvent } from "mongodb";
import mongoose, { type Connection } from "mongoose";
import type { AccessControl } from "../../../src/auth/access-control.js";
import type { PermissionMap } from "../../../src/auth/permissions.js";
import { sessionMiddleware } from "../../../src/auth/session-middleware.js";
import { SessionStore } from "../../../src/auth/session-store.js";
import { startEngine } from "../../../src/embedded-mongo/index.js";
import { ErrorFilter } from "../../../src/errors/error-filter.js";
import { bodyParsers } from "../../../src/http/body-parsers.js";
import type { RecordOperations } from "../../../src/records/operations/index.js";
import { recordControllers } from "../../../src/records/http/index.js";
import { openRecords } from "../../../src/records/setup.js";
import type { Registry } from "../../../src/registry/index.js";

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

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: unknown;
}

export interface RequestOptions {
  token?: string;
  /** A value is sent as JSON text; a string as it is. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Store commands the server sent, as the driver reports them (startRecordServer's `monitorCommands`). */
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

export interface RecordServerOptions {
  /** Record every command the driver sends (MongoDB command monitoring) in `commands`. */
  monitorCommands?: boolean;
  /** Let the engine take test commands (the failCommand fail point). */
  testCommands?: boolean;
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

export const SESSION_HEADER = "X-ArchivesSpace-Session";

/**
 * `registry`: serve these record types instead of the generated ones (the drop-in test).
 * One server per test file: Ts.ED's injector is global to the process, so a second server
 * started while the first runs answers with the first one's session check and routes.
 */
export async function startRecordServer(registry?: Registry, options: RecordServerOptions = {}): Promise<RecordServer> {
  const engine = await startEngine({ inMemory: true, port: 0, testCommands: options.testCommands });
  const monitorCommands = options.monitorCommands === true;
  const connection = await mongoose
    .createConnection(engine.uri, { dbName: "records_http", monitorCommands })
    .asPromise();
  let commands: CommandLog | undefined;
  if (monitorCommands) {
    const log = (commands = new CommandLog());
    connection.getClient().on("commandStarted", (event) => log.started.push(event));
  }
  const ops = await openRecords(connection, { resolveMaxRefs: 1000, registry });
  // Id 1 is the hidden global repository, which takes no records (src/auth/hidden-repository.ts):
  // taken here as the accounts' bootstrap takes it, so the first repository a test makes is 2.
  await ops.deps.store.nextId("repository");
  const sessions = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 7 * 24 * 3600 });
  await sessions.init();
  const permissions = new PermissionTable();

  const platform = await PlatformExpress.bootstrap(RecordRoutesServer, {
    httpPort: "127.0.0.1:0",
    mount: { "/": recordControllers({ operations: ops, accessControl: permissions }) },
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
    connection,
    commands,
    async login(username, map) {
      permissions.set(username, map);
      return (await sessions.create(username, true)).token;
    },
    async send(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers[SESSION_HEADER] = options.token;
      let body: string | undefined;
      if (typeof options.body === "string") body = options.body;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["Content-Type"] ??= "application/json";
      }
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, text, body: parsed };
    },
    async stop() {
      await platform.stop();
      await connection.close();
      await engine.close();
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
