/**
 * Crash tests: a child process appends numbered records and prints each
 * number once its append is acknowledged; the parent SIGKILLs it mid-stream
 * and checks that recovery finds every acknowledged number, in order, with no
 * gaps. The child runs the real modules, transpiled with swc into a temp dir.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { transformFile } from "@swc/core";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DataDirectory } from "../../../src/embedded-mongo/durability/data-directory.js";
import { scanRecordFile } from "../../../src/embedded-mongo/durability/record-file.js";

const sourceDir = join(dirname(fileURLToPath(import.meta.url)), "../../../src/embedded-mongo/durability");
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "arca-crash-"));
  await writeFile(join(workDir, "package.json"), JSON.stringify({ type: "module" }));
  const libDir = join(workDir, "lib");
  await mkdir(libDir);
  for (const name of await readdir(sourceDir)) {
    if (!name.endsWith(".ts")) continue;
    const { code } = await transformFile(join(sourceDir, name), {
      swcrc: false,
      jsc: { target: "es2022", parser: { syntax: "typescript" } },
      module: { type: "es6" },
    });
    await writeFile(join(libDir, name.replace(/\.ts$/, ".js")), code);
  }
  await writeFile(join(workDir, "journal-child.js"), JOURNAL_CHILD);
  await writeFile(join(workDir, "data-directory-child.js"), DATA_DIRECTORY_CHILD);
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** Keeps a window of appends in flight so group commit batches them. */
const JOURNAL_CHILD = `
import { Journal } from "./lib/journal.js";
const journal = await Journal.open(process.argv[2], { fsync: "always" });
let next = 0;
let inFlight = 0;
function pump() {
  while (inFlight < 16) {
    const n = next++;
    inFlight++;
    journal.append(Buffer.from(String(n))).then(
      () => { inFlight--; process.stdout.write(n + "\\n"); pump(); },
      (error) => { console.error(error); process.exit(1); },
    );
  }
}
pump();
`;

/**
 * Recovers, then continues the sequence, compacting every 150 records so the
 * kill can land anywhere in a compaction. The state is the list of numbers.
 */
const DATA_DIRECTORY_CHILD = `
import { DataDirectory } from "./lib/data-directory.js";
const fatal = (error) => { console.error(error); process.exit(1); };
const dd = await DataDirectory.open(process.argv[2], { fsync: "always" });
const state = [];
const decode = (payload) => Number(Buffer.from(payload).toString());
await dd.recover((p) => state.push(decode(p)), (p) => state.push(decode(p)));
let inFlight = 0;
let sinceCompaction = 0;
let compacting = false;
function pump() {
  while (inFlight < 16) {
    const n = state.length;
    state.push(n);
    inFlight++;
    dd.append(Buffer.from(String(n))).then(() => { inFlight--; process.stdout.write(n + "\\n"); pump(); }, fatal);
    if (++sinceCompaction >= 150 && !compacting) {
      sinceCompaction = 0;
      compacting = true;
      dd.compact(() => {
        const frozen = state.slice();
        return (function* () { for (const n of frozen) yield Buffer.from(String(n)); })();
      }).then(() => { compacting = false; }, fatal);
    }
  }
}
pump();
`;

/** Runs a child script until it has acknowledged `acks` records, then SIGKILLs it. Returns the acknowledged numbers. */
async function runAndKill(script: string, target: string, acks: number): Promise<number[]> {
  const child = spawn(process.execPath, [join(workDir, script), target], { stdio: ["ignore", "pipe", "pipe"] });
  const acknowledged: number[] = [];
  let stderr = "";
  let partial = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) acknowledged.push(Number(line));
    if (acknowledged.length >= acks) child.kill("SIGKILL");
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("close", (c, s) => resolve([c, s])),
  );
  if (signal !== "SIGKILL") throw new Error(`child exited with ${code ?? signal} before being killed:\n${stderr}`);
  return acknowledged;
}

function expectSequence(recovered: number[], acknowledged: number[]): void {
  // Acknowledged records form a prefix of the file, so recovery yields 0..m-1 with nothing missing.
  expect(recovered).toEqual(Array.from({ length: recovered.length }, (_, i) => i));
  expect(recovered.length).toBeGreaterThan(Math.max(...acknowledged));
}

describe("crash safety (SIGKILL)", () => {
  it("a journal keeps every acknowledged append", async () => {
    const path = join(workDir, "killed.log");
    const acknowledged = await runAndKill("journal-child.js", path, 2000);
    expect(acknowledged.length).toBeGreaterThanOrEqual(2000);
    const recovered: number[] = [];
    const result = await scanRecordFile(path, (payload) => recovered.push(Number(Buffer.from(payload).toString())));
    expect(["clean", "torn"]).toContain(result.tail);
    expectSequence(recovered, acknowledged);
  });

  it("a data directory keeps every acknowledged append across repeated kills during compactions", async () => {
    const dir = join(workDir, "killed-data");
    const allAcknowledged: number[] = [];
    for (const acks of [700, 1100, 900, 400, 1300]) {
      allAcknowledged.push(...(await runAndKill("data-directory-child.js", dir, acks)));
      // The killed child's lock is stale; recovery takes it over.
      const dd = await DataDirectory.open(dir, { fsync: "always" });
      const recovered: number[] = [];
      const decode = (payload: Uint8Array): number => Number(Buffer.from(payload).toString());
      const stats = await dd.recover(
        (p) => recovered.push(decode(p)),
        (p) => recovered.push(decode(p)),
      );
      await dd.close();
      expect(stats.generation).toBeGreaterThan(1);
      expectSequence(recovered, allAcknowledged);
    }
  });
});
