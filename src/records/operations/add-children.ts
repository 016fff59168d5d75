// POST <record>/children (ArchivesSpace's archival_record_children and digital_record_children bodies,
// `{"children": [...]}`): new nodes created under a tree's root record (at its top level) or under a node, in one
// batch checked whole before any is written, so all of them are created or none (docs/api.md §17).
import { ApiError, badRequest } from "../../errors/api-error.js";
import { isJsonObject } from "../../registry/json.js";
import { addFieldError, fieldErrors } from "../../registry/validation-errors.js";
import type { JsonObject, JsonValue, RecordType } from "../../registry/index.js";
import type { OperationDeps } from "../deps.js";
import type { Actor, Scope, WriteResult } from "../types.js";
import { isTreeNodeType, linkPath, nodeLinks } from "../trees/tree-links.js";
import { BatchRecordError, createRecords } from "./create.js";
import { findStored, recordType } from "./locate.js";

/** A link value as stored for a link property: `{ref}`, or the bare uri where the schema keeps a string. */
function linkValue(type: RecordType, field: string, uri: string): JsonValue {
  return linkPath(type, field).segments.length > 1 ? { ref: uri } : uri;
}

/** A 400 naming one field. */
function refused(path: string, message: string): ApiError {
  const errors = fieldErrors();
  addFieldError(errors, path, message);
  return badRequest(errors);
}

/** A child's 400 with its field paths under `children/<index>/`. */
function prefixed(error: ApiError, index: number): ApiError {
  const detail = error.detail;
  const errors = fieldErrors();
  if (typeof detail === "string") addFieldError(errors, `children/${index}`, detail);
  else
    for (const [path, messages] of Object.entries(detail))
      for (const message of messages) addFieldError(errors, `children/${index}/${path}`, message);
  return new ApiError(400, errors, error.extra);
}

/**
 * Creates each child under the record, in order, after its present children unless a child names its `position`
 * (as a create does). A child's own root and parent links are replaced by the record's. Answers the record, as
 * ArchivesSpace does (`Updated`, its lock_version unchanged), with each child's warnings under `children/<index>/`.
 * The caller has checked the update permission on the record; creating takes the node type's create permission.
 */
export async function addChildren(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  body: unknown,
  actor: Actor,
): Promise<WriteResult> {
  const type = recordType(deps, typeName, scope);
  const nodeType = isTreeNodeType(type) ? type : deps.registry.treeNodeTypeOf(type.name);
  if (nodeType === undefined || !isTreeNodeType(nodeType)) throw new Error(`${type.name} records have no children`);
  const nodes = nodeType;
  if (!isJsonObject(body)) throw refused("children", "Must be an object with a list of children");
  const children = body.children;
  if (!Array.isArray(children)) throw refused("children", "Must be a list of records");
  const bad = children.findIndex((child) => !isJsonObject(child));
  if (bad >= 0) throw refused(`children/${bad}`, "Must be a record (an object)");
  const stored = await findStored(deps, type, id, scope);
  const uri = deps.registry.uriFor(type.name, id, scope.repoId);
  const underNode = type === nodes;
  const rootUri = underNode ? nodeLinks(nodes, stored).rootUri : uri;
  const items = (children as JsonObject[]).map((child) => {
    const input: Record<string, JsonValue> = { ...child };
    input[nodes.tree.root] = linkValue(nodes, nodes.tree.root, rootUri);
    if (underNode) input[nodes.tree.parent] = linkValue(nodes, nodes.tree.parent, uri);
    else delete input[nodes.tree.parent];
    return { input };
  });
  let results: WriteResult[] = [];
  try {
    if (items.length > 0) results = await createRecords(deps, nodes.name, scope, items, actor);
  } catch (error) {
    // The batch's first bad child, named by its place in the body (a batch of one fails as a plain 400).
    if (error instanceof BatchRecordError) throw prefixed(error, error.index);
    if (error instanceof ApiError && error.status === 400 && items.length === 1) throw prefixed(error, 0);
    throw error;
  }
  const current = await findStored(deps, type, id, scope);
  return {
    status: "Updated",
    id,
    lock_version: current.lock_version as number,
    stale: null,
    uri,
    warnings: results.flatMap((result, index) => result.warnings.map((warning) => `children/${index}/${warning}`)),
  };
}
