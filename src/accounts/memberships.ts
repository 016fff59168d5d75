// Group memberships are usernames inside group records (member_usernames). These are the
// membership rules a group record cannot enforce by itself.
import type { Actor } from "../records/operations/index.js";
import type { RecordStore } from "../storage/record-store.js";

/** The fields of a stored group this module writes. */
interface GroupMembershipFields {
  member_usernames?: string[];
  lock_version: number;
  system_mtime: Date;
  last_modified_by: string;
}

/**
 * Takes a (deleted) user out of every group. One atomic update per store rather than a
 * read-modify-write per group through RecordOperations.update, which could lose to a
 * concurrent group edit; lock_version still moves on, as any other change to a group does.
 */
export async function removeFromAllGroups(
  store: RecordStore,
  username: string,
  actor: Actor,
  now: Date,
): Promise<void> {
  // Typed by the fields written: the driver's $pull typing needs them to be declared.
  const groups = store.connection.collection<GroupMembershipFields>(store.collection("group").collectionName);
  await groups.updateMany(
    { member_usernames: username },
    {
      $pull: { member_usernames: username },
      $inc: { lock_version: 1 },
      $set: { system_mtime: now, last_modified_by: actor.username },
    },
  );
}
