// Aggregation expressions checked the way MongoDB parses them before anything runs: an
// object whose first field starts with '$' is an operator expression with exactly one
// field and a known name. mingo only notices an unknown operator when it evaluates it (and
// then calls it an unregistered accumulator), and never on an empty input.
import type { Document } from "bson";
import * as mingoAccumulators from "mingo/operators/accumulator";
import * as mingoExpressions from "mingo/operators/expression";
import { CommandError, ErrorCodes } from "../errors.js";
import { describe, isDocument } from "../bson-values.js";

/** MongoDB's InvalidPipelineOperator. */

/** MongoDB's location code for an operator expression object with more than one field. */
const EXPRESSION_NOT_ONE_FIELD = 15983;

const operatorNames = (module: object): string[] => Object.keys(module).filter((name) => name.startsWith("$"));

/** Accumulators that MongoDB also accepts as expressions over arrays (mingo evaluates them as such). */
const ACCUMULATOR_EXPRESSIONS = ["$avg", "$max", "$min", "$stdDevPop", "$stdDevSamp", "$sum"];

/** Expression operators that run user JavaScript: refused, never approximated. */
const REFUSED_EXPRESSIONS = new Set(["$function", "$accumulator"]);

/** MongoDB expression operators mingo does not implement. */
const MISSING_EXPRESSIONS = new Set([
  "$binarySize",
  "$bsonSize",
  "$const",
  "$indexOfCP",
  "$meta",
  "$toObjectId",
  "$toUUID",
  "$tsIncrement",
  "$tsSecond",
]);

const IMPLEMENTED_EXPRESSIONS = new Set([...operatorNames(mingoExpressions), ...ACCUMULATOR_EXPRESSIONS]);

/** Operators whose argument is a constant, not an expression. */
const LITERAL_OPERATORS = new Set(["$literal", "$const"]);

/** Accumulators mingo implements, by name. */
export const IMPLEMENTED_ACCUMULATORS: ReadonlySet<string> = new Set(operatorNames(mingoAccumulators));

export function notSupported(name: string): CommandError {
  return new CommandError(ErrorCodes.NotImplemented, `${name} is not supported by the embedded engine`);
}

/** Whether MongoDB knows `name` as an expression operator (implemented here or not). */
export function isExpressionName(name: string): boolean {
  return IMPLEMENTED_EXPRESSIONS.has(name) || REFUSED_EXPRESSIONS.has(name) || MISSING_EXPRESSIONS.has(name);
}

function checkOperatorName(name: string): void {
  if (REFUSED_EXPRESSIONS.has(name) || MISSING_EXPRESSIONS.has(name)) throw notSupported(name);
  if (!IMPLEMENTED_EXPRESSIONS.has(name))
    throw new CommandError(ErrorCodes.InvalidPipelineOperator, `Unrecognized expression '${name}'`);
}

/** Validates an operator expression such as `{$add: [...]}`. */
export function validateOperatorExpression(expression: Document): void {
  const names = Object.keys(expression);
  if (names.length !== 1) {
    throw new CommandError(
      EXPRESSION_NOT_ONE_FIELD,
      `An object representing an expression must have exactly one field: ${describe(expression)}`,
    );
  }
  const [name] = names;
  checkOperatorName(name);
  if (!LITERAL_OPERATORS.has(name)) validateExpression(expression[name]);
}

/** Validates any aggregation expression: a constant, a field path, an array, an object or an operator. */
export function validateExpression(value: unknown): void {
  if (Array.isArray(value)) {
    for (const element of value) validateExpression(element);
    return;
  }
  if (!isDocument(value)) return;
  const names = Object.keys(value);
  if (names.length > 0 && names[0].startsWith("$")) {
    validateOperatorExpression(value);
    return;
  }
  // An object expression: each field's value is an expression.
  for (const name of names) validateExpression(value[name]);
}
