// A group body as the store must hold it, and the rules a group write must keep that the
// schema cannot express:
// - member usernames normalised and de-duplicated (the membership query in access-control.ts
//   finds them), both lists present;
// - every granted code a known permission, and in a repository's group a repository-level one
//   (permissions.ts has the levels);
// - every member a user the caller may add: an unknown username and one the caller may not add
//   (an administrator, for a caller who is not one) get the same answer, so a repository manager
//   cannot probe which usernames exist beyond those they can add anyway;
// - only an administrator changes an administrator's groups, or a group granting
//   administer_system.
// What the schema checks (types, required fields) is left to it.
import { ADMINISTER_SYSTEM, GLOBAL_REPOSITORY_ID, permissionLevel } from "../auth/permissions.js";
import { ApiError, accessDenied, badRequest } from "../errors/api-error.js";
import type { RecordStore } from "../storage/record-store.js";
import type { AccountAccessControl } from "./access-control.js";
import type { Actor } from "../auth/actor.js";
import { isAdministrator } from "../auth/caller.js";
import { normaliseUsername } from "./usernames.js";

/** The group as it was before the write (update, delete). */
export interface GroupBefore {
  members: readonly string[];
  grants: readonly string[];
}

export interface GroupWriteContext {
  store: RecordStore;
  access: AccountAccessControl;
  /** Who writes, as the operation checked them. */
  caller: Actor;
  repoId: number;
  /** Undefined on create. */
  before?: GroupBefore;
}

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The lists of a stored group, whatever shape it was stored in. */
export function groupBefore(stored: Record<string, unknown>): GroupBefore {
  return {
    members: stringList(stored.member_usernames) ? stored.member_usernames : [],
    grants: stringList(stored.grants_permissions) ? stored.grants_permissions : [],
  };
}

const adminGroupsOnly = () => new ApiError(403, "Only an administrator may change an administrator's groups");

function grantErrors(codes: readonly string[], repoId: number): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  codes.forEach((code, index) => {
    const level = permissionLevel(code);
    if (level === undefined) errors.set(`grants_permissions/${index}`, [`Unknown permission code '${code}'`]);
    else if (level === "global" && repoId !== GLOBAL_REPOSITORY_ID) {
      errors.set(`grants_permissions/${index}`, [
        `'${code}' is a global permission: only a group of the global repository may grant it`,
      ]);
    }
  });
  return errors;
}

async function existingUsers(store: RecordStore, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const found = await store
    .collection("user")
    .find({ username: { $in: [...names] } }, { projection: { username: 1 } })
    .toArray();
  return new Set(found.map((user) => String(user.username)));
}

/**
 * Refuses a write that changes an administrator's groups, or a group granting
 * administer_system, unless the caller is an administrator. Also what a delete checks.
 * @throws ApiError 403
 */
export async function assertMayChangeGroup(context: GroupWriteContext, after?: GroupBefore): Promise<void> {
  if (isAdministrator(context.caller)) return;
  const before = context.before ?? { members: [], grants: [] };
  if (before.grants.includes(ADMINISTER_SYSTEM) || after?.grants.includes(ADMINISTER_SYSTEM)) throw accessDenied();
  const kept = new Set(after?.members ?? []);
  const removed = before.members.filter((member) => !kept.has(member));
  if ((await context.access.administratorsAmong(removed)).size > 0) throw adminGroupsOnly();
}

/**
 * The body to store.
 * @throws ApiError 400 naming each bad code (`grants_permissions/<i>`) or member (`member_usernames/<i>`); 403
 * (assertMayChangeGroup)
 */
export async function prepareGroupInput(input: unknown, context: GroupWriteContext): Promise<unknown> {
  if (!isPlainObject(input)) return input;
  const body = { ...input };
  body.member_usernames ??= [];
  body.grants_permissions ??= [];
  if (stringList(body.member_usernames))
    body.member_usernames = [...new Set(body.member_usernames.map(normaliseUsername))];
  if (stringList(body.grants_permissions)) {
    const errors = grantErrors(body.grants_permissions, context.repoId);
    if (errors.size > 0) throw badRequest(Object.fromEntries(errors));
    body.grants_permissions = [...new Set(body.grants_permissions)];
  }
  if (!stringList(body.member_usernames) || !stringList(body.grants_permissions)) return body;
  const members = body.member_usernames;
  await assertMayChangeGroup(context, { members, grants: body.grants_permissions });
  const previous = new Set(context.before?.members ?? []);
  const added = members.filter((member) => !previous.has(member));
  // Both lookups run whatever their answers, so the work done is the same for either refusal.
  const [known, admins] = await Promise.all([
    existingUsers(context.store, members),
    context.access.administratorsAmong(added),
  ]);
  const mayAddAdmins = isAdministrator(context.caller);
  const errors = new Map<string, string[]>();
  members.forEach((member, index) => {
    const refused = !known.has(member) || (!mayAddAdmins && admins.has(member));
    if (refused) errors.set(`member_usernames/${index}`, [`No user named '${member}' can be added`]);
  });
  if (errors.size > 0) throw badRequest(Object.fromEntries(errors));
  return body;
}
