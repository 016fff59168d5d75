// x-read-permission: a top-level field only some callers may see, as ArchivesSpace shows an agent's
// contacts only to holders of view_agent_contact_record. The registry lists each type's guards; this
// decides them for one caller. Reads hide the field (a guarded list reads as [], as ArchivesSpace
// answers); writes follow ArchivesSpace too: a create that fills a field its caller may not see is
// refused, and an update from such a caller keeps the stored value, since the caller never saw it.
import { allows } from "../../auth/operation-access.js";
import { accessDenied } from "../../errors/api-error.js";
import type { JsonObject, JsonValue, RecordType } from "../../registry/index.js";
import type { Actor } from "../types.js";

function mayRead(viewer: Actor, type: RecordType, code: string, repoId: number | undefined): boolean {
  if (viewer.kind === "trusted") return true;
  if (viewer.kind === "anonymous") return false;
  return allows(viewer.permissions, type, "read", code, repoId);
}

/** Deletes from `record` (in place) the guarded fields `viewer` may not see. */
export function hideGuardedFields(
  type: RecordType,
  record: Record<string, JsonValue>,
  viewer: Actor,
  repoId: number | undefined,
): void {
  for (const { field, code } of type.readGuards) if (!mayRead(viewer, type, code, repoId)) delete record[field];
}

function isEmpty(value: JsonValue | undefined): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

/** A create may not fill a guarded field its caller may not see (403, as ArchivesSpace answers). */
export function assertMayFillGuarded(type: RecordType, fields: JsonObject, actor: Actor, repoId?: number): void {
  for (const { field, code } of type.readGuards)
    if (!isEmpty(fields[field]) && !mayRead(actor, type, code, repoId)) throw accessDenied();
}

/**
 * An update's fields (in place) with each guarded field its caller may not see put back as stored: the caller never
 * saw it, so leaving it out (or sending it) says nothing about it.
 */
export function keepGuardedFields(
  type: RecordType,
  fields: Record<string, JsonValue>,
  actor: Actor,
  repoId: number | undefined,
  existing: JsonObject,
): void {
  for (const { field, code } of type.readGuards) {
    if (mayRead(actor, type, code, repoId)) continue;
    const stored = existing[field];
    if (stored === undefined) delete fields[field];
    else fields[field] = stored;
  }
}
