// The session check every request goes through, on a bare express app over the real store.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import express from "express";
import mongoose, { type Connection } from "mongoose";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { principalOf, sessionMiddleware } from "../../src/auth/session-middleware.js";
import { SessionStore } from "../../src/auth/session-store.js";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";
import { toApiError } from "../../src/errors/error-filter.js";

let engine: RunningEngine;
let connection: Connection;
let server: Server;
let url: string;
let now = Date.now();
let store: SessionStore;

beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0 });
  connection = await mongoose.createConnection(engine.uri, { dbName: "mw" }).asPromise();
  store = new SessionStore(connection, { idleSeconds: 60, maxAgeSeconds: 3600 }, () => now);
  const app = express();
  app.use(sessionMiddleware(store, { names: ["X-Service-Session", "X-ArchivesSpace-Session"] }));
  app.get("/whoami", (_req, res) => {
    res.json({ username: principalOf(res)?.username ?? null });
  });
  const reportError: express.ErrorRequestHandler = (error, _req, res, _next) => {
    const apiError = toApiError(error);
    res.status(apiError?.status ?? 500).json(apiError?.body ?? { error: "Internal error" });
  };
  app.use(reportError);
  await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", () => resolve())));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/whoami`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await connection.close();
  await engine.close();
});

async function whoami(
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("session middleware", () => {
  it("lets a request without a token through anonymously", async () => {
    expect(await whoami()).toEqual({ status: 200, body: { username: null } });
  });

  it("identifies the user of a live session, by the header or its ArchivesSpace alias", async () => {
    const { token } = await store.create("archivist", true);
    expect(await whoami({ "X-Service-Session": token })).toEqual({ status: 200, body: { username: "archivist" } });
    expect(await whoami({ "X-ArchivesSpace-Session": token })).toEqual({
      status: 200,
      body: { username: "archivist" },
    });
  });

  it("answers 412 SESSION_GONE for an unknown token", async () => {
    const { status, body } = await whoami({ "X-Service-Session": "0".repeat(64) });
    expect(status).toBe(412);
    expect(body).toMatchObject({ code: "SESSION_GONE" });
    expect(typeof body.error).toBe("string");
  });

  it("answers 412 SESSION_EXPIRED for an expired one", async () => {
    const { token } = await store.create("sleepy", true);
    now += 61 * 1000;
    const { status, body } = await whoami({ "X-Service-Session": token });
    expect(status).toBe(412);
    expect(body).toMatchObject({ code: "SESSION_EXPIRED" });
  });
});
