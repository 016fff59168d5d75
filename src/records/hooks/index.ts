// Which record types have hooks. A type without behaviour beyond its schema has none.
import type { OperationDeps } from "../deps.js";
import type { RecordOperations } from "../operations/index.js";
import { repositoryHooks } from "./repository.js";
import type { RecordHooks } from "./types.js";
import { userHooks } from "./user.js";

export function recordHooks(
  operations: () => RecordOperations,
  deps: () => OperationDeps,
): Record<string, RecordHooks> {
  return { repository: repositoryHooks(operations, deps), user: userHooks(deps) };
}
