// Every array property of a record's schema present on a read, `[]` when empty (docs/api.md §3):
// ArchivesSpace answers so, and clients index into `record["notes"]` or append to
// `record["instances"]` without checking. A plan per type is worked out once from the bundled
// schema (which properties are arrays, at each depth, sub-records told apart by their `const`
// properties such as jsonmodel_type), so filling a record is one walk over the record.
// Read-only arrays are left alone: they are computed fields, and an empty one would claim a
// computed answer ("no ancestors") that was never computed.
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { resolveLocalRef } from "./schema-walk.js";

interface ObjectPlan {
  /** Array properties, filled with [] when missing. */
  arrays: Set<string>;
  /** Properties with something to fill below them. */
  properties: Map<string, Plan>;
  items: Plan;
  /** oneOf/anyOf alternatives, told apart by their `const` properties. */
  variants: { match: Map<string, JsonValue>; plan: Plan }[];
}
type Plan = ObjectPlan | null;

const MERGED_KEYWORDS = ["allOf", "if", "then", "else"] as const;

const isEmpty = (plan: ObjectPlan): boolean =>
  plan.arrays.size === 0 && plan.properties.size === 0 && plan.items === null && plan.variants.length === 0;

class Planner {
  private readonly memo = new Map<JsonObject, ObjectPlan>();

  constructor(private readonly root: JsonObject) {}

  private resolved(schema: JsonObject): JsonObject {
    return typeof schema.$ref === "string" ? (resolveLocalRef(this.root, schema.$ref) ?? schema) : schema;
  }

  plan(schema: JsonObject): Plan {
    const known = this.memo.get(schema);
    if (known !== undefined) return isEmpty(known) ? null : known;
    // Registered before filling in, so a recursive schema refers back to this plan.
    const plan: ObjectPlan = { arrays: new Set(), properties: new Map(), items: null, variants: [] };
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
        if (!isJsonObject(sub) || sub.readOnly === true) continue;
        if (this.resolved(sub).type === "array") plan.arrays.add(name);
        const child = this.plan(sub);
        if (child !== null) plan.properties.set(name, child);
      }
    }
    if (isJsonObject(schema.items)) plan.items = this.plan(schema.items);
    for (const keyword of MERGED_KEYWORDS) {
      const value = schema[keyword];
      for (const part of Array.isArray(value) ? value : [value]) if (isJsonObject(part)) this.fill(plan, part);
    }
    for (const keyword of ["oneOf", "anyOf"] as const) {
      const value = schema[keyword];
      if (!Array.isArray(value)) continue;
      for (const variant of value) {
        if (!isJsonObject(variant)) continue;
        const variantPlan = this.plan(variant);
        if (variantPlan !== null) plan.variants.push({ match: this.constProperties(variant), plan: variantPlan });
      }
    }
  }

  private constProperties(schema: JsonObject): Map<string, JsonValue> {
    const target = this.resolved(schema);
    const match = new Map<string, JsonValue>();
    if (isJsonObject(target.properties))
      for (const [name, sub] of Object.entries(target.properties))
        if (isJsonObject(sub) && sub.const !== undefined) match.set(name, sub.const);
    return match;
  }
}

function variantOf(value: Record<string, JsonValue>, plan: ObjectPlan): Plan {
  for (const candidate of plan.variants) {
    let all = true;
    for (const [name, expected] of candidate.match) if (value[name] !== expected) all = false;
    if (all) return candidate.plan;
  }
  return null;
}

/** Fills `value`'s missing array properties with [], in place, at every depth the plan reaches. */
function fill(value: JsonValue | undefined, plan: Plan): void {
  if (plan === null || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    if (plan.items !== null) for (const item of value) fill(item, plan.items);
    return;
  }
  // The shaped record's own objects (shape.ts builds them): filled in place.
  const object = value as Record<string, JsonValue>;
  for (const plans of [plan, variantOf(object, plan)]) {
    if (plans === null) continue;
    for (const name of plans.arrays) if (!Object.hasOwn(object, name)) object[name] = [];
    for (const [name, inner] of plans.properties) if (Object.hasOwn(object, name)) fill(object[name], inner);
  }
}

/** The array filler of one bundled record schema: fills a shaped record in place. */
export function arrayFiller(schema: JsonObject): (record: Record<string, JsonValue>) => void {
  const plan = new Planner(schema).plan(schema);
  return (record) => fill(record, plan);
}
