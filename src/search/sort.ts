// The `sort` parameter as ArchivesSpace clients send it (Solr's: `title_sort asc`, several comma-separated) and
// the entry fields it orders by. Relevance (`score`) is not computed yet: it orders as the default does.
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

/** Ties, and a sort by score, fall back to title then uri: every page of a result is then stable. */
const DEFAULT: SortKey[] = [
  { field: "title_sort", direction: 1 },
  { field: "_id", direction: 1 },
];

const MAX_KEYS = 8;

/** @throws ApiError 400 naming `sort` */
export function sortOf(sort: string | undefined): SortKey[] {
  if (sort === undefined || sort.trim() === "") return DEFAULT;
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
    if (field !== null && !keys.some((key) => key.field === field))
      keys.push({ field, direction: direction === "asc" ? 1 : -1 });
  }
  for (const key of DEFAULT) if (!keys.some((one) => one.field === key.field)) keys.push(key);
  return keys;
}
