// Every array property of a record's schema present on a read, `[]` when empty (docs/api.md §3):
// ArchivesSpace answers so, and clients index into `record["notes"]` or append to
// `record["instances"]` without checking. A plan per type is worked out once from the bundled
// schema (which properties are arrays, at each depth, sub-records told apart by their `const`
// properties such as jsonmodel_type), so filling a record is one walk over the record.
// Read-only arrays are left alone: they are computed fields, and an empty one would claim a
// computed answer ("no ancestors") that was never computed.
import type { JsonObject, JsonValue } from "./json.js";
import { planSchema, variantOf, type PlanRules, type SchemaPlan } from "./schema-plan.js";

/** null: no array to fill below this point; `own`: the array properties here. */
type Plan = SchemaPlan<Set<string>> | null;

const ARRAY_RULES: PlanRules<Set<string>> = {
  empty: () => new Set(),
  isEmpty: (own) => own.size === 0,
  property(own, name, schema, resolved) {
    if (schema.readOnly === true) return false;
    if (resolved.type === "array") own.add(name);
    return true;
  },
};

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
    for (const name of plans.own) if (!Object.hasOwn(object, name)) object[name] = [];
    for (const [name, inner] of plans.properties) if (Object.hasOwn(object, name)) fill(object[name], inner);
  }
}

/** The array filler of one bundled record schema: fills a shaped record in place. */
export function arrayFiller(schema: JsonObject): (record: Record<string, JsonValue>) => void {
  const plan = planSchema(schema, ARRAY_RULES);
  return (record) => fill(record, plan);
}
