// The generic record controller: one abstract Ts.ED controller carries the
// five endpoints, and at start-up every registry type gets a subclass mounted at its
// collection path. One subclass per type, rather than one controller with a `:type` param,
// because a `:type` route would shadow every sibling route mounted after it.
// Class-level decorators other than @Controller stay off the generated subclasses: Ts.ED
// answers 500 for those.
//
// Handlers write their JSON straight to express: Ts.ED's JSON mapper would walk every record
// again for nothing (~9% of throughput, measured when this was built), and the status is always 200 (the
// contract's clients check for exactly 200; Ts.ED would answer 201 to a POST).
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import { Delete, Get, Post } from "@tsed/schema";
import type { RecordType } from "../../registry/index.js";
import { pascalCase, respond } from "./answer.js";
import { RecordEndpoints, type RecordRouteDeps } from "./record-endpoints.js";
import { treeNodeController, treeRootController } from "./tree-controllers.js";
import { TreeEndpoints } from "./tree-endpoints.js";

export abstract class RecordController {
  protected abstract readonly endpoints: RecordEndpoints;

  @Get("/")
  list(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.list(req, res), { resolves: true });
  }

  @Post("/")
  create(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.create(req, res));
  }

  @Get("/:id")
  read(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.read(req, res), { resolves: true });
  }

  @Post("/:id")
  update(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.update(req, res));
  }

  @Delete("/:id")
  delete(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.delete(req, res));
  }
}

/** A generated controller class, as Ts.ED's `mount` takes it. */
export type RecordControllerClass = new () => RecordController;

function controllerFor(type: RecordType, endpoints: RecordEndpoints): RecordControllerClass {
  // The base's item routes are `<collection>/:id`; a type whose URIs ever looked otherwise
  // must not be served at the wrong path without anyone noticing.
  if (type.itemPath !== `${type.collectionPath}/:id`) {
    throw new Error(`record type ${type.name}: item path ${type.itemPath} is not ${type.collectionPath}/:id`);
  }
  const generated = class extends RecordController {
    protected readonly endpoints = endpoints;
  };
  // Ts.ED names providers after their class; distinct names keep its logs and errors readable.
  Object.defineProperty(generated, "name", { value: `${pascalCase(type.name)}RecordController` });
  Controller(type.collectionPath)(generated);
  return generated;
}

/**
 * One controller per record type (and one more for each side of a tree it takes part in), to mount at "/" (`mount:
 * {"/": [...recordControllers(deps)]}`).
 * `types` defaults to every type of the operations' registry; pass fewer when other routes
 * (account routes, say) serve some types' paths themselves.
 */
export function recordControllers(
  deps: RecordRouteDeps,
  types: readonly RecordType[] = deps.operations.deps.registry.types,
): Array<new () => unknown> {
  const registry = deps.operations.deps.registry;
  const repositoryTitle = registry.scopeHolder?.title ?? "Repository";
  return types.flatMap((type) => {
    const endpoints = new RecordEndpoints(type, deps, repositoryTitle);
    const tree = new TreeEndpoints(endpoints, deps.operations);
    const controllers: Array<new () => unknown> = [controllerFor(type, endpoints)];
    if (registry.treeNodeTypeOf(type.name) !== undefined) controllers.push(treeRootController(type, tree));
    if (type.tree !== null) controllers.push(treeNodeController(type, tree));
    return controllers;
  });
}
