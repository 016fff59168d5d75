// Arca as a user runs it, for the tests that need a whole process (acceptance, faults, fuzzing):
// the built server (`node dist/src/main.js`, what `npm start` runs) spawned on a free loopback
// port and waited for until it says it listens.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";

export const MAIN = resolve("dist/src/main.js");

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
    probe.once("error", fail);
  });
}

/** Resolves with the first match of `pattern` in the child's stdout; rejects if it exits first. */
export function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((ready, fail) => {
    let out = "";
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) ready(match);
    });
    child.once("exit", (code, signal) =>
      fail(new Error(`${what} exited (${signal ?? code}) before it was ready: ${out}${err}`)),
    );
  });
}

export interface ArcaProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Milliseconds from spawn to its "listening on" line. */
  upAfterMs: number;
  /** What it has written to stdout so far (start-up reports: recovered imports, the store). */
  output(): string;
  /** SIGTERM (its graceful stop), then waits for it to end. */
  stop(): Promise<void>;
}

/** Waits for a child process to end (at once if it has). */
export async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((done) => child.once("exit", done));
}

/**
 * The built server with `env` (HOST is set here, and PORT to `port` or a free one; an empty
 * MONGODB_URI, the default, makes it start its embedded engine in DATA_DIR), once it listens.
 */
export async function spawnArca(
  env: Record<string, string>,
  { port, what = "arca" }: { port?: number; what?: string } = {},
): Promise<ArcaProcess> {
  const listenOn = port ?? (await freePort());
  const started = Date.now();
  const child = spawn(process.execPath, [MAIN], {
    // No job workers unless a test asks (JOB_WORKERS): each is a process that loads the records.
    env: { ...process.env, MONGODB_URI: "", JOB_WORKERS: "0", ...env, PORT: String(listenOn), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitForLine(child, /listening on/, what);
  return {
    child,
    port: listenOn,
    url: `http://127.0.0.1:${listenOn}`,
    upAfterMs: Date.now() - started,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited(child);
    },
  };
}
