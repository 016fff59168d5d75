// What the computed fields that read other records share (linked-fields.ts): which types link into a record from a
// `via` list, stored records fetched by uri, the chain above a tree node, and the value tests of `where`/`unless`.
import type { IncomingLink, JsonObject, JsonValue, RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { valueAt } from "./paths.js";

/**
 * The most referring records one incoming field lists. ArchivesSpace lists them all; a record linked from more than
 * this (an event log of a busy resource) is cut here, so a read stays bounded: the list is the first ones by id.
 */
export const MAX_INCOMING = 1000;

/** Each target type's referrers by via list, worked out once per type: every read of a type with linked fields asks. */
const referrersByType = new WeakMap<RecordType, Map<string, IncomingLink[]>>();

/** Referring types and the link path each follows into `target` from its `via` list. */
export function referrers(deps: OperationDeps, target: RecordType, via: string): IncomingLink[] {
  let byVia = referrersByType.get(target);
  if (byVia === undefined) referrersByType.set(target, (byVia = new Map()));
  let found = byVia.get(via);
  if (found === undefined)
    byVia.set(via, (found = deps.registry.linksTo(target.name).filter(({ refPath }) => refPath.segments[0] === via)));
  return found;
}

/** Stored records of a type by uri, fetched by id in one query (the whole record, or `projection`). */
export async function fetchByUri(
  deps: OperationDeps,
  typeName: string,
  uris: Iterable<string>,
  projection?: JsonObject,
): Promise<Map<string, StoredRecord>> {
  const byUri = new Map<string, StoredRecord>();
  const ids: number[] = [];
  let repoId: number | undefined;
  for (const uri of uris) {
    const parsed = deps.registry.parseUri(uri);
    if (parsed === undefined) continue;
    ids.push(parsed.id);
    repoId = parsed.repoId;
  }
  if (ids.length === 0) return byUri;
  const type = deps.registry.get(typeName);
  // Every uri of one batch is in one repository: the records shown are, and tree links stay within it.
  const filter = type.scope === "repository" ? { repo_id: repoId, id: { $in: ids } } : { id: { $in: ids } };
  const options = projection === undefined ? {} : { projection };
  for (const doc of await deps.store.collection(typeName).find(filter, options).toArray())
    byUri.set(deps.registry.uriFor(typeName, doc.id, doc.repo_id), doc);
  return byUri;
}

/** Whether `doc` holds each value of `where` (a list: any of them; null stands for absent). */
export function matches(doc: JsonObject, where: JsonObject | null): boolean {
  if (where === null) return true;
  return Object.entries(where).every(([path, wanted]) => {
    const value = valueAt(doc, path.split("/")) ?? null;
    return Array.isArray(wanted) ? wanted.includes(value) : value === wanted;
  });
}

/** `{ref, ...fields}` of a stored record: an ancestor as the ancestors rule lists it. */
export function pickFields(doc: StoredRecord, uri: string, fields: readonly string[]): JsonObject {
  const entry: Record<string, JsonValue> = { ref: uri };
  for (const field of fields) if (doc[field] !== undefined && doc[field] !== null) entry[field] = doc[field];
  return entry;
}

/** The chain above each tree node: [{ref, ...fields}] from its parent up to its root. */
export async function ancestors(
  deps: OperationDeps,
  type: RecordType,
  fields: readonly string[],
  docs: StoredRecord[],
): Promise<Map<StoredRecord, JsonObject[]>> {
  const tree = type.tree;
  const chains = new Map<StoredRecord, JsonObject[]>();
  if (tree === null) return chains;
  const projection = Object.fromEntries(["id", "repo_id", tree.parent, ...fields].map((field) => [field, 1]));
  const pick = (doc: StoredRecord, uri: string): JsonObject => pickFields(doc, uri, fields);
  // Each node's chain grows one level per round, all nodes' parents fetched together.
  let climbing = docs.map((doc) => ({ doc, at: doc }));
  for (const { doc } of climbing) chains.set(doc, []);
  const parentUri = (doc: StoredRecord) => (doc[tree.parent] as { ref?: string } | undefined)?.ref;
  while (climbing.length > 0) {
    const wanted = new Set(climbing.flatMap(({ at }) => parentUri(at) ?? []));
    const parents = new Map<string, StoredRecord>();
    if (wanted.size > 0) {
      const ids = [...wanted].flatMap((uri) => deps.registry.parseUri(uri)?.id ?? []);
      const scope = type.scope === "repository" ? { repo_id: climbing[0]?.at.repo_id } : {};
      for (const parent of await deps.store
        .collection(type.name)
        .find({ ...scope, id: { $in: ids } }, { projection })
        .toArray())
        parents.set(deps.registry.uriFor(type.name, parent.id, parent.repo_id), parent);
    }
    const next: typeof climbing = [];
    for (const { doc, at } of climbing) {
      const uri = parentUri(at);
      const parent = uri === undefined ? undefined : parents.get(uri);
      if (uri === undefined || parent === undefined) continue;
      chains.get(doc)?.push(pick(parent, uri));
      next.push({ doc, at: parent });
    }
    climbing = next;
  }
  // The root closes each chain.
  const rootType = deps.registry.get(tree.rootType);
  const rootUris = new Set(docs.flatMap((doc) => (doc[tree.root] as { ref?: string } | undefined)?.ref ?? []));
  const roots = new Map<string, StoredRecord>();
  const rootIds = [...rootUris].flatMap((uri) => deps.registry.parseUri(uri)?.id ?? []);
  if (rootIds.length > 0) {
    const scope = rootType.scope === "repository" ? { repo_id: docs[0]?.repo_id } : {};
    const rootProjection = Object.fromEntries(["id", "repo_id", ...fields].map((field) => [field, 1]));
    for (const root of await deps.store
      .collection(rootType.name)
      .find({ ...scope, id: { $in: rootIds } }, { projection: rootProjection })
      .toArray())
      roots.set(deps.registry.uriFor(rootType.name, root.id, root.repo_id), root);
  }
  for (const doc of docs) {
    const uri = (doc[tree.root] as { ref?: string } | undefined)?.ref;
    const root = uri === undefined ? undefined : roots.get(uri);
    if (uri !== undefined && root !== undefined) chains.get(doc)?.push(pick(root, uri));
  }
  return chains;
}
