// The export tests' service: the real one (test/support/service.ts, with the real accounts and
// the export route mounted as the service mounts it), its store commands recorded to count
// queries, and a helper that creates records as the admin.
import type { CommandStartedEvent } from "mongodb";
import type { Connection } from "mongoose";
import type { RecordOperations } from "../../src/records/operations/index.js";
import type { JsonValue } from "../../src/registry/index.js";
import { startService, type Reply } from "../support/service.js";

export interface ExportService {
  base: string;
  operations: RecordOperations;
  connection: Connection;
  /** Store commands sent since the last `commands.length = 0`. */
  commands: CommandStartedEvent[];
  admin: string;
  call(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<Reply>;
  /** POSTs a record as the admin; returns its uri (throws with the answer otherwise). */
  create(path: string, body: unknown): Promise<string>;
  login(username: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startExportService(dbName: string): Promise<ExportService> {
  const service = await startService({ dbName, monitorCommands: true });
  const create = async (path: string, body: unknown) => {
    const reply = await service.send("POST", path, { token: service.adminToken, body });
    if (reply.status !== 200) throw new Error(`POST ${path}: ${reply.status} ${reply.text}`);
    return (reply.body as { uri: string }).uri;
  };
  return {
    base: service.url,
    operations: service.ops,
    connection: service.connection,
    // The live list the command log fills: tests empty it and count what follows.
    commands: service.commands!.started,
    admin: service.adminToken,
    call: service.send,
    create,
    login: service.login,
    stop: service.stop,
  };
}

/** The id at the end of a uri. */
export function idOf(uri: string): number {
  return Number(uri.split("/").at(-1));
}

/** Fields every stored record or subrecord has that say nothing of its content. */
const BOOKKEEPING = new Set([
  "lock_version",
  "created_by",
  "last_modified_by",
  "create_time",
  "system_mtime",
  "user_mtime",
  "uri",
  "persistent_id",
]);

/** A value without its bookkeeping fields, at every depth: what a round trip must keep. */
export function withoutBookkeeping(value: JsonValue | undefined): JsonValue {
  if (Array.isArray(value)) return value.map(withoutBookkeeping);
  if (value === null || typeof value !== "object") return value ?? null;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !BOOKKEEPING.has(key))
      .map(([key, inner]) => [key, withoutBookkeeping(inner)]),
  );
}
