// Turns one record type's schema file into a self-contained schema: every $ref to another file
// becomes `#/$defs/<file name>`, and "base" schemas composed with allOf (record_base,
// subrecord_base, ...) are flattened into the schema that composes them.
//
// Why flatten: the source files say `allOf: [base] + unevaluatedProperties: false`, which is
// exact draft 2020-12 and reads well. But json-schema-to-typescript ignores
// unevaluatedProperties (it would emit `[k: string]: unknown` and an intersection type), and
// additionalProperties cannot see properties declared inside allOf. Merging the base's
// properties into the host and turning `unevaluatedProperties: false` into
// `additionalProperties: false` means the same thing, gives one flat interface per type, and
// lets ajv use the faster additionalProperties check.
import { readFileSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { messageOf, SchemaDefinitionError } from "../errors.js";
import { dictionary } from "../dictionary.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { mapSubschemas } from "../schema-walk.js";

const SCHEMA_SUFFIX = ".schema.json";
/** Keys a base schema may have: anything else could change meaning when flattened. */
const BASE_KEYS = new Set([
  "$schema",
  "$comment",
  "title",
  "description",
  "type",
  "properties",
  "required",
  "allOf",
  "unevaluatedProperties",
  "additionalProperties",
]);

/** Reads and caches the schema files under one record-types folder. */
export class SchemaFiles {
  private readonly cache = new Map<string, JsonObject>();

  constructor(readonly root: string) {}

  load(file: string): JsonObject {
    const cached = this.cache.get(file);
    if (cached !== undefined) return cached;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new SchemaDefinitionError(this.describe(file), messageOf(error));
    }
    if (!isJsonObject(parsed))
      throw new SchemaDefinitionError(this.describe(file), "a schema file must hold a JSON object");
    this.cache.set(file, parsed);
    return parsed;
  }

  /** The file a `$ref` written in `from` points at; only whole-file refs inside the folder are allowed. */
  resolveRef(from: string, ref: string): string {
    if (ref.includes("#")) {
      throw new SchemaDefinitionError(
        this.describe(from),
        `$ref "${ref}": refer to a whole file (fragments are not supported)`,
      );
    }
    const target = resolve(dirname(from), ref);
    if (!target.startsWith(this.root + sep) || !target.endsWith(SCHEMA_SUFFIX)) {
      throw new SchemaDefinitionError(
        this.describe(from),
        `$ref "${ref}" must name a ${SCHEMA_SUFFIX} file inside ${this.root}`,
      );
    }
    return target;
  }

  describe(file: string): string {
    return relative(resolve(this.root, ".."), file);
  }
}

export function defNameOf(file: string): string {
  return basename(file, SCHEMA_SUFFIX);
}

function isBaseSchema(schema: JsonObject): boolean {
  return (
    schema.type === "object" &&
    schema["x-record-type"] === undefined &&
    Object.keys(schema).every((key) => BASE_KEYS.has(key))
  );
}

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Bundles the schemas reachable from one top-level file. */
class Bundler {
  private readonly defs = new Map<string, JsonObject>();
  private readonly defFiles = new Map<string, string>();

  constructor(private readonly files: SchemaFiles) {}

  bundle(file: string): JsonObject {
    const root = this.transform(this.files.load(file), file);
    if (this.defs.size === 0) return root;
    const names = [...this.defs.keys()].sort();
    return { ...root, $defs: Object.fromEntries(names.map((name) => [name, this.defs.get(name) ?? {}])) };
  }

  private transform(node: JsonObject, file: string): JsonObject {
    const { bases, rest } = this.takeBases(node, file);
    const withRef = typeof rest.$ref === "string" ? { ...rest, $ref: this.defRef(file, rest.$ref) } : rest;
    const mapped = mapSubschemas(withRef, (sub) => this.transform(sub, file));
    if (bases.length === 0) return mapped;
    return this.mergeBases(
      mapped,
      bases.map((base) => this.transform(base.schema, base.file)),
      file,
    );
  }

  /** `#/$defs/<name>` for a file ref, bundling the target once (a placeholder first, so cycles end). */
  private defRef(from: string, ref: string): string {
    const target = this.files.resolveRef(from, ref);
    const name = defNameOf(target);
    const known = this.defFiles.get(name);
    if (known !== undefined && known !== target) {
      throw new SchemaDefinitionError(
        this.files.describe(target),
        `has the same name as ${this.files.describe(known)}; shared schema file names must be unique`,
      );
    }
    if (known === undefined) {
      this.defFiles.set(name, target);
      this.defs.set(name, {});
      const { $schema: _schema, $id: _id, ...body } = this.files.load(target);
      this.defs.set(name, this.transform(body, target));
    }
    return `#/$defs/${name}`;
  }

  /** Splits the allOf entries that are plain refs to base schemas from the rest of the node. */
  private takeBases(
    node: JsonObject,
    file: string,
  ): { bases: { schema: JsonObject; file: string }[]; rest: JsonObject } {
    const allOf = node.allOf;
    if (!Array.isArray(allOf)) return { bases: [], rest: node };
    const bases: { schema: JsonObject; file: string }[] = [];
    const kept: JsonValue[] = [];
    for (const entry of allOf) {
      const base = this.baseFor(entry, file);
      if (base === undefined) kept.push(entry);
      else bases.push(base);
    }
    const { allOf: _allOf, ...withoutAllOf } = node;
    return { bases, rest: kept.length > 0 ? { ...withoutAllOf, allOf: kept } : withoutAllOf };
  }

  /** The host with its (already bundled) bases' properties and required lists merged in. */
  private mergeBases(host: JsonObject, bases: JsonObject[], file: string): JsonObject {
    const properties = dictionary<JsonValue>();
    const required: string[] = [];
    for (const base of bases) {
      for (const [name, sub] of Object.entries(isJsonObject(base.properties) ? base.properties : {})) {
        if (Object.hasOwn(properties, name))
          throw new SchemaDefinitionError(this.files.describe(file), `property "${name}" comes from two bases`);
        properties[name] = sub;
      }
      required.push(...stringList(base.required));
    }
    const own = isJsonObject(host.properties) ? host.properties : {};
    for (const name of Object.keys(own)) {
      if (Object.hasOwn(properties, name))
        throw new SchemaDefinitionError(
          this.files.describe(file),
          `property "${name}" is also declared by a base it composes`,
        );
    }
    const { unevaluatedProperties, ...rest } = host;
    const result: Record<string, JsonValue> = { ...rest, properties: { ...properties, ...own } };
    const allRequired = [...new Set([...required, ...stringList(host.required)])];
    if (allRequired.length > 0) result.required = allRequired;
    if (host.allOf !== undefined) {
      // Something other than a base is composed too: keep the exact 2020-12 form.
      if (unevaluatedProperties !== undefined) result.unevaluatedProperties = unevaluatedProperties;
    } else if (unevaluatedProperties !== undefined) {
      result.additionalProperties = unevaluatedProperties;
    }
    return result;
  }

  private baseFor(entry: JsonValue, file: string): { schema: JsonObject; file: string } | undefined {
    if (!isJsonObject(entry) || typeof entry.$ref !== "string" || Object.keys(entry).length !== 1) return undefined;
    const target = this.files.resolveRef(file, entry.$ref);
    const schema = this.files.load(target);
    return isBaseSchema(schema) ? { schema, file: target } : undefined;
  }
}

/** The self-contained schema of the record type defined in `file`. */
export function bundleSchema(files: SchemaFiles, file: string): JsonObject {
  return new Bundler(files).bundle(file);
}
