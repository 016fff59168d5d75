// x-derived properties (registry/derived-fields.ts) produced: every create, update and import passes its record
// through here before validation (operations/prepare.ts), so what is stored, indexed and matched on holds the
// produced value; an importer asks the same of a record before it is written, to match it against stored ones
// (an agent by its names' sort_name). The record is not modified: the objects on the way to a changed value are
// copied, the rest shared, so a type or record without derived properties costs nothing.
import type { DerivedField, DerivedPlan, JsonObject, JsonValue, RecordType, Registry } from "../../registry/index.js";
import { isJsonObject } from "../../registry/json.js";
import { variantOf } from "../../registry/schema-plan.js";
import { displayString } from "./display-format.js";

type Plan = NonNullable<DerivedPlan>;

/** What `field` holds once `object` is written: the value kept (its flag says so and one was sent) or produced. */
function derivedValue(field: DerivedField, object: JsonObject): string | undefined {
  const sent = object[field.field];
  const kept = typeof sent === "string" && sent !== "" ? sent : undefined;
  if (field.unless !== null && object[field.unless] === false && kept !== undefined) return kept;
  return displayString(field.format, object);
}

function derive(value: JsonValue, plan: Plan): JsonValue {
  if (Array.isArray(value)) {
    const items = plan.items;
    if (items === null) return value;
    let copy: JsonValue[] | undefined;
    value.forEach((item, i) => {
      const derived = derive(item, items);
      if (derived === item) return;
      copy ??= [...value];
      copy[i] = derived;
    });
    return copy ?? value;
  }
  return isJsonObject(value) ? deriveObject(value, plan) : value;
}

function deriveObject(value: JsonObject, plan: Plan): JsonObject {
  const plans = [plan, variantOf(value, plan)].filter((found): found is Plan => found !== null);
  let copy: Record<string, JsonValue> | undefined;
  // Sub-records first, so that a format may read what they derive.
  for (const { properties } of plans) {
    for (const [name, inner] of properties) {
      const current = value[name];
      if (current === undefined) continue;
      const derived = derive(current, inner);
      if (derived === current) continue;
      copy ??= { ...value };
      copy[name] = derived;
    }
  }
  for (const { own } of plans) {
    for (const field of own) {
      const source = copy ?? value;
      const produced = derivedValue(field, source);
      if (produced === source[field.field]) continue;
      copy ??= { ...value };
      if (produced === undefined) delete copy[field.field];
      else copy[field.field] = produced;
    }
  }
  return copy ?? value;
}

/** `input` with the derived properties of `type` produced, wherever they sit; itself when nothing changes. */
export function withDerivedFields(type: RecordType, input: unknown): unknown {
  return type.derived === null || !isJsonObject(input) ? input : deriveObject(input, type.derived);
}

/**
 * The record of `typeName` as the write path will store it, as far as derived properties go (an agent's names with
 * their sort_name): for an importer matching a record against stored ones before writing it. Not modified.
 */
export function deriveFields(registry: Registry, typeName: string, record: JsonObject): JsonObject {
  const type = registry.get(typeName);
  return type.derived === null ? record : deriveObject(record, type.derived);
}
