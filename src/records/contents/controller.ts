// The collection contents routes, generated per record type from the registry as the record and tree controllers
// are (docs/api.md §17):
//   a tree's root type (resource, digital_object, classification):
//     GET  <item>/tree               ArchivesSpace 2.x's whole tree
//     GET  <item>/ordered_records    the record and its nodes in tree order
//   a tree's node type (archival_object, digital_object_component, classification_term):
//     GET  <item>/previous           the record before it in tree order
//   the types of TOP_CONTAINER_ROUTES (ArchivesSpace serves these two only):
//     GET  <item>/top_containers     the top containers it (and its tree) uses
// Each is guarded by the type's own permission (x-permissions) as its record routes are. POST <item>/children, on
// both sides of a tree, is a tree route (records/http/tree-controllers.ts, add-children.ts): the node type's GET
// children already shares its path, which the registry describes.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import { Route } from "../../http/described-route.js";
import type { RecordType } from "../../registry/index.js";
import { pascalCase, respond } from "../http/answer.js";
import { RecordEndpoints, type RecordRouteDeps } from "../http/record-endpoints.js";
import { CollectionContents, type ContentsLimits } from "./operations.js";
import {
  describeLegacyTree,
  describeOrderedRecords,
  describePrevious,
  describeTopContainers,
} from "./route-descriptions.js";

/**
 * ArchivesSpace's `<record>/top_containers` routes, by the collection they hang from: whether the record's tree
 * counts too (a resource's does; an accession has none).
 */
const TOP_CONTAINER_ROUTES: ReadonlyMap<string, { withTree: boolean }> = new Map([
  ["resources", { withTree: true }],
  ["accessions", { withTree: false }],
]);

type ControllerClass = new () => unknown;

function named(generated: ControllerClass, type: RecordType, suffix: string): ControllerClass {
  Object.defineProperty(generated, "name", { value: `${pascalCase(type.name)}${suffix}` });
  Controller("/")(generated);
  return generated;
}

function rootController(
  type: RecordType,
  nodes: RecordType,
  records: RecordEndpoints,
  contents: CollectionContents,
): ControllerClass {
  class Generated {
    @Route("get", `${type.itemPath}/tree`, describeLegacyTree(type, nodes))
    tree(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { scope } = await records.enter("read", req, res);
        return contents.legacyTree(type.name, scope, records.recordId(req));
      });
    }

    @Route("get", `${type.itemPath}/ordered_records`, describeOrderedRecords(type, nodes))
    orderedRecords(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { scope } = await records.enter("read", req, res);
        return contents.orderedRecords(type.name, scope, records.recordId(req));
      });
    }
  }
  return named(Generated, type, "ContentsController");
}

function nodeController(type: RecordType, records: RecordEndpoints, contents: CollectionContents): ControllerClass {
  class Generated {
    @Route("get", `${type.itemPath}/previous`, describePrevious(type))
    previous(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { scope, actor } = await records.enter("read", req, res);
        return contents.previous(type.name, scope, records.recordId(req), actor);
      });
    }
  }
  return named(Generated, type, "NodeContentsController");
}

function topContainersController(
  type: RecordType,
  withTree: boolean,
  records: RecordEndpoints,
  contents: CollectionContents,
): ControllerClass {
  class Generated {
    @Route("get", `${type.itemPath}/top_containers`, describeTopContainers(type, withTree))
    topContainers(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { scope } = await records.enter("read", req, res);
        return contents.topContainers(type.name, scope, records.recordId(req), withTree);
      });
    }
  }
  return named(Generated, type, "TopContainersController");
}

/** The collection contents controllers of every type they apply to, to mount at "/". */
export function contentsControllers(deps: RecordRouteDeps, limits: ContentsLimits): ControllerClass[] {
  const registry = deps.operations.deps.registry;
  const contents = new CollectionContents(deps.operations.deps, deps.operations, limits);
  const repositoryTitle = registry.scopeHolder?.title ?? "Repository";
  return registry.types.flatMap((type) => {
    const records = new RecordEndpoints(type, deps, repositoryTitle);
    const controllers: ControllerClass[] = [];
    const nodes = registry.treeNodeTypeOf(type.name);
    if (nodes !== undefined) controllers.push(rootController(type, nodes, records, contents));
    if (type.tree !== null) controllers.push(nodeController(type, records, contents));
    const topContainers = TOP_CONTAINER_ROUTES.get(type.collection);
    const withTree = topContainers?.withTree === true && nodes !== undefined;
    if (topContainers !== undefined) controllers.push(topContainersController(type, withTree, records, contents));
    return controllers;
  });
}
