// The service under fuzz: the built Arca (`dist/src/main.js`, what `npm start` runs) as a child
// process with the prototype probe preloaded, on an embedded engine the test starts itself so it
// can read the store directly (the fingerprint) and outlive an Arca that dies. Restartable:
// after a death or a pollution the fuzz run goes on against a fresh process on the same store.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { MongoClient } from "mongodb";
import { spawnEngine, type EngineProcess } from "../../src/embedded-mongo/launcher.js";
import { freePort, MAIN } from "../support/process.js";

export const ADMIN_PASSWORD = "fuzz-admin-password";
const DB_NAME = "arca_fuzz";
const PROBE = pathToFileURL(resolve("test/fuzz/probe.mjs")).href;
const OUTPUT_TAIL = 6_000;

/**
 * Collections a refused request may still write, or that change around it: sessions (a login,
 * the sliding expiry) and failed-login counters (a refused login is counted: that is the
 * throttle's job). The cache change signal (arca_signals) is not among them: a write answers only
 * once it is raised (src/records/changes.ts), so a refused request that follows sees it settled.
 */
const VOLATILE_COLLECTION = /session|throttl|login|failure|attempt/i;

interface ProbeReply {
  type: string;
  id: number;
  changes?: string[];
  rss?: number;
}

export class FuzzService {
  port = 0;
  private child: ChildProcess | undefined;
  private output = "";
  /** Characters written by this Arca so far (the kept output is only its tail). */
  private written = 0;
  private nextMessage = 1;
  private readonly waiting = new Map<number, (reply: ProbeReply) => void>();
  starts = 0;

  private constructor(
    private readonly engine: EngineProcess,
    private readonly client: MongoClient,
    private readonly dataDir: string,
  ) {}

  static async start(): Promise<FuzzService> {
    const engine = await spawnEngine({ inMemory: true, port: 0, startTimeoutMs: 60_000 });
    const client = await MongoClient.connect(engine.uri, { directConnection: true });
    const service = new FuzzService(engine, client, await mkdtemp(join(tmpdir(), "arca-fuzz-")));
    await service.startArca();
    return service;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The last lines the service wrote (stderr and stdout), for a failure report. */
  tail(): string {
    return this.output.slice(-OUTPUT_TAIL);
  }

  /** A mark in the service's output, for `outputSince`. */
  outputMark(): number {
    return this.written;
  }

  /** What the service wrote since a mark (as much of it as is kept): the log of one request. */
  outputSince(mark: number): string {
    const count = Math.min(this.written - mark, this.output.length);
    return count > 0 ? this.output.slice(-count) : "";
  }

  alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  engineAlive(): boolean {
    return this.engine.child.exitCode === null && this.engine.child.signalCode === null;
  }

  exitReason(): string {
    return this.child
      ? `exit code ${String(this.child.exitCode)}, signal ${String(this.child.signalCode)}`
      : "not started";
  }

  async startArca(): Promise<void> {
    this.port = await freePort();
    this.output = "";
    this.written = 0;
    this.starts++;
    const child = spawn(process.execPath, ["--import", PROBE, MAIN], {
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: "127.0.0.1",
        MONGODB_URI: this.engine.uri,
        MONGODB_DB: DB_NAME,
        DATA_DIR: this.dataDir,
        ADMIN_PASSWORD,
        // The fuzz test logs its own users in again after a restart; a throttled 429 there
        // would stop the run. Failed logins are still counted (and fuzzed), never delayed long.
        LOGIN_FREE_FAILURES: "1000000",
        LOGIN_MAX_DELAY_SECONDS: "1",
      },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      this.written += text.length;
      this.output = (this.output + text).slice(-4 * OUTPUT_TAIL);
    };
    child.stderr!.on("data", keep);
    child.on("message", (reply: ProbeReply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    child.on("exit", () => {
      for (const done of this.waiting.values()) done({ type: "exit", id: 0 });
      this.waiting.clear();
    });
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`arca did not start within 60 s: ${this.tail()}`)), 60_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        keep(chunk);
        if (this.output.includes("listening on")) {
          clearTimeout(timer);
          ready();
        }
      });
      child.once("exit", () => {
        clearTimeout(timer);
        fail(new Error(`arca exited (${this.exitReason()}) before listening: ${this.tail()}`));
      });
    });
    await this.ask("baseline");
  }

  /** Stops a live Arca (after a pollution) or forgets a dead one, and starts a new one on the same store. */
  async restartArca(): Promise<void> {
    await this.stopArca();
    await this.startArca();
  }

  private async stopArca(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(killer);
  }

  private ask(type: "baseline" | "check" | "selftest"): Promise<ProbeReply> {
    const id = this.nextMessage++;
    return new Promise((done) => {
      const child = this.child;
      if (child === undefined || !this.alive() || !child.connected) return done({ type: "exit", id });
      const finish = (reply: ProbeReply) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        done(reply);
      };
      const timer = setTimeout(() => finish({ type: "timeout", id }), 30_000);
      this.waiting.set(id, finish);
      // A process dying as the message goes (EPIPE) is an exit, whether send throws or reports it.
      try {
        child.send({ type, id }, (error) => error && finish({ type: "exit", id }));
      } catch {
        finish({ type: "exit", id });
      }
    });
  }

  /** What changed on the built-in prototypes of the service process since it started. */
  async prototypeChanges(): Promise<string[]> {
    const reply = await this.ask("check");
    return reply.changes ?? [];
  }

  /** The probe's own check: it adds a key to Object.prototype, compares, and takes the key away. */
  async probeSelfTest(): Promise<string[]> {
    const reply = await this.ask("selftest");
    return reply.changes ?? [];
  }

  /**
   * A hash per collection of every stored document (the fuzz store is small: a few hundred
   * documents), volatile collections left out. Equal fingerprints: nothing was written.
   * One aggregate reads every collection, each document tagged first with its collection's
   * name and left as raw BSON (a third of the time of a find per collection, decoded).
   */
  async fingerprint(): Promise<Map<string, string>> {
    const db = this.client.db(DB_NAME);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((name) => !VOLATILE_COLLECTION.test(name))
      .sort();
    const prints = new Map<string, string>();
    if (names.length === 0) return prints;
    const tag = (name: string) => ({ $replaceWith: { $mergeObjects: [{ _fuzz_collection: name }, "$$ROOT"] } });
    const [first, ...rest] = names;
    // With `raw: true` the driver hands back each document's bytes; its types do not say so.
    const docs = (await db
      .collection(first)
      .aggregate([tag(first), ...rest.map((name) => ({ $unionWith: { coll: name, pipeline: [tag(name)] } }))], {
        raw: true,
        batchSize: 1_000_000,
      })
      .toArray()) as unknown as Buffer[];
    const hashes = new Map<string, { hash: ReturnType<typeof createHash>; count: number }>(
      names.map((name) => [name, { hash: createHash("sha1"), count: 0 }]),
    );
    for (const doc of docs) {
      // The tag is the document's first element: type (1 byte) and "_fuzz_collection\0" (17) after the size (4), then
      // the string's length and bytes.
      const length = doc.readInt32LE(22);
      const entry = hashes.get(doc.toString("utf8", 26, 26 + length - 1));
      if (!entry) throw new Error("store fingerprint: a document without its collection tag");
      entry.hash.update(doc);
      entry.count++;
    }
    for (const [name, { hash, count }] of hashes) prints.set(name, `${count}:${hash.digest("hex").slice(0, 16)}`);
    return prints;
  }

  async stop(): Promise<void> {
    await this.stopArca();
    await this.client.close();
    await this.engine.stop();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** The collections whose fingerprints differ. */
export function changedCollections(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter((name) => before.get(name) !== after.get(name))
    .map((name) => `${name} (${before.get(name) ?? "absent"} -> ${after.get(name) ?? "absent"})`);
}
