// Records named by uri, read as the caller may read them (computed fields there, guarded fields only for who may
// see them): a type and repository at a time, in id sets, each group at the same time as the others. What search
// results and the update feed show of the records they name.
import type { Actor } from "../../auth/actor.js";
import type { JsonObject } from "../../registry/index.js";
import { groupUris, type UriGroup } from "./uri-groups.js";
import { MAX_ID_SET, type RecordOperations } from "../operations/index.js";

/** The records at `uris` that exist and the caller may read (a type it may not read is left out), by uri. */
export async function readByUri(
  operations: RecordOperations,
  uris: Iterable<string>,
  actor: Actor,
  /** resolve[] keys, resolved in each record as a read would (docs/api.md §6). */
  resolve: string[] = [],
): Promise<Map<string, JsonObject>> {
  const read = async ({ type, repoId, ids }: UriGroup): Promise<JsonObject[]> => {
    const found: JsonObject[] = [];
    for (let start = 0; start < ids.length; start += MAX_ID_SET) {
      const mode = { kind: "idSet" as const, ids: ids.slice(start, start + MAX_ID_SET) };
      let page: unknown;
      try {
        page = await operations.list(type.name, { repoId }, { mode, resolve }, actor);
      } catch {
        break; // a type the caller may not read: its records are left out
      }
      if (Array.isArray(page)) found.push(...(page as JsonObject[]));
    }
    return found;
  };
  const records = new Map<string, JsonObject>();
  const groups = groupUris(operations.deps.registry, uris);
  for (const record of (await Promise.all(groups.map(read))).flat())
    if (typeof record.uri === "string") records.set(record.uri, record);
  return records;
}
