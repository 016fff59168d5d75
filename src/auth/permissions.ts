// Permission codes (ArchivesSpace's), their levels, and what a user may do: the union of the
// grants of the groups they belong to. A group of the hidden global repository grants its
// permissions everywhere; a repository's group only in that repository, and only the codes
// of repository level (a global-level code there grants nothing).

export const PERMISSIONS = [
  "administer_system", "become_user", "cancel_importer_job", "cancel_job", "create_job", "create_repository",
  "delete_agent_record", "delete_archival_record", "delete_assessment_record", "delete_classification_record",
  "delete_event_record", "delete_repository", "delete_subject_record", "delete_vocabulary_record", "import_records",
  "index_system", "manage_agent_record", "manage_assessment_attributes", "manage_container_profile_record",
  "manage_container_record", "manage_enumeration_record", "manage_location_profile_record", "manage_rde_templates",
  "manage_repository", "manage_subject_record", "manage_users", "manage_vocabulary_record", "mediate_edits",
  "merge_agent_record", "merge_agents_and_subjects", "merge_archival_record", "merge_subject_record",
  "show_full_agents", "suppress_archival_record", "transfer_archival_record", "transfer_repository",
  "update_accession_record", "update_agent_record", "update_assessment_record", "update_classification_record",
  "update_container_profile_record", "update_container_record", "update_digital_object_record",
  "update_enumeration_record", "update_event_record", "update_location_profile_record", "update_location_record",
  "update_resource_record", "update_subject_record", "update_vocabulary_record", "view_agent_contact_record",
  "view_all_records", "view_repository", "view_suppressed",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/**
 * Where a code may be granted: `global` only by a group of the global repository (or the
 * is_admin flag), `repository` by any group.
 */
export type PermissionLevel = "repository" | "global";

/**
 * The level of every code, from ArchivesSpace's definitions (backend/app/lib/bootstrap.rb,
 * `Permission.define(..., :level => ...)`, and the migrations that added later codes):
 *
 * - global there and here: administer_system, manage_users, become_user, view_all_records,
 *   create_repository, delete_repository, index_system, mediate_edits.
 * - global there as codes no group stores, derived from a repository code held anywhere
 *   (`:implied_by`), and never granted by ArchivesSpace's standard repository groups: the
 *   deletes and merges of records every repository shares (agents, subjects, vocabularies).
 *   Here they must be granted globally: a repository's group cannot reach into what other
 *   repositories' records link to.
 * - repository: the rest. That includes update_agent_record, update_subject_record,
 *   update_vocabulary_record, update_location_record, update_enumeration_record and the two
 *   profile updates, which ArchivesSpace's own standard repository groups grant: editing a
 *   shared record takes them from any repository (as there), deleting one takes its code
 *   held globally (route-guard.ts). show_full_agents and view_agent_contact_record are
 *   repository codes (the migrations that added them; show_full_agents was moved there).
 *
 * Typed by Permission, so a code added above without a level does not compile.
 */
const LEVEL_OF: Readonly<Record<Permission, PermissionLevel>> = {
  administer_system: "global", manage_users: "global", become_user: "global", view_all_records: "global",
  create_repository: "global", delete_repository: "global", index_system: "global", mediate_edits: "global",
  delete_agent_record: "global", delete_subject_record: "global", delete_vocabulary_record: "global",
  merge_agent_record: "global", merge_subject_record: "global",
  transfer_repository: "repository", manage_repository: "repository", view_repository: "repository",
  view_suppressed: "repository", update_accession_record: "repository", update_resource_record: "repository",
  update_digital_object_record: "repository", update_event_record: "repository", delete_event_record: "repository",
  suppress_archival_record: "repository", transfer_archival_record: "repository", delete_archival_record: "repository",
  merge_archival_record: "repository", update_classification_record: "repository", delete_classification_record: "repository",
  import_records: "repository", cancel_importer_job: "repository", create_job: "repository", cancel_job: "repository",
  manage_subject_record: "repository", update_subject_record: "repository", manage_agent_record: "repository",
  update_agent_record: "repository", manage_vocabulary_record: "repository", update_vocabulary_record: "repository",
  update_location_record: "repository", manage_enumeration_record: "repository", update_enumeration_record: "repository",
  merge_agents_and_subjects: "repository", manage_rde_templates: "repository", update_container_record: "repository",
  manage_container_record: "repository", manage_container_profile_record: "repository",
  update_container_profile_record: "repository", manage_location_profile_record: "repository",
  update_location_profile_record: "repository", update_assessment_record: "repository",
  delete_assessment_record: "repository", manage_assessment_attributes: "repository",
  show_full_agents: "repository", view_agent_contact_record: "repository",
};

/** Looked up by codes clients send: a Map, so no code can reach an object's built-in members. */
const LEVELS: ReadonlyMap<string, PermissionLevel> = new Map(PERMISSIONS.map((code) => [code, LEVEL_OF[code]])); // keys: PERMISSIONS, the code's own list

export function isPermission(code: string): code is Permission {
  return LEVELS.has(code);
}

/** A known code's level; undefined for an unknown code. */
export function permissionLevel(code: string): PermissionLevel | undefined {
  return LEVELS.get(code);
}

/** What makes a user an administrator, by whatever path they hold it. */
export const ADMINISTER_SYSTEM: Permission = "administer_system";

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

/** The codes a group grants in effect: in a repository, a global-level code (a group stored before levels were checked) grants nothing. */
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
  if (isAdmin) grant(GLOBAL_PERMISSIONS_KEY, PERMISSIONS);
  for (const group of groups) {
    const codes = effectiveGrants(group.repoId, group.grants);
    if (codes.length > 0) grant(group.repoId === GLOBAL_REPOSITORY_ID ? GLOBAL_PERMISSIONS_KEY : `/repositories/${group.repoId}`, codes);
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
