// The permission codes x-permissions may name: ArchivesSpace's, with their levels, and those a
// record type declares for itself with x-permission-codes. The registry checks every
// x-permissions code against them when it loads (src/registry/registry.ts), so a typo is a
// start-up error naming its schema, not a route nobody can reach. What a user may do with
// them is src/auth/permissions.ts.

export const PERMISSIONS = [
  "administer_system",
  "become_user",
  "cancel_importer_job",
  "cancel_job",
  "create_job",
  "create_repository",
  "delete_agent_record",
  "delete_archival_record",
  "delete_assessment_record",
  "delete_classification_record",
  "delete_event_record",
  "delete_repository",
  "delete_subject_record",
  "delete_vocabulary_record",
  "import_records",
  "index_system",
  "manage_agent_record",
  "manage_assessment_attributes",
  "manage_container_profile_record",
  "manage_container_record",
  "manage_enumeration_record",
  "manage_location_profile_record",
  "manage_rde_templates",
  "manage_repository",
  "manage_subject_record",
  "manage_users",
  "manage_vocabulary_record",
  "mediate_edits",
  "merge_agent_record",
  "merge_agents_and_subjects",
  "merge_archival_record",
  "merge_subject_record",
  "show_full_agents",
  "suppress_archival_record",
  "transfer_archival_record",
  "transfer_repository",
  "update_accession_record",
  "update_agent_record",
  "update_assessment_record",
  "update_classification_record",
  "update_container_profile_record",
  "update_container_record",
  "update_digital_object_record",
  "update_enumeration_record",
  "update_event_record",
  "update_location_profile_record",
  "update_location_record",
  "update_resource_record",
  "update_subject_record",
  "update_vocabulary_record",
  "view_agent_contact_record",
  "view_all_records",
  "view_repository",
  "view_suppressed",
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
  administer_system: "global",
  manage_users: "global",
  become_user: "global",
  view_all_records: "global",
  create_repository: "global",
  delete_repository: "global",
  index_system: "global",
  mediate_edits: "global",
  delete_agent_record: "global",
  delete_subject_record: "global",
  delete_vocabulary_record: "global",
  merge_agent_record: "global",
  merge_subject_record: "global",
  transfer_repository: "repository",
  manage_repository: "repository",
  view_repository: "repository",
  view_suppressed: "repository",
  update_accession_record: "repository",
  update_resource_record: "repository",
  update_digital_object_record: "repository",
  update_event_record: "repository",
  delete_event_record: "repository",
  suppress_archival_record: "repository",
  transfer_archival_record: "repository",
  delete_archival_record: "repository",
  merge_archival_record: "repository",
  update_classification_record: "repository",
  delete_classification_record: "repository",
  import_records: "repository",
  cancel_importer_job: "repository",
  create_job: "repository",
  cancel_job: "repository",
  manage_subject_record: "repository",
  update_subject_record: "repository",
  manage_agent_record: "repository",
  update_agent_record: "repository",
  manage_vocabulary_record: "repository",
  update_vocabulary_record: "repository",
  update_location_record: "repository",
  manage_enumeration_record: "repository",
  update_enumeration_record: "repository",
  merge_agents_and_subjects: "repository",
  manage_rde_templates: "repository",
  update_container_record: "repository",
  manage_container_record: "repository",
  manage_container_profile_record: "repository",
  update_container_profile_record: "repository",
  manage_location_profile_record: "repository",
  update_location_profile_record: "repository",
  update_assessment_record: "repository",
  delete_assessment_record: "repository",
  manage_assessment_attributes: "repository",
  show_full_agents: "repository",
  view_agent_contact_record: "repository",
};

/** ArchivesSpace's codes and their levels; a Map, so no code a client sends can reach an object's built-in members. */
export const BUILT_IN_PERMISSION_LEVELS: ReadonlyMap<string, PermissionLevel> = new Map(
  // keys: PERMISSIONS, the code's own list
  PERMISSIONS.map((code) => [code, LEVEL_OF[code]]),
);
