// The enumeration routes, as ArchivesSpace has them (backend/app/controllers/enumeration.rb):
//   GET  /config/enumerations               every enumeration (a bare list)
//   POST /config/enumerations               create one
//   GET  /config/enumerations/names/:name   one, by name
//   GET  /config/enumerations/:id           one
//   POST /config/enumerations/:id           update: add, reorder and remove values
//   GET  /config/enumeration_values/:id     one value
// Reading needs a session (any logged-in user); writing needs update_enumeration_record, held
// globally or in any repository: enumerations are shared by every repository, as agents and
// subjects are, and the standard repository groups grant it, as in ArchivesSpace.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Response } from "express";
import { callerOf, type Caller } from "../../auth/caller.js";
import type { AccessControl } from "../../auth/access-control.js";
import { hasPermissionAnywhere } from "../../auth/permissions.js";
import { accessDenied } from "../../errors/api-error.js";
import { Route } from "../../http/described-route.js";
import { respond } from "../http/answer.js";
import { idParam } from "../http/request-params.js";
import type { EnumerationOperations } from "./operations.js";
import { describeEnumerationRoute as describe, UPDATE_ENUMERATION } from "./route-descriptions.js";
import { ENUMERATION_VALUES_PATH, ENUMERATIONS_PATH } from "./shape.js";

export interface EnumerationControllerDeps {
  enumerations: EnumerationOperations;
  access: AccessControl;
}

/** The Ts.ED controller of the enumeration routes, to mount at "/" beside the record controllers. */
export function enumerationController({ enumerations, access }: EnumerationControllerDeps): new () => unknown {
  const reader = (res: Response): Promise<Caller> => callerOf(access, res);
  const writer = async (res: Response): Promise<Caller> => {
    const caller = await callerOf(access, res);
    if (!hasPermissionAnywhere(caller.permissions, UPDATE_ENUMERATION)) throw accessDenied();
    return caller;
  };

  @Controller("/")
  class EnumerationController {
    @Route("get", ENUMERATIONS_PATH, describe.list)
    list(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (_req, res) => {
        await reader(res);
        return enumerations.list();
      });
    }

    @Route("post", ENUMERATIONS_PATH, describe.create)
    create(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => enumerations.create(req.body, await writer(res)));
    }

    @Route("get", `${ENUMERATIONS_PATH}/names/:name`, describe.readByName)
    readByName(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        await reader(res);
        return enumerations.readByName(String(req.params.name));
      });
    }

    @Route("get", `${ENUMERATIONS_PATH}/:id`, describe.read)
    read(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        await reader(res);
        return enumerations.read(idParam(req, "id"));
      });
    }

    @Route("post", `${ENUMERATIONS_PATH}/:id`, describe.update)
    update(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => enumerations.update(idParam(req, "id"), req.body, await writer(res)));
    }

    @Route("get", `${ENUMERATION_VALUES_PATH}/:id`, describe.readValue)
    readValue(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        await reader(res);
        return enumerations.readValue(idParam(req, "id"));
      });
    }
  }
  return EnumerationController;
}
