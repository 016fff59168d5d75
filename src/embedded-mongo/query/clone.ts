// Deep copy of a BSON document's plain structure. BSON value classes (ObjectId, Long,
// Binary, ...) are immutable in practice and shared; Dates are copied because mingo's
// update operators may set them.
import type { Document } from "bson";
import { isDocument } from "../bson-values.js";

export function cloneValue<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneValue) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (isDocument(value)) {
    const out: Document = {};
    for (const key of Object.keys(value)) {
      const copy = cloneValue((value as Document)[key]);
      // Defined, not assigned: a field named __proto__ stays a field rather than becoming the copy's prototype.
      if (key === "__proto__")
        Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else out[key] = copy;
    }
    return out as T;
  }
  return value;
}
