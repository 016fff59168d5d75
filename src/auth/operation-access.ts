// Who may perform which operation on which record type: the permission code comes from the
// type's schema (x-permissions, via the registry), never from a route. A null code lets any
// logged-in user in; only reading a type marked x-public-read needs nobody logged in
// (docs/api.md §2). Every record operation asks this before it touches the store; the HTTP
// layer asks it too, before it judges a path, so a caller who may not learns nothing from a 404.
import { accessDenied } from "../errors/api-error.js";
import type { RecordOperation, RecordType } from "../registry/index.js";
import type { Actor } from "./actor.js";
import { assertRepositoryTakesRecords } from "./hidden-repository.js";
import { hasPermission, hasPermissionAnywhere, type PermissionMap } from "./permissions.js";

/**
 * Whether `permissions` allow `operation` with `code` on a record of `type`:
 * - a repository's record: the code granted in that repository or globally;
 * - a record every repository shares (x-scope global: agents, subjects, vocabularies,
 *   locations, profiles): creating or editing one takes the code granted anywhere, as in
 *   ArchivesSpace; deleting one takes it granted globally, since a delete reaches into every
 *   repository whose records link to it (a repository's group only speaks for that repository).
 *   A global-level code (permissions.ts) counts only globally in every case.
 */
export function allows(
  permissions: PermissionMap,
  type: RecordType,
  operation: RecordOperation,
  code: string,
  repoId: number | undefined,
): boolean {
  if (type.scope === "repository") return hasPermission(permissions, code, repoId);
  return operation === "delete" ? hasPermission(permissions, code) : hasPermissionAnywhere(permissions, code);
}

/**
 * Refuses `actor` the `operation` on a record of `type` in repository `repoId` unless the type's
 * permissions allow it. An unknown repository id (undefined) lets only global grants count. A
 * write into the hidden global repository is refused to everyone but trusted code, unless the type
 * lives there too (x-in-hidden-scope: the global groups).
 * @throws ApiError 403 `Access denied`, or 403 for the hidden repository
 */
export function assertMay(actor: Actor, type: RecordType, operation: RecordOperation, repoId?: number): void {
  if (actor.kind === "trusted") return;
  if (actor.kind === "anonymous") {
    if (operation === "read" && type.publicRead) return;
    throw accessDenied();
  }
  const code = type.permissions[operation];
  if (code !== null && !allows(actor.permissions, type, operation, code, repoId)) throw accessDenied();
  if (operation !== "read" && type.scope === "repository" && !type.inHiddenScope) assertRepositoryTakesRecords(repoId);
}
