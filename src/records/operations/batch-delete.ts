// Batch delete (ArchivesSpace's POST /batch_delete with record_uris[]): each record is deleted as its own DELETE
// would delete it (the same permission, rules and cascade: delete.ts), all of them in one transaction. ArchivesSpace
// answers 403 with the failures when any fails, and its endpoint's transaction undoes the others; so does Arca, and
// nothing is deleted unless everything is.
import { ApiError, badRequest } from "../../errors/api-error.js";
import type { OperationDeps } from "../deps.js";
import type { Actor, DeleteResult, Scope } from "../types.js";
import { checkDeletable, deleteWithin, type Cascade } from "./delete.js";

/** The most uris one batch takes: a batch is one transaction, and its answer lists every one. */
export const MAX_BATCH_DELETE = 1000;

export interface BatchDeleteResult {
  status: "OK";
  results: Array<DeleteResult & { uri: string }>;
}

interface Item {
  uri: string;
  type: string;
  scope: Scope;
  id: number;
}

/** Why one record could not be deleted, as the batch's 403 lists it. */
function failure(uri: string, error: unknown): string {
  if (!(error instanceof ApiError)) throw error;
  const detail = typeof error.detail === "string" ? error.detail : JSON.stringify(error.detail);
  return `${uri} (${error.status}): ${detail}`;
}

/**
 * Deletes every record of `uris` in one transaction, or none. `repoId`: only records of that repository (the
 * repository-scoped route); a uri outside it fails as a record not found.
 */
export async function batchDelete(
  deps: OperationDeps,
  uris: readonly string[],
  actor: Actor,
  repoId?: number,
): Promise<BatchDeleteResult> {
  if (uris.length > MAX_BATCH_DELETE)
    throw badRequest({ record_uris: [`At most ${MAX_BATCH_DELETE} uris, not ${uris.length}`] });
  if (new Set(uris).size !== uris.length) throw badRequest({ record_uris: ["Each uri may be listed once"] });
  const failures: string[] = [];
  const items: Item[] = [];
  for (const uri of uris) {
    const parsed = deps.registry.parseUri(uri);
    const type = parsed === undefined ? undefined : deps.registry.get(parsed.type);
    if (parsed === undefined || type === undefined || (repoId !== undefined && parsed.repoId !== repoId)) {
      failures.push(`${uri} (404): Record not found`);
      continue;
    }
    const item = { uri, type: type.name, scope: { repoId: parsed.repoId }, id: parsed.id };
    try {
      await checkDeletable(deps, item.type, item.scope, item.id, actor);
      items.push(item);
    } catch (error) {
      failures.push(failure(uri, error));
    }
  }
  if (failures.length > 0) throw batchFailed(failures);
  const results = await deps.store.transaction(async (session) => {
    const cascade: Cascade = { session, actor, now: deps.now(), going: new Set() };
    const done: BatchDeleteResult["results"] = [];
    const failed: string[] = [];
    for (const item of items) {
      try {
        // A record an earlier one's cascade took is deleted already: it counts as done, as its own DELETE would not.
        if (cascade.going.has(item.uri)) done.push({ status: "Deleted", id: item.id, uri: item.uri });
        else done.push({ ...(await deleteWithin(deps, cascade, item.type, item.scope, item.id)), uri: item.uri });
      } catch (error) {
        failed.push(failure(item.uri, error));
      }
    }
    if (failed.length > 0) throw batchFailed(failed);
    return done;
  });
  return { status: "OK", results };
}

/** ArchivesSpace's BatchDeleteFailed: 403 with every failure. */
function batchFailed(failures: string[]): ApiError {
  return new ApiError(403, { failures });
}
