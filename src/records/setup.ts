// Assembles the record operations over a store connection.
import type { Connection } from "mongoose";
import { RecordValidator, registry as generatedRegistry, type Registry } from "../registry/index.js";
import { RecordStore } from "../storage/record-store.js";
import { recordHooks } from "./hooks/index.js";
import { RecordOperations, type OperationDeps } from "./operations/index.js";

export interface RecordsOptions {
  resolveMaxRefs: number;
  now?: () => Date;
  /** The record types served: the generated registry unless a test brings its own. */
  registry?: Registry;
}

/** The operations over `connection`, with the store's indexes in place. */
export async function openRecords(connection: Connection, options: RecordsOptions): Promise<RecordOperations> {
  const registry = options.registry ?? generatedRegistry;
  const store = new RecordStore(connection, registry);
  await store.syncIndexes();
  let operations: RecordOperations | undefined;
  const deps: OperationDeps = {
    store,
    registry,
    validator: new RecordValidator(registry),
    hooks: {},
    now: options.now ?? (() => new Date()),
    resolveMaxRefs: options.resolveMaxRefs,
  };
  deps.hooks = recordHooks(() => operations!, () => deps);
  operations = new RecordOperations(deps);
  return operations;
}
