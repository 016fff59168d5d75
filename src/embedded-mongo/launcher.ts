// Runs the engine as a child process and waits for its "listening on" line.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FsyncMode } from "./durability/journal.js";
import { engineSocketUri, engineUri } from "./uris.js";

export interface SpawnOptions {
  port?: number;
  dataDir?: string;
  inMemory?: boolean;
  fsync?: FsyncMode;
  ttlIntervalMs?: number;
  /** Also listen on this Unix domain socket (faster for a client on the same machine). */
  socketPath?: string;
  /** Give up waiting for the engine after this long. */
  startTimeoutMs?: number;
}

export interface EngineProcess {
  port: number;
  uri: string;
  /** The Unix socket connection string, when `socketPath` was given. */
  socketUri?: string;
  pid: number;
  child: ChildProcess;
  /** Graceful stop: flush and release the lock. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
}

/** The compiled CLI: next to this module when running from dist/, else in dist/ (tests run the sources). */
export function cliPath(): string {
  const here = fileURLToPath(import.meta.url);
  const sibling = here.replace(/\.ts$/, ".js").replace(/launcher\.js$/, "cli.js");
  if (here.endsWith(".js") && existsSync(sibling)) return sibling;
  const compiled = sibling.replace(
    /([\\/])src([\\/])embedded-mongo([\\/])cli\.js$/,
    "$1dist$1src$2embedded-mongo$3cli.js",
  );
  if (!existsSync(compiled))
    throw new Error(`the compiled engine was not found at ${compiled}: run \`npm run build\` first`);
  return compiled;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

export function spawnEngine(options: SpawnOptions = {}): Promise<EngineProcess> {
  const args = [
    cliPath(),
    "--port",
    String(options.port ?? 0),
    "--fsync",
    options.fsync ?? "always",
    "--exit-with-parent",
  ];
  if (options.inMemory) args.push("--in-memory");
  if (options.dataDir) args.push("--dbpath", options.dataDir);
  if (options.ttlIntervalMs) args.push("--ttl-interval-ms", String(options.ttlIntervalMs));
  if (options.socketPath) args.push("--socket", options.socketPath);
  // stdin stays open for the child's lifetime: its closing tells the engine we are gone.
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  child.stdin!.on("error", () => undefined); // EPIPE once the engine has exited
  return new Promise((resolve, reject) => {
    let stderr = "";
    let stdout = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the embedded engine did not start within ${options.startTimeoutMs ?? 15000} ms: ${stderr}`));
    }, options.startTimeoutMs ?? 15000);
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      const port = Number(match[1]);
      resolve({
        port,
        uri: engineUri(port),
        socketUri: options.socketPath ? engineSocketUri(options.socketPath) : undefined,
        pid: child.pid!,
        child,
        async stop() {
          child.kill("SIGTERM");
          await exited(child);
        },
        async kill() {
          child.kill("SIGKILL");
          await exited(child);
        },
      });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the embedded engine exited (${signal ?? code}) before listening: ${stderr.trim()}`));
    });
  });
}
