// Typed reads of command fields with MongoDB's errors for wrong types.
import type { Document } from "bson";
import { CommandError, ErrorCodes, typeMismatch } from "../errors.js";
import { checkCollectionName } from "../store/catalog.js";

/** Fields any command may carry (session, API version, concerns) besides its own arguments. */
const GENERIC_FIELDS = new Set([
  "lsid",
  "txnNumber",
  "autocommit",
  "startTransaction",
  "comment",
  "maxTimeMS",
  "readConcern",
  "writeConcern",
  "apiVersion",
  "apiStrict",
  "apiDeprecationErrors",
]);

export function isGenericField(name: string): boolean {
  return name.startsWith("$") || GENERIC_FIELDS.has(name);
}

export function commandName(command: Document): string {
  return Object.keys(command)[0] ?? "";
}

/** The collection named by the command's first field (`{find: "coll"}`). */
export function targetCollection(command: Document): string {
  const name = commandName(command);
  const value = command[name];
  if (typeof value !== "string")
    throw new CommandError(ErrorCodes.InvalidNamespace, `collection name has invalid type ${typeof value}`);
  return checkCollectionName(value);
}

export function optionalDocument(command: Document, field: string): Document | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value) || "_bsontype" in value)
    throw typeMismatch(
      `BSON field '${field}' is the wrong type '${Array.isArray(value) ? "array" : typeof value}', expected type 'object'`,
    );
  return value as Document;
}

export function optionalNumber(command: Document, field: string): number | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  const n =
    typeof value === "object" && value !== null && "toNumber" in value
      ? (value as { toNumber(): number }).toNumber()
      : value;
  if (typeof n !== "number" || !Number.isFinite(n))
    throw typeMismatch(`BSON field '${field}' is the wrong type '${typeof value}', expected a number`);
  return n;
}

export function nonNegativeInteger(command: Document, field: string): number | undefined {
  const n = optionalNumber(command, field);
  if (n === undefined) return undefined;
  if (n < 0 || !Number.isInteger(n))
    throw new CommandError(ErrorCodes.BadValue, `${field} must be a non-negative integer`);
  return n;
}

export function optionalBoolean(command: Document, field: string): boolean | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  throw typeMismatch(`BSON field '${field}' is the wrong type '${typeof value}', expected type 'bool'`);
}

export function documentArray(command: Document, field: string): Document[] {
  const value = command[field];
  if (!Array.isArray(value)) throw typeMismatch(`BSON field '${field}' is missing or is not an array`);
  for (const item of value)
    if (!item || typeof item !== "object" || Array.isArray(item))
      throw typeMismatch(`BSON field '${field}' must be an array of objects`);
  return value as Document[];
}
