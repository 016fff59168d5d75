// An enumeration as the API shows it, in ArchivesSpace's shape (common/schemas/enumeration.rb,
// enumeration_value.rb): its values both as `values` (strings, in order) and as
// `enumeration_values` (objects with uri, position, suppressed, readonly), plus `readonly_values`.
// `relationships` names the record fields that hold its values (`<type>/<path>`).
import type { JsonObject } from "../../registry/json.js";
import type { EnumerationSeed } from "../../registry/enumerations.js";
import { isoSeconds } from "../operations/shape.js";
import type { StoredEnumeration, StoredValue } from "./store.js";

export const ENUMERATIONS_PATH = "/config/enumerations";
export const ENUMERATION_VALUES_PATH = "/config/enumeration_values";

export const enumerationUri = (id: number) => `${ENUMERATIONS_PATH}/${id}`;
export const enumerationValueUri = (id: number) => `${ENUMERATION_VALUES_PATH}/${id}`;

function shapeValue(value: StoredValue, position: number, readonly: boolean): JsonObject {
  return {
    jsonmodel_type: "enumeration_value",
    uri: enumerationValueUri(value.id),
    value: value.value,
    position,
    suppressed: false,
    readonly,
  };
}

/** `seed`: the schemas' definition of the enumeration, when the schemas use it. */
export function shapeEnumeration(doc: StoredEnumeration, seed: EnumerationSeed | undefined): JsonObject {
  const readonly = new Set(seed?.readonlyValues ?? []);
  return {
    jsonmodel_type: "enumeration",
    uri: enumerationUri(doc.id),
    name: doc.name,
    editable: seed?.editable ?? true,
    ...(doc.default_value === undefined ? {} : { default_value: doc.default_value }),
    relationships: [...(seed?.usedBy ?? [])],
    enumeration_values: doc.values.map((value, position) => shapeValue(value, position, readonly.has(value.value))),
    values: doc.values.map((value) => value.value),
    readonly_values: doc.values.filter((value) => readonly.has(value.value)).map((value) => value.value),
    lock_version: doc.lock_version,
    created_by: doc.created_by,
    last_modified_by: doc.last_modified_by,
    create_time: isoSeconds(doc.create_time),
    system_mtime: isoSeconds(doc.system_mtime),
    user_mtime: isoSeconds(doc.user_mtime),
  };
}

/** One value of an enumeration, with the enumeration it belongs to. */
export function shapeEnumerationValue(
  doc: StoredEnumeration,
  valueId: number,
  seed: EnumerationSeed | undefined,
): JsonObject | undefined {
  const position = doc.values.findIndex((value) => value.id === valueId);
  const value = doc.values[position];
  if (value === undefined) return undefined;
  return {
    ...shapeValue(value, position, seed?.readonlyValues.includes(value.value) ?? false),
    enumeration: { ref: enumerationUri(doc.id) },
  };
}
