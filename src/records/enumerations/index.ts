// Enumerations: the editable value lists enumerated record fields take their
// values from (x-enumeration in record-types/), stored in the store, seeded from the schemas,
// read by validation through a cache, edited at /config/enumerations.
import type { Connection } from "mongoose";
import type { AccessControl } from "../../auth/access-control.js";
import type { OperationDeps } from "../deps.js";
import type { Registry } from "../../registry/registry.js";
import { EnumerationCache, type EnumerationCacheOptions } from "./cache.js";
import { EnumerationOperations } from "./operations.js";
import { enumerationController as controller } from "./controller.js";
import { EnumerationStore } from "./store.js";

export { EnumerationCache, type EnumerationCacheOptions } from "./cache.js";
export { EnumerationOperations, UPDATE_ENUMERATION } from "./operations.js";
export { ENUMERATIONS_COLLECTION, EnumerationStore } from "./store.js";

/**
 * The enumerations of a store, each schema-declared one created (or given its new seed values)
 * if need be, and their values loaded: what record validation reads.
 */
export async function openEnumerations(
  connection: Connection,
  registry: Registry,
  now: Date,
  options: EnumerationCacheOptions = {},
): Promise<EnumerationCache> {
  const store = new EnumerationStore(connection);
  await store.syncIndexes();
  await store.seed(registry.enumerations.values(), now);
  const cache = new EnumerationCache(store, registry.enumerations, options);
  await cache.ready();
  return cache;
}

/** The operations over the record operations' enumerations (deps.enumerations). */
export function enumerationOperations(deps: OperationDeps): EnumerationOperations {
  return new EnumerationOperations({
    registry: deps.registry,
    validator: deps.validator,
    records: deps.store,
    cache: deps.enumerations,
    now: deps.now,
  });
}

/** The Ts.ED controller of the /config/enumerations routes, to mount at "/" beside the record controllers. */
export function enumerationController(deps: OperationDeps, access: AccessControl): new () => unknown {
  return controller({ enumerations: enumerationOperations(deps), access });
}
