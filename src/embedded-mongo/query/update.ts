// Update documents: operator updates through mingo, replacements, pipeline updates, and
// what mingo leaves out: $setOnInsert, upsert seeding from the filter's equality
// predicates, and the immutability of _id.
import { ObjectId, type Document } from "bson";
import { Aggregator, update as mingoUpdate } from "mingo";
import * as updateOperators from "mingo/operators/update";
import { bsonTypeName, isDocument, isOperatorDocument } from "../bson-values.js";
import { CommandError, ErrorCodes, failedToParse } from "../errors.js";
import { compareValues } from "../bson-order.js";
import { cloneValue } from "./clone.js";
import { prepareModifier } from "./update-operators.js";

const OPERATORS = new Set([
  "$set",
  "$unset",
  "$inc",
  "$mul",
  "$min",
  "$max",
  "$rename",
  "$push",
  "$addToSet",
  "$pull",
  "$pullAll",
  "$pop",
  "$currentDate",
  "$bit",
  "$setOnInsert",
]);

export type UpdateKind = "operators" | "replacement" | "pipeline";

export function classifyUpdate(update: unknown): UpdateKind {
  if (Array.isArray(update)) return "pipeline";
  if (!update || typeof update !== "object")
    throw failedToParse("Update argument must be either an object or an array");
  const keys = Object.keys(update);
  // As in MongoDB, the first field decides: a replacement document, or operators only.
  if (keys.length === 0 || !keys[0].startsWith("$")) return "replacement";
  for (const key of keys) {
    if (!OPERATORS.has(key))
      throw failedToParse(
        `Unknown modifier: ${key}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    const arg = (update as Document)[key];
    if (!arg || typeof arg !== "object" || Array.isArray(arg))
      throw failedToParse(
        `Modifiers operate on fields but we found type ${Array.isArray(arg) ? "array" : typeof arg} instead. For example: {$mod: {<field>: ...}} not {${key}: ${JSON.stringify(arg)}}`,
      );
  }
  return "operators";
}

/** A replacement document may not carry $-prefixed top-level fields (inserts may, since MongoDB 5.0). */
export function checkReplacementFields(doc: Document): void {
  for (const key of Object.keys(doc)) {
    if (key.startsWith("$"))
      throw new CommandError(
        ErrorCodes.DollarPrefixedFieldName,
        `The dollar ($) prefixed field '${key}' in '${key}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
  }
}

export interface UpdateOutcome {
  doc: Document;
  modified: boolean;
}

export interface UpdateOptions {
  arrayFilters?: Document[];
  /** The filter that selected the document (for the positional `$` operator). */
  filter?: Document;
  /** True when the update runs against a freshly seeded upsert document. */
  inserting?: boolean;
}

export function applyUpdate(
  original: Document,
  update: Document | Document[],
  options: UpdateOptions = {},
): UpdateOutcome {
  const kind = classifyUpdate(update);
  let doc: Document;
  if (kind === "replacement") {
    checkReplacementFields(update as Document);
    doc = { _id: original._id, ...cloneValue(update as Document) };
    if (doc._id === undefined) delete doc._id;
  } else if (kind === "pipeline") {
    doc = pipelineUpdate(original, update as Document[]);
  } else {
    doc = cloneValue(original);
    const { $setOnInsert, ...rest } = update as Document;
    const requested: Document = { ...rest };
    if ($setOnInsert && options.inserting)
      requested.$set = { ...(requested.$set as Document | undefined), ...($setOnInsert as Document) };
    const modifier = prepareModifier(doc, requested, options.arrayFilters);
    if (Object.keys(modifier).length > 0) {
      try {
        applyOperators(doc, modifier, options);
      } catch (error) {
        throw mingoUpdateError(error);
      }
    }
  }
  if (
    original._id !== undefined &&
    (doc._id === undefined ||
      compareValues(doc._id, original._id) !== 0 ||
      bsonTypeName(doc._id) !== bsonTypeName(original._id))
  ) {
    throw new CommandError(
      ErrorCodes.ImmutableField,
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
  return { doc, modified: !sameDocument(original, doc) };
}

type UpdateOperator = (expr: Document) => (obj: Document) => string[];
// The module namespace also carries a default export; only the $-named members are operators.
// A Map, so that an operator name a client sends is never looked up on Object.prototype.
const OPERATOR_FUNCTIONS: ReadonlyMap<string, UpdateOperator> = new Map(
  Object.entries(updateOperators as unknown as Record<string, UpdateOperator>).filter(([name]) => name.startsWith("$")),
);

/**
 * Applies operator updates to `doc` in place. mingo's update() builds a fresh operator
 * context on every call (~60 µs); applying its operators directly costs a sixth of that.
 * Positional paths and array filters need the query context, so they take the full path.
 * Conflicts between operators are checked beforehand (prepareModifier).
 */
function applyOperators(doc: Document, modifier: Document, options: UpdateOptions): void {
  const positional = Object.values(modifier).some((fields) =>
    Object.keys(fields as Document).some((path) => path.includes("$")),
  );
  if (positional || (options.arrayFilters?.length ?? 0) > 0) {
    mingoUpdate(doc, modifier, options.arrayFilters, options.filter ?? {}, { cloneMode: "deep" });
    return;
  }
  for (const [op, fields] of Object.entries(modifier)) {
    // classifyUpdate lets only known operators through; one mingo lacks is refused as MongoDB refuses an unknown one.
    const apply = OPERATOR_FUNCTIONS.get(op);
    if (apply === undefined)
      throw failedToParse(
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    apply(fields as Document)(doc);
  }
}

/** mingo's update errors, with the codes MongoDB uses for the same conditions. */
function mingoUpdateError(error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/immutable field '_id'/i.test(message)) return new CommandError(ErrorCodes.ImmutableField, message);
  if (/conflict/i.test(message))
    return new CommandError(ErrorCodes.ConflictingUpdateOperators, message.replace(/^updating/, "Updating"));
  return new CommandError(ErrorCodes.BadValue, message);
}

function pipelineUpdate(original: Document, stages: Document[]): Document {
  const allowed = new Set(["$addFields", "$set", "$project", "$unset", "$replaceRoot", "$replaceWith"]);
  for (const stage of stages) {
    const name = Object.keys(stage)[0];
    if (!allowed.has(name))
      throw new CommandError(ErrorCodes.BadValue, `${name} is not allowed to be used within an update`);
  }
  const [result] = new Aggregator(stages, {}).run([cloneValue(original)]) as Document[];
  return result;
}

/** Field-order-sensitive deep equality, as MongoDB decides whether an update modified a document. */
function sameDocument(a: Document, b: Document): boolean {
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  for (let i = 0; i < ak.length; i++) {
    if (ak[i] !== bk[i]) return false;
    const x = a[ak[i]];
    const y = b[bk[i]];
    if (bsonTypeName(x) !== bsonTypeName(y) || compareValues(x, y) !== 0) return false;
    if (isDocument(x) && !sameDocument(x, y as Document)) return false;
  }
  return true;
}

/** The document an upsert starts from: the filter's equality predicates (MongoDB's "seed"). */
export function upsertSeed(filter: Document): Document {
  const seed: Document = {};
  const visit = (predicates: Document) => {
    for (const [field, condition] of Object.entries(predicates)) {
      if (field === "$and" && Array.isArray(condition)) {
        for (const part of condition) visit(part as Document);
        continue;
      }
      if (field.startsWith("$")) continue;
      let value: unknown = condition;
      if (isOperatorDocument(condition)) {
        if (!("$eq" in (condition as Document))) continue;
        value = (condition as Document).$eq;
      }
      setPath(seed, field, cloneValue(value));
    }
  };
  visit(filter);
  return seed;
}

function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split(".");
  let current = doc;
  for (const part of parts.slice(0, -1)) {
    if (!current[part] || typeof current[part] !== "object") current[part] = {};
    current = current[part] as Document;
  }
  current[parts[parts.length - 1]] = value;
}

/** Builds the document an upsert inserts. */
export function buildUpsert(filter: Document, update: Document | Document[], arrayFilters?: Document[]): Document {
  const seed = upsertSeed(filter);
  let doc: Document;
  if (classifyUpdate(update) === "replacement") {
    checkReplacementFields(update as Document);
    doc = { ...cloneValue(update as Document) };
    if (doc._id === undefined && seed._id !== undefined) doc = { _id: seed._id, ...doc };
  } else {
    // Seeded fields go first; the update may change them, except _id.
    const outcome = applyUpdateToSeed(seed, update, arrayFilters);
    doc = outcome;
  }
  if (doc._id === undefined) doc = { _id: new ObjectId(), ...doc };
  else if (Object.keys(doc)[0] !== "_id") {
    const { _id, ...rest } = doc;
    doc = { _id, ...rest };
  }
  return doc;
}

function applyUpdateToSeed(seed: Document, update: Document | Document[], arrayFilters?: Document[]): Document {
  const seeded = seed._id === undefined ? { ...seed } : seed;
  return applyUpdate(seeded, update, { arrayFilters, inserting: true }).doc;
}
