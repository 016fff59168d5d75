// The user: what its schema cannot say. Group memberships are usernames inside group records
// (member_usernames), so a user's name is taken out of every group when the user is deleted and
// when one is created (a group write racing the deletion of an earlier account of that name
// could have left the name behind, and its grants must not pass to whoever gets the name next).
// Both run inside the user write's transaction, and each group changed is told to the change
// listeners like any other write (the access cache is emptied by them).
import type { ClientSession } from "mongodb";
import type { OperationDeps } from "../deps.js";
import type { Actor } from "../types.js";
import type { RecordHooks } from "./types.js";

/** The fields of a stored group this hook writes. */
interface GroupMembershipFields {
  id: number;
  repo_id: number;
  member_usernames?: string[];
  lock_version: number;
  system_mtime: Date;
  last_modified_by: string;
}

const GROUP = "group";

/**
 * One update of every group naming `username` rather than a read-modify-write per group through
 * the update operation, which could lose to a concurrent group edit; lock_version still moves on,
 * as any other change to a group does.
 */
async function removeFromAllGroups(
  deps: OperationDeps,
  username: string,
  actor: Actor,
  session: ClientSession,
): Promise<void> {
  const { store } = deps;
  // Typed by the fields written: the driver's $pull typing needs them to be declared.
  const groups = store.connection.collection<GroupMembershipFields>(store.collection(GROUP).collectionName);
  const holding = await groups
    .find({ member_usernames: username }, { projection: { id: 1, repo_id: 1 }, session })
    .toArray();
  if (holding.length === 0) return;
  await groups.updateMany(
    { member_usernames: username },
    {
      $pull: { member_usernames: username },
      $inc: { lock_version: 1 },
      $set: { system_mtime: deps.now(), last_modified_by: actor.username },
    },
    { session },
  );
  for (const group of holding) {
    await deps.changes.written(
      { type: GROUP, operation: "update", id: group.id, scope: { repoId: group.repo_id } },
      session,
    );
  }
}

export function userHooks(deps: OperationDeps): RecordHooks {
  return {
    async afterCreate({ record, actor, session }) {
      // The schema requires a string username.
      await removeFromAllGroups(deps, String(record.username), actor, session);
    },
    async beforeDelete({ record, actor, session }) {
      await removeFromAllGroups(deps, String(record.username), actor, session);
    },
  };
}
