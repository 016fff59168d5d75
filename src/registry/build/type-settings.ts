// Reads a record type's x- settings from its bundled schema and checks what ajv's keyword
// meta-schemas cannot: that the settings agree with the schema they sit in (declared fields,
// required first identifier part, keywords in the right place).
import { SchemaDefinitionError } from "../errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type {
  ExportSettings,
  ExtraIndexSettings,
  IdentifierSettings,
  IndexDirection,
  ParameterUse,
  PermissionSettings,
  RecordScope,
  RecordTypeManifest,
  SearchSettings,
  TreeSettings,
  UniqueSettings,
  WriteParameterSettings,
} from "../manifest.js";
import { FIND_BY_IDENTIFIER } from "../manifest.js";
import { resolveLocalRef, subschemasOf } from "../schema-walk.js";

/** Search fields every index entry has (src/search/entries.ts): a type declares none of these. */
export const RESERVED_SEARCH_FIELDS: readonly string[] = [
  "keyword",
  "title",
  "primary_type",
  "types",
  "repository",
  "uri",
  "publish",
  "suppressed",
  "create_time",
  "system_mtime",
  "user_mtime",
  "created_by",
  "last_modified_by",
];

/** Keywords that only mean something on a record type's top-level schema. */
const ROOT_ONLY = [
  "x-record-type",
  "x-collection",
  "x-scope",
  "x-scope-holder",
  "x-uri-prefix",
  "x-identifiers",
  "x-unique",
  "x-permissions",
  "x-public-read",
  "x-list-unpaged",
  "x-in-hidden-scope",
  "x-write-parameters",
  "x-list-filters",
  "x-hidden-ids",
  "x-permission-codes",
  "x-indexes",
  "x-find-by-id",
  "x-exports",
  "x-external-id",
  "x-search",
  "x-tree",
  "x-publish",
  "x-suppressible",
];

/** Keywords that only mean something on a top-level property of a record type. */
const PROPERTY_ONLY = ["x-read-permission", "x-computed"];

// Fields the store keeps beside the record's own: they may be indexed without being declared.
const STORE_FIELDS = new Set(["id", "repo_id"]);

type Settings = Omit<RecordTypeManifest, "schema">;

class SettingsReader {
  constructor(
    private readonly schema: JsonObject,
    private readonly source: string,
  ) {}

  fail(detail: string): never {
    throw new SchemaDefinitionError(this.source, detail);
  }

  string(keyword: string): string {
    const value = this.schema[keyword];
    if (typeof value !== "string") this.fail(`${keyword} is required and must be a string`);
    return value;
  }

  scope(value: JsonValue | undefined, where: string): RecordScope {
    if (value !== "repository" && value !== "global") this.fail(`${where}: scope must be "repository" or "global"`);
    return value;
  }

  fields(value: JsonValue | undefined, where: string): string[] {
    if (
      !Array.isArray(value) ||
      value.length === 0 ||
      !value.every((field): field is string => typeof field === "string")
    ) {
      this.fail(`${where}: fields must be a non-empty list of property names`);
    }
    return value;
  }

  declared(field: string, where: string): void {
    const properties = isJsonObject(this.schema.properties) ? this.schema.properties : {};
    if (!Object.hasOwn(properties, field) && !STORE_FIELDS.has(field))
      this.fail(`${where}: "${field}" is not a property of this schema`);
  }

  identifiers(): IdentifierSettings | null {
    const value = this.schema["x-identifiers"];
    if (value === undefined) return null;
    if (!isJsonObject(value)) this.fail("x-identifiers must be an object");
    const fields = this.fields(value.fields, "x-identifiers");
    fields.forEach((field) => this.declared(field, "x-identifiers"));
    const required = Array.isArray(this.schema.required) ? this.schema.required : [];
    const first = fields[0];
    if (first === undefined || !required.includes(first))
      this.fail(`x-identifiers: the first part ("${first}") must be listed in required`);
    return { fields, scope: this.scope(value.scope, "x-identifiers") };
  }

  unique(): UniqueSettings[] {
    const value = this.schema["x-unique"];
    if (value === undefined) return [];
    if (!Array.isArray(value)) this.fail("x-unique must be a list");
    return value.map((entry, i) => {
      const where = `x-unique[${i}]`;
      if (!isJsonObject(entry)) this.fail(`${where} must be an object`);
      const fields = this.fields(entry.fields, where);
      fields.forEach((field) => this.declared(field, where));
      const within = entry.within === undefined ? [] : this.fields(entry.within, `${where}.within`);
      // `within` may name a field inside a link (`resource.ref`): its property must exist.
      within.forEach((field) => this.declared(field.split(".")[0] ?? field, `${where}.within`));
      return { fields, within, scope: this.scope(entry.scope, where), sparse: entry.sparse === true };
    });
  }

  permissions(): PermissionSettings {
    const value = this.schema["x-permissions"];
    if (!isJsonObject(value))
      this.fail("x-permissions is required (docs/api.md §8: each type declares its permissions)");
    const code = (op: string): string | null => {
      const entry = value[op];
      if (entry !== null && typeof entry !== "string")
        this.fail(`x-permissions.${op} must be a permission code or null`);
      return entry;
    };
    return { read: code("read"), create: code("create"), update: code("update"), delete: code("delete") };
  }

  publicRead(permissions: PermissionSettings): boolean {
    const value = this.schema["x-public-read"];
    if (value === undefined) return false;
    if (value !== true) this.fail("x-public-read must be true when present");
    // A code would never be asked of someone without a session: say one thing, not two.
    if (permissions.read !== null) this.fail("x-public-read needs x-permissions.read: null");
    return true;
  }

  /** x-list-unpaged: true, or absent (false). */
  listUnpaged(): boolean {
    const value = this.schema["x-list-unpaged"];
    if (value === undefined) return false;
    if (value !== true) this.fail("x-list-unpaged must be true when present");
    return true;
  }

  /** x-in-hidden-scope: true, or absent (false); only a repository-scoped type may say it. */
  inHiddenScope(scope: RecordScope): boolean {
    const value = this.schema["x-in-hidden-scope"];
    if (value === undefined) return false;
    if (value !== true) this.fail("x-in-hidden-scope must be true when present");
    if (scope !== "repository") this.fail("x-in-hidden-scope is for a repository-scoped type");
    return true;
  }

  /** x-write-parameters: names that are no field of the record, each taken by a create or an update. */
  writeParameters(): WriteParameterSettings[] {
    const value = this.schema["x-write-parameters"];
    if (value === undefined) return [];
    if (!isJsonObject(value)) this.fail("x-write-parameters must be an object");
    const properties = isJsonObject(this.schema.properties) ? this.schema.properties : {};
    return Object.entries(value).map(([name, entry]) => {
      const where = `x-write-parameters.${name}`;
      // A parameter named as a field would make the record's field and the parameter two answers to one name; a
      // readOnly field is never input (a user's `groups`, shown on reads, set by the `groups[]` parameter).
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (property !== undefined && !(isJsonObject(property) && property.readOnly === true))
        this.fail(`${where}: "${name}" is a property of the record (only a readOnly one may share its name)`);
      if (!isJsonObject(entry) || typeof entry.description !== "string") this.fail(`${where} needs a description`);
      const use = (key: "create" | "update"): { create?: ParameterUse } | { update?: ParameterUse } => {
        const given = entry[key];
        if (given === undefined) return {};
        if (given !== "required" && given !== "optional") this.fail(`${where}.${key} must be "required" or "optional"`);
        return { [key]: given };
      };
      if (entry.create === undefined && entry.update === undefined)
        this.fail(`${where}: say which writes take it (create, update)`);
      if (entry.array !== undefined && entry.array !== true) this.fail(`${where}.array must be true when present`);
      const array = entry.array === true ? { array: true as const } : {};
      return { name, ...use("create"), ...use("update"), ...array, description: entry.description };
    });
  }

  /** x-list-filters: declared top-level text fields. */
  listFilters(): string[] {
    const value = this.schema["x-list-filters"];
    if (value === undefined) return [];
    const fields = this.fields(value, "x-list-filters");
    const properties = isJsonObject(this.schema.properties) ? this.schema.properties : {};
    for (const field of fields) {
      const property = properties[field];
      if (!isJsonObject(property) || property.type !== "string")
        this.fail(`x-list-filters: "${field}" must be a text property of this schema`);
    }
    return fields;
  }

  /** x-hidden-ids: ids of records the API never serves (positive whole numbers), or none. */
  hiddenIds(): number[] {
    const value = this.schema["x-hidden-ids"];
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((id) => Number.isSafeInteger(id) && (id as number) > 0))
      this.fail("x-hidden-ids must be a list of positive whole numbers");
    return value as number[];
  }

  indexes(): ExtraIndexSettings[] {
    const value = this.schema["x-indexes"];
    if (value === undefined) return [];
    if (!Array.isArray(value)) this.fail("x-indexes must be a list");
    return value.map((entry, i) => {
      const where = `x-indexes[${i}]`;
      if (!isJsonObject(entry) || !isJsonObject(entry.fields)) this.fail(`${where}.fields must be an object`);
      // keys: x-indexes fields, checked against the schema's properties
      const fields: Record<string, IndexDirection> = {};
      for (const [field, direction] of Object.entries(entry.fields)) {
        if (direction !== 1 && direction !== -1) this.fail(`${where}: direction of "${field}" must be 1 or -1`);
        this.declared(field.split(".")[0] ?? field, where);
        fields[field] = direction;
      }
      return { fields };
    });
  }

  /** x-find-by-id: top-level text properties, or `identifier` on a type with x-identifiers. */
  findById(identifiers: IdentifierSettings | null, scope: RecordScope): string[] {
    const value = this.schema["x-find-by-id"];
    if (value === undefined) return [];
    // The route is /repositories/:repo_id/find_by_id/<collection>: a lookup within one repository.
    if (scope !== "repository") this.fail("x-find-by-id is for a repository-scoped type");
    const names = this.fields(value, "x-find-by-id");
    const properties = isJsonObject(this.schema.properties) ? this.schema.properties : {};
    for (const name of names) {
      if (name === FIND_BY_IDENTIFIER) {
        if (identifiers === null) this.fail(`x-find-by-id: "${name}" needs x-identifiers (its parts are looked up)`);
        continue;
      }
      const property = properties[name];
      if (!isJsonObject(property) || property.type !== "string")
        this.fail(`x-find-by-id: "${name}" must be a text property of this schema, or "${FIND_BY_IDENTIFIER}"`);
    }
    return names;
  }

  /** x-exports: each format at most once, each path once, each file-name field starting at a property. */
  exports(): ExportSettings[] {
    const value = this.schema["x-exports"];
    if (value === undefined) return [];
    if (!Array.isArray(value)) this.fail("x-exports must be a list");
    const seen = new Set<string>();
    return value.map((entry, i) => {
      const where = `x-exports[${i}]`;
      if (!isJsonObject(entry) || typeof entry.format !== "string" || typeof entry.path !== "string")
        this.fail(`${where} must name a format and a path`);
      if (!isJsonObject(entry.filename)) this.fail(`${where}.filename must be an object`);
      for (const key of [`format:${entry.format}`, `path:${entry.path}`]) {
        if (seen.has(key)) this.fail(`${where}: ${key.replace(":", " ")} is exported twice`);
        seen.add(key);
      }
      const fields = this.fields(entry.filename.fields, `${where}.filename`);
      fields.forEach((field) => this.declared(field.split(".")[0] ?? field, `${where}.filename`));
      const separator = typeof entry.filename.separator === "string" ? entry.filename.separator : "";
      return { format: entry.format, path: entry.path, filename: { fields, separator } };
    });
  }

  /** x-external-id: `list.field`, a top-level list whose items' text property holds the external id. */
  externalId(): string | null {
    const value = this.schema["x-external-id"];
    if (value === undefined) return null;
    if (typeof value !== "string") this.fail("x-external-id must be a dotted path");
    const [list, field, ...rest] = value.split(".");
    const properties = isJsonObject(this.schema.properties) ? this.schema.properties : {};
    const listSchema = list === undefined ? undefined : properties[list];
    const items = isJsonObject(listSchema) && listSchema.type === "array" ? listSchema.items : undefined;
    const itemSchema =
      isJsonObject(items) && typeof items.$ref === "string" ? resolveLocalRef(this.schema, items.$ref) : items;
    const fieldSchema =
      isJsonObject(itemSchema) && isJsonObject(itemSchema.properties) && field !== undefined
        ? itemSchema.properties[field]
        : undefined;
    if (rest.length > 0 || !isJsonObject(fieldSchema) || fieldSchema.type !== "string")
      this.fail(`x-external-id: "${value}" must name a list property and a text property of its items ("list.field")`);
    return value;
  }

  /**
   * x-search: `{title: [paths], fields: {name: [paths]}, types: [names], facets: [field names]}`; each path starts
   * at a property of the schema. The built-in fields of every entry (src/records/search/entries.ts) are not names a
   * type may declare, but `identifier`, which a type without x-identifiers (whose parts are its identifier) may say
   * where to find.
   */
  search(): SearchSettings | null {
    const value = this.schema["x-search"];
    if (value === undefined) return null;
    if (!isJsonObject(value)) this.fail("x-search must be an object");
    const paths = (entry: JsonValue | undefined, where: string): string[] => {
      if (!Array.isArray(entry) || !entry.every((path): path is string => typeof path === "string"))
        this.fail(`${where} must be a list of paths`);
      entry.forEach((path) => this.declared(path.split("/")[0] ?? path, where));
      return entry;
    };
    const fields = isJsonObject(value.fields) ? value.fields : {};
    const types = Array.isArray(value.types) ? value.types.filter((name) => typeof name === "string") : [];
    const facets = Array.isArray(value.facets) ? value.facets.filter((name) => typeof name === "string") : [];
    for (const facet of facets)
      if (!Object.hasOwn(fields, facet)) this.fail(`x-search.facets: "${facet}" must be one of x-search.fields`);
    return {
      title: paths(value.title, "x-search.title"),
      fields: Object.entries(fields).map(([name, entry]) => {
        if (RESERVED_SEARCH_FIELDS.includes(name)) this.fail(`x-search.fields: "${name}" is a built-in search field`);
        return { name, paths: paths(entry, `x-search.fields.${name}`) };
      }),
      types,
      facets,
    };
  }

  /** The x-ref-targets of a top-level link property, or a failure naming `where`. */
  private linkTargets(field: string, where: string): string[] {
    const properties = isJsonObject(this.schema.properties) ? this.schema.properties : {};
    const property = properties[field];
    const targets = isJsonObject(property) ? property["x-ref-targets"] : undefined;
    if (!Array.isArray(targets) || !targets.every((target): target is string => typeof target === "string")) {
      this.fail(`${where}: "${field}" must be a link property (with x-ref-targets)`);
    }
    return targets;
  }

  tree(name: string): TreeSettings | undefined {
    const value = this.schema["x-tree"];
    if (value === undefined) return undefined;
    if (!isJsonObject(value)) this.fail("x-tree must be an object");
    const field = (key: string): string => {
      const entry = value[key];
      if (typeof entry !== "string") this.fail(`x-tree.${key} must be a property name`);
      this.declared(entry, `x-tree.${key}`);
      return entry;
    };
    const [root, parent, position] = [field("root"), field("parent"), field("position")];
    if (this.linkTargets(root, "x-tree.root").length !== 1)
      this.fail(`x-tree.root: "${root}" must link to exactly one record type`);
    const required = Array.isArray(this.schema.required) ? this.schema.required : [];
    if (!required.includes(root))
      this.fail(`x-tree.root: "${root}" must be listed in required (every node belongs to a tree)`);
    const parentTargets = this.linkTargets(parent, "x-tree.parent");
    if (parentTargets.length !== 1 || parentTargets[0] !== name)
      this.fail(`x-tree.parent: "${parent}" must link to ${name} only`);
    const properties = isJsonObject(this.schema.properties) ? this.schema.properties : {};
    const positionSchema = properties[position];
    if (!isJsonObject(positionSchema) || positionSchema.type !== "integer")
      this.fail(`x-tree.position: "${position}" must be an integer property`);
    const label = this.fields(value.label, "x-tree.label");
    const summary =
      value.summary === undefined
        ? []
        : Array.isArray(value.summary)
          ? value.summary.filter((entry): entry is string => typeof entry === "string")
          : [];
    [...label, ...summary].forEach((entry) => this.declared(entry, "x-tree"));
    return { root, parent, position, label, summary };
  }

  /**
   * A name in `required` that no `properties` declares is a typo that makes every record
   * invalid (ajv's strictRequired is off, see keywords.ts). Conditional branches (then/else/
   * allOf...) may require what their parent declares.
   */
  checkRequiredDeclared(node: JsonObject, path: string, inherited: ReadonlySet<string>): void {
    const own = isJsonObject(node.properties) ? Object.keys(node.properties) : [];
    const declared = new Set([...inherited, ...own, ...this.declaredByAlternatives(node)]);
    const required = Array.isArray(node.required) ? node.required : [];
    for (const name of required) {
      if (typeof name === "string" && !declared.has(name))
        this.fail(`required "${name}" at ${path} is not declared in properties`);
    }
    for (const { keyword, name, schema } of subschemasOf(node)) {
      const at = name === undefined ? `${path}/${keyword}` : `${path}/${keyword}/${name}`;
      const sameObject = ["allOf", "anyOf", "oneOf", "if", "then", "else", "not"].includes(keyword);
      this.checkRequiredDeclared(schema, at, sameObject ? declared : new Set());
    }
  }

  /** A union (oneOf/anyOf) may require a tag its alternatives declare, e.g. jsonmodel_type. */
  private declaredByAlternatives(node: JsonObject): string[] {
    const alternatives = [node.oneOf, node.anyOf].flatMap((list) => (Array.isArray(list) ? list : []));
    return alternatives.flatMap((alternative) => {
      if (!isJsonObject(alternative)) return [];
      const schema =
        typeof alternative.$ref === "string" ? resolveLocalRef(this.schema, alternative.$ref) : alternative;
      return schema !== undefined && isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
    });
  }

  /** Root-only keywords found below the root (and read guards below its properties) would be ignored: refuse them. */
  checkNoNestedSettings(node: JsonObject, path: string): void {
    for (const { keyword, name, schema } of subschemasOf(node)) {
      const at = name === undefined ? `${path}/${keyword}` : `${path}/${keyword}/${name}`;
      const misplaced = ROOT_ONLY.find((key) => Object.hasOwn(schema, key));
      if (misplaced !== undefined) this.fail(`${misplaced} at ${at} has no effect: it belongs on the top-level schema`);
      // Read off the record's own properties (registry.ts): deeper down nothing would act on them.
      const topProperty = node === this.schema && keyword === "properties";
      const onProperty = PROPERTY_ONLY.find((key) => Object.hasOwn(schema, key));
      if (onProperty !== undefined && !topProperty)
        this.fail(`${onProperty} at ${at} has no effect: it belongs on a top-level property`);
      this.checkNoNestedSettings(schema, at);
    }
  }
}

/** The checked x- settings of one record type's bundled schema. */
export function readTypeSettings(schema: JsonObject, source: string): Settings {
  const reader: SettingsReader = new SettingsReader(schema, source);
  const name = reader.string("x-record-type");
  const collection = reader.string("x-collection");
  const scope = reader.scope(schema["x-scope"], "x-scope");
  const prefix = schema["x-uri-prefix"];
  if (prefix !== undefined && typeof prefix !== "string") reader.fail("x-uri-prefix must be a string");
  const title = schema.title;
  if (typeof title !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(title)) {
    reader.fail("title is required and must be a PascalCase name: it names the generated TypeScript interface");
  }
  if (schema.type !== "object") reader.fail('a record type\'s schema must have type "object"');
  reader.checkNoNestedSettings(schema, "#");
  reader.checkRequiredDeclared(schema, "#", new Set());
  const tree = reader.tree(name);
  const permissions = reader.permissions();
  const identifiers = reader.identifiers();
  return {
    name,
    collection,
    scope,
    uriPrefix: prefix ?? `/${collection}`,
    identifiers,
    unique: reader.unique(),
    permissions,
    publicRead: reader.publicRead(permissions),
    listUnpaged: reader.listUnpaged(),
    inHiddenScope: reader.inHiddenScope(scope),
    writeParameters: reader.writeParameters(),
    listFilters: reader.listFilters(),
    hiddenIds: reader.hiddenIds(),
    indexes: reader.indexes(),
    findById: reader.findById(identifiers, scope),
    externalId: reader.externalId(),
    search: reader.search(),
    exports: reader.exports(),
    ...(tree === undefined ? {} : { tree }),
  };
}
