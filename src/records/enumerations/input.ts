// An enumeration body from a client, checked: `name` and `values` (the whole list, in order)
// are required, `default_value` must be one of the values, `lock_version` is read for updates.
// What the server shows (uri, enumeration_values, readonly_values, audit fields, ...) is
// ignored, so a client can send back what it read; anything else is a 400 naming the field.
import { badRequest } from "../../errors/api-error.js";
import { assertSafeKeys } from "../operations/input-safety.js";
import { isJsonObject, type JsonObject } from "../../registry/json.js";
import type { RecordValidator } from "../../registry/validation.js";
import { fieldErrors, notAnObject } from "../../registry/validation-errors.js";

export interface EnumerationInput {
  name: string;
  values: string[];
  default_value?: string;
  lock_version?: number;
}

/** Shown by the server, ignored on input. */
const SERVER_FIELDS = [
  "jsonmodel_type",
  "uri",
  "editable",
  "relationships",
  "enumeration_values",
  "readonly_values",
  "created_by",
  "last_modified_by",
  "create_time",
  "system_mtime",
  "user_mtime",
];

export const VALUE_MAX_LENGTH = 255;

const INPUT_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 255 },
    values: { type: "array", items: { type: "string", minLength: 1, maxLength: VALUE_MAX_LENGTH } },
    default_value: { type: "string" },
    lock_version: { type: "integer", minimum: 0 },
  },
  required: ["name", "values"],
  additionalProperties: false,
};

/** The schema of an enumeration body, for the OpenAPI document. */
export const enumerationInputSchema: JsonObject = {
  ...INPUT_SCHEMA,
  description:
    "The enumeration's name and its whole list of values, in order. Server fields a client read (uri, enumeration_values, ...) may be sent back; they are ignored.",
  properties: {
    ...(INPUT_SCHEMA.properties as JsonObject),
    ...Object.fromEntries(SERVER_FIELDS.map((field) => [field, { description: "Ignored." }])),
  },
};

function listedTwice(values: readonly string[]): string[] {
  return values.filter((value, i) => values.indexOf(value) !== i).filter((value, i, all) => all.indexOf(value) === i);
}

/**
 * The reader of enumeration bodies, checked by the records' validator (its Ajv, its error shape).
 * The reader throws ApiError 400 with every problem by field.
 */
export function enumerationInputReader(validator: RecordValidator): (raw: unknown) => EnumerationInput {
  const check = validator.compile(INPUT_SCHEMA);
  return (raw) => {
    assertSafeKeys(raw);
    if (!isJsonObject(raw)) throw badRequest(notAnObject(raw));
    // A null field is an absent one, as in records.
    const input = Object.fromEntries(
      Object.entries(raw).filter(([key, value]) => value !== null && !SERVER_FIELDS.includes(key)),
    );
    const checked = check(input);
    if (!checked.ok) throw badRequest(checked.errors);
    return withListRules(checked.doc as unknown as EnumerationInput);
  };
}

/** What the schema cannot say: each value once, and the default one of them. */
function withListRules(parsed: EnumerationInput): EnumerationInput {
  const errors = fieldErrors();
  const twice = listedTwice(parsed.values);
  if (twice.length > 0) errors.values = twice.map((value) => `Value '${value}' is listed more than once`);
  if (parsed.default_value !== undefined && !parsed.values.includes(parsed.default_value)) {
    errors.default_value = [`Invalid value '${parsed.default_value}'.  Must be one of: ${parsed.values.join(", ")}`];
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  return parsed;
}
