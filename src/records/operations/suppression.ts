// Suppression (ArchivesSpace's `suppressed` routes, docs/api.md §14): a suppressed record stays stored but is hidden
// from callers who may not see suppressed records: 404 to a read, left out of lists, tree views and resolve[].
// ArchivesSpace hides them by one filter on every query of a suppressible model unless the caller holds
// manage_repository, view_suppressed or suppress_archival_record (ASModel_scoping.rb, rest.rb); so does this module:
// `hiddenFilter` is what every read path adds to its store query.
import { conflict, notFound } from "../../errors/api-error.js";
import { hasPermission } from "../../auth/permissions.js";
import type { RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { Actor } from "../types.js";

/** The permission ArchivesSpace's suppressed routes need, for every suppressible type. */
export const SUPPRESS_PERMISSION = "suppress_archival_record";

/** Whoever holds one of these in a repository sees its suppressed records (ArchivesSpace's rule). */
const SEES_SUPPRESSED = ["suppress_archival_record", "manage_repository", "view_suppressed"] as const;

/** The stored field holding the state (the computed `suppressed` copies it). */
export const SUPPRESSED_FIELD = "suppressed";

/** ArchivesSpace's words (a ReadOnlyException) for an update of a suppressed record. */
export const SUPPRESSED_READ_ONLY = "Can't update an object that has been suppressed";

/** Whether `actor` sees the suppressed records of repository `repoId`. */
export function seesSuppressed(actor: Actor, repoId: number | undefined): boolean {
  if (actor.kind === "trusted") return true;
  if (actor.kind === "anonymous") return false;
  return SEES_SUPPRESSED.some((code) => hasPermission(actor.permissions, code, repoId));
}

/** What a store query of `type` adds so that `actor` finds no suppressed record (nothing when they may see them). */
export function hiddenFilter(type: RecordType, actor: Actor, repoId: number | undefined): Record<string, unknown> {
  return type.suppressible && !seesSuppressed(actor, repoId) ? { [SUPPRESSED_FIELD]: { $ne: true } } : {};
}

export function isSuppressed(record: StoredRecord): boolean {
  return record[SUPPRESSED_FIELD] === true;
}

/**
 * Whether one record read by its id is hidden from `actor`. Checked on the record read rather than added to the query,
 * so a read by id stays the unique-key lookup it is for everyone.
 */
export function hiddenFrom(type: RecordType, record: StoredRecord, actor: Actor): boolean {
  return type.suppressible && isSuppressed(record) && !seesSuppressed(actor, record.repo_id);
}

/**
 * Refuses a write to a suppressed record, as ArchivesSpace does: a caller who may not see it is told it is not
 * there (404), one who may is told it cannot be changed (409) until it is unsuppressed.
 */
export function assertNotSuppressed(type: RecordType, record: StoredRecord, actor: Actor): void {
  if (!type.suppressible || !isSuppressed(record)) return;
  if (!seesSuppressed(actor, record.repo_id)) throw notFound(type.title);
  throw conflict(SUPPRESSED_READ_ONLY);
}
