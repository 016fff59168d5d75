// Records named by uri, read a type and repository at a time: the index reads the records its entries name (a
// batch's links, the entries linking a changed record), and search the records of a page, each with one query per
// group instead of one per record.
import type { ClientSession } from "mongodb";
import type { RecordType, Registry } from "../../registry/index.js";
import type { RecordStore, StoredRecord } from "../../storage/record-store.js";

export interface UriGroup {
  type: RecordType;
  repoId: number | undefined;
  ids: number[];
}

/** The uris of records (others ignored), grouped by type and repository, in the order first seen. */
export function groupUris(registry: Registry, uris: Iterable<string>): UriGroup[] {
  const groups = new Map<string, UriGroup>();
  for (const uri of uris) {
    const parsed = registry.parseUri(uri);
    if (parsed === undefined || !registry.has(parsed.type)) continue;
    const key = `${parsed.type} ${String(parsed.repoId)}`;
    const group = groups.get(key) ?? { type: registry.get(parsed.type), repoId: parsed.repoId, ids: [] };
    group.ids.push(parsed.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** A group's stored records (those that exist), read in `session`. */
export function readGroup(store: RecordStore, group: UriGroup, session?: ClientSession): Promise<StoredRecord[]> {
  const inScope = group.type.scope === "repository" ? { repo_id: group.repoId } : {};
  return store
    .collection(group.type.name)
    .find({ ...inScope, id: { $in: group.ids } }, { session })
    .toArray();
}
