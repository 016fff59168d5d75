// The agent detail merge's `selections` (ArchivesSpace's merge_request_detail, backend/app/lib/merge_helpers.rb):
// which sub-records, or fields of them, of the first merged agent the target takes. Its shape, as ArchivesSpace's
// merge form sends it:
//
//   {"names": [{"primary_name": "REPLACE", "position": "0"}],      the target's name 0 takes the victim's name 0's
//                                                                   primary_name
//    "agent_record_identifiers": [{"append": "REPLACE", "position": "1"}],   the victim's identifier 1 is added
//    "agent_conventions_declarations": [{"replace": "REPLACE", "position": "0"}]}   the target's declaration 0
//                                                                   (the entry's index in the list) is replaced by
//                                                                   the victim's declaration 0
//
// A key whose value is not "REPLACE" is not selected. As in ArchivesSpace, an appended name is neither authorized
// nor the display name, and an appended record identifier is not primary; a replaced one keeps the target's flags.
// `{"<field>": "REPLACE"}` at the top takes a whole top-level field of the victim. Unlike ArchivesSpace, which logs
// and ignores a selection it cannot apply, a selection naming what is not there is a 400 naming it, and the target
// as selected must be a valid record (400 otherwise): nothing is merged then.
import { badRequest } from "../../errors/api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../registry/json.js";
import { addFieldError, fieldErrors, type FieldErrors } from "../../registry/validation-errors.js";
import type { RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { checkRecord } from "../operations/prepare.js";
import { shapeRecord } from "../operations/shape.js";
import { trusted } from "../types.js";

const SELECTED = "REPLACE";
/** A record or sub-record being changed in place. */
type Editable = Record<string, JsonValue>;
/** The flags of which a record holds at most one set: an appended sub-record never takes them, a replaced one keeps
 * the target's. */
const EXCLUSIVE_FLAGS = new Map<string, readonly string[]>([
  ["names", ["authorized", "is_display_name"]],
  ["agent_record_identifiers", ["primary_identifier"]],
]);
const NAME = /^[a-z][a-z0-9_]*$/;
const SHAPER = trusted("merge");

/** The writable top-level properties of the type, and which of them are lists of sub-records. */
function properties(type: RecordType): Map<string, { list: boolean }> {
  const found = new Map<string, { list: boolean }>();
  const declared = isJsonObject(type.schema.properties) ? type.schema.properties : {};
  const reciprocal = new Set(type.reciprocalLinks.map((link) => link.property));
  for (const [name, schema] of Object.entries(declared)) {
    // Reciprocal links move to the target whole (merge.ts); read-only fields are the server's.
    if (!isJsonObject(schema) || schema.readOnly === true || reciprocal.has(name)) continue;
    found.set(name, { list: schema.type === "array" });
  }
  return found;
}

function positionOf(raw: JsonValue | undefined): number | undefined {
  const text = typeof raw === "number" ? String(raw) : raw;
  return typeof text === "string" && /^[0-9]{1,6}$/.test(text) ? Number(text) : undefined;
}

function listIn(record: JsonObject, name: string): JsonValue[] {
  const value = Object.hasOwn(record, name) ? record[name] : undefined;
  if (Array.isArray(value)) return value;
  const list: JsonValue[] = [];
  Object.defineProperty(record, name, { value: list, enumerable: true, writable: true, configurable: true });
  return list;
}

/** Applies one list's selections to `target` (in place), noting problems in `errors`. */
function applyListSelections(
  name: string,
  entries: JsonValue,
  target: JsonObject,
  victim: JsonObject,
  errors: FieldErrors,
): void {
  if (!Array.isArray(entries)) return addFieldError(errors, `selections/${name}`, "Must be a list of selections");
  const mine = listIn(target, name);
  const theirs = Object.hasOwn(victim, name) && Array.isArray(victim[name]) ? (victim[name] as JsonValue[]) : [];
  const flags = EXCLUSIVE_FLAGS.get(name) ?? [];
  entries.forEach((entry, index) => {
    const at = `selections/${name}/${index}`;
    if (!isJsonObject(entry)) return addFieldError(errors, at, "Must be an object");
    // ArchivesSpace's own example appends with "APPEND", which its parser ignores; it is taken here as meant.
    const chosen = Object.entries(entry).filter(
      ([key, value]) => key !== "position" && (value === SELECTED || (key === "append" && value === "APPEND")),
    );
    if (chosen.length === 0) return;
    const position = positionOf(entry.position);
    const source = position === undefined ? undefined : theirs[position];
    if (!isJsonObject(source))
      return addFieldError(errors, `${at}/position`, `Must be the position of one of the merged agent's ${name}`);
    for (const [key] of chosen) {
      if (key === "append") {
        const added = structuredClone(source) as Editable;
        for (const flag of flags) if (Object.hasOwn(added, flag)) added[flag] = false;
        mine.push(added);
        continue;
      }
      const current = mine[index];
      if (!isJsonObject(current)) {
        addFieldError(errors, at, `The target has no ${name} item ${index} to replace`);
        continue;
      }
      if (key === "replace") {
        const replaced = structuredClone(source) as Editable;
        for (const flag of flags) if (Object.hasOwn(current, flag)) replaced[flag] = current[flag] as JsonValue;
        mine[index] = replaced;
      } else if (!NAME.test(key) || !Object.hasOwn(source, key)) {
        addFieldError(errors, `${at}/${key}`, `Not a field of the merged agent's ${name} item ${String(position)}`);
      } else {
        (current as Editable)[key] = structuredClone(source[key] as JsonValue);
      }
    }
  });
}

/**
 * The target's fields once `selections` of `victim` are applied, checked as an update of the target would be
 * (sort names derived again). @throws ApiError 400 naming the selection or the field at fault
 */
export function applySelections(
  deps: OperationDeps,
  type: RecordType,
  target: StoredRecord,
  victim: StoredRecord,
  selections: JsonObject,
): JsonObject {
  const record = shapeRecord(deps.registry, type, target, SHAPER) as Editable;
  const source = shapeRecord(deps.registry, type, victim, SHAPER);
  const known = properties(type);
  const errors = fieldErrors();
  for (const [name, value] of Object.entries(selections)) {
    const property = known.get(name);
    if (property === undefined) {
      addFieldError(errors, `selections/${name}`, "Not a field a merge can take from the merged agent");
      continue;
    }
    if (!property.list) {
      if (value !== SELECTED) continue;
      const taken = Object.hasOwn(source, name) ? source[name] : undefined;
      if (taken === undefined) delete record[name];
      else record[name] = structuredClone(taken as JsonValue);
      continue;
    }
    applyListSelections(name, value as JsonValue, record, source, errors);
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  const checked = checkRecord(deps, type, record, target);
  if (!checked.ok) throw badRequest(checked.errors);
  return checked.prepared.fields;
}

/** The target as the merge would leave it, without merging (`dry_run=true`): what its GET would show of it. */
export function previewSelections(
  deps: OperationDeps,
  type: RecordType,
  target: StoredRecord,
  victim: StoredRecord,
  selections: JsonObject,
): JsonObject {
  const fields = applySelections(deps, type, target, victim, selections);
  return shapeRecord(deps.registry, type, { ...fields, ...storage(target) }, SHAPER);
}

function storage(doc: StoredRecord): StoredRecord {
  const { id, repo_id, lock_version, created_by, create_time, last_modified_by, system_mtime, user_mtime } = doc;
  return { id, repo_id, lock_version, created_by, create_time, last_modified_by, system_mtime, user_mtime };
}
