// The record types' bundled schemas as OpenAPI `components.schemas`. A bundled schema is
// self-contained: its subrecords sit in its own `$defs` and it refers to them as
// `#/$defs/<name>`. Inside an OpenAPI document such a ref would resolve against the document's
// root, where there is no `$defs`, so the subrecords are hoisted into `components.schemas`
// (once, however many types share them) and every ref is rewritten to point there. Everything
// else in a schema, `x-` keywords included, is kept as it is: OpenAPI 3.1 schemas are JSON
// Schema 2020-12 and allow extension keywords.
import { isJsonObject, type JsonObject, type JsonValue } from "../registry/json.js";
import type { RecordType } from "../registry/registry.js";
import { mapSubschemas } from "../registry/schema-walk.js";

export const COMPONENT_SCHEMA_PREFIX = "#/components/schemas/";
const DEFS_REF = /^#\/\$defs\/([^/]+)(\/.*)?$/;

/** `note_text` → `NoteText`, as the generated TypeScript interfaces are named. */
export function pascalCase(name: string): string {
  return name
    .replace(/(^|[_\-.])([a-zA-Z0-9])/g, (_match, _sep: string, letter: string) => letter.toUpperCase())
    .replace(/[^a-zA-Z0-9.\-_]/g, "_");
}

/** Hands out component names (OpenAPI: `^[a-zA-Z0-9.\-_]+$`), never the same one twice. */
export class ComponentNames {
  private readonly taken = new Set<string>();

  allocate(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n += 1) name = `${base}_${n}`;
    this.taken.add(name);
    return name;
  }
}

export const componentRef = (name: string): JsonObject => ({ $ref: `${COMPONENT_SCHEMA_PREFIX}${name}` });

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** JSON with object keys sorted, so equal schemas give equal text whatever their key order. */
function canonical(value: JsonValue | undefined): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isJsonObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Every `$ref` of a schema (only where a schema can be: never inside `const`, `enum` or `default`). */
function refsIn(schema: JsonObject): string[] {
  const found: string[] = [];
  const walk = (node: JsonObject): JsonObject => {
    if (typeof node.$ref === "string") found.push(node.$ref);
    return mapSubschemas(node, walk);
  };
  walk(schema);
  return found;
}

function rewriteRefs(schema: JsonObject, target: (ref: string) => string): JsonObject {
  const walk = (node: JsonObject): JsonObject => {
    const mapped = mapSubschemas(node, walk);
    return typeof node.$ref === "string" ? { ...mapped, $ref: target(node.$ref) } : mapped;
  };
  return walk(schema);
}

export interface RecordSchemaComponents {
  /** Component name of each record type (by type name), e.g. accession → Accession. */
  readonly typeComponents: ReadonlyMap<string, string>;
  /** The types' schemas and their subrecords, by component name. */
  readonly schemas: Readonly<Record<string, JsonObject>>;
}

/**
 * The record types' schemas as components: each type under its PascalCase name, each distinct
 * subrecord once. Two types share a subrecord component only when the subrecord and every
 * subrecord it reaches are the same in both, so no ref ever lands on a different schema.
 */
export function recordSchemaComponents(types: readonly RecordType[], names: ComponentNames): RecordSchemaComponents {
  const typeComponents = new Map<string, string>();
  for (const type of types) typeComponents.set(type.name, names.allocate(pascalCase(type.name)));

  const schemas: Record<string, JsonObject> = {}; // keys: component names allocated from the registry
  const shared = new Map<string, string>(); // identity key of a subrecord → component name
  for (const type of types) {
    const self = typeComponents.get(type.name) ?? pascalCase(type.name);
    const { $defs, $schema: _schema, $id: _id, ...body } = type.schema;
    const defs: JsonObject = isJsonObject($defs) ? $defs : {};
    const local = new Map<string, string>();
    const fresh: string[] = [];
    for (const name of Object.keys(defs)) {
      const key = identityKey(name, defs, self);
      let component = shared.get(key);
      if (component === undefined) {
        component = names.allocate(pascalCase(name));
        shared.set(key, component);
        fresh.push(name);
      }
      local.set(name, component);
    }
    const target = (ref: string): string => {
      const match = DEFS_REF.exec(ref);
      if (match !== null) {
        const component = local.get(unescapePointer(match[1] ?? ""));
        if (component !== undefined) return `${COMPONENT_SCHEMA_PREFIX}${component}${match[2] ?? ""}`;
      }
      // Any other document-local ref meant the type's own root.
      return ref.startsWith("#") ? `${COMPONENT_SCHEMA_PREFIX}${self}${ref.slice(1)}` : ref;
    };
    for (const name of fresh) {
      const def = defs[name];
      const component = local.get(name);
      if (isJsonObject(def) && component !== undefined) schemas[component] = rewriteRefs(def, target);
    }
    schemas[self] = rewriteRefs(body, target);
  }
  return { typeComponents, schemas };
}

/**
 * What makes a subrecord the same in two types: its name, its schema and those of every
 * subrecord it reaches; and, should it ever refer to its type's root, that type.
 */
function identityKey(name: string, defs: JsonObject, typeComponent: string): string {
  const reached = new Map<string, JsonValue | undefined>();
  let rootRef = false;
  const visit = (def: string): void => {
    if (reached.has(def)) return;
    const schema = defs[def];
    reached.set(def, schema);
    if (!isJsonObject(schema)) return;
    for (const ref of refsIn(schema)) {
      const match = DEFS_REF.exec(ref);
      if (match !== null) visit(unescapePointer(match[1] ?? ""));
      else if (ref.startsWith("#")) rootRef = true;
    }
  };
  visit(name);
  const closure = [...reached.keys()].sort().map((def) => [def, canonical(reached.get(def))]);
  return JSON.stringify({ name, closure, root: rootRef ? typeComponent : null });
}
