// The tree routes as Ts.ED controllers, generated per type like the record controllers and
// mounted at the same collection path: a root type (resource) gets the large-tree reads and
// accept_children, a node type (archival_object) children, parent and accept_children; both take POST children.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import { Get, Post } from "@tsed/schema";
import type { RecordType } from "../../registry/index.js";
import { pascalCase, respond } from "./answer.js";
import type { TreeEndpoints } from "./tree-endpoints.js";

export abstract class TreeRootController {
  protected abstract readonly endpoints: TreeEndpoints;

  @Get("/:id/tree/root")
  root(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.root(req, res));
  }

  @Get("/:id/tree/waypoint")
  waypoint(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.waypoint(req, res));
  }

  @Get("/:id/tree/node")
  node(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.node(req, res));
  }

  @Get("/:id/tree/node_from_root")
  nodeFromRoot(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.nodeFromRoot(req, res));
  }

  @Post("/:id/accept_children")
  acceptChildren(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.acceptChildren(req, res));
  }

  @Post("/:id/children")
  addChildren(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.addChildren(req, res));
  }
}

export abstract class TreeNodeController {
  protected abstract readonly endpoints: TreeEndpoints;

  @Get("/:id/children")
  children(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.children(req, res));
  }

  @Post("/:id/parent")
  parent(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.parent(req, res));
  }

  @Post("/:id/accept_children")
  acceptChildren(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.acceptChildren(req, res));
  }

  @Post("/:id/children")
  addChildren(@Context() ctx: PlatformContext): Promise<void> {
    return respond(ctx, (req, res) => this.endpoints.addChildren(req, res));
  }
}

function named(generated: new () => unknown, type: RecordType, suffix: string): new () => unknown {
  Object.defineProperty(generated, "name", { value: `${pascalCase(type.name)}${suffix}` });
  Controller(type.collectionPath)(generated);
  return generated;
}

export function treeRootController(type: RecordType, endpoints: TreeEndpoints): new () => unknown {
  return named(
    class extends TreeRootController {
      protected readonly endpoints = endpoints;
    },
    type,
    "TreeRootController",
  );
}

export function treeNodeController(type: RecordType, endpoints: TreeEndpoints): new () => unknown {
  return named(
    class extends TreeNodeController {
      protected readonly endpoints = endpoints;
    },
    type,
    "TreeNodeController",
  );
}
