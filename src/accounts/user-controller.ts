// User administration (docs/api.md §8): every route needs the permission the user schema
// declares (manage_users), and touching an administrator (changing, deactivating, deleting one,
// resetting its password, or making one) needs an administrator.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Response } from "express";
import { respond } from "../records/http/answer.js";
import { Route } from "../http/described-route.js";
import { accessDenied, conflict } from "../errors/api-error.js";
import type { JsonObject, RecordOperation } from "../registry/index.js";
import type { RecordOperations } from "../records/operations/index.js";
import type { AccountAccessControl } from "./access-control.js";
import { describeUserRoute as describe } from "./route-descriptions.js";
import { ADMIN_USERNAME } from "./bootstrap.js";
import { callerWith, isAdministrator, type Caller } from "../auth/caller.js";
import { idParam, listQueryOf, requiredParam, scalarParam } from "../records/http/request-params.js";
import type { UserAccounts } from "./user-accounts.js";

export interface UserControllerDeps {
  users: UserAccounts;
  operations: RecordOperations;
  access: AccountAccessControl;
}

function asksForAdmin(body: unknown): boolean {
  return (
    body !== null &&
    typeof body === "object" &&
    !Array.isArray(body) &&
    Object.hasOwn(body, "is_admin") &&
    (body as { is_admin?: unknown }).is_admin === true
  );
}

/**
 * A non-administrator with manage_users could otherwise make themselves an administrator, or
 * take one over (reset its password, reactivate it, log in as it). Who is an administrator is
 * what they can do (administer_system by the flag or by a global group), not the stored flag.
 */
async function assertMayTouch(
  access: AccountAccessControl,
  caller: Caller,
  target: JsonObject | undefined,
  body?: unknown,
): Promise<void> {
  if (isAdministrator(caller)) return;
  if (body !== undefined && asksForAdmin(body)) throw accessDenied();
  if (
    target !== undefined &&
    (target.is_admin === true || (await access.isAdministratorAccount(String(target.username))))
  )
    throw accessDenied();
}

/** The Ts.ED controller of /users, to mount after the session controller (current-user is not an id). */
export function userController({ users, operations, access }: UserControllerDeps): new () => unknown {
  const type = operations.deps.registry.get("user");
  const permission = (operation: RecordOperation) => type.permissions[operation];
  const caller = (res: Response, operation: RecordOperation) => callerWith(access, res, permission(operation));

  @Controller("/")
  class UserController {
    @Route("post", type.collectionPath, describe.create)
    create(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const who = await caller(res, "create");
        const password = requiredParam(req, "password");
        await assertMayTouch(access, who, undefined, req.body);
        return users.create(req.body, password, who);
      });
    }

    @Route("get", type.collectionPath, describe.list)
    list(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        return operations.list("user", {}, listQueryOf(req), await caller(res, "read"));
      });
    }

    @Route("get", type.itemPath, describe.read)
    read(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const who = await caller(res, "read");
        const user = await users.read(idParam(req, "id"), who);
        const permissions = await access.permissionsOf(String(user.username));
        return permissions ? { ...user, permissions } : user;
      });
    }

    @Route("post", type.itemPath, describe.update)
    update(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const who = await caller(res, "update");
        const id = idParam(req, "id");
        const password = scalarParam(req, "password");
        const existing = await users.read(id, who);
        await assertMayTouch(access, who, existing, req.body);
        return users.update(id, req.body, password, who, who.token);
      });
    }

    @Route("delete", type.itemPath, describe.delete)
    delete(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const who = await caller(res, "delete");
        const id = idParam(req, "id");
        const existing = await users.read(id, who);
        await assertMayTouch(access, who, existing);
        // Start-up would bring it back with the default password: a worse outcome than keeping it.
        if (existing.username === ADMIN_USERNAME) throw conflict("The admin user cannot be deleted");
        return users.delete(id, who);
      });
    }
  }
  return UserController;
}
