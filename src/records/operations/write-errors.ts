// Storage errors a client caused, in the contract's words: a duplicate identifier is a 400
// naming the field (docs/api.md §7), not a 500.
import { ApiError } from "../../errors/api-error.js";
import { duplicateKeyPattern } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";

export function asDuplicateIdentifier(deps: OperationDeps, type: string, error: unknown): unknown {
  const keyPattern = duplicateKeyPattern(error);
  if (!keyPattern) return error;
  const field = deps.registry.uniqueFieldFor(type, keyPattern);
  return field ? new ApiError(400, { [field]: ["That ID is already in use"] }) : error;
}
