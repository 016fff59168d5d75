// The x- keywords of record-types/*.schema.json, registered with ajv so that strict mode accepts
// them and checks their values' shape when a schema is compiled. Three of them also validate
// data: x-identifiers (docs/api.md §10), x-ref-targets (a link must name a record of an
// allowed type) and x-enumeration (a value of an enumeration as it is now stored). The others
// are settings the registry reads; ajv only checks their shape.
import type { FuncKeywordDefinition, KeywordDefinition } from "ajv";
import type { DataValidateFunction } from "ajv/dist/types/index.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { EnumerationValues } from "./enumerations.js";
import { recordFormats } from "./formats.js";
import { isJsonObject } from "./json.js";

/** What x-ref-targets needs to know about URIs; the Registry provides it. */
export interface UriResolver {
  parseUri(uri: string): { readonly type: string } | undefined;
  /** A human template of the type's item URI, for messages; undefined for unknown types. */
  uriTemplate(type: string): string | undefined;
}

/** Longest identifier part allowed (docs/api.md §10). */
export const IDENTIFIER_PART_MAX_LENGTH = 50;

const NAME = { type: "string", pattern: "^[a-z][a-z0-9_]*$" };
const SCOPE = { type: "string", enum: ["repository", "global"] };
const FIELD_LIST = { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", minLength: 1 } };
const PERMISSION = { type: ["string", "null"], pattern: "^[a-z][a-z0-9_]*$" };
/** A slash path into a record: property names, `*` for every item of a list, `*[role=creator]` for some of them. */
const SLASH_PATH = "^[a-z_][a-z0-9_]*(/([a-z_][a-z0-9_]*|\\*|\\*\\[[a-z_][a-z0-9_]*=[a-z0-9_]+\\]))*$";

// Settings keywords: only their shape is checked here; the generator reads their meaning.
const settingsKeywords: KeywordDefinition[] = [
  { keyword: "x-record-type", schemaType: "string", metaSchema: NAME },
  { keyword: "x-collection", schemaType: "string", metaSchema: NAME },
  { keyword: "x-scope", schemaType: "string", metaSchema: SCOPE },
  { keyword: "x-scope-holder", schemaType: "boolean", metaSchema: { const: true } },
  { keyword: "x-public-read", schemaType: "boolean", metaSchema: { const: true } },
  { keyword: "x-list-unpaged", schemaType: "boolean", metaSchema: { const: true } },
  { keyword: "x-in-hidden-scope", schemaType: "boolean", metaSchema: { const: true } },
  { keyword: "x-suppressible", schemaType: "boolean", metaSchema: { const: true } },
  {
    keyword: "x-publish",
    schemaType: "array",
    metaSchema: { type: "array", minItems: 1, uniqueItems: true, items: { enum: ["publish", "unpublish"] } },
  },
  {
    keyword: "x-write-parameters",
    schemaType: "object",
    metaSchema: {
      type: "object",
      propertyNames: { pattern: "^[a-z][a-z0-9_]*$" },
      additionalProperties: {
        type: "object",
        properties: {
          create: { enum: ["required", "optional"] },
          update: { enum: ["required", "optional"] },
          array: { const: true },
          description: { type: "string", minLength: 1 },
        },
        required: ["description"],
        additionalProperties: false,
      },
    },
  },
  { keyword: "x-list-filters", schemaType: "array", metaSchema: FIELD_LIST },
  {
    keyword: "x-search",
    schemaType: "object",
    metaSchema: {
      type: "object",
      properties: {
        title: { type: "array", minItems: 1, items: { type: "string", pattern: SLASH_PATH } },
        fields: {
          type: "object",
          propertyNames: NAME,
          additionalProperties: { type: "array", minItems: 1, items: { type: "string", pattern: SLASH_PATH } },
        },
        types: { type: "array", uniqueItems: true, items: NAME },
        facets: { type: "array", uniqueItems: true, items: NAME },
      },
      required: ["title"],
      additionalProperties: false,
    },
  },
  { keyword: "x-find-by-id", schemaType: "array", metaSchema: FIELD_LIST },
  {
    keyword: "x-exports",
    schemaType: "array",
    metaSchema: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        properties: {
          format: NAME,
          path: { type: "string", pattern: "^[a-z][a-z0-9_]*(/[a-z][a-z0-9_]*)*$" },
          filename: {
            type: "object",
            properties: {
              fields: {
                ...FIELD_LIST,
                items: { type: "string", pattern: "^[a-z_][a-z0-9_]*(\\.([a-z_][a-z0-9_]*|[0-9]+))*$" },
              },
              separator: { type: "string", maxLength: 3 },
            },
            required: ["fields", "separator"],
            additionalProperties: false,
          },
        },
        required: ["format", "path", "filename"],
        additionalProperties: false,
      },
    },
  },
  {
    keyword: "x-external-id",
    schemaType: "string",
    metaSchema: { type: "string", pattern: "^[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$" },
  },
  {
    keyword: "x-hidden-ids",
    schemaType: "array",
    metaSchema: { type: "array", uniqueItems: true, items: { type: "integer", minimum: 1 } },
  },
  { keyword: "x-uri-prefix", schemaType: "string", metaSchema: { type: "string", pattern: "^(/[a-z0-9_]+)+$" } },
  {
    keyword: "x-unique",
    schemaType: "array",
    metaSchema: {
      type: "array",
      items: {
        type: "object",
        properties: { fields: FIELD_LIST, within: FIELD_LIST, scope: SCOPE, sparse: { type: "boolean" } },
        required: ["fields", "scope"],
        additionalProperties: false,
      },
    },
  },
  {
    keyword: "x-permissions",
    schemaType: "object",
    metaSchema: {
      type: "object",
      properties: { read: PERMISSION, create: PERMISSION, update: PERMISSION, delete: PERMISSION },
      required: ["read", "create", "update", "delete"],
      additionalProperties: false,
    },
  },
  {
    // Permission codes a type brings with it: code -> level ("repository" or "global").
    keyword: "x-permission-codes",
    schemaType: "object",
    metaSchema: { type: "object", propertyNames: { pattern: "^[a-z][a-z0-9_]*$" }, additionalProperties: SCOPE },
  },
  {
    keyword: "x-indexes",
    schemaType: "array",
    metaSchema: {
      type: "array",
      items: {
        type: "object",
        properties: {
          fields: { type: "object", minProperties: 1, additionalProperties: { enum: [1, -1] } },
        },
        required: ["fields"],
        additionalProperties: false,
      },
    },
  },
  {
    keyword: "x-tree",
    schemaType: "object",
    metaSchema: {
      type: "object",
      properties: {
        root: { type: "string", minLength: 1 },
        parent: { type: "string", minLength: 1 },
        position: { type: "string", minLength: 1 },
        label: FIELD_LIST,
        summary: { type: "array", uniqueItems: true, items: { type: "string", minLength: 1 } },
      },
      required: ["root", "parent", "position", "label"],
      additionalProperties: false,
    },
  },
  // On a top-level read-only property: the rule the server produces it by (computed-fields.ts checks the rule).
  {
    keyword: "x-computed",
    schemaType: "object",
    metaSchema: { type: "object", minProperties: 1, maxProperties: 1 },
  },
  // On a writable string property at any depth: the server produces it on every write, from a display format read
  // from the object holding it, unless the boolean property `unless` names is false (derived-fields.ts).
  {
    keyword: "x-derived",
    schemaType: "object",
    metaSchema: {
      type: "object",
      properties: { unless: { type: "string", pattern: "^[a-z][a-z0-9_]*$" }, format: { type: "object" } },
      required: ["format"],
      additionalProperties: false,
    },
  },
  // On a top-level property: only callers holding this permission code see it (registry.ts readGuards).
  { keyword: "x-read-permission", schemaType: "string", metaSchema: { type: "string", pattern: "^[a-z][a-z0-9_]*$" } },
  // On a top-level string property: the server fills it in when a record arrives without it.
  { keyword: "x-generated", schemaType: "string", metaSchema: { type: "string", enum: ["token"] } },
  {
    keyword: "x-on-target-delete",
    schemaType: "string",
    metaSchema: { type: "string", enum: ["remove", "cascade", "restrict"] },
  },
  // On a link: what a repository transfer of the record holding it does to its target (x-on-transfer), and what a
  // transfer of its target does to the record holding it (x-on-target-transfer). See record-types/README.md.
  { keyword: "x-on-transfer", schemaType: "string", metaSchema: { type: "string", enum: ["move", "move-or-copy"] } },
  { keyword: "x-on-target-transfer", schemaType: "string", metaSchema: { type: "string", enum: ["split"] } },
  // On a link item of a top-level list: the link is one fact seen from both records; the target
  // shows it back in the same list, its `relator` property read through `inverse` (absent: the same).
  {
    keyword: "x-reciprocal",
    schemaType: "object",
    metaSchema: {
      type: "object",
      properties: {
        relator: { type: "string", pattern: "^[a-z][a-z0-9_]*$" },
        inverse: { type: "object", additionalProperties: { type: "string", minLength: 1 } },
      },
      required: ["relator"],
      additionalProperties: false,
    },
  },
];

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isBlank(value: unknown): boolean {
  return value === undefined || (typeof value === "string" && value.trim() === "");
}

export interface IdentifierProblem {
  /** The field to name in the error: a part (`id_1`) or `identifier` for the tuple as a whole. */
  readonly field: string;
  readonly message: string;
}

/** The identifier rules of docs/api.md §10, in ArchivesSpace's wording where it has one. */
export function identifierProblems(
  fields: readonly string[],
  record: Readonly<Record<string, unknown>>,
): IdentifierProblem[] {
  const problems: IdentifierProblem[] = [];
  const values = fields.map((field) => record[field]);
  fields.forEach((field, i) => {
    const value = values[i];
    if (typeof value === "string" && value.length > IDENTIFIER_PART_MAX_LENGTH) {
      problems.push({ field, message: `Must be ${IDENTIFIER_PART_MAX_LENGTH} characters or fewer` });
    }
  });
  // A missing first part is reported by `required`; an empty one only here.
  const first = fields[0];
  if (first !== undefined && values[0] !== undefined && isBlank(values[0])) {
    problems.push({ field: first, message: "Property is required but was missing" });
  }
  const lastFilled = values.reduce<number>((last, value, i) => (isBlank(value) ? last : i), -1);
  if (lastFilled > 0 && values.slice(0, lastFilled).some(isBlank)) {
    problems.push({ field: "identifier", message: "must not contain blank entries" });
  }
  return problems;
}

const identifierKeyword: FuncKeywordDefinition = {
  keyword: "x-identifiers",
  type: "object",
  schemaType: "object",
  errors: true,
  metaSchema: {
    type: "object",
    properties: { fields: { ...FIELD_LIST, maxItems: 4 }, scope: SCOPE },
    required: ["fields", "scope"],
    additionalProperties: false,
  },
  compile(settings: unknown) {
    const fields = isJsonObject(settings) && isStringList(settings.fields) ? settings.fields : [];
    const check: DataValidateFunction = (data: unknown) => {
      const problems = isJsonObject(data) ? identifierProblems(fields, data) : [];
      check.errors = problems.map((problem) => ({
        keyword: "x-identifiers",
        message: problem.message,
        params: { field: problem.field },
      }));
      return problems.length === 0;
    };
    return check;
  },
};

const ENUMERATION_SETTINGS = {
  oneOf: [
    NAME,
    {
      type: "object",
      properties: {
        name: NAME,
        values: { type: "array", uniqueItems: true, items: { type: "string", minLength: 1, maxLength: 255 } },
        readonly: { type: "array", uniqueItems: true, items: { type: "string" } },
        editable: { type: "boolean" },
      },
      required: ["name", "values"],
      additionalProperties: false,
    },
  ],
};

/**
 * x-enumeration: the value must be one of the enumeration's values as they are now (they change
 * at run time, so they are asked of `enumerations` on every check, never compiled in). Without a
 * source (the generator only compiles) every value passes.
 */
function enumerationKeyword(enumerations: EnumerationValues | undefined): FuncKeywordDefinition {
  return {
    keyword: "x-enumeration",
    type: "string",
    schemaType: ["string", "object"],
    errors: true,
    metaSchema: ENUMERATION_SETTINGS,
    compile(settings: unknown) {
      const name =
        typeof settings === "string"
          ? settings
          : isJsonObject(settings) && typeof settings.name === "string"
            ? settings.name
            : "";
      const check: DataValidateFunction = (data: unknown) => {
        const values = enumerations?.valuesOf(name);
        if (values === undefined || typeof data !== "string" || values.includes(data)) return true;
        check.errors = [
          {
            keyword: "x-enumeration",
            message: `Invalid value '${data}'.  Must be one of: ${values.join(", ")}`,
            params: { enumeration: name },
          },
        ];
        return false;
      };
      return check;
    },
  };
}

function refTargetsKeyword(uris: UriResolver): FuncKeywordDefinition {
  return {
    keyword: "x-ref-targets",
    // No `type: "object"`: it sits beside a $ref, where strictTypes would demand a type of its own.
    schemaType: "array",
    errors: true,
    metaSchema: { type: "array", minItems: 1, uniqueItems: true, items: NAME },
    compile(targets: unknown) {
      const allowed = isStringList(targets) ? targets : [];
      const described = allowed
        .map((type) => `${type} (${uris.uriTemplate(type) ?? "no such record type yet"})`)
        .join(", ");
      const check: DataValidateFunction = (data: unknown) => {
        // The uri is a `{ref}` object's ref, or the value itself on a plain string link. A
        // missing or non-string one is reported by the schema itself.
        const plain = typeof data === "string";
        const uri = plain ? data : isJsonObject(data) ? data.ref : undefined;
        if (typeof uri !== "string") return true;
        const target = uris.parseUri(uri);
        if (target !== undefined && allowed.includes(target.type)) return true;
        check.errors = [
          {
            keyword: "x-ref-targets",
            message: `Must be a uri of: ${described}`,
            params: plain ? {} : { field: "ref" },
          },
        ];
        return false;
      };
      return check;
    },
  };
}

/**
 * One ajv for record schemas: draft 2020-12, strict, all errors (the contract reports every
 * problem at once), defaults applied, and `verbose` so errors carry the offending value for
 * ArchivesSpace-style messages ("Invalid value 'x'"). strictRequired alone is off: it rejects
 * the `then: {required: [...]}` of conditional rules (resource other_level, instance links),
 * whose properties are declared by the parent; the generator checks required names instead.
 */
export function createRecordAjv(uris: UriResolver, enumerations?: EnumerationValues): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allErrors: true,
    useDefaults: true,
    verbose: true,
    discriminator: true,
    // Each shared subschema compiled once as its own function rather than inlined at every $ref, and the generated
    // code not optimised: a start (and every test that opens the records) compiles the schemas in half the time,
    // and a validation measured no slower (an accession: 11–13 µs against 14–18 µs).
    inlineRefs: false,
    code: { optimize: false },
  });
  for (const [name, check] of Object.entries(recordFormats)) ajv.addFormat(name, { type: "string", validate: check });
  for (const definition of settingsKeywords) ajv.addKeyword(definition);
  ajv.addKeyword(identifierKeyword);
  ajv.addKeyword(refTargetsKeyword(uris));
  ajv.addKeyword(enumerationKeyword(enumerations));
  return ajv;
}
