// x-computed uses: over the links from `via` lists into a batch of records, the distinct roles, the repositories of
// the linking records, and whether any is published (an agent's linked_agent_roles, used_within_repositories,
// is_linked_to_published_record; a subject's and a top container's).
import type { ComputedRule, JsonValue, RecordType } from "../../registry/index.js";
import type { OperationDeps } from "../deps.js";
import { referrers } from "./linked-lookups.js";

export interface Use {
  ref: string;
  role: string | null;
  repoId: number | null;
  published: boolean;
}

/**
 * The distinct (linked uri, role, repository, published) of every link from a `via` list into the records: grouped by
 * the store, so a much-used agent costs its links' count in the store and a handful of rows here.
 */
export async function uses(deps: OperationDeps, type: RecordType, via: string, uris: string[]): Promise<Use[]> {
  const out: Use[] = [];
  for (const { type: referrer, refPath } of referrers(deps, type, via)) {
    // Links in items of the via list itself ({via}/*/.../ref): the item is one row, with its role beside the ref.
    if (refPath.segments[1] !== "*" || refPath.segments.lastIndexOf("*") !== 1) continue;
    const rows = await deps.store
      .collection(referrer)
      .aggregate([
        { $match: { [refPath.mongoPath]: { $in: uris } } },
        { $unwind: `$${via}` },
        { $match: { [refPath.mongoPath]: { $in: uris } } },
        {
          $group: {
            _id: { ref: `$${refPath.mongoPath}`, role: `$${via}.role`, repo: "$repo_id", publish: "$publish" },
          },
        },
      ])
      .toArray();
    for (const row of rows) {
      const key = row._id as { ref: string; role?: unknown; repo?: unknown; publish?: unknown };
      out.push({
        ref: key.ref,
        role: typeof key.role === "string" ? key.role : null,
        repoId: typeof key.repo === "number" ? key.repo : null,
        published: key.publish === true,
      });
    }
  }
  return out;
}

export function yieldOf(
  deps: OperationDeps,
  rule: Extract<ComputedRule, { kind: "uses" }>,
  rows: Use[],
  publishedRepositories: ReadonlySet<number>,
): JsonValue {
  const holder = deps.registry.scopeHolder;
  const repositories = (only: (row: Use) => boolean) =>
    [...new Set(rows.filter(only).flatMap((row) => (row.repoId === null ? [] : [row.repoId])))]
      .sort((a, b) => a - b)
      .map((id) => (holder === undefined ? String(id) : deps.registry.uriFor(holder.name, id)));
  switch (rule.yield) {
    case "roles": {
      const keep = rule.keep;
      const roles = new Set(rows.flatMap((row) => (row.role === null ? [] : [row.role])));
      // In the order `keep` lists them (ArchivesSpace's enumeration order), else alphabetical.
      return keep === null ? [...roles].sort() : keep.filter((role) => roles.has(role));
    }
    case "used_within":
      return repositories(() => true);
    case "used_within_published":
      return repositories((row) => row.repoId !== null && publishedRepositories.has(row.repoId));
    case "published":
      return rows.some((row) => row.published);
  }
}

/** Of the repositories `rows` are in, those published (the scope holder's `publish`). */
export async function publishedRepositories(deps: OperationDeps, rows: Use[]): Promise<Set<number>> {
  const holder = deps.registry.scopeHolder;
  const ids = [...new Set(rows.flatMap((row) => (row.repoId === null ? [] : [row.repoId])))];
  if (holder === undefined || ids.length === 0) return new Set();
  const docs = await deps.store
    .collection(holder.name)
    .find({ id: { $in: ids }, publish: true }, { projection: { id: 1 } })
    .toArray();
  return new Set(docs.map((doc) => doc.id as number));
}
