// The repository of a `/repositories/:repo_id/...` route that is not a record route (searches, the change feed):
// its id as the path gives it, and whether it is there to be read (hidden repositories, as the record routes
// treat them, are not).
import type { Request } from "express";
import type { Registry } from "../registry/index.js";
import type { RecordStore } from "../storage/record-store.js";

const POSITIVE_ID = /^[1-9][0-9]{0,14}$/;

/** The path's `:repo_id`, when it is a well-formed id (else undefined: the route answers 404). */
export function repoIdParam(req: Request): number | undefined {
  const raw = req.params.repo_id;
  return typeof raw === "string" && POSITIVE_ID.test(raw) ? Number(raw) : undefined;
}

/** The id, unless there is none or it is a hidden repository's (no route shows those): known without the store. */
export function shownRepoId(registry: Registry, repoId: number | undefined): number | undefined {
  return repoId === undefined || registry.scopeHolderType().hiddenIds.includes(repoId) ? undefined : repoId;
}

/** Whether a repository of this id exists (hidden ones included: ask shownRepoId first). */
export async function repositoryExists(store: RecordStore, registry: Registry, repoId: number): Promise<boolean> {
  const holder = registry.scopeHolderType();
  return (await store.collection(holder.name).findOne({ id: repoId }, { projection: { _id: 1 } })) !== null;
}
