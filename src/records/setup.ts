// Assembles the record operations over a store connection.
import type { Connection } from "mongoose";
import { recordValidator, registry } from "../registry/index.js";
import { RecordStore } from "../storage/record-store.js";
import { recordHooks } from "./hooks/index.js";
import { RecordOperations, type OperationDeps } from "./operations/index.js";

export interface RecordsOptions {
  resolveMaxRefs: number;
  now?: () => Date;
}

/** The operations over `connection`, with the store's indexes in place. */
export async function openRecords(connection: Connection, options: RecordsOptions): Promise<RecordOperations> {
  const store = new RecordStore(connection, registry);
  await store.syncIndexes();
  let operations: RecordOperations | undefined;
  const deps: OperationDeps = {
    store,
    registry,
    validator: recordValidator(),
    hooks: {},
    now: options.now ?? (() => new Date()),
    resolveMaxRefs: options.resolveMaxRefs,
  };
  deps.hooks = recordHooks(() => operations!, () => deps);
  operations = new RecordOperations(deps);
  return operations;
}
