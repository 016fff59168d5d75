// x-derived: a writable property whose value the server produces from its own object's other fields on every
// create and update, as ArchivesSpace generates each agent name's sort_name when the name is saved:
//   "sort_name": {"type": "string", "x-derived": {"unless": "sort_name_auto_generate", "format": {...}}}
// `format` is a display-format spec (records/computed/display-format.ts) read from the object holding the property
// (a name, wherever names sit). `unless` names a boolean property of that object: when it is false, a value the
// client sent is kept (ArchivesSpace's only_if); with nothing sent, the value is produced anyway (as ArchivesSpace
// generates a missing one). Unlike x-computed the value is stored, so indexes and an import's matches see it.
// Here the keyword is read and located: a plan of where such properties sit, at any depth (schema-plan.ts), worked
// out once per type; records/computed/derived-fields.ts applies it.
import { SchemaDefinitionError } from "./errors.js";
import { isJsonObject, type JsonObject } from "./json.js";
import { planSchema, type PlanRules, type SchemaPlan } from "./schema-plan.js";

export interface DerivedField {
  /** The property produced. */
  readonly field: string;
  /** The boolean property of the same object that, when false, keeps a sent value; null: always produced. */
  readonly unless: string | null;
  readonly format: JsonObject;
}

/** Where a type's derived properties sit; null when it has none. `own`: those of the object at that point. */
export type DerivedPlan = SchemaPlan<DerivedField[]> | null;

function derivedRules(source: string): PlanRules<DerivedField[]> {
  return {
    empty: () => [],
    isEmpty: (own) => own.length === 0,
    property(own, name, schema, resolved, siblings) {
      // Read-only sub-records are shown, never written (an agent's display_name is a copy of one of its names).
      if (schema.readOnly === true) return false;
      const spec = schema["x-derived"];
      if (spec === undefined) return true;
      const fail = (detail: string): never => {
        throw new SchemaDefinitionError(source, `x-derived on ${name}: ${detail}`);
      };
      if (!isJsonObject(spec) || !isJsonObject(spec.format)) return fail("needs format: a display-format object");
      if (resolved.type !== "string") fail("the property must be a string");
      const unless = spec.unless ?? null;
      if (unless !== null) {
        const flag = typeof unless === "string" ? siblings[unless] : undefined;
        if (!isJsonObject(flag) || flag.type !== "boolean")
          fail(`unless must name a boolean property beside it (${JSON.stringify(unless)} is not one)`);
      }
      own.push({ field: name, unless: typeof unless === "string" ? unless : null, format: spec.format });
      return false;
    },
  };
}

/** The derived properties of a bundled record schema, planned; `source` names it in errors. */
export function derivedPlan(schema: JsonObject, source: string): DerivedPlan {
  return planSchema(schema, derivedRules(source));
}
