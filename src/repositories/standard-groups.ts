// The groups every new repository gets, with ArchivesSpace's default grants, so that an
// archivist or a viewer can be set up by adding a user to one of them.
import type { Permission } from "../auth/permissions.js";

export interface StandardGroup {
  group_code: string;
  description: string;
  grants_permissions: Permission[];
}

const EDIT_MAJOR_RECORDS: Permission[] = [
  "view_repository",
  "update_accession_record",
  "update_resource_record",
  "update_digital_object_record",
  "update_event_record",
  "update_subject_record",
  "update_agent_record",
  "update_container_record",
  "update_container_profile_record",
  "update_location_profile_record",
  "manage_subject_record",
  "manage_agent_record",
  "manage_vocabulary_record",
  "manage_container_record",
  "manage_container_profile_record",
  "manage_location_profile_record",
  "import_records",
  "update_assessment_record",
  "delete_assessment_record",
  "update_enumeration_record",
  "manage_enumeration_record",
];

export function standardGroups(repoCode: string): StandardGroup[] {
  return [
    {
      group_code: "repository-managers",
      description: `Managers of the ${repoCode} repository`,
      grants_permissions: [
        ...EDIT_MAJOR_RECORDS,
        "manage_repository",
        "update_location_record",
        "delete_event_record",
        "delete_archival_record",
        "suppress_archival_record",
        "view_agent_contact_record",
        "manage_rde_templates",
        "cancel_job",
        "manage_assessment_attributes",
        "show_full_agents",
      ],
    },
    {
      group_code: "repository-archivists",
      description: `Archivists of the ${repoCode} repository`,
      grants_permissions: [
        ...EDIT_MAJOR_RECORDS,
        "view_agent_contact_record",
        "create_job",
        "cancel_job",
        "show_full_agents",
      ],
    },
    {
      group_code: "repository-project-managers",
      description: `Project managers of the ${repoCode} repository`,
      grants_permissions: [
        ...EDIT_MAJOR_RECORDS,
        "delete_event_record",
        "delete_archival_record",
        "suppress_archival_record",
        "view_agent_contact_record",
        "merge_agents_and_subjects",
      ],
    },
    {
      group_code: "repository-advanced-data-entry",
      description: `Advanced Data Entry users of the ${repoCode} repository`,
      grants_permissions: [...EDIT_MAJOR_RECORDS],
    },
    {
      group_code: "repository-basic-data-entry",
      description: `Basic Data Entry users of the ${repoCode} repository`,
      grants_permissions: [
        "view_repository",
        "update_accession_record",
        "update_resource_record",
        "update_digital_object_record",
        "create_job",
      ],
    },
    {
      group_code: "repository-viewers",
      description: `Viewers of the ${repoCode} repository`,
      grants_permissions: ["view_repository"],
    },
  ];
}
