// MongoDB's rules for operator updates that mingo does not enforce: numeric $inc/$mul,
// arrays for the array operators, no field created inside a scalar, array filters that
// match the identifiers in use. It also rewrites the operators mingo gets wrong
// ($currentDate with timestamps, $push with $each/$sort/$slice/$position) into $set.
import { Timestamp, type Document } from "bson";
import { isDocument, isNumeric } from "../bson-values.js";
import { CommandError, ErrorCodes, failedToParse, typeMismatch } from "../errors.js";
import { compareValues } from "../bson-order.js";
import { cloneValue } from "./clone.js";
import { parseSort, sortRecords } from "./sort.js";

const PATH_NOT_VIABLE = 28;

/** The value at a dotted path and whether a scalar blocks the path (undefined when absent). */
function lookup(doc: Document, path: string): { value: unknown; blockedBy?: string } {
  let current: unknown = doc;
  const parts = path.split(".");
  for (let i = 0; i < parts.length; i++) {
    if (current === undefined) return { value: undefined };
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(parts[i])) return { value: undefined, blockedBy: parts.slice(0, i).join(".") };
      current = current[Number(parts[i])];
    } else if (isDocument(current)) {
      current = current[parts[i]];
    } else {
      return { value: undefined, blockedBy: parts.slice(0, i).join(".") };
    }
  }
  return { value: current };
}

function typeLabel(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Date) return "date";
  return typeof value === "object" ? "object" : typeof value;
}

function checkArrayFilters(modifier: Document, arrayFilters: Document[] | undefined): void {
  const used = new Set<string>();
  for (const fields of Object.values(modifier)) {
    for (const path of Object.keys(fields as Document))
      for (const match of path.matchAll(/\$\[([a-z][A-Za-z0-9]*)\]/g)) used.add(match[1]);
  }
  const declared = new Set<string>();
  for (const filter of arrayFilters ?? []) {
    const first = Object.keys(filter)[0] ?? "";
    declared.add(first.split(".")[0]);
  }
  for (const id of used)
    if (!declared.has(id)) throw new CommandError(ErrorCodes.BadValue, `No array filter found for identifier '${id}'`);
  for (const id of declared)
    if (!used.has(id)) throw failedToParse(`The array filter for identifier '${id}' was not used in the update`);
}

/** Two operators (or a $rename target) touching the same path, or one path inside another. */
function checkPathConflicts(modifier: Document): void {
  const paths: string[] = [];
  for (const [op, fields] of Object.entries(modifier)) {
    for (const [path, arg] of Object.entries(fields as Document)) {
      paths.push(path);
      if (op === "$rename" && typeof arg === "string") paths.push(arg);
    }
  }
  const sorted = paths.filter((path) => !path.includes("$")).sort();
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1], sorted[i]];
    if (a === b || b.startsWith(`${a}.`))
      throw new CommandError(
        ErrorCodes.ConflictingUpdateOperators,
        `Updating the path '${b}' would create a conflict at '${a}'`,
      );
  }
}

/** Validates a modifier against the document it applies to and returns the one to apply. */
export function prepareModifier(doc: Document, modifier: Document, arrayFilters?: Document[]): Document {
  checkArrayFilters(modifier, arrayFilters);
  checkPathConflicts(modifier);
  const prepared: Document = {};
  const set: Document = {};
  for (const [op, fields] of Object.entries(modifier)) {
    const kept: Document = {};
    for (const [path, arg] of Object.entries(fields as Document)) {
      const positional = path.includes("$");
      const { value, blockedBy } = positional ? { value: undefined, blockedBy: undefined } : lookup(doc, path);
      if (blockedBy !== undefined && op !== "$unset" && op !== "$pull" && op !== "$pullAll" && op !== "$pop") {
        throw new CommandError(
          PATH_NOT_VIABLE,
          `Cannot create field '${path.slice(blockedBy.length + 1).split(".")[0]}' in element {${blockedBy}: ${JSON.stringify(lookup(doc, blockedBy).value)}}`,
        );
      }
      if (op === "$inc" || op === "$mul") {
        if (!isNumeric(arg))
          throw typeMismatch(
            `Cannot ${op === "$inc" ? "increment" : "multiply"} with non-numeric argument: {${path}: ${JSON.stringify(arg)}}`,
          );
        if (value !== undefined && value !== null && !isNumeric(value))
          throw typeMismatch(
            `Cannot apply ${op} to a value of non-numeric type. {_id: ${JSON.stringify(doc._id)}} has the field '${path}' of non-numeric type ${typeLabel(value)}`,
          );
        if (op === "$mul" && value === null)
          throw typeMismatch(`Cannot apply $mul to a value of non-numeric type null`);
      }
      if (
        ["$push", "$addToSet", "$pop", "$pull", "$pullAll"].includes(op) &&
        value !== undefined &&
        !Array.isArray(value)
      ) {
        throw new CommandError(
          ErrorCodes.BadValue,
          `The field '${path}' must be an array but is of type ${typeLabel(value)} in document {_id: ${JSON.stringify(doc._id)}}`,
        );
      }
      if (op === "$currentDate" && !positional) {
        const wantsTimestamp = isDocument(arg) && arg.$type === "timestamp";
        set[path] = wantsTimestamp ? new Timestamp({ t: Math.floor(Date.now() / 1000), i: 1 }) : new Date();
        continue;
      }
      if (op === "$push" && !positional && isDocument(arg) && "$each" in arg) {
        set[path] = pushEach(Array.isArray(value) ? value : [], arg);
        continue;
      }
      kept[path] = arg;
    }
    if (Object.keys(kept).length > 0) prepared[op] = kept;
  }
  if (Object.keys(set).length > 0) {
    for (const path of Object.keys(set)) {
      if (prepared.$set && path in (prepared.$set as Document))
        throw new CommandError(
          ErrorCodes.ConflictingUpdateOperators,
          `Updating the path '${path}' would create a conflict at '${path}'`,
        );
    }
    prepared.$set = { ...(prepared.$set as Document | undefined), ...set };
  }
  return prepared;
}

/** $push with $each, $position, $sort and $slice, in MongoDB's order: insert, sort, slice. */
function pushEach(current: unknown[], spec: Document): unknown[] {
  if (!Array.isArray(spec.$each))
    throw new CommandError(ErrorCodes.BadValue, "The argument to $each in $push must be an array");
  const items = cloneValue(spec.$each as unknown[]);
  const position = spec.$position === undefined ? current.length : Number(spec.$position);
  const at = position < 0 ? Math.max(0, current.length + position) : Math.min(position, current.length);
  let result = [...current.slice(0, at), ...items, ...current.slice(at)];
  if (spec.$sort !== undefined) {
    if (typeof spec.$sort === "number") result.sort((a, b) => compareValues(a, b) * (spec.$sort as number));
    else result = sortRecords(result, (item) => (isDocument(item) ? item : {}), parseSort(spec.$sort));
  }
  if (spec.$slice !== undefined) {
    const n = Number(spec.$slice);
    result = n >= 0 ? result.slice(0, n) : result.slice(Math.max(0, result.length + n));
  }
  return result;
}
