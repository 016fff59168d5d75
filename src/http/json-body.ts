// A JSON body from its bytes, with the work it may cost bounded before JSON.parse runs: the
// bytes must be UTF-8, the nesting at most MAX_JSON_DEPTH deep and no object may name a key
// twice (both found by one linear scan); after parsing, no string, key or value, may hold a
// NUL or a lone surrogate. Every refusal is a 400 that names the field (slash-separated, as
// validation errors are) or, at the top level, says where.
import { ApiError, badRequest } from "../errors/api-error.js";
import { DepthGuard, jsonPathAt, scanJson } from "./json-scan.js";
import { firstInvalidUtf8, NOT_UTF8, textProblem } from "./text-checks.js";

/** The deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** How many bad fields one refusal names at most. */
const MAX_NAMED_FIELDS = 20;

export const PARSE_TROUBLE = "Had some trouble parsing your request";

const fieldPath = (parts: readonly string[]) => parts.join("/");

function fieldError(path: string, message: string): ApiError {
  return badRequest({ [path]: [message] });
}

/** Which field character `index` of a body's text falls in ("" when none can be named). */
export type FieldLocator = (text: string, index: number) => string;

export const jsonFieldAt: FieldLocator = (text, index) => fieldPath(jsonPathAt(text, index));

/** The body's text once its bytes are known to be UTF-8; a 400 naming the field (or the byte) otherwise. */
export function utf8Text(bytes: Buffer, fieldAt: FieldLocator): string {
  const text = bytes.toString("utf8");
  const offset = firstInvalidUtf8(bytes);
  if (offset === -1) return text;
  const path = fieldAt(text, bytes.subarray(0, offset).toString("utf8").length);
  return path === ""
    ? throwParseTrouble(`invalid UTF-8 at byte ${offset}`)
    : throwField(path, `${NOT_UTF8} (invalid byte at offset ${offset})`);
}

const tooDeep = (limit: number) =>
  badRequest(
    `${PARSE_TROUBLE}: nesting deeper than ${limit} levels (the limit of arrays and objects inside one another)`,
  );

/**
 * A check of a JSON body's bytes as they are read (body-reader.ts's `inspect`): it throws the
 * same 400 parseJsonText would, as soon as the nesting passes MAX_JSON_DEPTH.
 */
export function jsonDepthInspector(): (chunk: Buffer) => void {
  const guard = new DepthGuard(MAX_JSON_DEPTH);
  return (chunk) => {
    if (!guard.accept(chunk)) throw tooDeep(MAX_JSON_DEPTH);
  };
}

function throwParseTrouble(detail: string): never {
  throw badRequest(`${PARSE_TROUBLE}: ${detail}`);
}

function throwField(path: string, message: string): never {
  throw fieldError(path, message);
}

/** A container being checked, and how it was reached (for the path of a problem inside it). */
interface Container {
  value: object;
  parent: Container | undefined;
  /** Its key in its parent, or its index. */
  key: string | number;
}

function pathTo(container: Container | undefined, last?: string | number): string {
  const parts: string[] = last === undefined ? [] : [String(last)];
  for (let at = container; at?.parent !== undefined; at = at.parent) parts.push(String(at.key));
  return fieldPath(parts.reverse());
}

/**
 * Every string of a parsed value, keys included, checked. Iterative (the depth is bounded
 * already, the breadth is not), and only containers are remembered: a flat array of millions
 * of numbers costs one pass and no allocation per element.
 */
function checkStrings(root: unknown): void {
  const problems = new Map<string, string>();
  const note = (path: string, problem: string) => {
    if (!problems.has(path)) problems.set(path, problem);
  };
  const visit = (value: unknown, parent: Container | undefined, key: string | number, stack: Container[]) => {
    if (typeof value === "string") {
      if (value.length === 0) return;
      const problem = textProblem(value);
      if (problem !== undefined) note(pathTo(parent, parent === undefined ? undefined : key), problem);
    } else if (value !== null && typeof value === "object") {
      stack.push({ value, parent, key });
    }
  };
  const stack: Container[] = [];
  visit(root, undefined, "", stack);
  while (stack.length > 0 && problems.size < MAX_NAMED_FIELDS) {
    const container = stack.pop()!;
    const { value } = container;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value[i], container, i, stack);
    } else {
      for (const key of Object.keys(value)) {
        const problem = textProblem(key);
        if (problem !== undefined) note(pathTo(container, key), `Field name: ${problem}`);
        visit((value as Record<string, unknown>)[key], container, key, stack);
      }
    }
  }
  if (problems.size === 0) return;
  if (problems.size === 1 && problems.has("")) throwParseTrouble(problems.get("")!);
  const detail = Object.create(null) as Record<string, string[]>;
  for (const [path, problem] of problems) detail[path === "" ? "(body)" : path] = [problem];
  throw badRequest(detail);
}

/** The JSON value of a body's text (already UTF-8 checked and trimmed, not empty). @throws ApiError 400 */
export function parseJsonText(text: string): unknown {
  const { problem } = scanJson(text, MAX_JSON_DEPTH);
  if (problem?.kind === "depth") throw tooDeep(problem.limit);
  if (problem?.kind === "duplicateKey")
    throwField(fieldPath(problem.path), "Given more than once in the same object (duplicate key)");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throwParseTrouble(error instanceof Error ? error.message : String(error));
  }
  checkStrings(value);
  return value;
}
