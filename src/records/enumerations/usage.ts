// Where records hold a value of an enumeration, through the registry's enumeration paths (every
// field of every type declaring the enumeration): which record, if any, holds it (asked before a
// value is removed: one query per field, each stopping at the first match), and moving every use
// of one value to another (a migration, a renamed value). The fields are not indexed: these are
// rare administrator's acts, and an index per enumerated field would cost every record write.
import type { ClientSession } from "mongoose";
import type { EnumerationPath } from "../../registry/enumerations.js";
import { isJsonObject } from "../../registry/json.js";
import type { Registry } from "../../registry/registry.js";
import type { RecordStore } from "../../storage/record-store.js";
import type { RecordChanges } from "../changes.js";

export interface ValueUser {
  /** The record's uri. */
  uri: string;
  /** The field, as a path with `*` for list items. */
  path: string;
}

type Filter = Record<string, unknown>;

/**
 * The MongoDB filter matching records whose field at `path` holds `value`. Lists are matched
 * with $elemMatch, so that a union variant's tag (a note's jsonmodel_type) and the value are
 * looked for in the same list item.
 */
export function usageFilter(path: EnumerationPath, value: string): Filter {
  const build = (start: number): Filter => {
    const star = path.segments.indexOf("*", start);
    const end = star === -1 ? path.segments.length : star;
    const here = (at: number) => path.segments.slice(start, at).join(".");
    const filter: Filter = {};
    for (const condition of path.conditions) {
      if (condition.at < start || condition.at > end) continue;
      filter[condition.at === start ? condition.field : `${here(condition.at)}.${condition.field}`] = condition.value;
    }
    if (star === -1) filter[here(end)] = value;
    // A list of the values themselves matches by equality with any item.
    else if (star === path.segments.length - 1) filter[here(end)] = value;
    else filter[here(end)] = { $elemMatch: build(star + 1) };
    return filter;
  };
  return build(0);
}

/** A record holding `value` of `enumeration`, or undefined when none does. */
export async function findValueUser(
  registry: Registry,
  records: RecordStore,
  enumeration: string,
  value: string,
): Promise<ValueUser | undefined> {
  for (const { type, path } of registry.enumerationUsers(enumeration)) {
    const found = await records
      .collection(type)
      .findOne(usageFilter(path, value), { projection: { _id: 0, id: 1, repo_id: 1 } });
    if (found) return { uri: registry.uriFor(type, found.id, found.repo_id), path: path.path };
  }
  return undefined;
}

/**
 * Replaces `from` by `to` wherever `path` holds it in `node` (reached after `at` segments), only
 * in the union variants the path names. @returns how many it replaced
 */
function replaceAt(node: unknown, path: EnumerationPath, at: number, from: string, to: string): number {
  for (const condition of path.conditions) {
    if (condition.at === at && !(isJsonObject(node) && node[condition.field] === condition.value)) return 0;
  }
  const segment = path.segments[at];
  if (segment === undefined) return 0;
  const last = at === path.segments.length - 1;
  if (segment === "*") {
    if (!Array.isArray(node)) return 0;
    let replaced = 0;
    node.forEach((item: unknown, index) => {
      if (!last) replaced += replaceAt(item, path, at + 1, from, to);
      else if (item === from) {
        node[index] = to;
        replaced += 1;
      }
    });
    return replaced;
  }
  if (!isJsonObject(node)) return 0;
  if (!last) return replaceAt(node[segment], path, at + 1, from, to);
  if (node[segment] !== from) return 0;
  // A copy of the stored record, rewritten in place; `segment` is a schema's field name.
  (node as Record<string, unknown>)[segment] = to;
  return 1;
}

export interface ValueMoveDeps {
  registry: Registry;
  records: RecordStore;
  changes: RecordChanges;
}

/**
 * Moves every use of `from` to `to` across all record types, within `session`'s transaction:
 * each record holding it is rewritten once (every field of its type that uses the enumeration),
 * with its lock_version bumped and its change told, as any update. @returns the records rewritten
 */
export async function moveValueUses(
  deps: ValueMoveDeps,
  enumeration: string,
  from: string,
  to: string,
  writer: { username: string; now: Date },
  session: ClientSession,
): Promise<number> {
  const pathsByType = new Map<string, EnumerationPath[]>();
  for (const { type, path } of deps.registry.enumerationUsers(enumeration)) {
    pathsByType.set(type, [...(pathsByType.get(type) ?? []), path]);
  }
  let rewritten = 0;
  for (const [type, paths] of pathsByType) {
    const collection = deps.records.collection(type);
    // Read whole before writing: rewritten records stop matching, and no cursor runs across the writes.
    const docs = await collection.find({ $or: paths.map((path) => usageFilter(path, from)) }, { session }).toArray();
    for (const doc of docs) {
      const { _id, ...fields } = doc;
      const replaced = paths.reduce((sum, path) => sum + replaceAt(fields, path, 0, from, to), 0);
      if (replaced === 0) continue;
      await collection.replaceOne(
        { _id },
        {
          ...fields,
          lock_version: (doc.lock_version as number) + 1,
          system_mtime: writer.now,
          last_modified_by: writer.username,
        },
        { session },
      );
      await deps.changes.written(
        { type, operation: "update", id: doc.id as number, scope: { repoId: doc.repo_id as number | undefined } },
        session,
      );
      rewritten += 1;
    }
  }
  return rewritten;
}
