// Query filters checked the way MongoDB's match-expression parser checks them, before
// mingo compiles them: mingo accepts many malformed arguments ({$in: 5}, {$or: []},
// {$size: "two"}) and quietly matches nothing, where MongoDB rejects the query.
import type { Document } from "bson";
import { badValue, failedToParse, typeMismatch } from "../errors.js";
import {
  describe,
  firstKey,
  isDocument,
  isNumeric,
  isRegex,
  nonNegativeIntegerProblem,
  numericValue,
} from "../bson-values.js";
import { validateExpression } from "./expression-validation.js";

/**
 * Where a filter applies: to the whole document ($expr and friends allowed) or to an array
 * element inside $elemMatch.
 */
type Level = "document" | "element";

type PathlessCheck = (operator: string, argument: unknown, level: Level) => void;
type FieldCheck = (operator: string, argument: unknown, path: string, context: Document) => void;

const ignore = (): void => undefined;

function onlyOnDocuments(operator: string, level: Level): void {
  if (level === "element") throw badValue(`${operator} can only be applied to the top-level document`);
}

/** $and, $or, $nor: a non-empty array of filters. */
const checkTree: PathlessCheck = (operator, argument, level) => {
  if (!Array.isArray(argument)) throw badValue(`${operator} argument must be an array`);
  if (argument.length === 0) throw badValue(`${operator} argument must be a non-empty array`);
  for (const entry of argument) {
    if (!isDocument(entry)) throw badValue(`${operator} argument's entries must be objects`);
    validateFilterAt(entry, level);
  }
};

/**
 * Operators that take no path. $where, $text, $jsonSchema and the like are refused as
 * unsupported before validation runs; they are listed so that $elemMatch classifies its
 * argument as MongoDB does.
 */
const PATHLESS_OPERATORS: ReadonlyMap<string, PathlessCheck> = new Map(
  Object.entries<PathlessCheck>({
    $and: checkTree,
    $or: checkTree,
    $nor: checkTree,
    $expr: (operator, argument, level) => {
      onlyOnDocuments(operator, level);
      validateExpression(argument);
    },
    $comment: ignore,
    $where: ignore,
    $text: ignore,
    $jsonSchema: ignore,
    $alwaysTrue: ignore,
    $alwaysFalse: ignore,
    $sampleRate: ignore,
    // DBRef fields compared by equality.
    $ref: ignore,
    $id: ignore,
    $db: ignore,
  }),
);

/** Comparisons other than equality cannot take a regular expression. */
const checkComparison: FieldCheck = (_operator, argument, path) => {
  if (isRegex(argument)) throw badValue(`Can't have RegEx as arg to non-equality predicate over field '${path}'.`);
};

/** A $in/$nin list may hold DBRefs but no operator objects. */
const checkInList: FieldCheck = (operator, argument) => {
  if (!Array.isArray(argument)) throw badValue(`${operator} needs an array`);
  for (const element of argument) if (isOperatorDocument(element, false)) throw badValue("cannot nest $ under $in");
};

const checkSize: FieldCheck = (operator, argument) => {
  const problem = nonNegativeIntegerProblem(operator, argument);
  if (problem) throw badValue(`Failed to parse $size. ${problem}`);
};

const checkMod: FieldCheck = (_operator, argument) => {
  if (!Array.isArray(argument)) throw badValue("malformed mod, needs to be an array");
  const [divisor, remainder] = argument;
  if (argument.length < 1) throw badValue("malformed mod, not enough elements");
  if (!isNumeric(divisor)) throw badValue("malformed mod, divisor not a number");
  if (argument.length < 2) throw badValue("malformed mod, not enough elements");
  if (!isNumeric(remainder)) throw badValue("malformed mod, remainder not a number");
  if (argument.length > 2) throw badValue("malformed mod, too many elements");
  if (Math.trunc(numericValue(divisor)) === 0) throw badValue("divisor cannot be 0");
};

const checkRegex: FieldCheck = (_operator, argument) => {
  if (typeof argument !== "string" && !isRegex(argument)) throw badValue("$regex has to be a string");
};

const checkOptions: FieldCheck = (_operator, argument, _path, context) => {
  if (!("$regex" in context)) throw badValue("$options needs a $regex");
  if (typeof argument !== "string") throw badValue("$options has to be a string");
};

const TYPE_ALIASES = new Set([
  "double",
  "string",
  "object",
  "array",
  "binData",
  "undefined",
  "objectId",
  "bool",
  "date",
  "null",
  "regex",
  "dbPointer",
  "javascript",
  "symbol",
  "javascriptWithScope",
  "int",
  "timestamp",
  "long",
  "decimal",
  "minKey",
  "maxKey",
  "number",
]);
const MIN_KEY_TYPE = -1;
const MAX_KEY_TYPE = 127;
const LAST_NUMBERED_TYPE = 19;

function checkSingleType(type: unknown): void {
  if (typeof type === "string") {
    if (!TYPE_ALIASES.has(type)) throw badValue(`Unknown type name alias: ${type}`);
    return;
  }
  if (!isNumeric(type)) throw typeMismatch("type must be represented as a number or a string");
  const code = numericValue(type);
  if (code === 0) throw badValue("Invalid numerical type code: 0. Instead use {$exists:false}.");
  const valid =
    Number.isInteger(code) &&
    (code === MIN_KEY_TYPE || code === MAX_KEY_TYPE || (code >= 1 && code <= LAST_NUMBERED_TYPE));
  if (!valid) throw badValue(`Invalid numerical type code: ${code}`);
}

const checkType: FieldCheck = (_operator, argument, path) => {
  const types = Array.isArray(argument) ? argument : [argument];
  for (const type of types) checkSingleType(type);
  if (types.length === 0) throw failedToParse(`${path} must match at least one type`);
};

/** The bit tests take a non-negative bitmask, an array of bit positions or BinData. */
const checkBitTest: FieldCheck = (operator, argument, path) => {
  if (Array.isArray(argument)) {
    for (const position of argument) {
      const problem = nonNegativeIntegerProblem(operator, position);
      if (problem) throw badValue(`Failed to parse bit position. ${problem}`);
    }
  } else if (isNumeric(argument)) {
    const problem = nonNegativeIntegerProblem(operator, argument);
    if (problem) throw failedToParse(problem);
  } else if (!(argument instanceof Uint8Array) && !isBinary(argument)) {
    throw badValue(`${path} takes an Array, a number, or a BinData but received: ${operator}: ${describe(argument)}`);
  }
};

function isBinary(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { _bsontype?: unknown })._bsontype === "Binary";
}

const checkElemMatch: FieldCheck = (_operator, argument) => {
  if (!isDocument(argument)) throw badValue("$elemMatch needs an Object");
  // {$elemMatch: {$gt: 1}} matches element values; {$elemMatch: {a: 1}} or one starting with a
  // pathless operator ($and, ...) matches element documents.
  const first = firstKey(argument);
  const matchesValues = isOperatorDocument(argument, true) && !PATHLESS_OPERATORS.has(first!);
  if (matchesValues) validateOperators(argument, "", "element");
  else validateFilterAt(argument, "element");
};

const checkAll: FieldCheck = (operator, argument, path, context) => {
  if (!Array.isArray(argument)) throw badValue("$all needs an array");
  const first: unknown = argument[0];
  if (isDocument(first) && firstKey(first) === "$elemMatch") {
    for (const element of argument) {
      if (!isDocument(element) || firstKey(element) !== "$elemMatch")
        throw badValue("$all/$elemMatch has to be consistent");
      checkElemMatch("$elemMatch", element.$elemMatch, path, context);
    }
    return;
  }
  for (const element of argument) {
    if (isDocument(element) && FIELD_OPERATORS.has(firstKey(element) ?? ""))
      throw badValue(`no $ expressions in ${operator}`);
  }
};

/** Operators applied to a path ($not is handled apart: it nests these). */
const FIELD_OPERATORS: ReadonlyMap<string, FieldCheck> = new Map(
  Object.entries<FieldCheck>({
    $eq: ignore,
    $ne: (_operator, argument) => {
      if (isRegex(argument)) throw badValue("Can't have regex as arg to $ne.");
    },
    $gt: checkComparison,
    $gte: checkComparison,
    $lt: checkComparison,
    $lte: checkComparison,
    $in: checkInList,
    $nin: checkInList,
    $all: checkAll,
    $elemMatch: checkElemMatch,
    $exists: ignore,
    $type: checkType,
    $size: checkSize,
    $mod: checkMod,
    $regex: checkRegex,
    $options: checkOptions,
    $bitsAllSet: checkBitTest,
    $bitsAllClear: checkBitTest,
    $bitsAnySet: checkBitTest,
    $bitsAnyClear: checkBitTest,
  }),
);

/**
 * Whether a value is an operator object ({$gt: 1}) rather than a document to compare with.
 * A DBRef ({$ref, $id}) is a document; inside $elemMatch any of $ref/$id/$db makes it one.
 */
function isOperatorDocument(value: unknown, allowIncompleteDbRef: boolean): value is Document {
  if (!isDocument(value)) return false;
  const first = firstKey(value);
  if (first === undefined || !first.startsWith("$")) return false;
  const dbRef = allowIncompleteDbRef
    ? "$ref" in value || "$id" in value || "$db" in value
    : "$ref" in value && "$id" in value;
  return !dbRef;
}

function checkNot(argument: unknown, path: string, level: Level): void {
  if (isRegex(argument)) return;
  if (!isDocument(argument)) throw badValue("$not argument must be a regex or an object");
  if (Object.keys(argument).length === 0) throw badValue("$not argument must be a non-empty object");
  validateOperators(argument, path, level);
}

/** Every field of an operator object such as {$gt: 1, $lt: 5} must be a known operator. */
function validateOperators(operators: Document, path: string, level: Level): void {
  for (const [operator, argument] of Object.entries(operators)) {
    if (operator === "$not") {
      checkNot(argument, path, level);
      continue;
    }
    const check = FIELD_OPERATORS.get(operator);
    if (!check) {
      if (operator === "$where") throw badValue("$where cannot be applied to a field");
      throw badValue(`unknown operator: ${operator}`);
    }
    check(operator, argument, path, operators);
  }
}

function validateFilterAt(filter: Document, level: Level): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith("$")) {
      const check = PATHLESS_OPERATORS.get(key);
      if (!check) {
        throw badValue(
          `unknown top level operator: ${key}. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.`,
        );
      }
      check(key, value, level);
    } else if (isOperatorDocument(value, false)) {
      validateOperators(value, key, level);
    }
  }
}

/** Throws the error MongoDB gives for a malformed filter; a well-formed one passes silently. */
export function validateFilter(filter: Document): void {
  validateFilterAt(filter, "document");
}
