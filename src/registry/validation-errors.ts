// Turns ajv's errors into the contract's error object (docs/api.md §7): slash paths such as
// `dates/0/date_type` mapped to human messages, worded as ArchivesSpace words them
// (common/json_schema_utils.rb) wherever it has a wording.
import type { ErrorObject } from "ajv";
import { appendTo, dictionary } from "./dictionary.js";
import { isJsonObject, jsonTypeName, type JsonObject, type JsonValue } from "./json.js";
import { resolveLocalRef } from "./schema-walk.js";

/** `{"<path>": ["message", ...]}`: a dictionary (paths come from the input), see dictionary.ts. */
export type FieldErrors = Record<string, string[]>;

/** An empty error collection. */
export function fieldErrors(): FieldErrors {
  return dictionary<string[]>();
}

/** Adds `message` under `path` unless it is there already. */
export function addFieldError(errors: FieldErrors, path: string, message: string): void {
  if (!(Object.hasOwn(errors, path) && errors[path]?.includes(message))) appendTo(errors, path, message);
}

/** Adds every message of `more` to `target`. */
export function mergeFieldErrors(target: FieldErrors, more: FieldErrors): void {
  for (const [path, messages] of Object.entries(more))
    for (const message of messages) addFieldError(target, path, message);
}

/** The key for a problem with the document as a whole (e.g. a body that is not an object). */
export const WHOLE_RECORD = "record";

export const MESSAGES = {
  required: "Property is required but was missing",
  unknown: "Unknown property: not part of the schema",
  invalidDate: "Not a valid date",
} as const;

function withArticle(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `/dates/0` + `begin` → `dates/0/begin` (JSON Pointer unescaped). */
function fieldPath(instancePath: string, field?: string): string {
  const parts = pointerParts(instancePath);
  if (field !== undefined) parts.push(field);
  return parts.length === 0 ? WHOLE_RECORD : parts.join("/");
}

/** The JSON Pointer's parts, unescaped. */
function pointerParts(instancePath: string): string[] {
  return instancePath === ""
    ? []
    : instancePath
        .slice(1)
        .split("/")
        .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * Removes from `doc` each property an error names as unknown (unevaluatedProperties, additionalProperties), where it
 * is; the paths removed (`slug`, `notes/0/foo`), sorted. Only own properties of objects inside `doc` are touched.
 */
export function dropUnknownProperties(doc: Record<string, JsonValue>, errors: readonly ErrorObject[]): string[] {
  const dropped = new Set<string>();
  for (const error of errors) {
    const name =
      error.keyword === "unevaluatedProperties"
        ? param(error, "unevaluatedProperty")
        : error.keyword === "additionalProperties"
          ? param(error, "additionalProperty")
          : undefined;
    if (typeof name !== "string") continue;
    let holder: unknown = doc;
    for (const part of pointerParts(error.instancePath)) {
      if (Array.isArray(holder)) holder = holder[Number(part)];
      else if (isJsonObject(holder) && Object.hasOwn(holder, part)) holder = holder[part];
      else holder = undefined;
    }
    if (isJsonObject(holder) && Object.hasOwn(holder, name)) {
      // The validator's own copy of the input (`strip` made it): not the caller's.
      delete (holder as Record<string, JsonValue>)[name];
      dropped.add(fieldPath(error.instancePath, name));
    }
  }
  return [...dropped].sort();
}

function param(error: ErrorObject, name: string): unknown {
  const params: Record<string, unknown> = error.params;
  return params[name];
}

/** The values a discriminator accepts, read from the oneOf alternatives' const tags. */
function discriminatorValues(error: ErrorObject, root: JsonObject, tag: string): string[] {
  const parent: unknown = error.parentSchema;
  const oneOf = isJsonObject(parent) ? parent.oneOf : undefined;
  if (!Array.isArray(oneOf)) return [];
  return oneOf.flatMap((variant: JsonValue) => {
    if (!isJsonObject(variant)) return [];
    const schema = typeof variant.$ref === "string" ? resolveLocalRef(root, variant.$ref) : variant;
    const properties = schema?.properties;
    const tagSchema = isJsonObject(properties) ? properties[tag] : undefined;
    return isJsonObject(tagSchema) && typeof tagSchema.const === "string" ? [tagSchema.const] : [];
  });
}

/** [path, message] for one ajv error, or undefined for errors another error already explains. */
function describe(error: ErrorObject, root: JsonObject): [string, string] | undefined {
  const at = (field?: string) => fieldPath(error.instancePath, field);
  switch (error.keyword) {
    case "required":
      return [at(String(param(error, "missingProperty"))), MESSAGES.required];
    case "additionalProperties":
      return [at(String(param(error, "additionalProperty"))), MESSAGES.unknown];
    case "unevaluatedProperties":
      return [at(String(param(error, "unevaluatedProperty"))), MESSAGES.unknown];
    case "enum": {
      const allowed = param(error, "allowedValues");
      const list = Array.isArray(allowed) ? allowed.map(show).join(", ") : "";
      return [at(), `Invalid value '${show(error.data)}'.  Must be one of: ${list}`];
    }
    case "const":
      return [at(), `Invalid value '${show(error.data)}'.  Must be one of: ${show(param(error, "allowedValue"))}`];
    case "type": {
      const wanted = String(param(error, "type")).split(",").join(" or ");
      return [at(), `Must be ${withArticle(wanted)} (you provided ${withArticle(jsonTypeName(error.data))})`];
    }
    case "minLength":
      return [at(), `Must be at least ${show(param(error, "limit"))} characters`];
    case "maxLength":
      return [at(), `Must be ${show(param(error, "limit"))} characters or fewer`];
    case "minItems":
      return [at(), `At least ${show(param(error, "limit"))} item(s) is required`];
    case "maxItems":
      return [at(), `At most ${show(param(error, "limit"))} item(s) are allowed`];
    case "pattern":
      return [at(), `Did not match regular expression: ${show(param(error, "pattern"))}`];
    case "format": {
      const format = String(param(error, "format"));
      return [at(), format.endsWith("date") ? MESSAGES.invalidDate : `Must be a valid ${format}`];
    }
    case "discriminator": {
      const tag = String(param(error, "tag"));
      const value = param(error, "tagValue");
      if (value === undefined) return [at(tag), MESSAGES.required];
      if (typeof value !== "string")
        return [at(tag), `Must be a string (you provided ${withArticle(jsonTypeName(value))})`];
      return [
        at(tag),
        `Invalid value '${value}'.  Must be one of: ${discriminatorValues(error, root, tag).join(", ")}`,
      ];
    }
    case "x-identifiers":
    case "x-ref-targets": {
      const field = param(error, "field");
      return [at(field === undefined ? undefined : String(field)), error.message ?? "Invalid value"];
    }
    case "if":
      // Reported by the failing then/else keyword itself.
      return undefined;
    default:
      return [at(), error.message ?? "Invalid value"];
  }
}

/** The error for a document that is not a JSON object at all (an array, a string, ...). */
export function notAnObject(input: unknown): FieldErrors {
  return dictionary([[WHOLE_RECORD, [`Must be an object (you provided ${withArticle(jsonTypeName(input))})`]]]);
}

/** The contract's error object for a failed validation of a document against `root`. */
export function toFieldErrors(errors: readonly ErrorObject[], root: JsonObject): FieldErrors {
  const result = fieldErrors();
  for (const error of errors) {
    const described = describe(error, root);
    if (described !== undefined) addFieldError(result, ...described);
  }
  return result;
}
