// facet[]: how many of the matching entries hold each value of a field, counted by the store (one aggregation per
// field, over the same filter as the results), in Solr's flat form ArchivesSpace passes on:
// `{"facet_fields": {"level": ["file", 40, "series", 12]}}`, by count then value, at most FACET_LIMIT values.
import type { Collection } from "mongodb";
import { badRequest } from "../errors/api-error.js";
import type { SearchEntry } from "../records/search/entries.js";
import { dictionary } from "../registry/index.js";
import type { Filter } from "./compile.js";

/** Values per facet, as ArchivesSpace's solr_facet_limit. */
export const FACET_LIMIT = 100;
export const MAX_FACETS = 10;

export type FacetCounts = Record<string, Array<string | number | boolean>>;

/** Checks the names asked for. @throws ApiError 400 naming facet[] */
export function checkFacets(paths: ReadonlyMap<string, string>, names: readonly string[]): void {
  if (names.length > MAX_FACETS) throw badRequest({ "facet[]": [`At most ${MAX_FACETS} facets, not ${names.length}`] });
  const unknown = names.find((name) => !paths.has(name));
  if (unknown !== undefined)
    throw badRequest({
      "facet[]": [`Must name facets (${[...paths.keys()].join(", ")}), not "${unknown.slice(0, 100)}"`],
    });
}

/** The counts of each facet named, over the entries matching `filter`: one aggregation, one match for them all. */
export async function countFacets(
  index: Collection<SearchEntry>,
  paths: ReadonlyMap<string, string>,
  filter: Filter,
  names: readonly string[],
  minCount: number,
): Promise<FacetCounts> {
  const counts = dictionary<Array<string | number | boolean>>();
  const wanted = [...new Set(names)];
  if (wanted.length === 0) return counts;
  // Each facet's path unwound and grouped as it is (no $project first): the store counts it in place.
  const perFacet = (path: string) => [
    { $unwind: `$${path}` },
    { $group: { _id: `$${path}`, count: { $sum: 1 } } },
    { $match: { count: { $gte: Math.max(1, minCount) } } },
    { $sort: { count: -1, _id: 1 } },
    { $limit: FACET_LIMIT },
  ];
  // Output fields named f0, f1, ...: a facet's name is the caller's, never a field name as such.
  const [row] = await index
    .aggregate([
      { $match: filter },
      { $facet: Object.fromEntries(wanted.map((name, i) => [`f${i}`, perFacet(paths.get(name) ?? name)])) },
    ])
    .toArray();
  wanted.forEach((name, i) => {
    const rows = (row?.[`f${i}`] ?? []) as Array<{ _id: string | number | boolean; count: number }>;
    counts[name] = rows.flatMap((one) => [one._id, one.count]);
  });
  return counts;
}
