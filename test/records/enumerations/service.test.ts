// The enumeration routes as the service mounts them (src/server.ts, with the real accounts):
// the bootstrap's administrators group may edit enumerations, a user in no group may only read,
// and the OpenAPI document describes the routes.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Ajv2020 } from "ajv/dist/2020.js";
import mongoose, { type Connection } from "mongoose";
import { createServer as createNetServer } from "node:net";
import type { PlatformBuilder } from "@tsed/platform-http";
import type { Application } from "express";
import { openAccounts } from "../../../src/accounts/index.js";
import { SessionStore } from "../../../src/auth/session-store.js";
import { loadConfig } from "../../../src/config.js";
import { startEngine, type RunningEngine } from "../../../src/embedded-mongo/index.js";
import { UPDATE_ENUMERATION } from "../../../src/records/enumerations/index.js";
import type { RecordOperations } from "../../../src/records/operations/index.js";
import { openRecords } from "../../../src/records/setup.js";
import { createServer } from "../../../src/server.js";

let engine: RunningEngine;
let connection: Connection;
let operations: RecordOperations;
let platform: PlatformBuilder<Application>;
let base: string;

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0 });
  connection = await mongoose.createConnection(engine.uri, { dbName: "enumeration_service" }).asPromise();
  operations = await openRecords(connection, { resolveMaxRefs: 1000 });
  const sessions = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 3600 });
  await sessions.init();
  const accounts = await openAccounts({ connection, operations, sessions });
  const port = await freePort();
  platform = await createServer(loadConfig({ PORT: String(port), HOST: "127.0.0.1" }), {
    operations,
    sessions,
    accounts,
  });
  await platform.listen();
  base = `http://127.0.0.1:${port}`;
}, 30_000);
afterAll(async () => {
  await platform.stop();
  await connection.close();
  await engine.close();
});

async function call(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = token ? { "X-ArchivesSpace-Session": token } : {};
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function login(username: string, password: string): Promise<string> {
  const reply = await call("POST", `/users/${username}/login?password=${password}`);
  expect(reply.status).toBe(200);
  return reply.body.session as string;
}

describe("in the service", () => {
  it("the administrators group grants update_enumeration_record", async () => {
    const [group] = await operations.find("group", { group_code: "administrators" }, 1);
    expect(group?.grants_permissions).toContain(UPDATE_ENUMERATION);
  });

  it("the admin edits an enumeration; a user without the code only reads it", async () => {
    const admin = await login("admin", "admin");
    const current = await call("GET", "/config/enumerations/names/subject_source", admin);
    expect(current.status).toBe(200);
    const values = current.body.values as string[];
    expect(
      (await call("POST", current.body.uri as string, admin, { ...current.body, values: [...values, "fast"] })).status,
    ).toBe(200);

    expect(
      (await call("POST", "/users?password=secret123", admin, { username: "reader", name: "Reader" })).status,
    ).toBe(200);
    const reader = await login("reader", "secret123");
    const read = await call("GET", current.body.uri as string, reader);
    expect([read.status, read.body.values]).toEqual([200, [...values, "fast"]]);
    expect(await call("POST", current.body.uri as string, reader, { ...read.body, values })).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
  });

  it("describes the routes in /openapi.json, and the answers match the described schemas", async () => {
    const document = (await call("GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/config/enumerations",
        "/config/enumerations/{id}",
        "/config/enumerations/names/{name}",
        "/config/enumeration_values/{id}",
      ]),
    );
    expect(document.paths["/config/enumerations/{id}"]?.post?.security).toEqual([
      { ServiceSession: [UPDATE_ENUMERATION] },
      { ArchivesSpaceSession: [UPDATE_ENUMERATION] },
    ]);

    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    ajv.addSchema(document, "https://arca.test/openapi.json");
    const component = (name: string) =>
      ajv.compile({ $ref: `https://arca.test/openapi.json#/components/schemas/${name}` });
    const admin = await login("admin", "admin");
    const list = (await call("GET", "/config/enumerations", admin)).body as unknown as Array<{
      enumeration_values: Array<{ uri: string }>;
    }>;
    const enumeration = component("Enumeration");
    for (const item of list) expect([enumeration(item), enumeration.errors ?? null]).toEqual([true, null]);
    const value = (await call("GET", list[0]!.enumeration_values[0]!.uri, admin)).body;
    expect(component("EnumerationValue")(value)).toBe(true);
    expect(enumeration({ ...list[0], uri: "/enumerations/1" })).toBe(false);
  });
});
