// Moving nodes explicitly (ArchivesSpace's `POST <node>/parent` and `POST <root or
// node>/accept_children`): each request is one serialized transaction over every tree it
// touches, so a move is all or nothing and readers never see it half done.
import { assertMay } from "../../auth/operation-access.js";
import { ApiError, badRequest, conflict, notFound } from "../../errors/api-error.js";
import { TREE_PARENT_FIELD } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { findStored, permittedType, recordType } from "./locate.js";
import type { Actor, Scope, WriteResult } from "../types.js";
import { asDuplicateIdentifier } from "./write-errors.js";
import { moveNode, treeKeys, type TreeChange } from "../trees/placement.js";
import {
  isTreeNodeType,
  linkPath,
  nodeLinks,
  scopeFilter,
  type NodeLinks,
  type TreeNodeType,
} from "../trees/tree-links.js";

function treeNodeType(deps: OperationDeps, typeName: string, scope: Scope): TreeNodeType {
  const type = recordType(deps, typeName, scope);
  if (!isTreeNodeType(type)) throw new ApiError(500, `${type.name} records form no trees`);
  return type;
}

/** The $set/$unset that make a node's own link fields say where it now hangs. */
function linkUpdate(
  type: TreeNodeType,
  target: NodeLinks,
): { $set: Record<string, unknown>; $unset: Record<string, ""> } {
  // `resource.ref` for a `{ref}` link, the property itself for a plain uri string.
  const asLink = (field: string, uri: string): [string, string] => [linkPath(type, field).mongoPath, uri];
  const $set = Object.fromEntries([
    asLink(type.tree.root, target.rootUri),
    ...(target.parentUri === undefined ? [] : [asLink(type.tree.parent, target.parentUri)]),
  ]);
  return { $set, $unset: target.parentUri === undefined ? { [type.tree.parent]: "" } : {} };
}

export class TreeMoves {
  constructor(private readonly deps: OperationDeps) {}

  /**
   * Moves the nodes (in order) to `target`, the first at `position` (last when undefined) and
   * each next one after it.
   */
  private async relocate(
    type: TreeNodeType,
    scope: Scope,
    ids: readonly number[],
    target: NodeLinks,
    position: number | undefined,
    actor: Actor,
  ): Promise<void> {
    const collection = this.deps.store.collection(type.name);
    const nodes = await collection
      .find({ ...scopeFilter(type, scope), id: { $in: [...ids] } }, { projection: { id: 1, [type.tree.root]: 1 } })
      .toArray();
    const missing = ids.find((id) => !nodes.some((node) => node.id === id));
    if (missing !== undefined)
      throw badRequest({
        children: [`Reference to ${this.deps.registry.uriFor(type.name, missing, scope.repoId)} does not exist`],
      });
    const roots = new Set([target.rootUri, ...nodes.map((node) => nodeLinks(type, node).rootUri)]);
    const now = this.deps.now();
    try {
      await this.deps.store.serialized(treeKeys(...roots), async (session) => {
        const change: TreeChange = { session, now, username: actor.username };
        let at = position;
        for (const id of ids) {
          const node: StoredRecord | null = await collection.findOne({ ...scopeFilter(type, scope), id }, { session });
          if (!node)
            throw badRequest({
              children: [`Reference to ${this.deps.registry.uriFor(type.name, id, scope.repoId)} does not exist`],
            });
          // Its tree is locked only if it is still where it was a moment ago.
          if (!roots.has(nodeLinks(type, node).rootUri))
            throw conflict(`${this.deps.registry.uriFor(type.name, id, scope.repoId)} was moved meanwhile; try again`);
          const placement = await moveNode(this.deps, type, scope, change, node, target, at);
          const { $set, $unset } = linkUpdate(type, target);
          await collection.updateOne(
            { _id: node._id },
            {
              $set: {
                ...$set,
                [TREE_PARENT_FIELD]: placement.holder,
                [type.tree.position]: placement.position,
                system_mtime: now,
                last_modified_by: actor.username,
              },
              ...(Object.keys($unset).length > 0 ? { $unset } : {}),
              $inc: { lock_version: 1 },
            },
            { session },
          );
          await this.deps.changes.written({ type: type.name, operation: "update", id, scope }, session);
          if (at !== undefined) at = placement.position + 1;
        }
      });
    } catch (error) {
      throw asDuplicateIdentifier(this.deps, type.name, error);
    }
  }

  /** POST <node>/parent?parent=&position=: under node `parentId`, or at the top of its tree without one. */
  async moveUnder(
    typeName: string,
    scope: Scope,
    id: number,
    parentId: number | undefined,
    position: number | undefined,
    actor: Actor,
  ): Promise<WriteResult> {
    const type = treeNodeType(this.deps, typeName, scope);
    assertMay(actor, type, "update", scope.repoId);
    const node = await findStored(this.deps, type, id, scope);
    let target: NodeLinks = { rootUri: nodeLinks(type, node).rootUri };
    if (parentId !== undefined) {
      const parent = await this.deps.store.collection(type.name).findOne({ ...scopeFilter(type, scope), id: parentId });
      if (!parent) throw notFound(type.title);
      target = {
        rootUri: nodeLinks(type, parent).rootUri,
        parentUri: this.deps.registry.uriFor(type.name, parentId, scope.repoId),
      };
    }
    await this.relocate(type, scope, [id], target, position, actor);
    return this.updated(type.name, scope, id);
  }

  /**
   * POST <holder>/accept_children?children[]=&position=: the listed nodes (of any tree of the
   * repository) move under the holder, a root record or a node, in the order given.
   */
  async acceptChildren(
    holderTypeName: string,
    scope: Scope,
    holderId: number,
    childUris: readonly string[],
    position: number | undefined,
    actor: Actor,
  ): Promise<WriteResult> {
    const holderType = permittedType(this.deps, holderTypeName, scope, actor, "update");
    const nodeType = isTreeNodeType(holderType) ? holderType : this.deps.registry.treeNodeTypeOf(holderType.name);
    if (nodeType === undefined || !isTreeNodeType(nodeType))
      throw new ApiError(500, `${holderType.name} records hold no trees`);
    const holder = await findStored(this.deps, holderType, holderId, scope);
    const holderUri = this.deps.registry.uriFor(holderType.name, holderId, scope.repoId);
    const target: NodeLinks =
      holderType === nodeType
        ? { rootUri: nodeLinks(nodeType, holder).rootUri, parentUri: holderUri }
        : { rootUri: holderUri };
    const ids = childUris.map((uri) => {
      const parsed = this.deps.registry.parseUri(uri);
      if (parsed?.type !== nodeType.name)
        throw badRequest({ children: [`Must be a uri of: ${nodeType.name} (${nodeType.itemPath}); got ${uri}`] });
      if (parsed.repoId !== scope.repoId)
        throw badRequest({ children: [`Must refer to a record in the same repository; got ${uri}`] });
      return parsed.id;
    });
    if (new Set(ids).size !== ids.length) throw badRequest({ children: ["Each child may be listed once"] });
    await this.relocate(nodeType, scope, ids, target, position, actor);
    return this.updated(holderType.name, scope, holderId);
  }

  private async updated(typeName: string, scope: Scope, id: number): Promise<WriteResult> {
    const type = recordType(this.deps, typeName, scope);
    const record = await findStored(this.deps, type, id, scope);
    return {
      status: "Updated",
      id,
      lock_version: record.lock_version as number,
      stale: null,
      uri: this.deps.registry.uriFor(type.name, id, scope.repoId),
      warnings: [],
    };
  }
}
