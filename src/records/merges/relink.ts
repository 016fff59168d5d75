// Re-pointing a record's links from merged records (the victims) to the record they merge into (the target),
// along one of its type's ref paths, in place. Where the link sits in a list (a resource's `subjects`, an agent's
// `related_agents`), an item that now says exactly what another item of the same list says is dropped: a merge of
// two duplicate subjects leaves one `{ref}` where the record named both. Items that differ beyond the ref (a linked
// agent as creator and as subject) are kept: they are different facts about the same target.
import type { JsonObject, JsonValue, RefPath } from "../../registry/index.js";

/** What re-pointing one record along one path did. */
export interface Relinked {
  /** Links re-pointed. */
  repointed: number;
  /** List items dropped as duplicates of another item of their list. */
  collapsed: number;
}

/** A text of `value` that is the same for equal values whatever their key order: what "the same item" means. */
export function canonical(value: JsonValue | undefined): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as JsonObject)[key])}`).join(",")}}`;
}

/** Re-points the uri at the end of `segments` below `value`; how many were re-pointed (no list below here). */
function repointBelow(
  value: JsonValue | undefined,
  segments: readonly string[],
  victims: ReadonlySet<string>,
  target: string,
): number {
  if (value === null || typeof value !== "object" || Array.isArray(value) || segments.length === 0) return 0;
  const [segment, ...rest] = segments as [string, ...string[]];
  const holder = value as Record<string, JsonValue>;
  if (!Object.hasOwn(holder, segment)) return 0;
  if (rest.length > 0) return repointBelow(holder[segment], rest, victims, target);
  const uri = holder[segment];
  if (typeof uri !== "string" || !victims.has(uri)) return 0;
  holder[segment] = target;
  return 1;
}

/**
 * Drops from `list` the items at `moved` (positions of re-pointed items) that equal another item kept: items that
 * were already there win, then the first of the re-pointed ones. @returns how many were dropped
 */
export function collapseMoved(list: JsonValue[], moved: ReadonlySet<number>): number {
  const kept = new Set<string>();
  list.forEach((item, index) => {
    if (!moved.has(index)) kept.add(canonical(item));
  });
  let dropped = 0;
  const result: JsonValue[] = [];
  list.forEach((item, index) => {
    if (!moved.has(index)) {
      result.push(item);
      return;
    }
    const text = canonical(item);
    if (kept.has(text)) {
      dropped += 1;
      return;
    }
    kept.add(text);
    result.push(item);
  });
  if (dropped > 0) list.splice(0, list.length, ...result);
  return dropped;
}

/**
 * Re-points, in `record`, every link along `refPath` that names one of `victims` to `target`, and collapses the
 * list items that became duplicates. The record is changed in place.
 */
export function relink(record: JsonObject, refPath: RefPath, victims: ReadonlySet<string>, target: string): Relinked {
  const result: Relinked = { repointed: 0, collapsed: 0 };
  const removeAt = refPath.removeAt === "" ? [] : refPath.removeAt.split("/");
  // The innermost list holding the link (its `*` is the last of removeAt), or none: a single link property.
  const listDepth = removeAt[removeAt.length - 1] === "*" ? removeAt.length - 1 : -1;
  const walk = (value: JsonValue | undefined, depth: number): void => {
    if (value === null || value === undefined || typeof value !== "object") return;
    if (depth === listDepth) {
      if (!Array.isArray(value)) return;
      const moved = new Set<number>();
      value.forEach((item, index) => {
        const count = repointBelow(item, refPath.segments.slice(depth + 1), victims, target);
        if (count > 0) moved.add(index);
        result.repointed += count;
      });
      if (moved.size > 0) result.collapsed += collapseMoved(value, moved);
      return;
    }
    if (listDepth < 0) {
      result.repointed += repointBelow(value, refPath.segments.slice(depth), victims, target);
      return;
    }
    const segment = refPath.segments[depth] as string;
    if (segment === "*") {
      if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
      return;
    }
    if (Array.isArray(value) || !Object.hasOwn(value, segment)) return;
    walk((value as JsonObject)[segment], depth + 1);
  };
  walk(record, 0);
  return result;
}
