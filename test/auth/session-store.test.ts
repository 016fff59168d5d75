// Sessions against the real store (embedded engine, over the wire), with a controllable clock.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import { hashToken, SESSION_CACHE_MS, SessionStore } from "../../src/auth/session-store.js";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";

let engine: RunningEngine;
let connection: Connection;
let now = Date.UTC(2026, 0, 1);
const clock = () => now;
let store: SessionStore;

beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0 });
  connection = await mongoose.createConnection(engine.uri, { dbName: "auth" }).asPromise();
  store = new SessionStore(connection, { idleSeconds: 3600, maxAgeSeconds: 7 * 24 * 3600 }, clock);
  await store.init();
});
afterAll(async () => {
  await connection.close();
  await engine.close();
});

describe("SessionStore", () => {
  it("issues 64-hex tokens and stores only their hash", async () => {
    const { token, expiresInSeconds } = await store.create("admin", true);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(expiresInSeconds).toBe(3600);
    const raw = await connection.db!.collection("sessions").find({}).toArray();
    expect(JSON.stringify(raw)).not.toContain(token);
    expect(raw.some((doc) => doc._id === (hashToken(token) as unknown))).toBe(true);
  });

  it("finds an active session, and slides its expiry with use", async () => {
    const { token } = await store.create("archivist", true);
    now += 50 * 60 * 1000; // 50 min idle: still alive, and this use extends it
    expect(await store.lookup(token)).toEqual({ status: "active", username: "archivist", expiring: true });
    now += 50 * 60 * 1000; // 100 min after creation but 50 after last use
    expect((await store.lookup(token)).status).toBe("active");
    now += 61 * 60 * 1000; // idle past the hour
    expect(await store.lookup(token)).toEqual({ status: "expired" });
  });

  it("forces a non-expiring session out after the maximum age, however much it is used", async () => {
    const { token, expiresInSeconds } = await store.create("robot", false);
    expect(expiresInSeconds).toBe(7 * 24 * 3600);
    for (let day = 1; day <= 6; day++) {
      now += 24 * 3600 * 1000;
      expect((await store.lookup(token)).status).toBe("active");
    }
    now += 24 * 3600 * 1000 + 1;
    expect((await store.lookup(token)).status).toBe("expired");
  });

  it("answers gone for an unknown token and after logout", async () => {
    expect(await store.lookup("f".repeat(64))).toEqual({ status: "gone" });
    const { token } = await store.create("viewer", true);
    expect(await store.end(token)).toBe(true);
    expect(await store.lookup(token)).toEqual({ status: "gone" });
    expect(await store.end(token)).toBe(false);
  });

  it("ends every session of a user", async () => {
    const a = await store.create("leaver", true);
    const b = await store.create("leaver", false);
    expect(await store.endAllFor("leaver")).toBe(2);
    expect((await store.lookup(a.token)).status).toBe("gone");
    expect((await store.lookup(b.token)).status).toBe("gone");
  });

  it("remembers active sessions briefly: a logout elsewhere applies within the cache time, here at once", async () => {
    const { token } = await store.create("cached", true);
    expect((await store.lookup(token)).status).toBe("active");
    // Another process logs the session out: this one trusts its memory for a few seconds...
    await connection.db!.collection("sessions").deleteOne({ _id: hashToken(token) as never });
    expect((await store.lookup(token)).status).toBe("active");
    now += SESSION_CACHE_MS;
    // ...and then asks the store again.
    expect((await store.lookup(token)).status).toBe("gone");
    const other = await store.create("cached", true);
    expect((await store.lookup(other.token)).status).toBe("active");
    await store.end(other.token);
    expect((await store.lookup(other.token)).status).toBe("gone");
  });
});
