// A real HTTP server over a fresh in-memory engine with the account routes mounted as the lead
// mounts them in src/server.ts: the session middleware, the body parsers, then the account router,
// with the one error filter answering every error; with `records`, the record routes and the
// imports too, so that permission tests go through real users and groups.
import "@tsed/platform-express";
import { Configuration } from "@tsed/di";
import { PlatformExpress } from "@tsed/platform-express";
import mongoose, { type Connection } from "mongoose";
import {
  ACCOUNT_RECORD_TYPES,
  openAccounts,
  type Accounts,
  type LoginThrottleOptions,
} from "../../src/accounts/index.js";
import { sessionMiddleware } from "../../src/auth/session-middleware.js";
import { SessionStore } from "../../src/auth/session-store.js";
import { startEngine } from "../../src/embedded-mongo/index.js";
import { ErrorFilter } from "../../src/errors/error-filter.js";
import { bodyParsers } from "../../src/http/body-parsers.js";
import { importController } from "../../src/importers/routes.js";
import { recordControllers } from "../../src/records/http/index.js";
import type { RecordOperations } from "../../src/records/operations/index.js";
import { openRecords } from "../../src/records/setup.js";

@Configuration({ httpsPort: false, imports: [ErrorFilter], logger: { disableRoutesSummary: true, level: "off" } })
class AccountsTestServer {}

export interface AccountsApp {
  url: string;
  accounts: Accounts;
  operations: RecordOperations;
  sessions: SessionStore;
  connection: Connection;
  close(): Promise<void>;
}

export interface AccountsAppOptions {
  adminPassword?: string;
  /** Login throttling; unset: the defaults, with throttle decisions kept out of the test output. */
  loginThrottle?: Partial<LoginThrottleOptions>;
  /** Also serve the record routes and the imports, asking the accounts' real access control. */
  records?: boolean;
}

export async function startAccountsApp(options: AccountsAppOptions = {}): Promise<AccountsApp> {
  const engine = await startEngine({ inMemory: true, port: 0 });
  const connection = await mongoose.createConnection(engine.uri, { dbName: "accounts" }).asPromise();
  const operations = await openRecords(connection, { resolveMaxRefs: 1000 });
  const sessions = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 7 * 24 * 3600 });
  await sessions.init();
  const accounts = await openAccounts({
    connection,
    operations,
    sessions,
    adminPassword: options.adminPassword,
    loginThrottle: { log: () => undefined, ...options.loginThrottle },
  });
  const platform = await PlatformExpress.bootstrap(AccountsTestServer, {
    httpPort: "127.0.0.1:0",
    mount: {
      "/": [
        ...accounts.controllers,
        ...(options.records
          ? [
              ...recordControllers(
                { operations, accessControl: accounts.accessControl },
                operations.deps.registry.types.filter((type) => !ACCOUNT_RECORD_TYPES.includes(type.name)),
              ),
              importController({ operations, access: accounts.accessControl, maxFileBytes: 1024 * 1024 }),
            ]
          : []),
      ],
    },
    middlewares: [
      sessionMiddleware(sessions, { names: ["X-Service-Session", "X-ArchivesSpace-Session"] }),
      ...bodyParsers({ limitBytes: 1024 * 1024 }),
    ],
  });
  await platform.listen();
  return {
    url: `http://${String(platform.settings.get("httpPort"))}`,
    accounts,
    operations,
    sessions,
    connection,
    async close() {
      await platform.stop();
      await connection.close();
      await engine.close();
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  // The parsed JSON body: tests look into it freely.
  body: Record<string, unknown> & Array<Record<string, unknown>>;
  text: string;
}

export interface Call {
  method?: string;
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Raw body, sent as is. */
  raw?: string;
}

export async function call(
  app: AccountsApp,
  path: string,
  { method = "GET", token, json, form, headers = {}, raw }: Call = {},
): Promise<Reply> {
  const sent: Record<string, string> = { ...headers };
  if (token) sent["X-ArchivesSpace-Session"] = token;
  let body: string | undefined = raw;
  if (json !== undefined) {
    sent["Content-Type"] ??= "application/json";
    body = JSON.stringify(json);
  } else if (form) {
    sent["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form).toString();
  }
  const response = await fetch(`${app.url}${path}`, { method, headers: sent, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Reply["body"], text };
}

/** Logs in and answers the session token. */
export async function login(app: AccountsApp, username: string, password: string): Promise<string> {
  const reply = await call(
    app,
    `/users/${encodeURIComponent(username)}/login?password=${encodeURIComponent(password)}`,
    { method: "POST" },
  );
  if (reply.status !== 200) throw new Error(`login of ${username} failed: ${reply.status} ${reply.text}`);
  return reply.body.session as string;
}
