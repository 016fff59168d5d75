// Shared helpers for the durability integration tests (not a test file itself).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MongoClient } from "mongodb";
import type { EngineProcess } from "../../../src/embedded-mongo/launcher.js";

/** A fresh, empty directory under the OS temp dir. */
export function freshDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `arca-${prefix}-`));
}

export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** Resolves with `p`, or with undefined after `ms` (never rejects). */
export async function settleWithin<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p.catch(() => undefined),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes a client, ignoring errors (its server may be dead) and giving up after a while. */
export async function closeQuietly(client: MongoClient | undefined, ms = 3000): Promise<void> {
  if (client) await settleWithin(client.close(), ms);
}

/** Stops an engine child process if it is still running: SIGTERM, then SIGKILL if it lingers. */
export async function stopQuietly(engine: EngineProcess | undefined): Promise<void> {
  if (!engine) return;
  const { child } = engine;
  if (child.exitCode !== null || child.signalCode !== null) return;
  await settleWithin(engine.stop(), 5000);
  if (child.exitCode === null && child.signalCode === null) await settleWithin(engine.kill(), 5000);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The `code` of a rejected driver/mongoose operation (fails if it resolved). */
export async function errorCodeOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (error) {
    return (error as { code?: number }).code;
  }
  throw new Error("expected the operation to fail, but it succeeded");
}
