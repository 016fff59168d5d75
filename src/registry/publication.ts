// x-publish and x-suppressible (record-types/README.md): which record types take ArchivesSpace's
// publish, unpublish and suppressed routes, and which sub-records a publish reaches. Read off the
// bundled schema, so no generic code names a type.
import { SchemaDefinitionError } from "./errors.js";
import { isJsonObject, type JsonObject } from "./json.js";

/** The publication routes a type may declare. */
export const PUBLISH_ROUTES = ["publish", "unpublish"] as const;
export type PublishRoute = (typeof PUBLISH_ROUTES)[number];

/** How a type's records are published: every type with a top-level boolean `publish` has one. */
export interface PublicationShape {
  /** The routes served (x-publish), in declaration order; none without x-publish (a tree's nodes are still reached). */
  readonly routes: readonly PublishRoute[];
  /**
   * The `jsonmodel_type`s of the type's sub-records that have a `publish` flag (notes, subnotes,
   * external documents, file versions ...): a publish sets theirs too, as ArchivesSpace's object graph does.
   */
  readonly subrecords: ReadonlySet<string>;
}

function hasTopBoolean(schema: JsonObject, field: string): boolean {
  const properties = schema.properties;
  const property = isJsonObject(properties) ? properties[field] : undefined;
  return isJsonObject(property) && property.type === "boolean";
}

/** The sub-record kinds (`$defs` entries with a const jsonmodel_type) declaring a boolean `publish`. */
function publishableSubrecords(schema: JsonObject): Set<string> {
  const found = new Set<string>();
  const defs = schema.$defs;
  if (!isJsonObject(defs)) return found;
  for (const def of Object.values(defs)) {
    if (!isJsonObject(def) || !hasTopBoolean(def, "publish")) continue;
    const properties = def.properties;
    const kind = isJsonObject(properties) ? properties.jsonmodel_type : undefined;
    if (isJsonObject(kind) && typeof kind.const === "string") found.add(kind.const);
  }
  return found;
}

/** The publication of a bundled schema (x-publish and the publish flags); null without a top-level `publish`. */
export function publicationOf(schema: JsonObject, typeName: string): PublicationShape | null {
  const value = schema["x-publish"];
  if (value === undefined)
    return hasTopBoolean(schema, "publish") ? { routes: [], subrecords: publishableSubrecords(schema) } : null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((route) => PUBLISH_ROUTES.some((r) => r === route)))
    throw new SchemaDefinitionError(typeName, `x-publish must list some of: ${PUBLISH_ROUTES.join(", ")}`);
  if (!hasTopBoolean(schema, "publish"))
    throw new SchemaDefinitionError(typeName, "x-publish needs a top-level boolean property publish");
  return { routes: value as PublishRoute[], subrecords: publishableSubrecords(schema) };
}

/** x-suppressible of a bundled schema: true needs a top-level boolean `suppressed` (read-only, computed). */
export function suppressibleOf(schema: JsonObject, typeName: string): boolean {
  const value = schema["x-suppressible"];
  if (value === undefined) return false;
  if (value !== true) throw new SchemaDefinitionError(typeName, "x-suppressible must be true when present");
  if (!hasTopBoolean(schema, "suppressed"))
    throw new SchemaDefinitionError(typeName, "x-suppressible needs a top-level boolean property suppressed");
  if (schema["x-scope"] !== "repository")
    throw new SchemaDefinitionError(
      typeName,
      "x-suppressible needs x-scope repository, as suppression is judged there",
    );
  return true;
}
