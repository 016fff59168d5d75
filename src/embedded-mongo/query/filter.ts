// Query predicates through mingo, validated first as MongoDB validates them (mingo is
// lenient about malformed arguments), with an explicit refusal of what the engine does not
// implement (never a silent approximation).
import type { Document } from "bson";
import { Query } from "mingo";
import { CommandError, ErrorCodes, badValue } from "../errors.js";
import { isDocument } from "../bson-values.js";
import { notSupported } from "./expression-validation.js";
import { validateFilter } from "./filter-validation.js";
import { simpleMatcher } from "./simple-filter.js";

export type Predicate = (doc: Document) => boolean;

const UNSUPPORTED = new Set([
  "$where",
  "$text",
  "$near",
  "$nearSphere",
  "$geoWithin",
  "$geoIntersects",
  "$within",
  "$geoNear",
  "$function",
  "$accumulator",
  // Valid MongoDB operators that mingo lacks ($jsonSchema needs a validator mingo is not given).
  "$jsonSchema",
  "$alwaysTrue",
  "$alwaysFalse",
  "$sampleRate",
]);

function refuseUnsupported(value: unknown, depth = 0): void {
  if (depth > 100) throw badValue("query is nested too deeply");
  if (Array.isArray(value)) {
    for (const element of value) refuseUnsupported(element, depth + 1);
  } else if (isDocument(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (UNSUPPORTED.has(key)) throw notSupported(key);
      refuseUnsupported(inner, depth + 1);
    }
  }
}

/** $comment carries no predicate; MongoDB accepts it in any filter, mingo rejects it. */
function withoutComments(filter: Document): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === "$comment") continue;
    const logical = (key === "$and" || key === "$or" || key === "$nor") && Array.isArray(value);
    out[key] = logical ? value.map((entry: unknown) => (isDocument(entry) ? withoutComments(entry) : entry)) : value;
  }
  return out;
}

/** Rejects a filter MongoDB would reject, or that the engine does not support. */
export function checkFilter(filter: Document): void {
  refuseUnsupported(filter);
  validateFilter(filter);
}

export function compileFilter(filter: unknown): Predicate {
  if (filter === undefined || filter === null) return () => true;
  if (!isDocument(filter)) throw new CommandError(ErrorCodes.TypeMismatch, "filter must be an object");
  if (Object.keys(filter).length === 0) return () => true;
  checkFilter(filter);
  const criteria = withoutComments(filter);
  if (Object.keys(criteria).length === 0) return () => true;
  let query: Query;
  try {
    query = new Query(criteria, {});
  } catch (error) {
    throw badValue(
      error instanceof Error ? error.message.replace(/^unknown query operator/i, "unknown operator:") : String(error),
    );
  }
  // The common shape without mingo's per-document walk; a document it cannot judge goes to mingo.
  const simple = simpleMatcher(criteria);
  if (simple !== undefined) return (doc) => simple(doc) ?? query.test(doc);
  return (doc) => query.test(doc);
}
