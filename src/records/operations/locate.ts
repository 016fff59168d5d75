// Finding the record an operation is about, with the contract's 404s. A record's repository
// is not looked up on the way to the record: a found record implies its repository exists
// (deleting a repository deletes its records first), so the repository is asked about only
// when nothing was found, to say which of the two is missing.
import type { ClientSession } from "mongodb";
import { assertMay } from "../../auth/operation-access.js";
import { ApiError, notFound } from "../../errors/api-error.js";
import type { RecordOperation, RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import type { Actor, Scope } from "../types.js";
import { hiddenFrom } from "./suppression.js";

export function recordType(deps: OperationDeps, typeName: string, scope: Scope): RecordType {
  const type = deps.registry.get(typeName);
  if (type.scope === "repository" && scope.repoId === undefined)
    throw new ApiError(500, "a repository-scoped type needs a repository");
  return type;
}

/** The type, once `actor` may perform `operation` on its records in `scope` (403 otherwise). */
export function permittedType(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  actor: Actor,
  operation: RecordOperation,
): RecordType {
  const type = recordType(deps, typeName, scope);
  assertMay(actor, type, operation, scope.repoId);
  return type;
}

/** Throws "Repository not found" when a repository-scoped record's repository does not exist. */
export async function requireRepository(
  deps: OperationDeps,
  type: RecordType,
  scope: Scope,
  session?: ClientSession,
): Promise<void> {
  if (type.scope !== "repository") return;
  const holder = deps.registry.scopeHolderType();
  const found = await deps.store
    .collection(holder.name)
    .findOne({ id: scope.repoId }, { projection: { _id: 1 }, session });
  if (!found) throw notFound(holder.title);
}

/** The storage filter of one record. */
export function recordFilter(type: RecordType, id: number, scope: Scope): { id: number; repo_id?: number } {
  return type.scope === "repository" ? { id, repo_id: scope.repoId } : { id };
}

/**
 * `session`: read inside that transaction. `viewer`: whom the record is read for; a record hidden from them
 * (suppression.ts) is not found.
 */
export async function findStored(
  deps: OperationDeps,
  type: RecordType,
  id: number,
  scope: Scope,
  session?: ClientSession,
  viewer?: Actor,
): Promise<StoredRecord> {
  const stored = await deps.store.collection(type.name).findOne(recordFilter(type, id, scope), { session });
  if (stored && viewer !== undefined && hiddenFrom(type, stored, viewer)) throw notFound(type.title);
  if (stored) return stored;
  await requireRepository(deps, type, scope, session);
  throw notFound(type.title);
}
