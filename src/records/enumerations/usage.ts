// Which record, if any, holds a value of an enumeration: asked before a value is removed. One
// query per enumerated field that uses the enumeration (the registry's enumeration paths), each
// stopping at the first match. The fields are not indexed: removing a value is a rare
// administrator's act, and an index per enumerated field would cost every record write.
import type { EnumerationPath } from "../../registry/enumerations.js";
import type { Registry } from "../../registry/registry.js";
import type { RecordStore } from "../../storage/record-store.js";

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
