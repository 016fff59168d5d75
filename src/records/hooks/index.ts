// Which record types have hooks of their own here. A type without behaviour beyond its schema has
// none; the account types get more from accounts/ (HookTable.add).
import type { RecordOperations } from "../operations/index.js";
import type { HookTable } from "./hook-table.js";
import { repositoryHooks } from "./repository.js";
import { userHooks } from "./user.js";

export { HookTable } from "./hook-table.js";
export type * from "./types.js";
export { listParameter, textParameter } from "./types.js";

export function addRecordHooks(table: HookTable, operations: RecordOperations): void {
  table.add("repository", repositoryHooks(operations)).add("user", userHooks(operations.deps));
}
