// The user routes of ArchivesSpace's users controller beyond the record's five (docs/api.md §16):
// a user's groups in one repository, activation, username completion, the permission list, and
// Arca's own password change. Mounted at "/" before the record controllers, since
// `/users/complete` would otherwise be read as the user with id "complete".
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import { callerOf, callerWith, isAdministrator, type Caller } from "../auth/caller.js";
import { hasPermission, hasPermissionAnywhere } from "../auth/permissions.js";
import type { SessionStore } from "../auth/session-store.js";
import { accessDenied, ApiError, badRequest, conflict, notFound } from "../errors/api-error.js";
import { Route } from "../http/described-route.js";
import { respond } from "../records/http/answer.js";
import { arrayParam, booleanParam, requiredParam, scalarParam } from "../records/http/request-params.js";
import type { RecordOperations } from "../records/operations/index.js";
import { LOCK_VERSION_STALE } from "../records/operations/update.js";
import type { JsonObject } from "../registry/index.js";
import type { AccountAccessControl } from "./access-control.js";
import { ADMIN_USERNAME } from "./bootstrap.js";
import type { CredentialStore } from "./credential-store.js";
import { isPermissionLevelQuery, permissionList, PERMISSION_LEVELS } from "./permission-list.js";
import { describeUserRoute as describe } from "./user-route-descriptions.js";
import { changeMemberships, groupRefs, GROUPS_PARAMETER, MANAGE_REPOSITORY } from "./user-groups.js";
import { completeUsernames } from "./username-completion.js";

export interface UserRouteDeps {
  operations: RecordOperations;
  access: AccountAccessControl;
  credentials: CredentialStore;
  sessions: SessionStore;
}

const USER = "user";
const REPOSITORY = "repository";
const MANAGE_USERS = "manage_users";
const POSITIVE_ID = /^[1-9][0-9]{0,14}$/;
/** How often an activation is tried again when a concurrent update of the user got in first. */
const ACTIVATION_ATTEMPTS = 3;

/** A path or query id; undefined when no record could have it. */
function positiveId(raw: unknown): number | undefined {
  return typeof raw === "string" && POSITIVE_ID.test(raw) ? Number(raw) : undefined;
}

export function userRoutesController({ operations, access, credentials, sessions }: UserRouteDeps): new () => unknown {
  const { store } = operations.deps;
  const hiddenUserIds = operations.deps.registry.get(USER).hiddenIds;

  /** The stored user the path names. @throws ApiError 404 */
  const storedUser = async (req: Request): Promise<{ id: number; username: string }> => {
    const id = positiveId(req.params.id);
    const found =
      id === undefined || hiddenUserIds.includes(id)
        ? null
        : await store.collection(USER).findOne({ id }, { projection: { id: 1, username: 1 } });
    if (!found || id === undefined) throw notFound("User");
    return { id, username: String(found.username) };
  };

  const setGroups = async (req: Request, res: Response) => {
    const caller = await callerOf(access, res);
    const rawRepo = requiredParam(req, "repo_id");
    const repoId = positiveId(rawRepo);
    if (repoId === undefined) throw badRequest({ repo_id: [`Must be a repository id, not "${rawRepo}"`] });
    booleanParam(req, "remove_groups", false);
    const refs = groupRefs(arrayParam(req, GROUPS_PARAMETER) ?? []).filter((ref) => ref.repoId === repoId);
    // Judged before anything is looked up, so a caller who may not learns nothing from a 404.
    if (!hasPermission(caller.permissions, MANAGE_REPOSITORY, repoId)) throw accessDenied();
    const user = await storedUser(req);
    const repository = await store.collection(REPOSITORY).findOne({ id: repoId }, { projection: { id: 1 } });
    if (!repository) throw notFound("Repository");
    await store.transaction((session) =>
      changeMemberships(operations.deps, access, {
        username: user.username,
        add: refs,
        replaceIn: repoId,
        caller,
        writtenBy: caller.username,
        session,
      }),
    );
    return { status: "OK" };
  };

  /** Sets is_active_user through the user's update, so the account rules (administrators, sessions) apply. */
  const setActive = async (req: Request, res: Response, active: boolean): Promise<JsonObject> => {
    const caller = await callerWith(access, res, MANAGE_USERS);
    const { id, username } = await storedUser(req);
    if (!active && username === ADMIN_USERNAME) throw conflict("The admin user cannot be deactivated");
    for (let attempt = 1; ; attempt += 1) {
      const record = await operations.read(USER, {}, id, caller);
      if (record.is_active_user !== active) {
        try {
          await operations.update(USER, {}, id, { ...record, is_active_user: active }, caller);
        } catch (error) {
          // A concurrent edit of the user moved lock_version on: read it again and set the flag on that.
          const stale = error instanceof ApiError && error.status === 409 && error.detail === LOCK_VERSION_STALE;
          if (stale && attempt < ACTIVATION_ATTEMPTS) continue;
          throw error;
        }
      }
      return operations.read(USER, {}, id, caller);
    }
  };

  const mayChangePassword = async (caller: Caller, username: string, req: Request): Promise<void> => {
    if (hasPermissionAnywhere(caller.permissions, MANAGE_USERS)) {
      if (!isAdministrator(caller) && (await access.isAdministratorAccount(username))) throw accessDenied();
      return;
    }
    if (caller.username !== username) throw accessDenied();
    const current = scalarParam(req, "current_password");
    if (current === undefined) throw badRequest({ current_password: ["Required to change your own password"] });
    if (!(await credentials.verify(username, current))) throw accessDenied();
  };

  const setPassword = async (req: Request, res: Response) => {
    const caller = await callerOf(access, res);
    const password = requiredParam(req, "password");
    const { id, username } = await storedUser(req);
    await mayChangePassword(caller, username, req);
    await credentials.set(username, password);
    await sessions.endAllFor(username, caller.token);
    return { status: "Updated", id, uri: operations.deps.registry.uriFor(USER, id) };
  };

  const complete = async (req: Request, res: Response) => {
    const caller = await callerOf(access, res);
    const query = requiredParam(req, "query");
    const allowed =
      hasPermissionAnywhere(caller.permissions, MANAGE_USERS) ||
      hasPermissionAnywhere(caller.permissions, MANAGE_REPOSITORY);
    if (!allowed) throw accessDenied();
    return completeUsernames(store, query);
  };

  const permissions = async (req: Request, res: Response) => {
    await callerOf(access, res);
    const level = requiredParam(req, "level");
    if (!isPermissionLevelQuery(level))
      throw badRequest({ level: [`Must be one of ${PERMISSION_LEVELS.join(", ")}, not "${level}"`] });
    return permissionList(level);
  };

  @Controller("/")
  class UserRoutesController {
    @Route("get", "/users/complete", describe.complete)
    complete(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, complete);
    }

    @Route("post", "/users/:id/groups", describe.groups)
    groups(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, setGroups);
    }

    @Route("get", "/users/:id/activate", describe.activate)
    activate(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, (req, res) => setActive(req, res, true));
    }

    @Route("get", "/users/:id/deactivate", describe.deactivate)
    deactivate(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, (req, res) => setActive(req, res, false));
    }

    @Route("post", "/users/:id/password", describe.password)
    password(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, setPassword);
    }

    @Route("get", "/permissions", describe.permissions)
    permissions(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, permissions);
    }
  }
  return UserRoutesController;
}
