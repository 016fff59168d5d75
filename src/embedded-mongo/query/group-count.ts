// `{$unwind: "$p"}` (optional) then `{$group: {_id: "$p", n: {$sum: 1}}}`: how many documents (or array elements)
// hold each value of a path, counted by reading the stored documents in place. mingo would be handed a copy of
// every matched document first (it may modify what it is given), which for a facet over fifty thousand search
// entries of a hundred words each is most of a second; counting in place is a read of one field each. Only
// values whose grouping is plain JavaScript equality (strings, booleans, numbers, null) are counted here: a
// document holding anything else, or an array where the path continues, leaves the whole stage to mingo.
import type { Document } from "bson";
import { isDocument } from "../bson-values.js";

/** A value counted here: one whose grouping is plain JavaScript equality. */
export type GroupKey = string | number | boolean | null;

/** Counts per value of a path over the same documents, read from an index (access.ts valueCounts), or undefined. */
export type IndexedCounts = (path: string, unwind: boolean) => Map<GroupKey, number> | undefined;

interface Pattern {
  path: string[];
  unwind: boolean;
  name: string;
  /** The stages after the $group. */
  rest: Document[];
}

function pathOf(reference: unknown): string[] | undefined {
  if (typeof reference !== "string" || !reference.startsWith("$") || reference.startsWith("$$")) return undefined;
  const path = reference.slice(1).split(".");
  return path.some((segment) => segment === "" || segment.startsWith("$")) ? undefined : path;
}

function patternOf(stages: readonly Document[]): Pattern | undefined {
  const unwound = pathOf(stages[0]?.$unwind);
  const group = stages[unwound === undefined ? 0 : 1]?.$group as Document | undefined;
  if (!isDocument(group)) return undefined;
  const path = pathOf(group._id);
  if (path === undefined || (unwound !== undefined && unwound.join(".") !== path.join("."))) return undefined;
  const names = Object.keys(group).filter((key) => key !== "_id");
  const accumulator = group[names[0] ?? ""] as unknown;
  if (names.length !== 1 || !isDocument(accumulator) || Object.keys(accumulator).length !== 1) return undefined;
  if (accumulator.$sum !== 1) return undefined;
  return { path, unwind: unwound !== undefined, name: names[0] as string, rest: stages.slice(unwound ? 2 : 1) };
}

export function isGroupKey(value: unknown): value is GroupKey {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && !Number.isNaN(value))
  );
}

/** Met on the way to a path's value: an array or another value mingo's path rules read differently. */
const UNREADABLE = Symbol("unreadable");

/** The value at `path` through sub-documents only, or UNREADABLE. */
function valueAt(doc: Document, path: readonly string[]): unknown {
  let current: unknown = doc;
  for (const segment of path) {
    if (current === undefined || current === null) return undefined;
    if (!isDocument(current)) return UNREADABLE;
    current = Object.hasOwn(current, segment) ? current[segment] : undefined;
  }
  return current;
}

/**
 * The counts of the pattern's $group over `docs` (from an index, when `indexed` has them), and the stages after it;
 * undefined when the stages are not of that shape or a document holds a value only mingo groups.
 */
export function countByPath(
  docs: readonly Document[],
  stages: readonly Document[],
  indexed?: IndexedCounts,
): { docs: Document[]; rest: Document[] } | undefined {
  const pattern = patternOf(stages);
  if (pattern === undefined) return undefined;
  const fromIndex = indexed?.(pattern.path.join("."), pattern.unwind);
  const counts = fromIndex ?? readCounts(docs, pattern);
  if (counts === undefined) return undefined;
  const grouped = [...counts].map(([key, count]) => ({ _id: key, [pattern.name]: count }));
  return { docs: grouped, rest: pattern.rest };
}

/** The pattern's counts, read from each document; undefined when one holds a value only mingo groups. */
function readCounts(docs: readonly Document[], pattern: Pattern): Map<GroupKey, number> | undefined {
  const counts = new Map<GroupKey, number>();
  const add = (key: GroupKey) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const doc of docs) {
    const value = valueAt(doc, pattern.path);
    if (value === UNREADABLE) return undefined;
    if (!pattern.unwind) {
      if (value === undefined) add(null);
      else if (isGroupKey(value)) add(value);
      else return undefined;
    } else if (Array.isArray(value)) {
      // As $unwind: each element a document of its own, an empty array none.
      for (const element of value) {
        if (!isGroupKey(element)) return undefined;
        add(element);
      }
    } else if (value !== undefined && value !== null) {
      if (!isGroupKey(value)) return undefined;
      add(value);
    }
  }
  return counts;
}

/**
 * `{$facet: {name: [<count per value of a path>, ...], ...}}` first in `stages`, each sub-pipeline counted in place
 * over the same documents (one match for them all), what follows each count run by `rest` (over the counts alone);
 * undefined when a sub-pipeline does not start with such a count.
 */
export function facetCounts(
  docs: readonly Document[],
  stages: readonly Document[],
  rest: (counts: Document[], stages: Document[]) => Document[],
  indexed?: IndexedCounts,
): { docs: Document[]; rest: Document[] } | undefined {
  const facet = stages[0]?.$facet as unknown;
  if (!isDocument(facet) || Object.keys(stages[0] as Document).length !== 1) return undefined;
  const outputs: Array<[string, Document[]]> = [];
  for (const [name, pipeline] of Object.entries(facet)) {
    const counted = Array.isArray(pipeline) ? countByPath(docs, pipeline as Document[], indexed) : undefined;
    if (counted === undefined) return undefined;
    outputs.push([name, counted.rest.length === 0 ? counted.docs : rest(counted.docs, counted.rest)]);
  }
  // fromEntries: an output named __proto__ is a field like any other.
  return { docs: [Object.fromEntries(outputs)], rest: stages.slice(1) };
}
