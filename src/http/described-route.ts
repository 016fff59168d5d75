// A route and its description, declared once, on the method that serves it:
//
//   @Route("post", "/logout", (ctx) => ({ operationId: "logout", ... }))
//   logout(@Context() ctx: PlatformContext) { ... }
//
// registers the route with Ts.ED (as @Post("/logout") would) and files the description under
// the controller class, where describedRoutes() reads it back for /openapi.json. A route cannot be
// served without being described, and its method and path are written in one place.
// Controllers that use it are mounted at "/" and name their full paths.
import { Delete, Get, Post } from "@tsed/schema";
import { lookupTable } from "../registry/dictionary.js";
import type { DocumentContext, HttpMethod, Operation, Parameter, Tag } from "./api-description.js";

/** How a route is described: an OpenAPI operation, with its tag and path parameters spelled out. */
export interface RouteOperation extends Omit<Operation, "tags"> {
  /** The one tag it is listed under; its description becomes the document's. */
  tag: Tag;
  /** One per `:name` of the path, placed on the path item. */
  pathParameters?: Parameter[];
}

export interface DescribedRoute {
  method: HttpMethod;
  /** The express template, `/users/:username/login`. */
  path: string;
  describe(ctx: DocumentContext): RouteOperation;
}

const VERBS = lookupTable({ get: Get, post: Post, delete: Delete });

// Keyed by controller class: one list per class, in declaration order.
const routesByController = new WeakMap<object, DescribedRoute[]>();

/** Serves the method at `method path` and describes it with `describe`. */
export function Route(method: HttpMethod, path: string, describe: DescribedRoute["describe"]): MethodDecorator {
  const serve: MethodDecorator = VERBS[method](path);
  return (target, key, descriptor) => {
    serve(target, key, descriptor);
    const controller = target.constructor;
    routesByController.set(controller, [...(routesByController.get(controller) ?? []), { method, path, describe }]);
  };
}

/** The described routes of these controller classes, in order; a class with none adds none. */
export function describedRoutes(controllers: readonly object[]): DescribedRoute[] {
  return controllers.flatMap((controller) => routesByController.get(controller) ?? []);
}
