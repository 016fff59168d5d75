// Where a JSON Schema (draft 2020-12) keeps its subschemas. The bundler, the ref-path finder and
// the read-only planner all walk schemas; they share this list so that none of them mistakes a
// property *named* "allOf" or an enum value for a schema.
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";

/** Keywords whose value is a map from names to subschemas. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"] as const;
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value is one subschema. */
const SCHEMA_SINGLES = [
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
] as const;

/** A copy of `node` with each direct subschema replaced by `map(subschema)`. */
export function mapSubschemas(node: JsonObject, map: (subschema: JsonObject) => JsonObject): JsonObject {
  const result: Record<string, JsonValue> = { ...node };
  for (const keyword of SCHEMA_MAPS) {
    const value = node[keyword];
    if (!isJsonObject(value)) continue;
    const mapped: Record<string, JsonValue> = {}; // keys: schema property names of our own record-types
    for (const [name, sub] of Object.entries(value)) mapped[name] = isJsonObject(sub) ? map(sub) : sub;
    result[keyword] = mapped;
  }
  for (const keyword of SCHEMA_LISTS) {
    const value = node[keyword];
    if (Array.isArray(value)) result[keyword] = value.map((sub: JsonValue) => (isJsonObject(sub) ? map(sub) : sub));
  }
  for (const keyword of SCHEMA_SINGLES) {
    const value = node[keyword];
    if (isJsonObject(value)) result[keyword] = map(value);
  }
  return result;
}

/** Every direct subschema of `node` with the keyword (and name, for maps) that holds it. */
export function subschemasOf(node: JsonObject): { keyword: string; name?: string; schema: JsonObject }[] {
  const found: { keyword: string; name?: string; schema: JsonObject }[] = [];
  for (const keyword of SCHEMA_MAPS) {
    const value = node[keyword];
    if (!isJsonObject(value)) continue;
    for (const [name, sub] of Object.entries(value)) if (isJsonObject(sub)) found.push({ keyword, name, schema: sub });
  }
  for (const keyword of SCHEMA_LISTS) {
    const value = node[keyword];
    if (Array.isArray(value)) for (const sub of value) if (isJsonObject(sub)) found.push({ keyword, schema: sub });
  }
  for (const keyword of SCHEMA_SINGLES) {
    const value = node[keyword];
    if (isJsonObject(value)) found.push({ keyword, schema: value });
  }
  return found;
}

/** Follows a bundled `#/$defs/<name>` reference; undefined for anything else. */
export function resolveLocalRef(root: JsonObject, ref: string): JsonObject | undefined {
  const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
  const defs = root.$defs;
  if (match === null || match[1] === undefined || !isJsonObject(defs)) return undefined;
  const target = defs[match[1]];
  return isJsonObject(target) ? target : undefined;
}
