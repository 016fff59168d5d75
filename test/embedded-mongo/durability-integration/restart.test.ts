/**
 * The engine as a separate process (what `npm run db` starts): a graceful stop and a
 * restart keep the documents, the collections and their indexes; the data directory's
 * lock keeps a second engine off a directory in use, and is released on stop.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { MongoClient, type Document } from "mongodb";
import { spawn } from "node:child_process";
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { cliPath, spawnEngine, type EngineProcess } from "../../../src/embedded-mongo/launcher.js";
import { LOCK_FILE_NAME } from "../../../src/embedded-mongo/durability/data-directory.js";
import { closeQuietly, errorCodeOf, freshDir, removeDir, stopQuietly } from "./helpers.js";

const DB = "restartdb";

let dataDir: string;
const engines: EngineProcess[] = [];
const clients: MongoClient[] = [];

async function start(): Promise<EngineProcess> {
  const engine = await spawnEngine({ dataDir, port: 0, fsync: "always" });
  engines.push(engine);
  return engine;
}

async function connect(engine: EngineProcess): Promise<MongoClient> {
  const client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 3000 });
  clients.push(client);
  await client.connect();
  return client;
}

async function lockExists(): Promise<boolean> {
  return access(join(dataDir, LOCK_FILE_NAME)).then(
    () => true,
    () => false,
  );
}

/** Everything a restart must preserve: collections (with options), indexes, documents. */
async function dump(client: MongoClient): Promise<Document> {
  const db = client.db(DB);
  const collections = (await db.listCollections({}, { nameOnly: false }).toArray())
    .map((c) => ({ name: c.name, type: c.type, options: c.options }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const result: Document = { collections, indexes: {}, docs: {} };
  for (const { name } of collections) {
    result.indexes[name] = (await db.collection(name).listIndexes().toArray())
      .map(({ v: _v, ...spec }) => spec)
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    result.docs[name] = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
  }
  return result;
}

afterAll(async () => {
  for (const client of clients) await closeQuietly(client);
  for (const engine of engines) await stopQuietly(engine);
  await removeDir(dataDir);
});

describe("graceful stop and restart", () => {
  let before: Document;
  let after: Document;
  let restarted: MongoClient;

  beforeAll(async () => {
    dataDir = await freshDir("restart");
    const first = await start();
    const client = await connect(first);
    const db = client.db(DB);

    const people = db.collection<Document & { _id: number }>("people");
    await people.createIndex({ email: 1 }, { unique: true, name: "email_unique" });
    await people.createIndex({ team: 1, age: -1 }, { name: "team_age" });
    await people.createIndex({ nick: 1 }, { sparse: true, name: "nick_sparse" });
    await people.insertMany(
      Array.from({ length: 200 }, (_, i) => ({
        _id: i,
        email: `p${i}@example.com`,
        team: `t${i % 7}`,
        age: 20 + (i % 40),
        ...(i % 3 === 0 ? { nick: `n${i}` } : {}),
        tags: [i % 2 ? "odd" : "even"],
        nested: { at: new Date(1_700_000_000_000 + i * 1000), score: i / 4 },
      })),
    );
    await people.updateMany({ team: "t3" }, { $inc: { age: 1 }, $set: { moved: true } });
    await people.deleteMany({ _id: { $gte: 190 } });
    await people.replaceOne({ _id: 5 }, { email: "five@example.com", team: "t5", age: 55 });

    await db.collection<Document & { _id: string }>("singles").insertOne({ _id: "only", n: 1 });
    await db.createCollection("empty");
    await db.collection("dropped").insertOne({ x: 1 });
    await db.collection("dropped").drop();
    await db.collection("events").createIndex({ at: 1 }, { expireAfterSeconds: 3600, name: "at_ttl" });
    await db.collection<Document & { _id: number }>("events").insertOne({ _id: 1, at: new Date() });

    before = await dump(client);
    await closeQuietly(client);
    await first.stop();
    expect(first.child.exitCode).toBe(0);

    restarted = await connect(await start());
    after = await dump(restarted);
  });

  it("releases the lock on a graceful stop", async () => {
    // The second engine now holds it; the first released it (else the start would have failed).
    expect((await readFile(join(dataDir, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(engines[1].pid));
  });

  it("keeps the collections", () => {
    const names = (after.collections as Array<{ name: string }>).map((c) => c.name);
    expect(names).toEqual(["empty", "events", "people", "singles"]);
    expect(after.collections).toEqual(before.collections);
  });

  it("keeps the indexes", () => {
    expect(after.indexes).toEqual(before.indexes);
    const people = after.indexes.people as Document[];
    expect(people.map((ix) => ix.name)).toEqual(["_id_", "email_unique", "nick_sparse", "team_age"]);
    expect(people.find((ix) => ix.name === "email_unique")).toMatchObject({ key: { email: 1 }, unique: true });
    expect(people.find((ix) => ix.name === "team_age")).toMatchObject({ key: { team: 1, age: -1 } });
    expect(people.find((ix) => ix.name === "nick_sparse")).toMatchObject({ key: { nick: 1 }, sparse: true });
    expect((after.indexes.events as Document[]).find((ix) => ix.name === "at_ttl")).toMatchObject({
      key: { at: 1 },
      expireAfterSeconds: 3600,
    });
  });

  it("keeps the documents exactly", () => {
    expect(after.docs).toEqual(before.docs);
    const people = after.docs.people as Document[];
    expect(people).toHaveLength(190);
    expect(people[5]).toEqual({ _id: 5, email: "five@example.com", team: "t5", age: 55 });
    expect(people.filter((p) => p.moved === true)).toHaveLength(people.filter((p) => p.team === "t3").length);
    expect(people[8].nested.at).toBeInstanceOf(Date);
  });

  it("uses the restored indexes", async () => {
    const people = restarted.db(DB).collection("people");
    expect(await errorCodeOf(people.insertOne({ email: "p1@example.com" }))).toBe(11000);
    const byTeam = await people.find({ team: "t2" }).sort({ age: -1 }).hint("team_age").toArray();
    const expected = (after.docs.people as Document[])
      .filter((p) => p.team === "t2")
      .sort((a, b) => b.age - a.age || a._id - b._id);
    expect(byTeam.map((p) => p.age)).toEqual(expected.map((p) => p.age));
    const sparse = await people
      .find({ nick: { $exists: true } })
      .hint("nick_sparse")
      .toArray();
    expect(sparse.length).toBe((after.docs.people as Document[]).filter((p) => p.nick !== undefined).length);
  });
});

describe("the data directory lock", () => {
  it("refuses a second engine on a directory in use, and admits one after the first stops", async () => {
    const running = engines.at(-1)!;
    expect(running.child.exitCode).toBeNull();

    let refusal: Error | undefined;
    await spawnEngine({ dataDir, port: 0 }).then(
      (unexpected) => {
        engines.push(unexpected);
      },
      (error: Error) => {
        refusal = error;
      },
    );
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal!.message).toMatch(/exited \(1\)/);
    expect(refusal!.message).toContain(LOCK_FILE_NAME);
    expect(refusal!.message).toContain(`process ${running.pid}`);
    // The refused engine did not take or remove the lock.
    expect((await readFile(join(dataDir, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(running.pid));

    // The running engine is unaffected.
    const client = await connect(running);
    expect(await client.db(DB).collection("people").countDocuments()).toBe(190);
    await closeQuietly(client);

    await running.stop();
    expect(running.child.exitCode).toBe(0);
    expect(await lockExists()).toBe(false);

    const next = await start();
    const again = await connect(next);
    expect(await again.db(DB).collection("people").countDocuments()).toBe(190);
    expect((await readFile(join(dataDir, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(next.pid));
  });

  it("the CLI itself exits non-zero naming the lock and the owner's pid", async () => {
    const owner = engines.at(-1)!;
    const child = spawn(process.execPath, [cliPath(), "--port", "0", "--dbpath", dataDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(stdout).not.toContain("listening on");
    expect(stderr).toContain(LOCK_FILE_NAME);
    expect(stderr).toContain(String(owner.pid));
  });
});
