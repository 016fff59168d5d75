// Values that follow a request schema of /openapi.json closely enough to get past the first
// checks and reach the code behind them: properties, enums (also `x-enumeration`), refs to
// records the fuzz test seeded, dates. Recursive schemas (notes in notes) stop at a depth.
import fc from "fast-check";
import { array, object, scalar, type JsonNode } from "./json-text.js";

type Schema = Record<string, unknown>;

export interface SchemaContext {
  /** `#/components/schemas/<name>` targets. */
  components: Map<string, Schema>;
  /** Record uris the fuzz test created, for `ref` fields. */
  uris: readonly string[];
}

const MAX_DEPTH = 4;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function resolveRef(schema: Schema, context: SchemaContext): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  return context.components.get(ref.replace("#/components/schemas/", "")) ?? {};
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === "date")
    return fc.constantFrom("2024-01-31", "1999-12-31", "9999-12-31", "2024-02-30", "0000-00-00", "24-1-1");
  if (schema.format === "date-time") return fc.constantFrom("2024-01-31T10:00:00Z", "2024-13-01T00:00:00Z");
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  return fc.string({ minLength: Math.min(min, 20), maxLength: Math.max(Math.min(min, 20), 20) });
}

export function valueFor(raw: unknown, context: SchemaContext, depth = 0): fc.Arbitrary<JsonNode> {
  if (!isSchema(raw)) return fc.constant(scalar(null));
  const schema = resolveRef(raw, context);
  const enumeration = schema["x-enumeration"];
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return fc.constantFrom(...schema.enum.map((v) => scalar(v as string)));
  if ("const" in schema) return fc.constant(scalar(schema.const as string));
  if (isSchema(enumeration) && Array.isArray(enumeration.values) && enumeration.values.length > 0) {
    return fc.constantFrom(...enumeration.values.map((v) => scalar(String(v))));
  }
  const alternatives = [schema.oneOf, schema.anyOf].find(Array.isArray) as unknown[] | undefined;
  if (alternatives && alternatives.length > 0)
    return fc.oneof(...alternatives.map((alt) => valueFor(alt, context, depth)));
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== "null") : schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => valueFor({ ...schema, type: t }, context, depth)));
  switch (type) {
    case "string":
      return stringFor(schema).map(scalar);
    case "integer": {
      const min = typeof schema.minimum === "number" ? schema.minimum : 0;
      return fc.oneof(fc.integer({ min, max: min + 5 }), fc.integer({ min, max: 100_000 })).map(scalar);
    }
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(scalar);
    case "boolean":
      return fc.boolean().map(scalar);
    case "array": {
      if (depth >= MAX_DEPTH) return fc.constant(array([]));
      return fc.array(valueFor(schema.items, context, depth + 1), { maxLength: 3 }).map(array);
    }
    case "object":
    case undefined:
      if (!isSchema(schema.properties)) return type === "object" ? fc.constant(object([])) : fc.constant(scalar("x"));
      return objectFor(schema, context, depth);
    default:
      return fc.constant(scalar(null));
  }
}

function objectFor(schema: Schema, context: SchemaContext, depth: number): fc.Arbitrary<JsonNode> {
  const properties = schema.properties as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const fields = Object.entries(properties).filter(([, value]) => !(isSchema(value) && value.readOnly === true));
  if (depth >= MAX_DEPTH) fields.splice(0, fields.length, ...fields.filter(([name]) => required.has(name)));
  // Lazy: a schema's properties are built only when a value is drawn (recursive note schemas).
  const entries = fields.map(([name, propertySchema]) => {
    const value =
      name === "ref" && context.uris.length > 0
        ? fc.constantFrom(...context.uris).map(scalar)
        : fc.constant(null).chain(() => valueFor(propertySchema, context, depth + 1));
    const entry = value.map((v): [string, JsonNode] => [name, v]);
    // Optional fields now and then, so a body of forty optional fields stays readable when it fails.
    return required.has(name)
      ? entry
      : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: entry });
  });
  if (entries.length === 0) return fc.constant(object([]));
  return fc
    .tuple(...entries)
    .map((list) => object(list.filter((entry): entry is [string, JsonNode] => entry !== undefined)));
}
