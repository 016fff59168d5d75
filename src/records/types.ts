// The vocabulary of the record operations (docs/api.md §3-§6), shared by HTTP, the
// importers and the account routes. Operations are transport-free: they take plain values,
// return plain values and throw ApiError (errors/api-error.ts) for what a caller got wrong.
import type { JsonObject } from "../registry/index.js";

import type { ClientSession } from "mongodb";

export { ANONYMOUS, onBehalfOf, trusted, type Actor, type TrustedActor, type UserActor } from "../auth/actor.js";

/** How a create or an update is made, beyond its record. */
export interface WriteOptions {
  /** Inside that transaction: a hook's writes, undone with the write that ran it. */
  session?: ClientSession;
  /**
   * The type's write parameters (x-write-parameters) the caller gave, by declared name: what the
   * type's hooks take beside the record (a user's password).
   */
  parameters?: ReadonlyMap<string, string | readonly string[]>;
}

/** A write given no parameters. */
export const NO_PARAMETERS: ReadonlyMap<string, string | readonly string[]> = new Map();

/** Where a record lives: the repository id for repository-scoped types, nothing for global ones. */
export interface Scope {
  repoId?: number;
}

/** Create and update answer this (docs/api.md §4). */
export interface WriteResult {
  status: "Created" | "Updated";
  id: number;
  lock_version: number;
  /** true when the server changed the stored record beyond the client's input (defaults, generated values). */
  stale: true | null;
  uri: string;
  warnings: string[];
}

export interface DeleteResult {
  status: "Deleted";
  id: number;
}

/**
 * The list modes (docs/api.md §5); when a request names several, page wins, then id_set. `all`:
 * every record, for a type whose list needs no mode (x-list-unpaged) when the request names none.
 */
export type ListMode =
  | { kind: "page"; page: number; pageSize: number }
  | { kind: "idSet"; ids: number[] }
  | { kind: "allIds" }
  | { kind: "all" };

export interface ListQuery {
  mode: ListMode;
  /** Only records whose field holds the value (x-list-filters: declared text fields). */
  filters?: ReadonlyArray<{ field: string; value: string }>;
  /** Records left out whatever the mode (x-hidden-ids). */
  excludeIds?: readonly number[];
  /** Epoch seconds: only records with system_mtime at or after it. */
  modifiedSince?: number;
  sortField?: string;
  sortDirection?: "asc" | "desc";
  resolve?: string[];
}

export interface PageEnvelope {
  first_page: number;
  last_page: number;
  this_page: number;
  total: number;
  results: JsonObject[];
  /** Set when resolve[] stopped at its bound (docs/api.md §6). */
  _resolve_truncated?: true;
}

/** page -> envelope; id_set -> records in id order; all_ids -> ascending ids. */
export type ListResult = PageEnvelope | JsonObject[] | number[];

export interface ReadOptions {
  resolve?: string[];
}

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 250;
export const MAX_ID_SET = 250;
