// Query predicates through mingo, with MongoDB's error codes for what mingo rejects and an
// explicit refusal of what the engine does not implement (never a silent approximation).
import type { Document } from "bson";
import { Query } from "mingo";
import { CommandError, ErrorCodes, badValue } from "../errors.js";

export type Predicate = (doc: Document) => boolean;

const UNSUPPORTED = new Set(["$where", "$text", "$near", "$nearSphere", "$geoWithin", "$geoIntersects", "$function", "$accumulator"]);

function refuseUnsupported(value: unknown, depth = 0): void {
  if (depth > 100) throw badValue("query is nested too deeply");
  if (Array.isArray(value)) {
    for (const element of value) refuseUnsupported(element, depth + 1);
  } else if (value && typeof value === "object" && !("_bsontype" in value) && !(value instanceof Date) && !(value instanceof RegExp)) {
    for (const [key, inner] of Object.entries(value)) {
      if (UNSUPPORTED.has(key)) throw new CommandError(ErrorCodes.NotImplemented, `${key} is not supported by the embedded engine`);
      refuseUnsupported(inner, depth + 1);
    }
  }
}

export function compileFilter(filter: unknown): Predicate {
  if (filter === undefined || filter === null) return () => true;
  if (typeof filter !== "object" || Array.isArray(filter)) throw new CommandError(ErrorCodes.TypeMismatch, "filter must be an object");
  if (Object.keys(filter).length === 0) return () => true;
  refuseUnsupported(filter);
  let query: Query;
  try {
    query = new Query(filter as Document, {});
  } catch (error) {
    throw badValue(error instanceof Error ? error.message.replace(/^unknown query operator/i, "unknown operator:") : String(error));
  }
  return (doc) => query.test(doc);
}
