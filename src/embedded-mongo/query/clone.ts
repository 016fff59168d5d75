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
    for (const key of Object.keys(value)) out[key] = cloneValue((value as Document)[key]);
    return out as T;
  }
  return value;
}
