// Removes the fields a schema marks readOnly, at any depth (docs/api.md §3: read-only input is
// ignored, not rejected). A plan per type is worked out once from the bundled schema, so
// stripping a document is one walk over the document, not over the schema.
import { dictionary } from "./dictionary.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { resolveLocalRef } from "./schema-walk.js";

interface ObjectPlan {
  readOnly: Set<string>;
  properties: Map<string, Plan>;
  items: Plan | null;
  /** oneOf/anyOf alternatives, told apart by their `const` properties (e.g. jsonmodel_type). */
  variants: { match: Map<string, JsonValue>; plan: Plan }[];
}
/** null: nothing below this point is read-only. */
type Plan = ObjectPlan | null;

const MERGED_KEYWORDS = ["allOf", "if", "then", "else"] as const;

function constProperties(schema: JsonObject, root: JsonObject): Map<string, JsonValue> {
  const target = typeof schema.$ref === "string" ? (resolveLocalRef(root, schema.$ref) ?? schema) : schema;
  const match = new Map<string, JsonValue>();
  if (isJsonObject(target.properties)) {
    for (const [name, sub] of Object.entries(target.properties)) {
      if (isJsonObject(sub) && sub.const !== undefined) match.set(name, sub.const);
    }
  }
  return match;
}

function isEmpty(plan: ObjectPlan): boolean {
  return plan.readOnly.size === 0 && plan.properties.size === 0 && plan.items === null && plan.variants.length === 0;
}

class Planner {
  private readonly memo = new Map<JsonObject, ObjectPlan>();

  constructor(private readonly root: JsonObject) {}

  plan(schema: JsonObject): Plan {
    const known = this.memo.get(schema);
    if (known !== undefined) return isEmpty(known) ? null : known;
    // Registered before filling in, so a recursive schema refers back to this plan.
    const plan: ObjectPlan = { readOnly: new Set(), properties: new Map(), items: null, variants: [] };
    this.memo.set(schema, plan);
    this.fill(plan, schema);
    return isEmpty(plan) ? null : plan;
  }

  private fill(plan: ObjectPlan, schema: JsonObject): void {
    if (typeof schema.$ref === "string") {
      const target = resolveLocalRef(this.root, schema.$ref);
      if (target !== undefined) this.fill(plan, target);
    }
    if (isJsonObject(schema.properties)) {
      for (const [name, sub] of Object.entries(schema.properties)) {
        if (!isJsonObject(sub)) continue;
        if (sub.readOnly === true) {
          plan.readOnly.add(name);
          continue;
        }
        const child = this.plan(sub);
        if (child !== null) plan.properties.set(name, child);
      }
    }
    if (isJsonObject(schema.items)) plan.items = this.plan(schema.items);
    for (const keyword of MERGED_KEYWORDS) {
      const value = schema[keyword];
      const parts = Array.isArray(value) ? value : [value];
      for (const part of parts) if (isJsonObject(part)) this.fill(plan, part);
    }
    for (const keyword of ["oneOf", "anyOf"] as const) {
      const value = schema[keyword];
      if (!Array.isArray(value)) continue;
      for (const variant of value) {
        if (!isJsonObject(variant)) continue;
        const variantPlan = this.plan(variant);
        if (variantPlan !== null) plan.variants.push({ match: constProperties(variant, this.root), plan: variantPlan });
      }
    }
  }
}

function matches(value: JsonObject, match: Map<string, JsonValue>): boolean {
  for (const [name, expected] of match) if (value[name] !== expected) return false;
  return true;
}

/** The plan of the oneOf/anyOf alternative `value` is, if any. */
function variantOf(value: JsonObject, plan: Plan): Plan {
  if (plan === null) return null;
  for (const candidate of plan.variants) if (matches(value, candidate.match)) return candidate.plan;
  return null;
}

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
    if (plan?.readOnly.has(name) || variant?.readOnly.has(name)) continue;
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
    if (plan?.readOnly.has(name) || variant?.readOnly.has(name)) continue;
    kept += 1;
    const inner = plan?.properties.get(name) ?? variant?.properties.get(name) ?? null;
    if (!Object.hasOwn(other, name) || !sameWithout(value[name] as JsonValue, other[name], inner)) return false;
  }
  return kept === Object.keys(other).length;
}

/** Builds the comparer of one bundled record schema: whether a document less its read-only fields equals another. */
export function readOnlyComparer(schema: JsonObject): (doc: JsonObject, other: JsonObject) => boolean {
  const plan = new Planner(schema).plan(schema);
  return (doc, other) => sameWithout(doc, other, plan);
}

/** Builds the read-only stripper of one bundled record schema. */
export function readOnlyStripper(schema: JsonObject): (doc: JsonObject) => Record<string, JsonValue> {
  const plan = new Planner(schema).plan(schema);
  return (doc) => {
    const copy = copyWithout(doc, plan);
    return isJsonObject(copy) ? { ...copy } : {};
  };
}
