// Validates records against their type's schema: one Ajv (draft 2020-12, strict, every x- keyword
// registered), one compiled validator per type, errors in the contract's shape.
import type { ValidateFunction } from "ajv";
import type { EnumerationValues } from "./enumerations.js";
import { createRecordAjv } from "./keywords.js";
import { UnknownRecordTypeError } from "./errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { readOnlyComparer, readOnlyStripper } from "./read-only.js";
import { registry as generatedRegistry } from "./record-types.js";
import type { Registry } from "./registry.js";
import { dropUnknownProperties, notAnObject, toFieldErrors, type FieldErrors } from "./validation-errors.js";

export type { FieldErrors } from "./validation-errors.js";

/**
 * A validated document is a fresh copy the caller owns: read-only fields gone, unknown fields dropped (`dropped`
 * names them: `slug`, `notes/0/foo`), defaults filled in.
 */
export type ValidationResult =
  | { readonly ok: true; readonly doc: Record<string, JsonValue>; readonly dropped: readonly string[] }
  | { readonly ok: false; readonly errors: FieldErrors };

interface CompiledType {
  /** Compiled on the type's first validation (see the constructor). */
  check?: ValidateFunction;
  readonly strip: (doc: JsonObject) => Record<string, JsonValue>;
  readonly same: (doc: JsonObject, other: JsonObject) => boolean;
  readonly schema: JsonObject;
}

export class RecordValidator {
  private readonly compiled = new Map<string, CompiledType>();
  private readonly ajv: ReturnType<typeof createRecordAjv>;

  /**
   * Each type's schema is compiled by ajv on its first validation: the generator compiled every schema of the registry
   * at build time (a bad one never gets here), and compiling all of them costs about two seconds a process start-up
   * would spend on types it may never write (a worker, an import command, each test file).
   * `enumerations`: the values enumerated fields accept (the store's, src/records/enumerations/); by
   * default the seed values the schemas declare.
   */
  constructor(registry: Registry, enumerations?: EnumerationValues) {
    this.ajv = createRecordAjv(
      registry,
      enumerations ?? { valuesOf: (name) => registry.enumerations.get(name)?.values },
    );
    for (const type of registry.types) {
      this.compiled.set(type.name, {
        strip: readOnlyStripper(type.schema),
        same: readOnlyComparer(type.schema),
        schema: type.schema,
      });
    }
  }

  private entry(type: string): CompiledType {
    const compiled = this.compiled.get(type);
    if (compiled === undefined) throw new UnknownRecordTypeError(type);
    return compiled;
  }

  /**
   * Checks `input` (a parsed request body) against the type's schema. Read-only fields are
   * removed first, so they never cause errors. Unknown fields are dropped, as ArchivesSpace drops
   * them (its JSONModel drop_unknown_properties), and named in the result so the caller can warn:
   * a record exported by ArchivesSpace, or sent by a client of a newer version, is stored with
   * what Arca models. The input is not modified.
   * @throws UnknownRecordTypeError
   */
  validate(type: string, input: unknown): ValidationResult {
    const entry = this.entry(type);
    const { strip, schema } = entry;
    const check = (entry.check ??= this.ajv.compile(schema));
    if (!isJsonObject(input)) return { ok: false, errors: notAnObject(input) };
    const doc = strip(input);
    if (check(doc)) return { ok: true, doc, dropped: [] };
    // Every unknown field is reported at once (allErrors), each where the schema that owns it is decided (notes by
    // their jsonmodel_type): dropped, the rest is checked again.
    const dropped = dropUnknownProperties(doc, check.errors ?? []);
    if (dropped.length > 0 && check(doc)) return { ok: true, doc, dropped };
    return { ok: false, errors: toFieldErrors(check.errors ?? [], schema) };
  }

  /**
   * A check of a body that is not a record (an enumeration's), by the same rules and with the
   * same error shape as records: compiled once, by the records' Ajv.
   */
  compile(schema: JsonObject): (input: unknown) => ValidationResult {
    const check = this.ajv.compile(schema);
    return (input) => {
      if (!isJsonObject(input)) return { ok: false, errors: notAnObject(input) };
      const doc = structuredClone(input) as Record<string, JsonValue>;
      // Not a record: an unknown field is an error here (an enumeration's body is Arca's own shape).
      return check(doc)
        ? { ok: true, doc, dropped: [] }
        : { ok: false, errors: toFieldErrors(check.errors ?? [], schema) };
    };
  }

  /** A copy of `doc` without the fields the type's schema marks readOnly, at any depth. */
  stripReadOnly(type: string, doc: JsonObject): Record<string, JsonValue> {
    return this.entry(type).strip(doc);
  }

  /** Whether `doc` without its read-only fields (stripReadOnly) equals `other`, key order aside; copies nothing. */
  sameWithoutReadOnly(type: string, doc: JsonObject, other: JsonObject): boolean {
    return this.entry(type).same(doc, other);
  }
}

let generatedValidator: RecordValidator | undefined;

/** The validator of the generated registry, compiled on first use. */
export function recordValidator(): RecordValidator {
  generatedValidator ??= new RecordValidator(generatedRegistry);
  return generatedValidator;
}

/** {@link RecordValidator.validate} for the record types in record-types/. */
export function validate(type: string, input: unknown): ValidationResult {
  return recordValidator().validate(type, input);
}

/** {@link RecordValidator.stripReadOnly} for the record types in record-types/. */
export function stripReadOnly(type: string, doc: JsonObject): Record<string, JsonValue> {
  return recordValidator().stripReadOnly(type, doc);
}
