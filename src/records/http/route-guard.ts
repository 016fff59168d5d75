// The actor of a record route's request, once it may perform the operation: a logged-in user
// with their permissions, or nobody (ANONYMOUS). The rule itself is the operation layer's
// (src/auth/operation-access.ts); it is asked here as well, before the path is judged, so a
// caller who may not learns nothing from a 404.
import type { Response } from "express";
import type { AccessControl } from "../../auth/access-control.js";
import { assertMay } from "../../auth/operation-access.js";
import { principalOf } from "../../auth/session-middleware.js";
import type { RecordOperation, RecordType } from "../../registry/index.js";
import { ANONYMOUS, type Actor } from "../operations/index.js";

/**
 * Who the request acts as. A session whose user has since been deleted or deactivated acts as
 * nobody: it still reads what anyone may, and nothing else.
 */
export async function requestActor(accessControl: AccessControl, res: Response): Promise<Actor> {
  const principal = principalOf(res);
  if (!principal) return ANONYMOUS;
  const permissions = await accessControl.permissionsOf(principal.username);
  if (permissions === undefined) return ANONYMOUS;
  return { kind: "user", username: principal.username, permissions, token: principal.token };
}

/**
 * The request's actor, once it may perform `operation` on `type` in repository `repoId` (an
 * unparseable repository id arrives as undefined: then only global grants count, so the
 * answer to someone without them is 403, not a 404 that would tell them more).
 * @throws ApiError 403
 */
export async function authorize(
  accessControl: AccessControl,
  type: RecordType,
  operation: RecordOperation,
  res: Response,
  repoId: number | undefined,
): Promise<Actor> {
  const actor = await requestActor(accessControl, res);
  assertMay(actor, type, operation, repoId);
  return actor;
}
