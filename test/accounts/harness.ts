// The accounts tests' service: the real one (test/support/service.ts), whose account routes,
// record routes and imports go through real users and groups, with the admin's password left at
// the product's default unless a test sets one; and the loosely typed client these tests use.
import type { Connection } from "mongoose";
import { DEFAULT_ADMIN_PASSWORD, type Accounts, type LoginThrottleOptions } from "../../src/accounts/index.js";
import type { SessionStore } from "../../src/auth/session-store.js";
import type { RecordOperations } from "../../src/records/operations/index.js";
import { request, startService } from "../support/service.js";

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
}

export async function startAccountsApp(options: AccountsAppOptions = {}): Promise<AccountsApp> {
  const service = await startService({
    dbName: "accounts",
    adminPassword: options.adminPassword ?? DEFAULT_ADMIN_PASSWORD,
    loginThrottle: options.loginThrottle,
  });
  return {
    url: service.url,
    accounts: service.accounts,
    operations: service.ops,
    sessions: service.sessions,
    connection: service.connection,
    close: service.stop,
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
  const sent =
    json === undefined ? { body: raw, headers } : { body: JSON.stringify(json), headers: jsonHeaders(headers) };
  const reply = await request(app.url, method, path, { token, form, ...sent });
  return { ...reply, body: JSON.parse(reply.text) as Reply["body"] };
}

function jsonHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.keys(headers).some((name) => name.toLowerCase() === "content-type")
    ? headers
    : { ...headers, "Content-Type": "application/json" };
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
