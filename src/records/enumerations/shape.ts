// An enumeration as the API shows it, in ArchivesSpace's shape (common/schemas/enumeration.rb,
// enumeration_value.rb, backend/app/model/enumeration.rb): `values` (strings, in position order,
// suppressed ones left out: what editors offer), `enumeration_values` (every value as an object
// with uri, position, suppressed, readonly and lock_version) and `readonly_values` (the read-only
// values not suppressed). `relationships` names the record fields that hold its values
// (`<type>/<path>`).
import type { JsonObject } from "../../registry/json.js";
import { isoSeconds } from "../operations/shape.js";
import type { EnumerationDefinition } from "./definition.js";
import { placedValues, type PlacedValue, type StoredEnumeration } from "./store.js";

export const ENUMERATIONS_PATH = "/config/enumerations";
export const ENUMERATION_VALUES_PATH = "/config/enumeration_values";

export const enumerationUri = (id: number) => `${ENUMERATIONS_PATH}/${id}`;
export const enumerationValueUri = (id: number) => `${ENUMERATION_VALUES_PATH}/${id}`;

function shapeValue(value: PlacedValue, readonly: boolean): JsonObject {
  return {
    jsonmodel_type: "enumeration_value",
    uri: enumerationValueUri(value.id),
    value: value.value,
    position: value.position,
    suppressed: value.suppressed === true,
    readonly,
    lock_version: value.lock_version ?? 0,
  };
}

/** `definition`: what stock and the schemas say of the enumeration, when either knows it. */
export function shapeEnumeration(doc: StoredEnumeration, definition: EnumerationDefinition | undefined): JsonObject {
  const readonly = definition?.readonlyValues ?? new Set<string>();
  const values = placedValues(doc);
  const offered = values.filter((value) => value.suppressed !== true);
  return {
    jsonmodel_type: "enumeration",
    uri: enumerationUri(doc.id),
    name: doc.name,
    editable: definition?.editable ?? true,
    ...(doc.default_value === undefined ? {} : { default_value: doc.default_value }),
    relationships: [...(definition?.usedBy ?? [])],
    enumeration_values: values.map((value) => shapeValue(value, readonly.has(value.value))),
    values: offered.map((value) => value.value),
    readonly_values: offered.filter((value) => readonly.has(value.value)).map((value) => value.value),
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
  definition: EnumerationDefinition | undefined,
): JsonObject | undefined {
  const value = placedValues(doc).find((candidate) => candidate.id === valueId);
  if (value === undefined) return undefined;
  return {
    ...shapeValue(value, definition?.readonlyValues.has(value.value) ?? false),
    enumeration: { ref: enumerationUri(doc.id) },
  };
}
