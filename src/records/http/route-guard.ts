// Who may call a record route: the permission code comes from the type's schema
// (x-permissions, via the registry), never from the route. A null code is an open route.
import type { Response } from "express";
import type { AccessControl } from "../../auth/access-control.js";
import { hasPermission, hasPermissionAnywhere } from "../../auth/permissions.js";
import { principalOf } from "../../auth/session-middleware.js";
import { accessDenied } from "../../errors/api-error.js";
import type { RecordOperation, RecordType } from "../../registry/index.js";
import type { Actor } from "../operations/index.js";

/** The actor of a write on an open route, where nobody need be logged in. */
export const ANONYMOUS_ACTOR: Actor = { username: "anonymous" };

/**
 * The actor the request acts as, once it may perform `operation` on `type` in repository
 * `repoId`. An unparseable repository id arrives as undefined: then only global grants count,
 * so the answer to someone without them is 403, not a 404 that would tell them more. A global
 * type accepts the code granted globally or in any repository (see hasPermissionAnywhere).
 * @throws ApiError 403 `Access denied`
 */
export async function authorize(
  accessControl: AccessControl,
  type: RecordType,
  operation: RecordOperation,
  res: Response,
  repoId: number | undefined,
): Promise<Actor> {
  const principal = principalOf(res);
  const code = type.permissions[operation];
  if (code === null) return principal ? { username: principal.username } : ANONYMOUS_ACTOR;
  if (!principal) throw accessDenied();
  const permissions = await accessControl.permissionsOf(principal.username);
  const allowed = permissions !== undefined && (type.scope === "repository" ? hasPermission(permissions, code, repoId) : hasPermissionAnywhere(permissions, code));
  if (!allowed) throw accessDenied();
  return { username: principal.username };
}
