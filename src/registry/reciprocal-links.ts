// Finds the reciprocal links of a record type (x-reciprocal): link items of a top-level list that
// state one fact about two records, which the target shows back in the same list (an agent's
// related_agents: "A is parent of B" is read on B as "B is child of A"). The service keeps both
// sides in step without knowing any type by name (records/operations/reciprocal-links.ts).
import { SchemaDefinitionError } from "./errors.js";
import { isJsonObject, type JsonObject } from "./json.js";
import { resolveLocalRef, subschemasOf } from "./schema-walk.js";

export interface ReciprocalLink {
  /** The top-level list holding the link items, here and in the target: `related_agents`. */
  readonly property: string;
  /** The union variant the declaration belongs to (`jsonmodel_type` = `agent_relationship_parentchild`), if any. */
  readonly variant: { readonly field: string; readonly value: string } | undefined;
  /** The item property whose value reads the other way round from the target (`relator`). */
  readonly relator: string;
  /** A relator value's reading from the other side; a value it lacks reads the same from both. */
  readonly inverse: ReadonlyMap<string, string>;
  /** The record types the item's `ref` may name (its x-ref-targets). */
  readonly targets: readonly string[];
}

function resolved(root: JsonObject, node: JsonObject): JsonObject {
  return typeof node.$ref === "string" ? (resolveLocalRef(root, node.$ref) ?? node) : node;
}

function stringMap(value: unknown, where: string): Map<string, string> {
  const map = new Map<string, string>();
  if (value === undefined) return map;
  if (!isJsonObject(value)) throw new SchemaDefinitionError(where, "x-reciprocal.inverse must be an object");
  for (const [from, to] of Object.entries(value)) {
    if (typeof to !== "string") throw new SchemaDefinitionError(where, "x-reciprocal.inverse values must be strings");
    map.set(from, to);
  }
  // Read twice, a relationship must come back to itself (parent -> child -> parent).
  for (const [from, to] of map) {
    if ((map.get(to) ?? to) !== from)
      throw new SchemaDefinitionError(where, `x-reciprocal.inverse: "${to}" must read back as "${from}"`);
  }
  return map;
}

function declarationOf(
  root: JsonObject,
  property: string,
  item: JsonObject,
  variantField: string | undefined,
  source: string,
): ReciprocalLink {
  const where = `${source}: ${property}/*`;
  const settings = item["x-reciprocal"];
  if (!isJsonObject(settings) || typeof settings.relator !== "string")
    throw new SchemaDefinitionError(where, "x-reciprocal needs a relator property name");
  const targets = item["x-ref-targets"];
  if (!Array.isArray(targets) || !targets.every((target): target is string => typeof target === "string"))
    throw new SchemaDefinitionError(where, "x-reciprocal belongs on a link item (one with x-ref-targets)");
  const properties = isJsonObject(item.properties) ? item.properties : {};
  if (!Object.hasOwn(properties, settings.relator))
    throw new SchemaDefinitionError(where, `x-reciprocal.relator: "${settings.relator}" is not a property of the item`);
  let variant: ReciprocalLink["variant"];
  if (variantField !== undefined) {
    const field = properties[variantField];
    const value = isJsonObject(field) ? field.const : undefined;
    if (typeof value !== "string")
      throw new SchemaDefinitionError(where, `a union's reciprocal item needs a const ${variantField}`);
    variant = { field: variantField, value };
  }
  return { property, variant, relator: settings.relator, inverse: stringMap(settings.inverse, where), targets };
}

/** Every reciprocal link declaration of a bundled record schema; x-reciprocal anywhere else is an error. */
export function findReciprocalLinks(root: JsonObject, source: string): ReciprocalLink[] {
  const found: ReciprocalLink[] = [];
  const placed = new Set<JsonObject>();
  const properties = isJsonObject(root.properties) ? root.properties : {};
  for (const [property, schema] of Object.entries(properties)) {
    if (!isJsonObject(schema) || schema.readOnly === true || !isJsonObject(schema.items)) continue;
    const items = resolved(root, schema.items);
    const discriminator = isJsonObject(items.discriminator) ? items.discriminator.propertyName : undefined;
    const variants = Array.isArray(items.oneOf) ? items.oneOf.filter(isJsonObject).map((v) => resolved(root, v)) : [];
    for (const item of [items, ...variants]) {
      if (item["x-reciprocal"] === undefined) continue;
      const field = item === items ? undefined : typeof discriminator === "string" ? discriminator : undefined;
      if (item !== items && field === undefined)
        throw new SchemaDefinitionError(
          `${source}: ${property}/*`,
          "a union of reciprocal items needs a discriminator",
        );
      found.push(declarationOf(root, property, item, field, source));
      placed.add(item);
    }
  }
  // Mirrors are written into the same top-level list of the target: declared deeper, there would be no such place.
  const seen = new Set<JsonObject>();
  const check = (node: JsonObject): void => {
    if (seen.has(node)) return;
    seen.add(node);
    if (node["x-reciprocal"] !== undefined && !placed.has(node))
      throw new SchemaDefinitionError(source, "x-reciprocal belongs on the link items of a top-level list");
    for (const { schema } of subschemasOf(node)) check(schema);
  };
  check(root);
  return found;
}

/** The declaration an item of `property` follows (by its variant), or undefined when it is not reciprocal. */
export function reciprocalFor(
  links: readonly ReciprocalLink[],
  property: string,
  item: JsonObject,
): ReciprocalLink | undefined {
  return links.find(
    (link) =>
      link.property === property && (link.variant === undefined || item[link.variant.field] === link.variant.value),
  );
}
