// A client's record body, made ready to store: safe keys, derived fields produced (x-derived), valid against the
// type's schema (read-only fields dropped, defaults applied), links checked.
import { ApiError } from "../../errors/api-error.js";
import { randomBytes } from "node:crypto";
import type { JsonObject, JsonValue, RecordType } from "../../registry/index.js";
import { fieldErrors, mergeFieldErrors, type FieldErrors } from "../../registry/validation-errors.js";
import type { OperationDeps } from "../deps.js";
import { withDerivedFields } from "../computed/derived-fields.js";
import { assertSafeKeys } from "./input-safety.js";
import { linkProblemsOfMany } from "./links.js";
import type { ClientSession } from "mongodb";
import type { Scope } from "../types.js";

export interface PreparedRecord {
  fields: JsonObject;
  /** The server changed what it stores beyond the client's input (e.g. defaults). */
  stale: boolean;
  /** The response's warnings: the unknown fields dropped (docs/api.md, records). */
  warnings: string[];
}

/** The most unknown fields an answer names one by one; the rest are counted in one more warning. */
export const MAX_DROPPED_NAMED = 100;
/** The longest field path a warning echoes (a body chooses its keys): the rest is cut and marked. */
const MAX_PATH_CHARS = 200;

/**
 * The warnings for the unknown fields the validator dropped, bounded: a body of many (or long) unknown keys must not
 * make an answer larger than itself many times over.
 */
export function droppedWarnings(paths: readonly string[]): string[] {
  const named = paths.slice(0, MAX_DROPPED_NAMED).map((path) => {
    const shown = path.length <= MAX_PATH_CHARS ? path : `${path.slice(0, MAX_PATH_CHARS)}… (cut)`;
    return `${shown}: not a field of this record type; dropped, not stored`;
  });
  if (paths.length > MAX_DROPPED_NAMED)
    named.push(`${paths.length - MAX_DROPPED_NAMED} more fields not of this record type dropped, not named here`);
  return named;
}

/** What ArchivesSpace drops from a record before validating it (drop_empty_elements): null, "" and {}. */
function isEmptyValue(value: unknown): boolean {
  if (value === null || value === "") return true;
  return typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** Whether an object anywhere in `value` has a field to drop. */
function holdsEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsEmpty);
  if (value === null || typeof value !== "object") return false;
  for (const key in value) {
    const inner = (value as Record<string, unknown>)[key];
    if (Object.hasOwn(value, key) && (isEmptyValue(inner) || holdsEmpty(inner))) return true;
  }
  return false;
}

/** A copy without empty fields, at every depth; an object left empty by that goes too. */
function copyWithoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyWithoutEmpty);
  if (value && typeof value === "object") {
    const kept: [string, unknown][] = [];
    for (const [key, inner] of Object.entries(value)) {
      const cleaned = copyWithoutEmpty(inner);
      if (!isEmptyValue(cleaned)) kept.push([key, cleaned]);
    }
    return Object.fromEntries(kept);
  }
  return value;
}

/**
 * A null, "" or {} field is an absent field, as ArchivesSpace treats them: records are shown without nulls, clients
 * send them back, and clients send "" for "none" (agentarchives' use_statement). The value itself when it has none
 * (most records: nothing below modifies it, validation works on a copy of its own).
 */
function withoutEmpty(value: unknown): unknown {
  return holdsEmpty(value) ? copyWithoutEmpty(value) : value;
}

/**
 * Generated fields (x-generated) the input lacks: kept from the stored record on update (a
 * client that leaves a ref_id out does not mean to change it), new ones otherwise.
 */
function fillGenerated(type: RecordType, doc: JsonObject, existing: JsonObject | undefined): JsonObject {
  const filled: Record<string, JsonValue> = { ...doc };
  for (const field of type.generated) {
    if (filled[field] !== undefined) continue;
    const kept = existing?.[field];
    filled[field] = typeof kept === "string" ? kept : randomBytes(16).toString("hex");
  }
  return filled;
}

/** A record checked against its schema alone: its stored fields, or its problems. */
export type CheckedRecord =
  { ok: true; prepared: PreparedRecord } | { ok: false; errors: FieldErrors; fields?: JsonObject };

/**
 * Schema checks only (no store access): safe keys, derived fields, validation, generated fields. On failure the
 * input's fields come back too when it is an object, so its links can still be checked and
 * every problem reported at once. Call `deps.enumerations.ready()` first.
 */
export function checkRecord(deps: OperationDeps, type: RecordType, raw: unknown, existing?: JsonObject): CheckedRecord {
  assertSafeKeys(raw);
  const input = withoutEmpty(raw);
  // Derived before validation, so the produced values are checked, indexed and stored like any other. A flag absent
  // here (its default not yet applied) is not false: the value is produced, as the default true would have it.
  const result = deps.validator.validate(type.name, withDerivedFields(type, input));
  const isObject = input !== null && typeof input === "object" && !Array.isArray(input);
  if (!result.ok) return { ok: false, errors: { ...result.errors }, ...(isObject && { fields: input as JsonObject }) };
  const fields = fillGenerated(type, result.doc, existing);
  // Stale: the stored record is not what was submitted (less its read-only fields): defaults or generated fields.
  const stale = !isObject || !deps.validator.sameWithoutReadOnly(type.name, input as JsonObject, fields);
  return { ok: true, prepared: { fields, stale, warnings: droppedWarnings(result.dropped) } };
}

/** Every problem of a checked record in one 400: its schema errors and its links' (`links`). */
export function problemsOf(checked: CheckedRecord, links: FieldErrors): FieldErrors {
  const errors = fieldErrors();
  if (!checked.ok) mergeFieldErrors(errors, checked.errors);
  mergeFieldErrors(errors, links);
  return errors;
}

/** `existing`: the stored record an update replaces. */
export async function prepareRecord(
  deps: OperationDeps,
  type: RecordType,
  scope: Scope,
  raw: unknown,
  existing?: JsonObject,
  /** Links are checked inside this transaction (a record created earlier in it counts as existing). */
  session?: ClientSession,
): Promise<PreparedRecord> {
  // Enumerated fields are checked against the enumerations' values as they are now.
  await deps.enumerations.ready();
  const checked = checkRecord(deps, type, raw, existing);
  const linked = checked.ok ? checked.prepared.fields : checked.fields;
  const problems =
    linked === undefined
      ? undefined
      : (await linkProblemsOfMany(deps, type.name, scope, [linked], undefined, session))[0];
  const errors = problemsOf(checked, problems ?? fieldErrors());
  if (!checked.ok || Object.keys(errors).length > 0) throw new ApiError(400, errors);
  return checked.prepared;
}
