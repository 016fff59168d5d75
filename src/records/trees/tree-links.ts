// Where a tree node hangs, read from its record through the type's x-tree settings: the root
// record and the parent node are ordinary links (validated like any other), so this only
// finds them and says how they are stored.
import type { ClientSession } from "mongodb";
import { isJsonObject } from "../../registry/json.js";
import {
  TREE_PARENT_FIELD,
  type JsonObject,
  type JsonValue,
  type RecordType,
  type RefPath,
  type TreeShape,
} from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import type { Scope } from "../types.js";

/** A record type that forms trees, with its x-tree settings. */
export type TreeNodeType = RecordType & { readonly tree: TreeShape };

export function isTreeNodeType(type: RecordType): type is TreeNodeType {
  return type.tree !== null;
}

/** Where a node sits: its tree's root record and, below the top level, its parent node. */
export interface NodeLinks {
  rootUri: string;
  parentUri?: string;
}

/** The uri a link field holds: a `{ref}` object's ref, or the value of a plain uri string. */
function uriIn(value: JsonValue | undefined): string | undefined {
  if (typeof value === "string") return value;
  return isJsonObject(value) && typeof value.ref === "string" ? value.ref : undefined;
}

/** The RefPath of a top-level link property (`resource` -> `resource/ref`). */
export function linkPath(type: RecordType, field: string): RefPath {
  const found = type.refPaths.find((refPath) => refPath.segments[0] === field && refPath.segments.length <= 2);
  if (found === undefined) throw new Error(`${type.name}.${field} is not a link`);
  return found;
}

/** @throws Error when the root link is missing: the generator requires it, so validation caught it first. */
export function nodeLinks(type: TreeNodeType, record: JsonObject | StoredRecord): NodeLinks {
  const rootUri = uriIn(record[type.tree.root] as JsonValue | undefined);
  if (rootUri === undefined) throw new Error(`${type.name} record without its ${type.tree.root}`);
  const parentUri = uriIn(record[type.tree.parent] as JsonValue | undefined);
  return parentUri === undefined ? { rootUri } : { rootUri, parentUri };
}

/** The uri of a node's place in the tree: its parent node, or the root record at the top. */
export function holderOf(links: NodeLinks): string {
  return links.parentUri ?? links.rootUri;
}

/** The storage filter of a type's records in a scope. */
export function scopeFilter(type: RecordType, scope: Scope): Record<string, unknown> {
  return type.scope === "repository" ? { repo_id: scope.repoId } : {};
}

/** The storage filter of the children of `holder` (a node or root uri), or of several holders. */
export function childrenFilter(
  type: RecordType,
  scope: Scope,
  holder: string | readonly string[],
): Record<string, unknown> {
  return { ...scopeFilter(type, scope), [TREE_PARENT_FIELD]: typeof holder === "string" ? holder : { $in: holder } };
}

/**
 * How many children `holder` has. Positions are dense (0..n-1), so this is the last position
 * plus one: an index seek, where counting would walk every child on a real MongoDB.
 */
export async function childCount(
  deps: OperationDeps,
  type: TreeNodeType,
  scope: Scope,
  holder: string,
  session?: ClientSession,
): Promise<number> {
  const position = type.tree.position;
  const [last] = await deps.store
    .collection(type.name)
    .find(childrenFilter(type, scope, holder), { session, projection: { [position]: 1 } })
    .sort({ [position]: -1 })
    .limit(1)
    .toArray();
  return last === undefined ? 0 : (last[position] as number) + 1;
}
