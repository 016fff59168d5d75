// The user's `groups[]` write parameter (x-write-parameters), as ArchivesSpace's POST /users and
// POST /users/:id take it: on a create, the new user joins every group named; on an update, with
// `repo_id`, the user's groups in that repository become those named there (groups of other
// repositories in the list are ignored, as ArchivesSpace ignores them). Checked before the write
// (a bad uri 400, a repository the caller may not manage 403), written in the user write's
// transaction (a missing group 404 undoes the user write too). A read shows the user's `groups`.
// Registered on the user type by openAccounts, after the account rules (user-hooks.ts).
import { badRequest } from "../errors/api-error.js";
import type { OperationDeps } from "../records/deps.js";
import { listParameter, textParameter, type RecordHooks, type WriteParameters } from "../records/hooks/index.js";
import type { Actor } from "../auth/actor.js";
import type { AccountAccessControl } from "./access-control.js";
import {
  assertMayManageGroups,
  changeMemberships,
  groupRefs,
  groupUrisOf,
  GROUPS_PARAMETER,
  type GroupRef,
} from "./user-groups.js";

export const REPO_ID_PARAMETER = "repo_id";
const POSITIVE = /^[1-9][0-9]{0,14}$/;

interface GroupsAsked {
  add: GroupRef[];
  replaceIn?: number;
}

/** What the parameters ask of the user's groups; undefined when they ask nothing. @throws ApiError 400 */
function groupsAsked(operation: "create" | "update", parameters: WriteParameters): GroupsAsked | undefined {
  const uris = listParameter(parameters, GROUPS_PARAMETER);
  if (uris === undefined) return undefined;
  const refs = groupRefs(uris);
  if (operation === "create") return { add: refs };
  const raw = textParameter(parameters, REPO_ID_PARAMETER);
  // ArchivesSpace does nothing with groups[] given without repo_id; a silent no-op would hide the mistake.
  if (raw === undefined) throw badRequest({ [REPO_ID_PARAMETER]: ["Required with groups[] on an update"] });
  if (!POSITIVE.test(raw)) throw badRequest({ [REPO_ID_PARAMETER]: [`Must be a repository id, not "${raw}"`] });
  const replaceIn = Number(raw);
  return { add: refs.filter((ref) => ref.repoId === replaceIn), replaceIn };
}

export function userGroupHooks(deps: OperationDeps, access: AccountAccessControl): RecordHooks {
  const write = async (
    operation: "create" | "update",
    username: string,
    parameters: WriteParameters,
    caller: Actor,
    writtenBy: string,
    session: Parameters<typeof changeMemberships>[2]["session"],
  ) => {
    const asked = groupsAsked(operation, parameters);
    if (asked === undefined) return;
    await changeMemberships(deps, access, { username, ...asked, caller, writtenBy, session });
  };
  return {
    async beforeWrite({ operation, actor, parameters }) {
      if (operation === "delete") return undefined;
      const asked = groupsAsked(operation, parameters);
      if (asked !== undefined)
        assertMayManageGroups(actor, [
          ...asked.add.map((ref) => ref.repoId),
          ...(asked.replaceIn ? [asked.replaceIn] : []),
        ]);
      return undefined;
    },
    async afterCreate({ record, parameters, caller, actor, session }) {
      await write("create", String(record.username), parameters, caller, actor.username, session);
    },
    async afterUpdate({ record, previous, parameters, caller, actor, session }) {
      const username = String(previous?.username ?? record.username);
      await write("update", username, parameters, caller, actor.username, session);
    },
    async afterRead(record) {
      return { ...record, groups: await groupUrisOf(deps, String(record.username)) };
    },
  };
}
