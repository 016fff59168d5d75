// The `sort` parameter as ArchivesSpace clients send it (Solr's: `title_sort asc`, several comma-separated): by
// relevance (`score desc`, the default, ranking.ts), or by the entry fields it names.
import { badRequest } from "../errors/api-error.js";

export interface SortKey {
  field: string;
  direction: 1 | -1;
}

/** Sort names clients use, and the entry field each orders by. */
const SORT_FIELDS = new Map<string, string | null>([
  ["title_sort", "title_sort"],
  ["title", "title_sort"],
  ["identifier", "identifier"],
  ["identifier_sort", "identifier"],
  ["primary_type", "primary_type"],
  ["repository", "repository"],
  ["repo_sort", "repository"],
  ["create_time", "create_time"],
  ["system_mtime", "system_mtime"],
  ["user_mtime", "user_mtime"],
  ["uri", "_id"],
  ["score", null],
]);

/** Ties fall back to title then uri: every page of a result is then stable. */
const TIES: SortKey[] = [
  { field: "title_sort", direction: 1 },
  { field: "_id", direction: 1 },
];

/** By relevance (ties by title then uri), or by `keys`. */
export type SearchOrder = { relevance: true } | { relevance: false; keys: SortKey[] };

const MAX_KEYS = 8;

/** @throws ApiError 400 naming `sort` */
export function sortOf(sort: string | undefined): SearchOrder {
  if (sort === undefined || sort.trim() === "") return { relevance: true };
  const parts = sort.split(",").map((part) => part.trim());
  if (parts.length > MAX_KEYS) throw badRequest({ sort: [`At most ${MAX_KEYS} sort keys, not ${parts.length}`] });
  const keys: SortKey[] = [];
  for (const part of parts) {
    const [name = "", direction = "asc", ...rest] = part.split(/\s+/);
    const field = SORT_FIELDS.get(name);
    if (field === undefined || rest.length > 0 || (direction !== "asc" && direction !== "desc"))
      throw badRequest({
        sort: [
          `Must be fields (${[...SORT_FIELDS.keys()].join(", ")}) each with asc or desc, not "${part.slice(0, 100)}"`,
        ],
      });
    // Relevance first is the ranked order (ascending relevance is not a useful one); after a field, a tie-break
    // the title already gives.
    if (field === null && keys.length === 0) return { relevance: true };
    if (field !== null && !keys.some((key) => key.field === field))
      keys.push({ field, direction: direction === "asc" ? 1 : -1 });
  }
  for (const key of TIES) if (!keys.some((one) => one.field === key.field)) keys.push(key);
  return { relevance: false, keys };
}
