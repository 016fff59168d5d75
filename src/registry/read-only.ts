// Removes the fields a schema marks readOnly, at any depth (docs/api.md §3: read-only input is
// ignored, not rejected). A plan per type is worked out once from the bundled schema, so
// stripping a document is one walk over the document, not over the schema.
import { dictionary } from "./dictionary.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { planSchema, variantOf, type PlanRules, type SchemaPlan } from "./schema-plan.js";

/** null: nothing below this point is read-only; `own`: the read-only properties here. */
type Plan = SchemaPlan<Set<string>> | null;

const READ_ONLY_RULES: PlanRules<Set<string>> = {
  empty: () => new Set(),
  isEmpty: (own) => own.size === 0,
  property(own, name, schema) {
    if (schema.readOnly !== true) return true;
    own.add(name);
    return false;
  },
};

/**
 * A deep copy of `value` without the read-only fields `plan` names. Plain loops: every record written is copied
 * here (an import, tens of thousands), and a pair per field (Object.entries) was most of what the copy allocated.
 */
function copyWithout(value: JsonValue, plan: Plan): JsonValue {
  if (Array.isArray(value)) {
    const items = plan?.items ?? null;
    const copy: JsonValue[] = new Array<JsonValue>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyWithout(value[i] as JsonValue, items);
    return copy;
  }
  if (!isJsonObject(value)) return value;
  const variant = variantOf(value, plan);
  const copy = dictionary<JsonValue>();
  for (const name of Object.keys(value)) {
    if (plan?.own.has(name) || variant?.own.has(name)) continue;
    copy[name] = copyWithout(
      value[name] as JsonValue,
      plan?.properties.get(name) ?? variant?.properties.get(name) ?? null,
    );
  }
  return copy;
}

/**
 * Whether `copyWithout(value, plan)` would deep-equal `other` (key order aside), without making the copy: whether
 * validation left a record as submitted (no defaults filled in), asked of every record written.
 */
function sameWithout(value: JsonValue, other: JsonValue | undefined, plan: Plan): boolean {
  if (Array.isArray(value)) {
    if (!Array.isArray(other) || other.length !== value.length) return false;
    const items = plan?.items ?? null;
    for (let i = 0; i < value.length; i++) if (!sameWithout(value[i] as JsonValue, other[i], items)) return false;
    return true;
  }
  if (!isJsonObject(value)) return value === other;
  if (!isJsonObject(other)) return false;
  const variant = variantOf(value, plan);
  let kept = 0;
  for (const name of Object.keys(value)) {
    if (plan?.own.has(name) || variant?.own.has(name)) continue;
    kept += 1;
    const inner = plan?.properties.get(name) ?? variant?.properties.get(name) ?? null;
    if (!Object.hasOwn(other, name) || !sameWithout(value[name] as JsonValue, other[name], inner)) return false;
  }
  return kept === Object.keys(other).length;
}

/** Builds the comparer of one bundled record schema: whether a document less its read-only fields equals another. */
export function readOnlyComparer(schema: JsonObject): (doc: JsonObject, other: JsonObject) => boolean {
  const plan = planSchema(schema, READ_ONLY_RULES);
  return (doc, other) => sameWithout(doc, other, plan);
}

/** Builds the read-only stripper of one bundled record schema. */
export function readOnlyStripper(schema: JsonObject): (doc: JsonObject) => Record<string, JsonValue> {
  const plan = planSchema(schema, READ_ONLY_RULES);
  return (doc) => {
    const copy = copyWithout(doc, plan);
    return isJsonObject(copy) ? { ...copy } : {};
  };
}
