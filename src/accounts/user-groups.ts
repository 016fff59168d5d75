// A user's groups written from the user's side, as ArchivesSpace writes them (backend users.rb): the
// `groups[]` parameter of a user's create and update, and POST /users/:id/groups. Membership is
// the usernames in each group record (member_usernames), so putting a user in a group, or taking
// them out, is a change to that group: its lock_version moves on and the change is told to the
// listeners (the permission cache empties once it commits), as src/records/hooks/user.ts does.
// The rules are the group's own (group-input.ts), kept here as well since these writes do not go
// through the group's update: manage_repository in the group's repository (403), an existing group
// (404), and only an administrator changes an administrator's groups or a group granting
// administer_system (403).
import type { ClientSession } from "mongodb";
import type { Actor } from "../auth/actor.js";
import { isAdministrator } from "../auth/caller.js";
import { ADMINISTER_SYSTEM, hasPermission } from "../auth/permissions.js";
import { accessDenied, badRequest, notFound } from "../errors/api-error.js";
import type { OperationDeps } from "../records/deps.js";
import type { AccountAccessControl } from "./access-control.js";

export const GROUPS_PARAMETER = "groups";
export const MANAGE_REPOSITORY = "manage_repository";
const GROUP = "group";
const GROUP_URI = /^\/repositories\/([1-9][0-9]{0,14})\/groups\/([1-9][0-9]{0,14})$/;
/** The most groups one request may name; a stock repository has six. */
export const MAX_GROUPS_PER_REQUEST = 250;
/** The most group uris a user's read shows. */
const MAX_GROUPS_SHOWN = 1000;

/** A group named by its uri. */
export interface GroupRef {
  repoId: number;
  id: number;
}

/** The groups of a `groups[]` parameter, de-duplicated. @throws ApiError 400 naming `groups` */
export function groupRefs(uris: readonly string[]): GroupRef[] {
  if (uris.length > MAX_GROUPS_PER_REQUEST)
    throw badRequest({ [GROUPS_PARAMETER]: [`At most ${MAX_GROUPS_PER_REQUEST} groups, not ${uris.length}`] });
  const seen = new Set<string>();
  const refs: GroupRef[] = [];
  for (const uri of uris) {
    const match = GROUP_URI.exec(uri);
    if (match === null)
      throw badRequest({ [GROUPS_PARAMETER]: [`Must be group uris (/repositories/N/groups/M), not "${uri}"`] });
    if (seen.has(uri)) continue;
    seen.add(uri);
    refs.push({ repoId: Number(match[1]), id: Number(match[2]) });
  }
  return refs;
}

/** Refuses (403) unless the caller holds manage_repository in each group's repository. */
export function assertMayManageGroups(caller: Actor, repoIds: Iterable<number>): void {
  if (caller.kind === "trusted") return;
  for (const repoId of repoIds) {
    if (caller.kind !== "user" || !hasPermission(caller.permissions, MANAGE_REPOSITORY, repoId)) throw accessDenied();
  }
}

export interface MembershipChange {
  username: string;
  /** The groups the user is put in. */
  add: readonly GroupRef[];
  /** A repository whose other groups the user leaves (the list replaces their groups there). */
  replaceIn?: number;
  /** Who asked (the rules are judged against them). */
  caller: Actor;
  /** Recorded as last_modified_by of the groups changed. */
  writtenBy: string;
  session: ClientSession;
}

/** The fields of a stored group read and written here (the driver's $pull typing needs them declared). */
interface StoredGroup {
  id: number;
  repo_id: number;
  grants_permissions?: string[];
  member_usernames?: string[];
  lock_version: number;
  system_mtime: Date;
  last_modified_by: string;
}

const grantsAdministration = (group: StoredGroup): boolean =>
  Array.isArray(group.grants_permissions) && group.grants_permissions.includes(ADMINISTER_SYSTEM);

const holds = (group: StoredGroup, username: string): boolean =>
  Array.isArray(group.member_usernames) && group.member_usernames.includes(username);

/**
 * Puts the user in `add` (and, with `replaceIn`, out of that repository's other groups), inside the
 * caller's transaction. Groups already as asked are not touched.
 * @throws ApiError 403 (see the file's comment), 404 `Group not found`
 */
export async function changeMemberships(
  deps: Pick<OperationDeps, "store" | "changes" | "now">,
  access: AccountAccessControl,
  change: MembershipChange,
): Promise<void> {
  const { username, add, replaceIn, caller, session } = change;
  assertMayManageGroups(caller, [...add.map((ref) => ref.repoId), ...(replaceIn === undefined ? [] : [replaceIn])]);
  const groups = deps.store.connection.collection<StoredGroup>(deps.store.collection(GROUP).collectionName);
  const projection = { id: 1, repo_id: 1, grants_permissions: 1, member_usernames: 1 };
  const named =
    add.length === 0
      ? []
      : await groups
          .find({ $or: add.map((ref) => ({ repo_id: ref.repoId, id: ref.id })) }, { projection, session })
          .toArray();
  if (named.length !== add.length) throw notFound("Group");
  const kept = new Set(add.map((ref) => ref.id));
  const leaving =
    replaceIn === undefined
      ? []
      : (
          await groups.find({ repo_id: replaceIn, member_usernames: username }, { projection, session }).toArray()
        ).filter((group) => !kept.has(group.id));
  const joining = named.filter((group) => !holds(group, username));
  if (joining.length === 0 && leaving.length === 0) return;
  if (!isAdministrator(caller)) {
    if ([...joining, ...leaving].some(grantsAdministration)) throw accessDenied();
    if (await access.isAdministratorAccount(username)) throw accessDenied();
  }
  const stamp = { system_mtime: deps.now(), last_modified_by: change.writtenBy };
  if (joining.length > 0)
    await groups.updateMany(
      { id: { $in: joining.map((group) => group.id) } },
      { $addToSet: { member_usernames: username }, $inc: { lock_version: 1 }, $set: stamp },
      { session },
    );
  if (leaving.length > 0)
    await groups.updateMany(
      { id: { $in: leaving.map((group) => group.id) } },
      { $pull: { member_usernames: username }, $inc: { lock_version: 1 }, $set: stamp },
      { session },
    );
  for (const group of [...joining, ...leaving])
    await deps.changes.written(
      { type: GROUP, operation: "update", id: group.id, scope: { repoId: group.repo_id } },
      session,
    );
}

/** The uris of the groups a user is in, by repository and id (at most MAX_GROUPS_SHOWN). */
export async function groupUrisOf(deps: Pick<OperationDeps, "store" | "registry">, username: string) {
  const found = await deps.store
    .collection(GROUP)
    .find({ member_usernames: username }, { projection: { id: 1, repo_id: 1 } })
    .sort({ repo_id: 1, id: 1 })
    .limit(MAX_GROUPS_SHOWN)
    .toArray();
  return found.map((group) => deps.registry.uriFor(GROUP, Number(group.id), Number(group.repo_id)));
}
