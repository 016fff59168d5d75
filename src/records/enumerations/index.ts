// Enumerations: the editable value lists enumerated record fields take their
// values from (x-enumeration in record-types/), stored in the store, seeded from a stock
// ArchivesSpace install's lists (with its ids) and the schemas, read by validation through a
// cache, edited at /config/enumerations and /config/enumeration_values.
import type { Connection } from "mongoose";
import type { AccessControl } from "../../auth/access-control.js";
import type { OperationDeps } from "../deps.js";
import type { Registry } from "../../registry/registry.js";
import { EnumerationCache, type EnumerationCacheOptions } from "./cache.js";
import { defineEnumerations } from "./definition.js";
import { EnumerationOperations } from "./operations.js";
import { enumerationController as controller } from "./controller.js";
import { STOCK_ENUMERATIONS, type StockEnumerations } from "./stock.js";
import { EnumerationStore } from "./store.js";

export { EnumerationCache, type EnumerationCacheOptions } from "./cache.js";
export { EnumerationOperations, UPDATE_ENUMERATION } from "./operations.js";
export { ENUMERATIONS_COLLECTION, EnumerationStore } from "./store.js";
export { defineEnumerations, type EnumerationDefinition } from "./definition.js";
export { NO_STOCK, STOCK_ENUMERATIONS, stockEnumerations, type StockEnumerations } from "./stock.js";

export interface OpenEnumerationsOptions extends EnumerationCacheOptions {
  /** A stock install's enumerations, whose ids the store takes; default record-types/enumerations/stock.json. */
  stock?: StockEnumerations;
}

/**
 * The enumerations of a store, each stock or schema-declared one created (or given its new seed
 * values) if need be, the store re-ided first if an older Arca numbered it otherwise, and their
 * values loaded: what record validation reads.
 */
export async function openEnumerations(
  connection: Connection,
  registry: Registry,
  now: Date,
  options: OpenEnumerationsOptions = {},
): Promise<EnumerationCache> {
  const stock = options.stock ?? STOCK_ENUMERATIONS;
  const definitions = defineEnumerations(registry.enumerations.values(), stock);
  const store = new EnumerationStore(connection);
  await store.syncIndexes();
  await store.seed(definitions.values(), stock, now);
  const cache = new EnumerationCache(store, definitions, options);
  await cache.ready();
  return cache;
}

/** The operations over the record operations' enumerations (deps.enumerations). */
export function enumerationOperations(deps: OperationDeps): EnumerationOperations {
  return new EnumerationOperations({
    registry: deps.registry,
    validator: deps.validator,
    records: deps.store,
    changes: deps.changes,
    cache: deps.enumerations,
    now: deps.now,
  });
}

/** The Ts.ED controller of the /config/enumerations routes, to mount at "/" beside the record controllers. */
export function enumerationController(deps: OperationDeps, access: AccessControl): new () => unknown {
  return controller({ enumerations: enumerationOperations(deps), access });
}
