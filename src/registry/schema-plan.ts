// A plan of what matters in a record type's bundled schema at each depth, worked out once so that
// a walk over a record is a walk over the record, not over the schema: which properties to act on
// (`own`, as each use defines it), which to look below, the items of a list, and the oneOf/anyOf
// alternatives told apart by their `const` properties (a note by its jsonmodel_type). Used by the
// read-only stripper (read-only.ts), the array filler (array-fields.ts) and the derived fields (derived-fields.ts).
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { resolveLocalRef } from "./schema-walk.js";

export interface SchemaPlan<Own> {
  own: Own;
  /** Properties with something to act on below them. */
  properties: Map<string, SchemaPlan<Own>>;
  items: SchemaPlan<Own> | null;
  variants: { match: Map<string, JsonValue>; plan: SchemaPlan<Own> }[];
}

export interface PlanRules<Own> {
  empty(): Own;
  isEmpty(own: Own): boolean;
  /**
   * Notes the property in `own` if it is one to act on; whether to look below it. `resolved`: its $ref followed;
   * `siblings`: the properties object declaring it (a rule may name another property of the same object).
   */
  property(own: Own, name: string, schema: JsonObject, resolved: JsonObject, siblings: JsonObject): boolean;
}

const MERGED_KEYWORDS = ["allOf", "if", "then", "else"] as const;

class Planner<Own> {
  private readonly memo = new Map<JsonObject, SchemaPlan<Own>>();

  constructor(
    private readonly root: JsonObject,
    private readonly rules: PlanRules<Own>,
  ) {}

  private resolved(schema: JsonObject): JsonObject {
    return typeof schema.$ref === "string" ? (resolveLocalRef(this.root, schema.$ref) ?? schema) : schema;
  }

  private isEmpty(plan: SchemaPlan<Own>): boolean {
    return (
      this.rules.isEmpty(plan.own) && plan.properties.size === 0 && plan.items === null && plan.variants.length === 0
    );
  }

  plan(schema: JsonObject): SchemaPlan<Own> | null {
    const known = this.memo.get(schema);
    if (known !== undefined) return this.isEmpty(known) ? null : known;
    // Registered before filling in, so a recursive schema refers back to this plan.
    const plan: SchemaPlan<Own> = { own: this.rules.empty(), properties: new Map(), items: null, variants: [] };
    this.memo.set(schema, plan);
    this.fill(plan, schema);
    return this.isEmpty(plan) ? null : plan;
  }

  private fill(plan: SchemaPlan<Own>, schema: JsonObject): void {
    if (typeof schema.$ref === "string") {
      const target = resolveLocalRef(this.root, schema.$ref);
      if (target !== undefined) this.fill(plan, target);
    }
    const properties = schema.properties;
    if (isJsonObject(properties)) {
      for (const [name, sub] of Object.entries(properties)) {
        if (!isJsonObject(sub) || !this.rules.property(plan.own, name, sub, this.resolved(sub), properties)) continue;
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

/** The plan of a bundled record schema; null when nothing in it is to be acted on. */
export function planSchema<Own>(schema: JsonObject, rules: PlanRules<Own>): SchemaPlan<Own> | null {
  return new Planner(schema, rules).plan(schema);
}

/** The plan of the oneOf/anyOf alternative `value` is, if any. */
export function variantOf<Own>(value: JsonObject, plan: SchemaPlan<Own> | null): SchemaPlan<Own> | null {
  if (plan === null) return null;
  for (const candidate of plan.variants) {
    let all = true;
    for (const [name, expected] of candidate.match) if (value[name] !== expected) all = false;
    if (all) return candidate.plan;
  }
  return null;
}
