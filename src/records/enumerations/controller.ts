// The enumeration routes, as ArchivesSpace has them (backend/app/controllers/enumeration.rb):
//   GET  /config/enumerations                          every enumeration (a bare list)
//   POST /config/enumerations                          create one
//   POST /config/enumerations/migration                move every use of one value to another
//   GET  /config/enumerations/names/:name              one, by name
//   GET  /config/enumerations/:id                      one
//   POST /config/enumerations/:id                      update: add, reorder and remove values
//   GET  /config/enumeration_values/:id                one value
//   POST /config/enumeration_values/:id                update one value (text, position, suppressed)
//   POST /config/enumeration_values/:id/position       move one value (?position=N)
//   POST /config/enumeration_values/:id/suppressed     suppress or restore one value (?suppressed=)
// The migration route is declared before /:id, which would take "migration" for an id.
// Who may do what is the operations' rule (operations.ts); a route hands them the request's actor.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request } from "express";
import type { AccessControl } from "../../auth/access-control.js";
import { Route } from "../../http/described-route.js";
import { respond } from "../http/answer.js";
import { ParamReader, REQUIRED, requestParameters, throwIfAny } from "../http/list-params.js";
import { idParam } from "../http/request-params.js";
import { requestActor } from "../http/route-guard.js";
import type { EnumerationOperations } from "./operations.js";
import { describeEnumerationRoute as describe } from "./route-descriptions.js";
import { ENUMERATION_VALUES_PATH, ENUMERATIONS_PATH } from "./shape.js";

export interface EnumerationControllerDeps {
  enumerations: EnumerationOperations;
  access: AccessControl;
}

/** A required query (or form) parameter read by `read`, or a 400 naming it. */
function requiredParam<T>(req: Request, name: string, read: (reader: ParamReader) => T | undefined): T {
  const reader = new ParamReader(requestParameters(req));
  const value = read(reader);
  if (value === undefined && reader.errors[name] === undefined) reader.fail(name, REQUIRED);
  throwIfAny(reader.errors);
  return value as T;
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

    @Route("post", `${ENUMERATIONS_PATH}/migration`, describe.migrate)
    migrate(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => enumerations.migrate(req.body, await requestActor(access, res)));
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

    @Route("post", `${ENUMERATION_VALUES_PATH}/:id`, describe.updateValue)
    updateValue(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        return enumerations.updateValue(idParam(req, "id"), req.body, actor);
      });
    }

    @Route("post", `${ENUMERATION_VALUES_PATH}/:id/position`, describe.position)
    position(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        const id = idParam(req, "id");
        const position = requiredParam(req, "position", (reader) => reader.wholeNumber("position", 0));
        return enumerations.setPosition(id, position, actor);
      });
    }

    @Route("post", `${ENUMERATION_VALUES_PATH}/:id/suppressed`, describe.suppressed)
    suppressed(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        const id = idParam(req, "id");
        const suppressed = requiredParam(req, "suppressed", (reader) => reader.boolean("suppressed"));
        return enumerations.setSuppressed(id, suppressed, actor);
      });
    }
  }
  return EnumerationController;
}
