// Repositories (docs/api.md §9). Reading needs no session; writing needs what the repository
// schema declares, held globally. The hidden global repository (id 1) is never listed and
// answers 404 to every item route, so it can be neither read, changed nor deleted. Creating
// one goes through RecordOperations, whose repository hook adds the standard groups.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import { Delete, Get, Post } from "@tsed/schema";
import type { Response } from "express";
import { respond } from "../records/http/answer.js";
import { GLOBAL_REPOSITORY_ID } from "../auth/permissions.js";
import { principalOf } from "../auth/session-middleware.js";
import { notFound } from "../errors/api-error.js";
import type { RecordOperation } from "../registry/index.js";
import type { Actor, RecordOperations } from "../records/operations/index.js";
import type { AccountAccessControl } from "./access-control.js";
import { callerWith } from "../auth/caller.js";
import { idParam } from "../records/http/request-params.js";

export interface RepositoryControllerDeps {
  operations: RecordOperations;
  access: AccountAccessControl;
}

const REPOSITORY = "repository";
/** Who writes on an open route when nobody is logged in (only if a schema ever opens one). */
const ANONYMOUS: Actor = { username: "anonymous" };

/** The Ts.ED controller of /repositories, to mount at "/" before the record controllers. */
export function repositoryController({ operations, access }: RepositoryControllerDeps): new () => unknown {
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

  @Controller("/repositories")
  class RepositoryController {
    @Get("/")
    list(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (_req, res) => {
        await actorFor(res, "read");
        const all = (await operations.list(REPOSITORY, {}, { mode: { kind: "allIds" } })) as number[];
        const ids = all.filter((id) => id !== GLOBAL_REPOSITORY_ID);
        return ids.length === 0 ? [] : operations.list(REPOSITORY, {}, { mode: { kind: "idSet", ids } });
      });
    }

    @Post("/")
    create(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) =>
        operations.create(REPOSITORY, {}, req.body, await actorFor(res, "create")),
      );
    }

    @Get("/:id")
    read(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const id = visibleId(idParam(req, "id"));
        await actorFor(res, "read");
        return operations.read(REPOSITORY, {}, id);
      });
    }

    @Post("/:id")
    update(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await actorFor(res, "update");
        const id = visibleId(idParam(req, "id"));
        return operations.update(REPOSITORY, {}, id, req.body, actor);
      });
    }

    @Delete("/:id")
    delete(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await actorFor(res, "delete");
        const id = visibleId(idParam(req, "id"));
        return operations.delete(REPOSITORY, {}, id, actor);
      });
    }
  }
  return RepositoryController;
}
