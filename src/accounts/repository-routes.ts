// Repositories (docs/api.md §9). Reading needs no session; writing needs what the repository
// schema declares, held globally. The hidden global repository (id 1) is never listed and
// answers 404 to every item route, so it can be neither read, changed nor deleted. Creating
// one goes through RecordOperations, whose repository hook adds the standard groups.
import { Router, type Response } from "express";
import { GLOBAL_REPOSITORY_ID } from "../auth/permissions.js";
import { principalOf } from "../auth/session-middleware.js";
import { notFound } from "../errors/api-error.js";
import type { RecordOperation } from "../registry/index.js";
import type { Actor, RecordOperations } from "../records/operations/index.js";
import type { AccountAccessControl } from "./access-control.js";
import { callerWith } from "../auth/caller.js";
import { idParam } from "../records/http/request-params.js";

export interface RepositoryRoutesDeps {
  operations: RecordOperations;
  access: AccountAccessControl;
}

const REPOSITORY = "repository";
/** Who writes on an open route when nobody is logged in (only if a schema ever opens one). */
const ANONYMOUS: Actor = { username: "anonymous" };

export function repositoryRoutes({ operations, access }: RepositoryRoutesDeps): Router {
  const router = Router();
  const { registry } = operations.deps;

  /** A null code (the schema's read) is an open route: nobody need be logged in. */
  const actorFor = async (res: Response, operation: RecordOperation): Promise<Actor> => {
    const code = registry.permission(REPOSITORY, operation);
    if (code !== null) return callerWith(access, res, code);
    const principal = principalOf(res);
    return principal ? { username: principal.username } : ANONYMOUS;
  };

  const visibleId = (raw: number): number => {
    if (raw === GLOBAL_REPOSITORY_ID) throw notFound(registry.get(REPOSITORY).title);
    return raw;
  };

  router.get("/repositories", async (_req, res) => {
    await actorFor(res, "read");
    const ids = ((await operations.list(REPOSITORY, {}, { mode: { kind: "allIds" } })) as number[]).filter(
      (id) => id !== GLOBAL_REPOSITORY_ID,
    );
    res.json(ids.length === 0 ? [] : await operations.list(REPOSITORY, {}, { mode: { kind: "idSet", ids } }));
  });

  router.post("/repositories", async (req, res) => {
    const actor = await actorFor(res, "create");
    res.json(await operations.create(REPOSITORY, {}, req.body, actor));
  });

  router.get("/repositories/:id", async (req, res) => {
    const id = visibleId(idParam(req, "id"));
    await actorFor(res, "read");
    res.json(await operations.read(REPOSITORY, {}, id));
  });

  router.post("/repositories/:id", async (req, res) => {
    const actor = await actorFor(res, "update");
    const id = visibleId(idParam(req, "id"));
    res.json(await operations.update(REPOSITORY, {}, id, req.body, actor));
  });

  router.delete("/repositories/:id", async (req, res) => {
    const actor = await actorFor(res, "delete");
    const id = visibleId(idParam(req, "id"));
    res.json(await operations.delete(REPOSITORY, {}, id, actor));
  });

  return router;
}
