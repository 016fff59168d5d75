// User administration (api-contract §8): every route needs the permission the user schema
// declares (manage_users), and touching an administrator needs an administrator.
import { Router, type Response } from "express";
import { accessDenied, conflict } from "../errors/api-error.js";
import type { RecordOperation } from "../registry/index.js";
import type { RecordOperations } from "../records/operations/index.js";
import type { AccountAccessControl } from "./access-control.js";
import { ADMIN_USERNAME } from "./bootstrap.js";
import { callerWith, isAdministrator, type Caller } from "./caller.js";
import { idParam, listQueryOf, requiredParam, scalarParam } from "./request-params.js";
import type { UserAccounts } from "./user-accounts.js";

export interface UserRoutesDeps {
  users: UserAccounts;
  operations: RecordOperations;
  access: AccountAccessControl;
}

function asksForAdmin(body: unknown): boolean {
  return body !== null && typeof body === "object" && (body as Record<string, unknown>).is_admin === true;
}

/** A non-administrator with manage_users could otherwise make themselves, or take over, an administrator. */
function assertMayTouchAdmins(caller: Caller, ...admins: boolean[]): void {
  if (admins.some(Boolean) && !isAdministrator(caller)) throw accessDenied();
}

export function userRoutes({ users, operations, access }: UserRoutesDeps): Router {
  const router = Router();
  const permission = (operation: RecordOperation) => operations.deps.registry.permission("user", operation);
  const caller = (res: Response, operation: RecordOperation) => callerWith(access, res, permission(operation));

  router.post("/users", async (req, res) => {
    const who = await caller(res, "create");
    const password = requiredParam(req, "password");
    assertMayTouchAdmins(who, asksForAdmin(req.body));
    res.json(await users.create(req.body, password, who));
  });

  router.get("/users", async (req, res) => {
    await caller(res, "read");
    res.json(await operations.list("user", {}, listQueryOf(req)));
  });

  router.get("/users/:id", async (req, res) => {
    await caller(res, "read");
    const user = await users.read(idParam(req, "id"));
    const permissions = await access.permissionsOf(String(user.username));
    res.json(permissions ? { ...user, permissions } : user);
  });

  router.post("/users/:id", async (req, res) => {
    const who = await caller(res, "update");
    const id = idParam(req, "id");
    const password = scalarParam(req, "password");
    const existing = await users.read(id);
    assertMayTouchAdmins(who, existing.is_admin === true, asksForAdmin(req.body));
    res.json(await users.update(id, req.body, password, who, who.token));
  });

  router.delete("/users/:id", async (req, res) => {
    const who = await caller(res, "delete");
    const id = idParam(req, "id");
    const existing = await users.read(id);
    assertMayTouchAdmins(who, existing.is_admin === true);
    // Start-up would bring it back with the default password: a worse outcome than keeping it.
    if (existing.username === ADMIN_USERNAME) throw conflict("The admin user cannot be deleted");
    res.json(await users.delete(id, who));
  });

  return router;
}
