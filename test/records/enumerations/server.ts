// A real HTTP server with the enumeration routes and the record routes, over the embedded engine,
// with the parts every request meets in the real server (the session middleware, the body parsers,
// the one error filter). Users log in through a real SessionStore; what each may do comes from a
// permission map the test chooses.
import "@tsed/platform-express"; // PlatformTest/bootstrap hang without it in the module graph
import { Configuration } from "@tsed/di";
import { PlatformExpress } from "@tsed/platform-express";
import mongoose, { type Connection } from "mongoose";
import type { AccessControl } from "../../../src/auth/access-control.js";
import type { PermissionMap } from "../../../src/auth/permissions.js";
import { sessionMiddleware } from "../../../src/auth/session-middleware.js";
import { SessionStore } from "../../../src/auth/session-store.js";
import { startEngine } from "../../../src/embedded-mongo/index.js";
import { enumerationController } from "../../../src/records/enumerations/index.js";
import { ErrorFilter } from "../../../src/errors/error-filter.js";
import { bodyParsers } from "../../../src/http/body-parsers.js";
import { recordControllers } from "../../../src/records/http/index.js";
import type { RecordOperations } from "../../../src/records/operations/index.js";
import { openRecords, type RecordsOptions } from "../../../src/records/setup.js";

@Configuration({
  httpsPort: false,
  imports: [ErrorFilter],
  logger: { disableRoutesSummary: true, level: "off" },
})
class EnumerationTestServer {}

class PermissionTable implements AccessControl {
  readonly maps = new Map<string, PermissionMap>();

  async permissionsOf(username: string): Promise<PermissionMap | undefined> {
    return this.maps.get(username);
  }
}

export interface Reply {
  status: number;
  body: unknown;
}

export interface EnumerationServer {
  ops: RecordOperations;
  connection: Connection;
  login(username: string, map: PermissionMap): Promise<string>;
  send(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<Reply>;
  stop(): Promise<void>;
}

export async function startEnumerationServer(options: Partial<RecordsOptions> = {}): Promise<EnumerationServer> {
  const engine = await startEngine({ inMemory: true, port: 0 });
  const connection = await mongoose.createConnection(engine.uri, { dbName: "enumerations" }).asPromise();
  const ops = await openRecords(connection, { resolveMaxRefs: 1000, ...options });
  // Id 1 is the hidden global repository, which takes no records: taken as bootstrap takes it.
  await ops.deps.store.nextId("repository");
  const sessions = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 7 * 24 * 3600 });
  await sessions.init();
  const permissions = new PermissionTable();
  const platform = await PlatformExpress.bootstrap(EnumerationTestServer, {
    httpPort: "127.0.0.1:0",
    mount: {
      "/": [
        ...recordControllers({ operations: ops, accessControl: permissions }),
        enumerationController(ops.deps, permissions),
      ],
    },
    middlewares: [
      sessionMiddleware(sessions, { names: ["X-ArchivesSpace-Session"] }),
      ...bodyParsers({ limitBytes: 1024 * 1024 }),
    ],
  });
  await platform.listen();
  const url = `http://${String(platform.settings.get("httpPort"))}`;
  return {
    ops,
    connection,
    async login(username, map) {
      permissions.maps.set(username, map);
      return (await sessions.create(username, true)).token;
    },
    async send(method, path, { token, body } = {}) {
      const headers: Record<string, string> = {};
      if (token !== undefined) headers["X-ArchivesSpace-Session"] = token;
      let text: string | undefined;
      if (typeof body === "string") text = body;
      else if (body !== undefined) {
        text = JSON.stringify(body);
        headers["Content-Type"] = "application/json";
      }
      const response = await fetch(`${url}${path}`, { method, headers, body: text });
      const raw = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = raw;
      }
      return { status: response.status, body: parsed };
    },
    async stop() {
      await platform.stop();
      await connection.close();
      await engine.close();
    },
  };
}
