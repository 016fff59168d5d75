// Opens the store the service runs on: the MongoDB named by MONGODB_URI, or else the
// embedded engine as a child process (so a long sort never stalls HTTP handling), reached
// over its Unix socket. Either way the service talks to it through mongoose over the wire,
// so tests exercise the path production uses. Start-up fails fast, saying why.
import mongoose, { type Connection } from "mongoose";
import { join } from "node:path";
import type { StoreConfig } from "../config.js";
import { existsSync } from "node:fs";
import { engineSocketUri } from "../embedded-mongo/index.js";
import { spawnEngine, type EngineProcess } from "../embedded-mongo/launcher.js";

export class StoreUnavailableError extends Error {}

export interface Store {
  connection: Connection;
  /** Where the data lives, for the start-up log (never contains credentials). */
  description: string;
  /**
   * Calls `listener` if the store is lost for good while the service runs: the embedded
   * engine's process ended without being asked to. (A MongoDB server is reconnected to by the
   * driver; it never calls this.) The service should then exit and let its supervisor restart it.
   */
  onLost(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

/** A connection string safe to print: the password, if any, is masked. */
export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:/@]+:)[^@]*@/, "$1***@");
}

// Unix socket paths are limited to 107 bytes; beyond that the engine is reached over TCP.
const MAX_SOCKET_PATH = 100;

/**
 * Every connection Arca opens. UTF-8 is checked where text comes in (http/text-checks.ts refuses
 * invalid UTF-8 and lone surrogates in every body and import), so the driver's second check of
 * every string it reads is skipped: it walked each character of each read (~3 ms for a record
 * with 1 MiB of notes, bench:load H3). A malformed string written by another program reads as
 * U+FFFD instead of failing the read.
 */
function openConnection(uri: string, dbName: string, serverSelectionTimeoutMS: number): Promise<Connection> {
  return mongoose.createConnection(uri, { dbName, serverSelectionTimeoutMS, enableUtf8Validation: false }).asPromise();
}

async function connect(uri: string, config: StoreConfig, where: string): Promise<Connection> {
  try {
    return await openConnection(uri, config.dbName, config.connectTimeoutMs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`could not reach ${where} within ${config.connectTimeoutMs} ms: ${reason}`);
  }
}

/**
 * The embedded engine a running Arca started on this data directory, if there is one: a second
 * program (the import command) shares it over its socket rather than failing on its lock.
 * Undefined when MONGODB_URI is set or nothing answers there.
 */
export async function attachToRunningEngine(config: StoreConfig): Promise<Store | undefined> {
  if (config.mongodbUri) return undefined;
  const socketPath = join(config.dataDir, "engine.sock");
  if (!existsSync(socketPath)) return undefined;
  let connection: Connection;
  try {
    connection = await openConnection(engineSocketUri(socketPath), config.dbName, 2000);
  } catch {
    return undefined; // a socket left behind by an engine that is gone
  }
  return {
    connection,
    description: `the running embedded engine at ${socketPath}, database ${config.dbName}`,
    onLost: () => undefined,
    close: () => connection.close(),
  };
}

export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.mongodbUri) {
    const shown = redactUri(config.mongodbUri);
    const connection = await connect(config.mongodbUri, config, `MongoDB at ${shown}`);
    return {
      connection,
      description: `MongoDB at ${shown}, database ${config.dbName}`,
      onLost: () => undefined,
      close: () => connection.close(),
    };
  }
  const socketPath = join(config.dataDir, "engine.sock");
  let engine: EngineProcess;
  try {
    engine = await spawnEngine({
      dataDir: join(config.dataDir, "engine"),
      fsync: config.engineFsync,
      socketPath: socketPath.length <= MAX_SOCKET_PATH ? socketPath : undefined,
      startTimeoutMs: config.connectTimeoutMs,
    });
  } catch (error) {
    throw new StoreUnavailableError(
      `the embedded engine did not start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let connection: Connection;
  try {
    connection = await connect(engine.socketUri ?? engine.uri, config, "the embedded engine");
  } catch (error) {
    await engine.stop();
    throw error;
  }
  let closing = false;
  return {
    connection,
    description: `embedded engine (pid ${engine.pid}) in ${config.dataDir}, database ${config.dbName}`,
    onLost(listener) {
      engine.child.once("exit", (code, signal) => {
        if (!closing)
          listener(`the embedded engine (pid ${engine.pid}) exited unexpectedly (${signal ?? `code ${code}`})`);
      });
    },
    async close() {
      closing = true;
      await connection.close();
      await engine.stop();
    },
  };
}
