// Component transfer (ArchivesSpace's POST /repositories/:repo_id/component_transfers?target_resource=&component=):
// a tree node and everything below it move to the top level of another tree of the same repository, last, as
// ArchivesSpace places it. The move itself is the tree moves' (one serialized transaction over both trees).
import { badRequest } from "../../errors/api-error.js";
import type { OperationDeps } from "../deps.js";
import { isTreeNodeType } from "../trees/tree-links.js";
import type { Actor, Scope } from "../types.js";
import { findStored, permittedType } from "./locate.js";
import type { TreeMoves } from "./tree-moves.js";

/** ArchivesSpace's answer: the component's and the target resource's uris. */
export interface ComponentTransferResult {
  component: string;
  resource: string;
}

export async function transferComponent(
  deps: OperationDeps,
  moves: TreeMoves,
  scope: Scope,
  targetUri: string,
  componentUri: string,
  actor: Actor,
): Promise<ComponentTransferResult> {
  const component = deps.registry.parseUri(componentUri);
  const nodeType = component === undefined ? undefined : deps.registry.get(component.type);
  if (component === undefined || nodeType === undefined || !isTreeNodeType(nodeType))
    throw badRequest({ component: ["Must be the uri of a record that sits in a tree (an archival object)"] });
  if (component.repoId !== scope.repoId)
    throw badRequest({ component: ["Must refer to a record in the same repository"] });
  const target = deps.registry.parseUri(targetUri);
  if (target === undefined || target.type !== nodeType.tree.rootType)
    throw badRequest({ target_resource: [`Must be the uri of a ${nodeType.tree.rootType}`] });
  if (target.repoId !== scope.repoId)
    throw badRequest({ target_resource: ["Must refer to a record in the same repository"] });
  const rootType = permittedType(deps, target.type, scope, actor, "update");
  permittedType(deps, nodeType.name, scope, actor, "update");
  await findStored(deps, nodeType, component.id, scope);
  await findStored(deps, rootType, target.id, scope);
  await moves.acceptChildren(rootType.name, scope, target.id, [componentUri], undefined, actor);
  return { component: componentUri, resource: targetUri };
}
