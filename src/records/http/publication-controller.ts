// The publication and suppression routes, as ArchivesSpace has them (resource.rb, archival_object.rb,
// digital_object.rb, the agent controllers, suppression.rb, event.rb):
//   POST <item>/publish, POST <item>/unpublish    types declaring them in x-publish
//   POST <item>/suppressed?suppressed=true|false  types declaring x-suppressible
// One controller mounted at "/", its methods made per type at start-up from the registry, each served and described
// by @Route. The rules (permissions, what changes) are the operations'.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import { Route, type DescribedRoute } from "../../http/described-route.js";
import type { RecordType } from "../../registry/index.js";
import { respond } from "./answer.js";
import { ParamReader, REQUIRED, requestParameters, throwIfAny } from "./list-params.js";
import { RecordEndpoints, type RecordRouteDeps } from "./record-endpoints.js";
import { describePublish, describeSuppress } from "./publication-routes.js";

type Handler = (req: Request, res: Response) => Promise<unknown>;

/** The required `suppressed` parameter: true or false in any case, else a 400 naming it. */
function suppressedParam(req: Request): boolean {
  const reader = new ParamReader(requestParameters(req));
  const value = reader.boolean("suppressed");
  if (value === undefined && reader.errors.suppressed === undefined) reader.fail("suppressed", REQUIRED);
  throwIfAny(reader.errors);
  return value === true;
}

interface RouteSpec {
  path: string;
  describe: DescribedRoute["describe"];
  handle: Handler;
}

function routesOf(type: RecordType, deps: RecordRouteDeps, repositoryTitle: string): RouteSpec[] {
  const endpoints = new RecordEndpoints(type, deps, repositoryTitle);
  const routes: RouteSpec[] = (type.publication?.routes ?? []).map((route) => ({
    path: `${type.itemPath}/${route}`,
    describe: describePublish(type, route),
    handle: async (req, res) => {
      const { scope, actor } = await endpoints.enter("update", req, res);
      return deps.operations.publish(type.name, scope, endpoints.recordId(req), route, actor);
    },
  }));
  if (type.suppressible) {
    routes.push({
      path: `${type.itemPath}/suppressed`,
      describe: describeSuppress(type),
      handle: async (req, res) => {
        const { scope, actor } = await endpoints.enter("read", req, res);
        const id = endpoints.recordId(req);
        return deps.operations.suppress(type.name, scope, id, suppressedParam(req), actor);
      },
    });
  }
  return routes;
}

/** The Ts.ED controller of every type's publication and suppression routes. */
export function publicationController(deps: RecordRouteDeps): new () => unknown {
  const registry = deps.operations.deps.registry;
  const repositoryTitle = registry.scopeHolder?.title ?? "Repository";
  class PublicationController {}
  const prototype = PublicationController.prototype as unknown as Record<string, unknown>;
  let count = 0;
  for (const type of registry.types) {
    for (const route of routesOf(type, deps, repositoryTitle)) {
      const key = `route${count++}`;
      prototype[key] = function (ctx: PlatformContext): Promise<void> {
        return respond(ctx, route.handle);
      };
      Context()(prototype, key, 0);
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key) as PropertyDescriptor;
      Route("post", route.path, route.describe)(prototype, key, descriptor);
    }
  }
  Controller("/")(PublicationController);
  return PublicationController;
}
