// Permission codes (ArchivesSpace's), and what a user may do: the union of the grants of
// the groups they belong to. A group of the hidden global repository grants its
// permissions everywhere; a repository's group only in that repository.

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

const KNOWN = new Set<string>(PERMISSIONS);

export function isPermission(code: string): code is Permission {
  return KNOWN.has(code);
}

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

export function permissionMap(isAdmin: boolean, groups: readonly GroupMembership[]): PermissionMap {
  const map = new Map<string, Set<string>>();
  const grant = (key: string, codes: Iterable<string>) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    for (const code of codes) set.add(code);
  };
  if (isAdmin) grant(GLOBAL_PERMISSIONS_KEY, PERMISSIONS);
  for (const group of groups) {
    grant(group.repoId === GLOBAL_REPOSITORY_ID ? GLOBAL_PERMISSIONS_KEY : `/repositories/${group.repoId}`, group.grants);
  }
  return Object.fromEntries([...map].map(([key, codes]) => [key, [...codes].sort()]));
}

/**
 * Whether the map grants `code` globally or in any repository. Global records (agents,
 * subjects) are shared by every repository, so an archivist of any repository may edit them,
 * as in ArchivesSpace; the codes only global groups hold (create_repository, manage_users,
 * administer_system) are never granted per repository.
 */
export function hasPermissionAnywhere(map: PermissionMap, code: string): boolean {
  return Object.values(map).some((codes) => codes.includes(code));
}

/** Whether the map grants `code`, in repository `repoId` (or globally when repoId is undefined). */
export function hasPermission(map: PermissionMap, code: string, repoId?: number): boolean {
  if (map[GLOBAL_PERMISSIONS_KEY]?.includes(code)) return true;
  return repoId !== undefined && (map[`/repositories/${repoId}`]?.includes(code) ?? false);
}
