// Assembles the record operations over a store connection.
import type { Connection } from "mongoose";
import { loadConfig } from "../config.js";
import { openEnumerations, type OpenEnumerationsOptions } from "./enumerations/index.js";
import { RecordValidator, registry as generatedRegistry, type Registry } from "../registry/index.js";
import { RecordStore } from "../storage/record-store.js";
import { RecordChanges } from "./changes.js";
import { addRecordHooks, HookTable } from "./hooks/index.js";
import { RecordOperations, type OperationDeps } from "./operations/index.js";
import { ensureSearchIndexes, SearchIndexWriter } from "./search/index-writer.js";
import { ChangeFeedWriter, ensureFeedIndexes } from "./feed/change-feed.js";

/**
 * RESOLVE_MAX_BYTES's and RESPONSE_MAX_BYTES's defaults, read from src/config.ts, for callers that do not set them
 * (tests, tools).
 */
const DEFAULTS = loadConfig({}).records;
export const DEFAULT_RESOLVE_MAX_BYTES = DEFAULTS.resolveMaxBytes;
export const DEFAULT_RESPONSE_MAX_BYTES = DEFAULTS.responseMaxBytes;

export interface RecordsOptions {
  resolveMaxRefs: number;
  /** The most bytes of resolved records per response (default: RESOLVE_MAX_BYTES's default, 4 MiB). */
  resolveMaxBytes?: number;
  /** The most bytes of whole records per response (default: RESPONSE_MAX_BYTES's default, 128 MiB). */
  responseMaxBytes?: number;
  now?: () => Date;
  /** The record types served: the generated registry unless a test brings its own. */
  registry?: Registry;
  /** How long enumeration values are reused (default 10 s); the stock ids (tests: another stock, or none). */
  enumerationCache?: OpenEnumerationsOptions;
}

/** The operations over `connection`, with the store's indexes in place. */
export async function openRecords(connection: Connection, options: RecordsOptions): Promise<RecordOperations> {
  const registry = options.registry ?? generatedRegistry;
  const store = new RecordStore(connection, registry);
  await store.syncIndexes();
  await ensureSearchIndexes(connection, registry);
  await ensureFeedIndexes(connection);
  const now = options.now ?? (() => new Date());
  const enumerations = await openEnumerations(connection, registry, now(), options.enumerationCache);
  const deps: OperationDeps = {
    store,
    registry,
    validator: new RecordValidator(registry, enumerations),
    enumerations,
    hooks: new HookTable(),
    changes: new RecordChanges(store),
    now,
    resolveMaxRefs: options.resolveMaxRefs,
    resolveMaxBytes: options.resolveMaxBytes ?? DEFAULT_RESOLVE_MAX_BYTES,
    responseMaxBytes: options.responseMaxBytes ?? DEFAULT_RESPONSE_MAX_BYTES,
  };
  // Every write of a searchable record rewrites its search entry in the write's own transaction.
  deps.changes.writeWith(new SearchIndexWriter(store, registry));
  // And every write of any record adds its changes to the change feed, in the same transaction.
  deps.changes.writeWith(new ChangeFeedWriter(store, registry, now));
  const operations = new RecordOperations(deps);
  addRecordHooks(deps.hooks, operations);
  return operations;
}
