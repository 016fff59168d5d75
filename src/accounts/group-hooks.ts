// The group as a holder of permissions: the rules of group-input.ts (levels, members the writer
// may add, administrators' groups), run by the record operations for every group write, whoever
// makes it. Registered on the group type by openAccounts. The permission cache is emptied by
// the change listener openAccounts subscribes, after any group write commits.
import type { RecordHooks } from "../records/hooks/index.js";
import type { RecordStore } from "../storage/record-store.js";
import type { AccountAccessControl } from "./access-control.js";
import { assertMayChangeGroup, groupBefore, prepareGroupInput, type GroupWriteContext } from "./group-input.js";

export function groupAccountHooks(store: RecordStore, access: AccountAccessControl): RecordHooks {
  return {
    async beforeWrite({ operation, actor, scope, existing, input }) {
      const context: GroupWriteContext = {
        store,
        access,
        caller: actor,
        // A group lives in a repository: the operation was given one.
        repoId: scope.repoId ?? 0,
        before: existing === undefined ? undefined : groupBefore(existing),
      };
      if (operation !== "delete") return prepareGroupInput(input, context);
      await assertMayChangeGroup(context);
      return undefined;
    },
  };
}
