// Opening the service's store: the embedded engine by default, a MongoDB server when
// MONGODB_URI is set, and a fast, clear failure when the store cannot be reached.
import { afterAll, describe, expect, it } from "@jest/globals";
import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Schema } from "mongoose";
import { loadConfig, ConfigError } from "../../src/config.js";
import { startEngine } from "../../src/embedded-mongo/index.js";
import { openStore, redactUri, StoreUnavailableError } from "../../src/storage/store.js";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "arca-store-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const itemSchema = new Schema({ name: String });

describe("loadConfig", () => {
  it("defaults to the embedded engine in ./data", () => {
    const { store } = loadConfig({});
    expect(store.mongodbUri).toBeUndefined();
    expect(store.dataDir).toBe(join(process.cwd(), "data"));
    expect(store.engineFsync).toBe("always");
    expect(store.dbName).toBe("arca");
  });

  it("defaults the service settings as the contract says", () => {
    const config = loadConfig({});
    expect(config.http).toEqual({
      port: 8089,
      host: "0.0.0.0",
      bodyLimitBytes: 10 * 1024 * 1024,
      importLimitBytes: 100 * 1024 * 1024,
    });
    expect(config.jobs).toEqual({
      workers: 1,
      leaseSeconds: 30,
      maxAttempts: 2,
      pollMs: 500,
      fileLimitBytes: 1024 * 1024 * 1024,
      batchRecords: 25,
    });
    expect(loadConfig({ JOB_WORKERS: "0" }).jobs.workers).toBe(0);
    expect(() => loadConfig({ JOB_LEASE_SECONDS: "0" })).toThrow(/JOB_LEASE_SECONDS/);
    expect(loadConfig({ IMPORT_LIMIT_BYTES: "1000" }).http.importLimitBytes).toBe(1000);
    expect(() => loadConfig({ IMPORT_LIMIT_BYTES: "lots" })).toThrow(/IMPORT_LIMIT_BYTES/);
    expect(config.auth).toMatchObject({
      adminPassword: "admin",
      usingDefaultPassword: true,
      sessionIdleSeconds: 3600,
      sessionMaxAgeSeconds: 604800,
      sessionHeaders: ["X-Service-Session", "X-ArchivesSpace-Session"],
    });
    expect(config.records).toEqual({
      resolveMaxRefs: 1000,
      resolveMaxBytes: 4 * 1024 * 1024,
      responseMaxBytes: 128 * 1024 * 1024,
      wholeTreeMaxNodes: 20_000,
      vocabularyTermsMax: 10_000,
    });
    expect(config.auth.loginThrottle).toEqual({
      freeFailures: 5,
      maxDelaySeconds: 60,
      forgetAfterSeconds: 900,
      refusalDelayMs: 1000,
      refusalMaxWaiting: 256,
    });
    // The tarpit can be turned off with 0; the other settings must be positive.
    expect(loadConfig({ LOGIN_REFUSAL_DELAY_MS: "0" }).auth.loginThrottle.refusalDelayMs).toBe(0);
    expect(config.imports).toEqual({
      maxXmlDepth: 256,
      maxXmlTextBytes: 8 * 1024 * 1024,
      journalLeaseSeconds: 30,
      maxJsonBatchBytes: 32 * 1024 * 1024,
    });
    expect(
      loadConfig({ RESPONSE_MAX_BYTES: "5000", LOGIN_FREE_FAILURES: "2", IMPORT_MAX_XML_DEPTH: "40" }),
    ).toMatchObject({
      records: { responseMaxBytes: 5000 },
      auth: { loginThrottle: { freeFailures: 2 } },
      imports: { maxXmlDepth: 40 },
    });
    expect(loadConfig({ ADMIN_PASSWORD: "s3cret", ARCHIVESSPACE_SESSION_HEADER: "False" }).auth).toMatchObject({
      adminPassword: "s3cret",
      usingDefaultPassword: false,
      sessionHeaders: ["X-Service-Session"],
    });
  });

  it.each([
    [{ PORT: "70000" }, /PORT must be at most 65535/],
    [{ ARCHIVESSPACE_SESSION_HEADER: "maybe" }, /ARCHIVESSPACE_SESSION_HEADER must be true or false/],
    [{ RESOLVE_MAX_REFS: "0" }, /RESOLVE_MAX_REFS must be a positive whole number/],
    [{ RESOLVE_MAX_BYTES: "lots" }, /RESOLVE_MAX_BYTES must be a positive whole number/],
    [{ RESPONSE_MAX_BYTES: "-1" }, /RESPONSE_MAX_BYTES must be a positive whole number/],
    [{ LOGIN_MAX_DELAY_SECONDS: "1.5" }, /LOGIN_MAX_DELAY_SECONDS must be a positive whole number/],
    [{ LOGIN_REFUSAL_DELAY_MS: "-5" }, /LOGIN_REFUSAL_DELAY_MS must be a whole number/],
    [{ LOGIN_REFUSAL_MAX_WAITING: "0" }, /LOGIN_REFUSAL_MAX_WAITING must be a positive whole number/],
    [{ IMPORT_MAX_XML_TEXT_BYTES: "0" }, /IMPORT_MAX_XML_TEXT_BYTES must be a positive whole number/],
    [{ ENGINE_FSYNC: "sometimes" }, /ENGINE_FSYNC must be one of always, interval/],
    [{ STORE_CONNECT_TIMEOUT_MS: "soon" }, /STORE_CONNECT_TIMEOUT_MS must be a positive whole number/],
    [{ MONGODB_URI: "http://example.org" }, /MONGODB_URI must start with mongodb:\/\//],
    [{ MONGODB_DB: "a.b" }, /MONGODB_DB is not a valid database name/],
  ])("rejects %j, naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe("openStore", () => {
  it("starts the embedded engine when MONGODB_URI is unset, and keeps the data across restarts", async () => {
    const dataDir = await tempDir();
    const config = loadConfig({ DATA_DIR: dataDir }).store;
    const first = await openStore(config);
    try {
      expect(first.description).toContain("embedded engine");
      await first.connection.model("Item", itemSchema).create({ name: "kept" });
      // The engine's socket is for its own user only.
      expect(statSync(join(dataDir, "engine.sock")).mode & 0o077).toBe(0);
    } finally {
      await first.close();
    }
    const second = await openStore(config);
    try {
      expect(await second.connection.model("Item", itemSchema).countDocuments({ name: "kept" })).toBe(1);
    } finally {
      await second.close();
    }
  });

  it("uses the server MONGODB_URI names and starts no engine", async () => {
    const server = await startEngine({ inMemory: true, port: 0 });
    const dataDir = await tempDir();
    try {
      const store = await openStore(
        loadConfig({ MONGODB_URI: server.uri, DATA_DIR: dataDir, MONGODB_DB: "external" }).store,
      );
      try {
        await store.connection.model("Item", itemSchema).create({ name: "remote" });
        expect(server.engine.catalog.get("external", "items")?.docs.size).toBe(1);
        expect(existsSync(join(dataDir, "engine"))).toBe(false);
      } finally {
        await store.close();
      }
    } finally {
      await server.close();
    }
  });

  it("fails fast with a clear message, without the password, when the server cannot be reached", async () => {
    const config = loadConfig({
      MONGODB_URI: "mongodb://arca:s3cret@127.0.0.1:1/?directConnection=true",
      STORE_CONNECT_TIMEOUT_MS: "500",
    }).store;
    const started = Date.now();
    const failure = await openStore(config).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toMatch(/could not reach MongoDB at mongodb:\/\/arca:\*\*\*@127\.0\.0\.1:1/);
    expect((failure as Error).message).not.toContain("s3cret");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("fails clearly when the embedded engine cannot take its data directory", async () => {
    const dataDir = await tempDir();
    const config = loadConfig({ DATA_DIR: dataDir }).store;
    const holder = await openStore(config);
    try {
      await expect(openStore(config)).rejects.toThrow(/the embedded engine did not start: .*lock/);
    } finally {
      await holder.close();
    }
  });
});

describe("losing the embedded engine", () => {
  it("tells the service when the engine process dies, and not when the store is closed", async () => {
    const config = loadConfig({ DATA_DIR: await tempDir() }).store;
    const store = await openStore(config);
    const lost = new Promise<string>((resolve) => store.onLost(resolve));
    const pid = Number(/pid (\d+)/.exec(store.description)![1]);
    process.kill(pid, "SIGKILL");
    expect(await lost).toMatch(/exited unexpectedly \(SIGKILL\)/);
    await store.connection.close();

    const calm = await openStore(config);
    let called = false;
    calm.onLost(() => (called = true));
    await calm.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(called).toBe(false);
  });
});

describe("redactUri", () => {
  it("masks a password and leaves other URIs alone", () => {
    expect(redactUri("mongodb+srv://user:p%40ss@cluster.example.net/db")).toBe(
      "mongodb+srv://user:***@cluster.example.net/db",
    );
    expect(redactUri("mongodb://127.0.0.1:27017")).toBe("mongodb://127.0.0.1:27017");
  });
});
