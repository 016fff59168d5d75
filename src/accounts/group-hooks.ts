// The group as a holder of permissions: the rules of group-input.ts (levels, members the writer
// may add, administrators' groups), run by the record operations for every group write, whoever
// makes it. Registered on the group type by openAccounts. The permission cache is emptied by
// the change listener openAccounts subscribes, after any group write commits.
// An update's `with_members` parameter (x-write-parameters) is ArchivesSpace's: true, the default,
// replaces the members with the body's list; false keeps them, so a client that edits a group's
// description or grants without reading its members does not empty it.
import { badRequest } from "../errors/api-error.js";
import { textParameter, type RecordHooks, type WriteParameters } from "../records/hooks/index.js";
import type { RecordStore } from "../storage/record-store.js";
import type { AccountAccessControl } from "./access-control.js";
import { assertMayChangeGroup, groupBefore, prepareGroupInput, type GroupWriteContext } from "./group-input.js";

export const WITH_MEMBERS_PARAMETER = "with_members";

/** with_members: true unless given as false (any letter case). @throws ApiError 400 naming it */
function withMembers(parameters: WriteParameters): boolean {
  const raw = textParameter(parameters, WITH_MEMBERS_PARAMETER);
  if (raw === undefined || raw.toLowerCase() === "true") return true;
  if (raw.toLowerCase() === "false") return false;
  throw badRequest({ [WITH_MEMBERS_PARAMETER]: [`Must be true or false, not "${raw}"`] });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function groupAccountHooks(store: RecordStore, access: AccountAccessControl): RecordHooks {
  return {
    async beforeWrite({ operation, actor, scope, existing, input, parameters }) {
      const context: GroupWriteContext = {
        store,
        access,
        caller: actor,
        // A group lives in a repository: the operation was given one.
        repoId: scope.repoId ?? 0,
        before: existing === undefined ? undefined : groupBefore(existing),
      };
      if (operation === "delete") {
        await assertMayChangeGroup(context);
        return undefined;
      }
      const keepMembers = operation === "update" && !withMembers(parameters) && isPlainObject(input);
      const body = keepMembers ? { ...input, member_usernames: [...(context.before?.members ?? [])] } : input;
      return prepareGroupInput(body, context);
    },
  };
}
