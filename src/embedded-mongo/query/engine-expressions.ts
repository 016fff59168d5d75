// Expression operators MongoDB has and mingo lacks, added to every Query and Aggregator the
// engine makes (mingo merges this context over its own).
import { calculateObjectSize, type Document } from "bson";
import { Context, evalExpr } from "mingo/core";
import { CommandError } from "../errors.js";
import { describe, isDocument } from "../bson-values.js";

type Options = Parameters<typeof evalExpr>[2];

/** MongoDB's location code for $bsonSize given something other than a document. */
const BSON_SIZE_NOT_A_DOCUMENT = 31393;

/** `{$bsonSize: <expr>}`: the BSON size of a document in bytes; null for null or missing (MongoDB 4.4+). */
function $bsonSize(obj: Document, expr: unknown, options: Options): number | null {
  const value: unknown = evalExpr(obj, expr, options);
  if (value === null || value === undefined) return null;
  if (!isDocument(value)) {
    throw new CommandError(BSON_SIZE_NOT_A_DOCUMENT, `$bsonSize requires a document input, found: ${describe(value)}`);
  }
  return calculateObjectSize(value);
}

export const ENGINE_EXPRESSIONS = ["$bsonSize"] as const;

export const ENGINE_CONTEXT = Context.init({ expression: { $bsonSize } });
