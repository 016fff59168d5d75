// What every operation works with.
import type { Registry, RecordValidator } from "../registry/index.js";
import type { RecordStore } from "../storage/record-store.js";
import type { EnumerationCache } from "./enumerations/cache.js";
import type { RecordChanges } from "./changes.js";
import type { HookTable } from "./hooks/hook-table.js";

export interface OperationDeps {
  store: RecordStore;
  registry: Registry;
  validator: RecordValidator;
  /** The enumerations' current values (src/records/enumerations/): the validator reads them. */
  enumerations: EnumerationCache;
  /** Hooks by record type name (only types that need them); accounts/ adds the account types'. */
  hooks: HookTable;
  /** Every committed write, told to its listeners (caches, and later search and feeds). */
  changes: RecordChanges;
  now: () => Date;
  /** The most refs one response resolves (docs/api.md §6: RESOLVE_MAX_REFS, default 1000). */
  resolveMaxRefs: number;
  /** The most bytes of resolved records one response carries (RESOLVE_MAX_BYTES, default 4 MiB; stored BSON sizes). */
  resolveMaxBytes: number;
  /**
   * The most bytes of whole records one response carries: a list page, an id set, a node's children
   * (RESPONSE_MAX_BYTES).
   */
  responseMaxBytes: number;
}
