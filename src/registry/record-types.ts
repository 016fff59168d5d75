// The registry of the record types in record-types/, as last generated into generated/registry.ts.
// Kept apart from the Registry class so the generator can use the class before generated/ exists.
import { manifest } from "../../generated/registry.js";
import { Registry } from "./registry.js";

export const registry: Registry = new Registry(manifest);

/** {@link Registry.uniqueFieldFor} on the generated registry: the field an E11000 duplicate names. */
export function uniqueFieldFor(type: string, keyPattern: Readonly<Record<string, unknown>>): string | undefined {
  return registry.uniqueFieldFor(type, keyPattern);
}
