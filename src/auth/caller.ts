// Who is calling a route served outside the record controllers (accounts, enumerations,
// imports, exports) and what they may do. No session, or a session whose user
// has since been deleted or deactivated, is 403 `Access denied`, like a missing permission.
import type { Response } from "express";
import type { AccessControl } from "./access-control.js";
import { ADMINISTER_SYSTEM, hasPermission } from "./permissions.js";
import { principalOf } from "./session-middleware.js";
import { accessDenied } from "../errors/api-error.js";
import type { Actor, UserActor } from "./actor.js";

export interface Caller extends UserActor {
  /** The session token the request carried. */
  token: string;
}

export async function callerOf(access: AccessControl, res: Response): Promise<Caller> {
  const principal = principalOf(res);
  if (!principal) throw accessDenied();
  const permissions = await access.permissionsOf(principal.username);
  if (!permissions) throw accessDenied();
  return { kind: "user", username: principal.username, token: principal.token, permissions };
}

/**
 * The caller, once they hold `code` (a null code, from a schema's x-permissions, needs only a
 * session). With `repoId`, a grant in that repository counts as well as a global one.
 */
export async function callerWith(
  access: AccessControl,
  res: Response,
  code: string | null,
  repoId?: number,
): Promise<Caller> {
  const caller = await callerOf(access, res);
  if (code !== null && !hasPermission(caller.permissions, code, repoId)) throw accessDenied();
  return caller;
}

/**
 * Whether the actor may make, unmake, change or delete an administrator: an administrator (by
 * what they hold, not a stored flag), or trusted code.
 */
export function isAdministrator(actor: Actor): boolean {
  if (actor.kind === "trusted") return true;
  return actor.kind === "user" && hasPermission(actor.permissions, ADMINISTER_SYSTEM);
}
