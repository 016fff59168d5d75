// Finding the record an operation is about: its type, its repository (which must exist),
// and the stored document, or the contract's 404.
import { ApiError, notFound } from "../../errors/api-error.js";
import type { RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { REPOSITORY_TYPE, type OperationDeps } from "./deps.js";
import type { Scope } from "./types.js";

/** The type, with the scope checked against it: a repository-scoped type needs an existing repository. */
export async function typeInScope(deps: OperationDeps, typeName: string, scope: Scope): Promise<RecordType> {
  const type = deps.registry.get(typeName);
  if (type.scope === "global") return type;
  if (scope.repoId === undefined) throw new ApiError(500, "a repository-scoped type needs a repository");
  const repositories = deps.store.collection(REPOSITORY_TYPE);
  if (!(await repositories.findOne({ id: scope.repoId }, { projection: { _id: 1 } }))) throw notFound("Repository");
  return type;
}

/** The storage filter of one record. */
export function recordFilter(type: RecordType, id: number, scope: Scope): { id: number; repo_id?: number } {
  return type.scope === "repository" ? { id, repo_id: scope.repoId } : { id };
}

export async function findStored(deps: OperationDeps, type: RecordType, id: number, scope: Scope): Promise<StoredRecord> {
  const stored = await deps.store.collection(type.name).findOne(recordFilter(type, id, scope));
  if (!stored) throw notFound(type.title);
  return stored;
}
