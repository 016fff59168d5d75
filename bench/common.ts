// Helpers shared by the service-level benchmarks (service.ts, trees.ts): nearest-rank
// percentiles, /proc for RSS and CPU, waiting for a quiet machine, a loopback HTTP client, Arca
// as a child process, results and machine facts, and the summary of a `node --cpu-prof` profile.
// Taken out of service.ts unchanged.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import { createServer as createNetServer } from "node:net";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

// ---------------------------------------------------------------------------------------------
// Parameters

export const RSS_SAMPLE_MS = 25;
export const QUIET_IDLE_PERCENT = 90;
export const QUIET_MAX_WAIT_MS = 60_000;
export const COMPACT_THRESHOLD_BYTES = 64 * 1024 * 1024; // engine.ts, compactAfterBytes
export const ADMIN_PASSWORD = "bench-admin-password";
export const DB_NAME = "arca"; // MONGODB_DB's default; both apps use it
export const CLOCK_TICK_MICROS = 10_000; // USER_HZ = 100 on Linux

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const ARCA_MAIN = join(ROOT, "dist", "src", "main.js");

// ---------------------------------------------------------------------------------------------
// Helpers (the approach of engine.ts: nearest-rank percentiles, /proc for RSS and CPU)

export interface LatencyStats {
  runs: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentiles over the samples, in milliseconds. */
export function latencyStats(samples: number[]): LatencyStats {
  const sorted = Float64Array.from(samples).sort();
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  return {
    runs: sorted.length,
    p50: rank(50),
    p95: rank(95),
    p99: rank(99),
    mean: sorted.reduce((sum, v) => sum + v, 0) / sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

/** The middle value; the mean of the middle two for an even count (two runs: their mean). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
export const ms = (v: number) => `${v.toFixed(2)} ms`;
export const ms1 = (v: number) => `${v.toFixed(1)} ms`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const int = (v: number) => Math.round(v).toLocaleString("en-US");

export function procMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
    if (!match) throw new Error(`no ${name} in /proc/${pid}/status`);
    return Number(match[1]) * 1024;
  };
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** Samples VmRSS of a process every few milliseconds and keeps the peak. */
export class RssSampler {
  peak = 0;
  samples = 0;
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly pid: number) {}
  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), RSS_SAMPLE_MS);
    return this;
  }
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
  private sample(): void {
    try {
      this.peak = Math.max(this.peak, procMemory(this.pid).rss);
      this.samples++;
    } catch {
      // the process is gone
    }
  }
}

/** utime + stime (+ reaped children's when `withChildren`) of a process, in clock ticks. */
export function processTicks(pid: number | "self", withChildren: boolean): number {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = text
    .slice(text.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  const [utime, stime, cutime, cstime] = fields.slice(11, 15);
  return utime + stime + (withChildren ? cutime + cstime : 0);
}

export function safeTicks(pid: number): number {
  try {
    return processTicks(pid, false);
  } catch {
    return 0; // exited; counted once reaped
  }
}

export function machineTicks(): { busy: number; total: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user + nice + system + irq + softirq + (steal ?? 0);
  return { busy, total: busy + idle + iowait };
}

/** Share of the machine's CPU used by processes other than this one and its live children, over a window. */
export function cpuWindow(livePids: () => number[]): () => number {
  const own = () => processTicks("self", true) + livePids().reduce((sum, pid) => sum + safeTicks(pid), 0);
  const machine0 = machineTicks();
  const own0 = own();
  return () => {
    const machine1 = machineTicks();
    const total = machine1.total - machine0.total;
    const busy = machine1.busy - machine0.busy;
    return total > 0 ? Math.max(0, (100 * (busy - (own() - own0))) / total) : 0;
  };
}

/** Clocks and CPU counters at one instant of a load run: the window's ends are two of these. */
export interface CpuSnapshot {
  t: number;
  /** CLOCK_MONOTONIC, µs (to cut a --cpu-prof profile to the window). */
  mono: number;
  app: number;
  engine: number;
  client: NodeJS.CpuUsage;
  /** Other processes' share of the machine since this snapshot. */
  other: () => number;
}

export function cpuSnapshot(appPid: number, enginePid: number): CpuSnapshot {
  return {
    t: performance.now(),
    mono: Number(process.hrtime.bigint() / 1000n),
    app: safeTicks(appPid),
    engine: safeTicks(enginePid),
    client: process.cpuUsage(),
    other: cpuWindow(() => [appPid, enginePid]),
  };
}

/** The window's end: the snapshot, with the other processes' share measured since its start. */
export type CpuWindowEnd = Omit<CpuSnapshot, "other"> & { other: number };

/**
 * Waits (at most QUIET_MAX_WAIT_MS) until the machine has been ≥ 90 % idle for two
 * consecutive 3 s windows: other people's test runs on a shared machine come in bursts.
 */
export async function waitForQuiet(): Promise<{ idlePercent: number; waitedMs: number; quiet: boolean }> {
  const t0 = performance.now();
  let quietWindows = 0;
  while (true) {
    const a = machineTicks();
    await sleep(3_000);
    const b = machineTicks();
    const idlePercent = b.total > a.total ? 100 - (100 * (b.busy - a.busy)) / (b.total - a.total) : 100;
    quietWindows = idlePercent >= QUIET_IDLE_PERCENT ? quietWindows + 1 : 0;
    const waitedMs = performance.now() - t0;
    if (quietWindows >= 2) return { idlePercent, waitedMs, quiet: true };
    if (waitedMs >= QUIET_MAX_WAIT_MS) {
      log(
        `the machine did not become quiet within ${QUIET_MAX_WAIT_MS / 1000} s; measuring anyway (see the Other CPU column)`,
      );
      return { idlePercent, waitedMs, quiet: false };
    }
    log(`machine ${idlePercent.toFixed(0)} % idle; waiting for two quiet 3 s windows`);
  }
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`benchmark sanity check failed: ${message}`);
}

let logPrefix = "bench";

/** The tag of this script's progress lines on stderr ("[bench] ..." unless set). */
export function setLogPrefix(prefix: string): void {
  logPrefix = prefix;
}

export function log(line: string): void {
  process.stderr.write(`[${logPrefix}] ${line}\n`);
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
    probe.once("error", fail);
  });
}

export async function listDir(dir: string): Promise<Array<{ name: string; bytes: number }>> {
  const names = (await readdir(dir)).sort();
  const files = await Promise.all(
    names.map(async (name) => {
      try {
        return { name, bytes: (await stat(join(dir, name))).size };
      } catch {
        return undefined; // renamed or deleted meanwhile (compaction)
      }
    }),
  );
  return files.filter((f): f is { name: string; bytes: number } => f !== undefined);
}

// ---------------------------------------------------------------------------------------------
// HTTP client

export interface HttpAnswer {
  status: number;
  body: string;
}

export function httpCall(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  headers: http.OutgoingHttpHeaders = {},
  body?: string,
): Promise<HttpAnswer> {
  return new Promise((done, fail) => {
    const req = http.request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method,
        path,
        headers:
          body === undefined
            ? headers
            : { ...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", fail);
      },
    );
    req.on("error", fail);
    req.end(body);
  });
}

export async function httpJson(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const answer = await httpCall(
    agent,
    port,
    method,
    path,
    token ? { "X-ArchivesSpace-Session": token } : {},
    body === undefined ? undefined : JSON.stringify(body),
  );
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    json = answer.body;
  }
  return { status: answer.status, json };
}

// ---------------------------------------------------------------------------------------------
// Child processes

export interface ServiceProcess {
  pid: number;
  child: ChildProcess;
  port: number;
  /** spawn() until the "listening on" line. */
  startMillis: number;
  output(): string;
  stop(): Promise<void>;
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once("exit", () => done()));
}

/** Starts `node <nodeArgs> <entry> <args>` and waits for "listening on" on its stdout. */
export async function startService(
  name: string,
  nodeArgs: string[],
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<ServiceProcess> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (chunk: Buffer) => (out = (out + chunk.toString()).slice(-8_000));
  child.stderr!.on("data", keep);
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`${name} did not start within 60 s: ${out}`));
    }, 60_000);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited (${signal ?? code}) before listening: ${out}`));
    };
    child.once("exit", onExit);
    let listening = false;
    child.stdout!.on("data", (chunk: Buffer) => {
      keep(chunk);
      if (listening || !out.includes("listening on")) return;
      listening = true;
      const startMillis = performance.now() - t0;
      clearTimeout(timer);
      child.off("exit", onExit);
      done({
        pid: child.pid!,
        child,
        port,
        startMillis,
        output: () => out,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
          await exited(child);
          clearTimeout(killer);
        },
      });
    });
  });
}

/** Arca on the engine, without job workers unless `env` asks for them (JOB_WORKERS): they would share the CPU. */
export function startArca(
  engineUri: string,
  dataDir: string,
  nodeArgs: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ServiceProcess> {
  return startService("arca", nodeArgs, ARCA_MAIN, [], {
    MONGODB_URI: engineUri,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    MONGODB_DB: DB_NAME,
    JOB_WORKERS: "0",
    ...env,
  });
}

export function machineFacts(command: string) {
  return {
    cpu: os.cpus()[0]?.model ?? "unknown",
    cores: os.cpus().length,
    totalMemory: mib(os.totalmem()),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    command,
    argv: process.argv.join(" "),
    loadAverageAtStart: os.loadavg().map((v) => Number(v.toFixed(2))),
  };
}

export async function writeResults(name: string, raw: unknown): Promise<string> {
  const out = join(os.tmpdir(), "arca-bench-results", name);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(raw, null, 2)}\n`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// --profile: one Arca load run under `node --cpu-prof`, summarised by function and by package

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Where a frame's code lives: an Arca source file, an npm package, a group of node's built-in
 * modules (async_hooks on its own: AsyncLocalStorage's promise hooks), a native function, or
 * one of V8's pseudo-frames.
 */
export function frameHome(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : `(native) ${functionName || "(anonymous)"}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith("node:")) {
    if (url.includes("async_hooks")) return "node: async_hooks (AsyncLocalStorage, promise hooks)";
    const module = url
      .replace(/^node:(internal\/)?/, "")
      .split("/")[0]
      .replace(/^_?http_?.*$/, "http")
      .replace(/^(stream_base_commons|streams|stream)$/, "streams");
    return `node: ${module}`;
  }
  const own = /\/dist\/(src\/.*)$/.exec(url);
  if (own) return `arca ${own[1].replace(/\.js$/, ".ts")}`;
  return url;
}

export function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || "(anonymous)";
  if (!url) return name;
  const short = url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\//, "")
    .replace(/^.*\/dist\//, "")
    .replace(/\.js$/, url.includes("/dist/src/") ? ".ts" : ".js");
  return `${name} ${short}:${lineNumber + 1}`;
}

export interface Ranked {
  key: string;
  ms: number;
  percent: number;
  /** Per request served in the window. */
  microsPerRequest: number;
}

export interface ProfileSummary {
  windowMicros: number;
  busyMicros: number;
  requests: number;
  cutToWindow: boolean;
  byHome: Ranked[];
  selfTop: Ranked[];
  inclusiveTop: Ranked[];
  byNearestArcaFrame: Ranked[];
}

export function summariseProfile(
  profile: CpuProfile,
  window: [number, number] | undefined,
  requests: number,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Self time per node, from the samples inside the window (sample timestamps are CLOCK_MONOTONIC µs).
  const self = new Map<number, number>();
  let t = profile.startTime;
  let inWindow = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    // A sample's time is the interval until the next sample.
    const dt = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    if (window && (t < window[0] || t > window[1])) continue;
    inWindow++;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
  }
  const cutToWindow = window !== undefined && inWindow > 100;
  if (window && !cutToWindow) return summariseProfile(profile, undefined, requests);
  const isIdle = (id: number) => byId.get(id)!.callFrame.functionName === "(idle)";
  const busy = [...self.entries()].filter(([id]) => !isIdle(id)).reduce((a, [, v]) => a + v, 0);
  const add = (map: Map<string, number>, key: string, v: number) => map.set(key, (map.get(key) ?? 0) + v);

  const selfByFn = new Map<string, number>();
  const selfByHome = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const nearestArca = new Map<string, number>();
  for (const [id, micros] of self) {
    if (isIdle(id)) continue;
    const node = byId.get(id)!;
    add(selfByFn, frameName(node), micros);
    add(selfByHome, frameHome(node.callFrame.url, node.callFrame.functionName), micros);
    const seen = new Set<string>();
    let nearest: string | undefined;
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!;
      const name = frameName(frame);
      if (!seen.has(name)) {
        seen.add(name);
        add(inclusive, name, micros);
      }
      if (nearest === undefined && frame.callFrame.url.includes("/dist/src/")) nearest = name;
    }
    add(nearestArca, nearest ?? "(no Arca frame on the stack)", micros);
  }
  const ranked = (map: Map<string, number>, n: number): Ranked[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, micros]) => ({
        key,
        ms: Number((micros / 1000).toFixed(1)),
        percent: Number(((100 * micros) / busy).toFixed(1)),
        microsPerRequest: Number((micros / requests).toFixed(1)),
      }));
  return {
    windowMicros: window ? window[1] - window[0] : profile.endTime - profile.startTime,
    busyMicros: busy,
    requests,
    cutToWindow,
    byHome: ranked(selfByHome, 1_000),
    selfTop: ranked(selfByFn, 30),
    inclusiveTop: ranked(inclusive, 60),
    byNearestArcaFrame: ranked(nearestArca, 25),
  };
}
