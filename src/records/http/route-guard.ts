// Who may call a record route: the permission code comes from the type's schema
// (x-permissions, via the registry), never from the route. A null code lets any logged-in user
// in; only reading a type marked x-public-read needs no session (docs/api.md §2).
import type { Response } from "express";
import type { AccessControl } from "../../auth/access-control.js";
import { assertRepositoryTakesRecords } from "../../auth/hidden-repository.js";
import { hasPermission, hasPermissionAnywhere, type PermissionMap } from "../../auth/permissions.js";
import { principalOf } from "../../auth/session-middleware.js";
import { accessDenied } from "../../errors/api-error.js";
import type { RecordOperation, RecordType } from "../../registry/index.js";
import type { Actor } from "../operations/index.js";

/** The actor of a read on a public route (x-public-read), where nobody need be logged in. */
export const ANONYMOUS_ACTOR: Actor = { username: "anonymous" };

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
 * The actor the request acts as, once it may perform `operation` on `type` in repository
 * `repoId`. An unparseable repository id arrives as undefined: then only global grants count,
 * so the answer to someone without them is 403, not a 404 that would tell them more. A write
 * into the hidden global repository is refused to everyone who passed that check.
 * @throws ApiError 403 `Access denied`, or 403 for the hidden repository
 */
export async function authorize(
  accessControl: AccessControl,
  type: RecordType,
  operation: RecordOperation,
  res: Response,
  repoId: number | undefined,
): Promise<Actor> {
  const principal = principalOf(res);
  if (!principal) {
    if (operation === "read" && type.publicRead) return ANONYMOUS_ACTOR;
    throw accessDenied();
  }
  const code = type.permissions[operation];
  const writes = operation !== "read" && type.scope === "repository";
  if (code === null) {
    if (writes) assertRepositoryTakesRecords(repoId);
    return { username: principal.username };
  }
  const permissions = await accessControl.permissionsOf(principal.username);
  if (permissions === undefined || !allows(permissions, type, operation, code, repoId)) throw accessDenied();
  if (writes) assertRepositoryTakesRecords(repoId);
  return { username: principal.username };
}
