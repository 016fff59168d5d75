// Enumerated fields (ArchivesSpace's dynamic enumerations: extent_extent_type, date_label, ...):
// a schema node declaring x-enumeration holds one value of a named list whose values live in
// the store (src/records/enumerations/), where an administrator adds, reorders and removes them. The
// schemas give each list its seed values. This module finds, per record type, where enumerated
// values sit (to find the records using a value before it is removed) and gathers every
// enumeration's seed values across the types.
import { SchemaDefinitionError } from "./errors.js";
import { isJsonObject, type JsonObject } from "./json.js";
import { resolveLocalRef } from "./schema-walk.js";

/** The current values of each enumeration, by name; undefined for a name it does not know. */
export interface EnumerationValues {
  valuesOf(name: string): readonly string[] | undefined;
}

/** A discriminated union variant the value sits in: the object at `at` segments has `field` = `value`. */
export interface EnumerationCondition {
  readonly at: number;
  readonly field: string;
  readonly value: string;
}

export interface EnumerationPath {
  /** The enumeration's name, e.g. "extent_extent_type". */
  readonly enumeration: string;
  // Slash path of the value, `*` standing for any list index: "extents/*/extent_type".
  readonly path: string;
  readonly segments: readonly string[];
  /**
   * The union variants on the way (a note's type is note_singlepart_type in a singlepart note,
   * note_multipart_type in a multipart one); empty outside unions.
   */
  readonly conditions: readonly EnumerationCondition[];
  /** The seed values, when this node declares them (the object form of x-enumeration). */
  readonly seedValues: readonly string[] | undefined;
  /** Values that can never be removed: the declared `readonly` ones and the node's `default`. */
  readonly readonlyValues: readonly string[];
  /** false when the node declares the enumeration not editable (values fixed, order free). */
  readonly editable: boolean;
}

/** One enumeration as the schemas define it. */
export interface EnumerationSeed {
  readonly name: string;
  /** In order: the order a new store starts with. */
  readonly values: readonly string[];
  readonly readonlyValues: readonly string[];
  /** Whether values may be added and removed (ArchivesSpace's `editable`); reordering is always allowed. */
  readonly editable: boolean;
  // Where records hold its values, `<type>/<path>`: "accession/extents/*/extent_type".
  readonly usedBy: readonly string[];
}

const COMBINATORS = ["allOf", "anyOf", "if", "then", "else"] as const;

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item): item is string => typeof item === "string") ? value : undefined;
}

/** The name and, for the object form, the seed values of an x-enumeration keyword. */
function readKeyword(
  value: unknown,
  where: string,
): { name: string; values?: string[]; readonly: string[]; editable: boolean } {
  if (typeof value === "string") return { name: value, readonly: [], editable: true };
  if (!isJsonObject(value) || typeof value.name !== "string")
    throw new SchemaDefinitionError(where, 'x-enumeration must be a name or {"name", "values"}');
  const values = stringList(value.values);
  if (values === undefined)
    throw new SchemaDefinitionError(where, `x-enumeration ${value.name}: values must be a list of strings`);
  const readonly = value.readonly === undefined ? [] : stringList(value.readonly);
  if (readonly === undefined)
    throw new SchemaDefinitionError(where, `x-enumeration ${value.name}: readonly must be a list of strings`);
  const stray = readonly.find((item) => !values.includes(item));
  if (stray !== undefined)
    throw new SchemaDefinitionError(
      where,
      `x-enumeration ${value.name}: readonly value "${stray}" is not one of its values`,
    );
  if (value.editable !== undefined && typeof value.editable !== "boolean")
    throw new SchemaDefinitionError(where, `x-enumeration ${value.name}: editable must be true or false`);
  return { name: value.name, values, readonly, editable: value.editable !== false };
}

/** The tag value a discriminated union variant declares (`"jsonmodel_type": {"const": ...}`). */
function variantTag(root: JsonObject, variant: JsonObject, tag: string): string | undefined {
  const schema = typeof variant.$ref === "string" ? resolveLocalRef(root, variant.$ref) : variant;
  const properties = schema?.properties;
  const tagSchema = isJsonObject(properties) ? properties[tag] : undefined;
  return isJsonObject(tagSchema) && typeof tagSchema.const === "string" ? tagSchema.const : undefined;
}

/** Every enumerated field of a bundled record schema. `source` names the type in error messages. */
export function findEnumerationPaths(root: JsonObject, source: string): EnumerationPath[] {
  const found = new Map<string, EnumerationPath>();
  const onStack = new Set<JsonObject>();

  const visit = (node: JsonObject, segments: string[], conditions: EnumerationCondition[]): void => {
    // Server-maintained subtrees (readOnly) hold nothing a client chooses.
    if (onStack.has(node) || node.readOnly === true) return;
    onStack.add(node);
    if (node["x-enumeration"] !== undefined) {
      const where = `${source}: ${segments.join("/") || "#"}`;
      const keyword = readKeyword(node["x-enumeration"], where);
      if (node.type !== "string")
        throw new SchemaDefinitionError(where, 'x-enumeration goes on a property of "type": "string"');
      if (node.enum !== undefined)
        throw new SchemaDefinitionError(where, "x-enumeration replaces enum: a property cannot have both");
      const readonly = [...keyword.readonly];
      if (typeof node.default === "string" && !readonly.includes(node.default)) readonly.push(node.default);
      const path: EnumerationPath = {
        enumeration: keyword.name,
        path: segments.join("/"),
        segments,
        conditions,
        seedValues: keyword.values,
        readonlyValues: readonly,
        editable: keyword.editable,
      };
      const key = `${path.path}|${conditions.map((c) => `${c.at}.${c.field}=${c.value}`).join(",")}`;
      const previous = found.get(key);
      if (previous !== undefined && previous.enumeration !== keyword.name) {
        throw new SchemaDefinitionError(where, `declared as both ${previous.enumeration} and ${keyword.name}`);
      }
      found.set(key, path);
    }
    if (typeof node.$ref === "string") {
      const target = resolveLocalRef(root, node.$ref);
      if (target !== undefined) visit(target, segments, conditions);
    }
    if (isJsonObject(node.properties)) {
      for (const [name, sub] of Object.entries(node.properties))
        if (isJsonObject(sub)) visit(sub, [...segments, name], conditions);
    }
    if (isJsonObject(node.items)) visit(node.items, [...segments, "*"], conditions);
    for (const keyword of COMBINATORS) {
      const value = node[keyword];
      if (isJsonObject(value)) visit(value, segments, conditions);
      if (Array.isArray(value)) for (const sub of value) if (isJsonObject(sub)) visit(sub, segments, conditions);
    }
    // A union chosen by a tag (notes by jsonmodel_type): each variant's values count only in
    // records holding that variant. Without a discriminator every variant counts everywhere.
    if (Array.isArray(node.oneOf)) {
      const tag =
        isJsonObject(node.discriminator) && typeof node.discriminator.propertyName === "string"
          ? node.discriminator.propertyName
          : undefined;
      for (const variant of node.oneOf) {
        if (!isJsonObject(variant)) continue;
        const value = tag === undefined ? undefined : variantTag(root, variant, tag);
        const more =
          tag !== undefined && value !== undefined
            ? [...conditions, { at: segments.length, field: tag, value }]
            : conditions;
        visit(variant, segments, more);
      }
    }
    onStack.delete(node);
  };

  visit(root, [], []);
  return [...found.values()];
}

interface SeedDraft {
  values?: readonly string[];
  editable?: boolean;
  declaredBy?: string;
  readonly: Set<string>;
  usedBy: string[];
}

/**
 * Every enumeration the types use, with its seed values. An enumeration may be declared with its
 * values on several nodes (then identically) and referred to by name on others; a name that is
 * never declared, or declared twice with different values, is a schema error.
 */
export function enumerationSeeds(
  types: readonly { name: string; enumerationPaths: readonly EnumerationPath[] }[],
): EnumerationSeed[] {
  const drafts = new Map<string, SeedDraft>();
  for (const type of types) {
    for (const path of type.enumerationPaths) {
      let draft = drafts.get(path.enumeration);
      if (draft === undefined) drafts.set(path.enumeration, (draft = { readonly: new Set(), usedBy: [] }));
      const where = `${type.name}/${path.path}`;
      if (!draft.usedBy.includes(where)) draft.usedBy.push(where);
      if (path.seedValues !== undefined) {
        if (
          draft.values !== undefined &&
          (draft.values.join("\u0000") !== path.seedValues.join("\u0000") || draft.editable !== path.editable)
        ) {
          throw new SchemaDefinitionError(
            `${type.name}: ${path.path}`,
            `x-enumeration ${path.enumeration} is declared otherwise at ${draft.declaredBy}`,
          );
        }
        draft.values = path.seedValues;
        draft.editable = path.editable;
        draft.declaredBy = where;
      }
      for (const value of path.readonlyValues) draft.readonly.add(value);
    }
  }
  return [...drafts.entries()]
    .map(([name, draft]) => {
      if (draft.values === undefined) {
        throw new SchemaDefinitionError(
          draft.usedBy[0] ?? name,
          `x-enumeration "${name}" is never declared with its values ({"name": "${name}", "values": [...]})`,
        );
      }
      const values = draft.values;
      const stray = [...draft.readonly].find((value) => !values.includes(value));
      if (stray !== undefined)
        throw new SchemaDefinitionError(
          draft.usedBy[0] ?? name,
          `the default "${stray}" is not a value of x-enumeration ${name}`,
        );
      return {
        name,
        values,
        readonlyValues: values.filter((value) => draft.readonly.has(value)),
        editable: draft.editable !== false,
        usedBy: draft.usedBy,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
