// The enumeration routes, as ArchivesSpace has them (backend/app/controllers/enumeration.rb):
//   GET  /config/enumerations               every enumeration (a bare list)
//   POST /config/enumerations               create one
//   GET  /config/enumerations/names/:name   one, by name
//   GET  /config/enumerations/:id           one
//   POST /config/enumerations/:id           update: add, reorder and remove values
//   GET  /config/enumeration_values/:id     one value
// Who may do what is the operations' rule (operations.ts); a route hands them the request's actor.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { AccessControl } from "../../auth/access-control.js";
import { Route } from "../../http/described-route.js";
import { respond } from "../http/answer.js";
import { idParam } from "../http/request-params.js";
import { requestActor } from "../http/route-guard.js";
import type { EnumerationOperations } from "./operations.js";
import { describeEnumerationRoute as describe } from "./route-descriptions.js";
import { ENUMERATION_VALUES_PATH, ENUMERATIONS_PATH } from "./shape.js";

export interface EnumerationControllerDeps {
  enumerations: EnumerationOperations;
  access: AccessControl;
}

/** The Ts.ED controller of the enumeration routes, to mount at "/" beside the record controllers. */
export function enumerationController({ enumerations, access }: EnumerationControllerDeps): new () => unknown {
  @Controller("/")
  class EnumerationController {
    @Route("get", ENUMERATIONS_PATH, describe.list)
    list(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (_req, res) => enumerations.list(await requestActor(access, res)));
    }

    @Route("post", ENUMERATIONS_PATH, describe.create)
    create(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => enumerations.create(req.body, await requestActor(access, res)));
    }

    @Route("get", `${ENUMERATIONS_PATH}/names/:name`, describe.readByName)
    readByName(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) =>
        enumerations.readByName(String(req.params.name), await requestActor(access, res)),
      );
    }

    @Route("get", `${ENUMERATIONS_PATH}/:id`, describe.read)
    read(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        return enumerations.read(idParam(req, "id"), actor);
      });
    }

    @Route("post", `${ENUMERATIONS_PATH}/:id`, describe.update)
    update(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        return enumerations.update(idParam(req, "id"), req.body, actor);
      });
    }

    @Route("get", `${ENUMERATION_VALUES_PATH}/:id`, describe.readValue)
    readValue(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        return enumerations.readValue(idParam(req, "id"), actor);
      });
    }
  }
  return EnumerationController;
}
