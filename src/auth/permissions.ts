// What a user may do with the permission codes (src/registry/permission-codes.ts): the union of the
// grants of the groups they belong to. A group of the hidden global repository grants its
// permissions everywhere; a repository's group only in that repository, and only the codes
// of repository level (a global-level code there grants nothing).

import { registry } from "../registry/index.js";
import { PERMISSIONS, type PermissionLevel } from "../registry/permission-codes.js";

export { PERMISSIONS, type Permission, type PermissionLevel } from "../registry/permission-codes.js";

/** Every code and its level: ArchivesSpace's and those the record types declare (x-permission-codes). */
const LEVELS: ReadonlyMap<string, PermissionLevel> = registry.permissionLevels;

/** A known code's level; undefined for an unknown code. */
export function permissionLevel(code: string): PermissionLevel | undefined {
  return LEVELS.get(code);
}

/** Every known code: what an administrator holds. */
export function allPermissions(): string[] {
  return [...LEVELS.keys()];
}

/** What makes a user an administrator, by whatever path they hold it. */
export const ADMINISTER_SYSTEM = "administer_system" satisfies (typeof PERMISSIONS)[number];

/** The hidden global repository: its groups grant permissions in every repository. */
export const GLOBAL_REPOSITORY_ID = 1;
/** The key global grants appear under in a user's permission map, as in ArchivesSpace. */
export const GLOBAL_PERMISSIONS_KEY = "_archivesspace";

export interface GroupMembership {
  repoId: number;
  grants: readonly string[];
}

/** Repository URI (or `_archivesspace`) -> permission codes, as the login response shows them. */
export type PermissionMap = Record<string, string[]>;

/**
 * The codes a group grants in effect: in a repository, a global-level code (a group stored before levels were checked)
 * grants nothing.
 */
export function effectiveGrants(repoId: number, grants: readonly string[]): string[] {
  if (repoId === GLOBAL_REPOSITORY_ID) return [...grants];
  return grants.filter((code) => permissionLevel(code) !== "global");
}

export function permissionMap(isAdmin: boolean, groups: readonly GroupMembership[]): PermissionMap {
  const map = new Map<string, Set<string>>();
  const grant = (key: string, codes: Iterable<string>) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    for (const code of codes) set.add(code);
  };
  if (isAdmin) grant(GLOBAL_PERMISSIONS_KEY, LEVELS.keys());
  for (const group of groups) {
    const codes = effectiveGrants(group.repoId, group.grants);
    if (codes.length > 0)
      grant(group.repoId === GLOBAL_REPOSITORY_ID ? GLOBAL_PERMISSIONS_KEY : `/repositories/${group.repoId}`, codes);
  }
  return Object.fromEntries([...map].map(([key, codes]) => [key, [...codes].sort()]));
}

/**
 * Whether the map grants `code` globally or in any repository: what editing a record every
 * repository shares (agents, subjects, locations...) takes, as in ArchivesSpace, where an
 * archivist of any repository may edit them. A global-level code counts only globally.
 */
export function hasPermissionAnywhere(map: PermissionMap, code: string): boolean {
  if (permissionLevel(code) === "global") return hasPermission(map, code);
  return Object.values(map).some((codes) => codes.includes(code));
}

/** Whether the map grants `code`, in repository `repoId` (or globally when repoId is undefined). */
export function hasPermission(map: PermissionMap, code: string, repoId?: number): boolean {
  if (Object.hasOwn(map, GLOBAL_PERMISSIONS_KEY) && map[GLOBAL_PERMISSIONS_KEY]!.includes(code)) return true;
  if (repoId === undefined || permissionLevel(code) === "global") return false;
  const key = `/repositories/${repoId}`;
  return Object.hasOwn(map, key) && map[key]!.includes(code);
}
