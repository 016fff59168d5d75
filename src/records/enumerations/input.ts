// The bodies of the enumeration writes, checked by the records' validator (its Ajv, its error
// shape): an enumeration (`name` and `values`, the whole list in order, are required,
// `default_value` must be one of the values), an enumeration value (`value`, and optionally
// `position` and `suppressed`), and a migration (`enum_uri`, `from`, `to`). `lock_version` is
// read by the operations. What the server shows (uri, enumeration_values, readonly, audit
// fields, ...) is ignored, so a client can send back what it read; anything else is a 400 naming
// the field.
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

export interface EnumerationValueInput {
  value: string;
  position?: number;
  suppressed?: boolean;
  lock_version?: number;
}

export interface MigrationInput {
  enum_uri: string;
  from: string;
  to: string;
}

const AUDIT_FIELDS = ["created_by", "last_modified_by", "create_time", "system_mtime", "user_mtime"];

/** Shown by the server, ignored on input. */
const ENUMERATION_SERVER_FIELDS = [
  "jsonmodel_type",
  "uri",
  "editable",
  "relationships",
  "enumeration_values",
  "readonly_values",
  ...AUDIT_FIELDS,
];
const VALUE_SERVER_FIELDS = ["jsonmodel_type", "uri", "readonly", "enumeration", ...AUDIT_FIELDS];
const MIGRATION_SERVER_FIELDS = ["jsonmodel_type", "uri"];

export const VALUE_MAX_LENGTH = 255;

const valueText = { type: "string", minLength: 1, maxLength: VALUE_MAX_LENGTH };
const lockVersion = { type: "integer", minimum: 0 };

const ENUMERATION_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 255 },
    values: { type: "array", items: valueText },
    default_value: { type: "string" },
    lock_version: lockVersion,
  },
  required: ["name", "values"],
  additionalProperties: false,
};

const VALUE_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    value: valueText,
    position: { type: "integer", minimum: 0 },
    suppressed: { type: "boolean" },
    lock_version: lockVersion,
  },
  required: ["value"],
  additionalProperties: false,
};

const MIGRATION_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    enum_uri: { type: "string", minLength: 1 },
    from: { type: "string", minLength: 1 },
    to: { type: "string", minLength: 1 },
  },
  required: ["enum_uri", "from", "to"],
  additionalProperties: false,
};

/** A body schema for the OpenAPI document: the server fields a client read may be sent back. */
function described(schema: JsonObject, description: string, serverFields: readonly string[]): JsonObject {
  return {
    ...schema,
    description,
    properties: {
      ...(schema.properties as JsonObject),
      ...Object.fromEntries(serverFields.map((field) => [field, { description: "Ignored." }])),
    },
  };
}

/** The schema of an enumeration body, for the OpenAPI document. */
export const enumerationInputSchema = described(
  ENUMERATION_SCHEMA,
  "The enumeration's name and its whole list of values, in order. Server fields a client read (uri, enumeration_values, ...) may be sent back; they are ignored.",
  ENUMERATION_SERVER_FIELDS,
);

/** The schema of an enumeration value body, for the OpenAPI document. */
export const enumerationValueInputSchema = described(
  VALUE_SCHEMA,
  "The value as read, edited: its text, position or suppressed flag. `lock_version` is required. Server fields (uri, readonly, enumeration) are ignored.",
  VALUE_SERVER_FIELDS,
);

/** The schema of a migration body, for the OpenAPI document. */
export const migrationInputSchema = described(
  MIGRATION_SCHEMA,
  "Move every use of `from` in the enumeration `enum_uri` (`/config/enumerations/{id}`) to `to`, then remove `from`.",
  MIGRATION_SERVER_FIELDS,
);

/**
 * A reader of one kind of body: unsafe keys refused, null fields taken as absent (as in
 * records), server fields dropped, the rest checked against `schema`.
 * @throws ApiError 400 with every problem by field
 */
function bodyReader<T>(
  validator: RecordValidator,
  schema: JsonObject,
  serverFields: readonly string[],
): (raw: unknown) => T {
  const check = validator.compile(schema);
  return (raw) => {
    assertSafeKeys(raw);
    if (!isJsonObject(raw)) throw badRequest(notAnObject(raw));
    const input = Object.fromEntries(
      Object.entries(raw).filter(([key, value]) => value !== null && !serverFields.includes(key)),
    );
    const checked = check(input);
    if (!checked.ok) throw badRequest(checked.errors);
    return checked.doc as unknown as T;
  };
}

function listedTwice(values: readonly string[]): string[] {
  return values.filter((value, i) => values.indexOf(value) !== i).filter((value, i, all) => all.indexOf(value) === i);
}

/** The reader of enumeration bodies. @throws ApiError 400 */
export function enumerationInputReader(validator: RecordValidator): (raw: unknown) => EnumerationInput {
  const read = bodyReader<EnumerationInput>(validator, ENUMERATION_SCHEMA, ENUMERATION_SERVER_FIELDS);
  return (raw) => withListRules(read(raw));
}

/** The reader of enumeration value bodies. @throws ApiError 400 */
export function enumerationValueInputReader(validator: RecordValidator): (raw: unknown) => EnumerationValueInput {
  return bodyReader<EnumerationValueInput>(validator, VALUE_SCHEMA, VALUE_SERVER_FIELDS);
}

/** The reader of migration bodies. @throws ApiError 400 */
export function migrationInputReader(validator: RecordValidator): (raw: unknown) => MigrationInput {
  return bodyReader<MigrationInput>(validator, MIGRATION_SCHEMA, MIGRATION_SERVER_FIELDS);
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
