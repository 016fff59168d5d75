// The record type registry's public face for the service: what a type is (routes, URIs, links,
// permissions, indexes) and whether a document is a valid record of it.
export { LINKED_RULES, type ComputedField, type ComputedRule } from "./computed-fields.js";
export type { DerivedField, DerivedPlan } from "./derived-fields.js";
export { SchemaDefinitionError, UnknownRecordTypeError } from "./errors.js";
export { TREE_PARENT_FIELD, type IndexSpec } from "./indexes.js";
export { appendTo, dictionary, lookupTable, type Dictionary } from "./dictionary.js";
export type { JsonArray, JsonObject, JsonPrimitive, JsonValue } from "./json.js";
export {
  FIND_BY_IDENTIFIER,
  type OnTargetDelete,
  type RecordOperation,
  type RecordScope,
  type RegistryManifest,
  type SearchFieldSettings,
  type SearchSettings,
  type ExportSettings,
} from "./manifest.js";
export { registry, uniqueFieldFor } from "./record-types.js";
export { linksAt, type FoundLink, type RefPath } from "./ref-paths.js";
export { reciprocalFor, type ReciprocalLink } from "./reciprocal-links.js";
export { PUBLISH_ROUTES, type PublicationShape, type PublishRoute } from "./publication.js";
export { Registry, type IncomingLink, type RecordType, type TreeShape } from "./registry.js";
export type { ParsedUri } from "./uri-patterns.js";
export {
  RecordValidator,
  recordValidator,
  stripReadOnly,
  validate,
  type FieldErrors,
  type ValidationResult,
} from "./validation.js";
