// The merge routes ArchivesSpace serves (backend/app/controllers/merge_request.rb), by the last segment of
// `/merge_requests/<kind>`: which record types each merges, the permission it takes, and whether it is a
// repository's (`?repo_id=`). What a merge does is the same for every kind (merge.ts); only this differs.
import { lookupTable } from "../../registry/dictionary.js";

export interface MergeRoute {
  /** The record types the route merges: ArchivesSpace refuses a request naming any other (400). */
  types: readonly string[];
  /** The body's name in ArchivesSpace's 400s (`{"error": {"merge_request": [...]}}`). */
  bodyName: "merge_request" | "merge_request_detail";
  /** The refusal when a ref names another type, in ArchivesSpace's words. */
  wrongType: string;
  /**
   * The code the route takes: held in the repository of `?repo_id=` for a repository's route, anywhere for one of
   * records every repository shares (a global-level code only globally, as everywhere: src/auth/permissions.ts).
   */
  permission: string;
  /**
   * A repository code that grants `permission` wherever it is held (ArchivesSpace's `implied_by`: the standard
   * project managers' `merge_agents_and_subjects` lets them merge agents and subjects, global records).
   */
  impliedBy?: string;
  /** The route takes `repo_id` and merges records of that repository only. */
  inRepository: boolean;
}

const AGENT_TYPES = ["agent_person", "agent_corporate_entity", "agent_family", "agent_software"];
const AGENT_MERGE = "Agent merge request can only merge agent records";
const onlyType = (type: string) => `This merge request can only merge ${type} records`;

export const MERGE_ROUTES = lookupTable({
  subject: {
    types: ["subject"],
    bodyName: "merge_request",
    wrongType: onlyType("subject"),
    permission: "merge_subject_record",
    impliedBy: "merge_agents_and_subjects",
    inRepository: false,
  },
  agent: {
    types: AGENT_TYPES,
    bodyName: "merge_request",
    wrongType: AGENT_MERGE,
    permission: "merge_agent_record",
    impliedBy: "merge_agents_and_subjects",
    inRepository: false,
  },
  agent_detail: {
    types: AGENT_TYPES,
    bodyName: "merge_request_detail",
    wrongType: AGENT_MERGE,
    permission: "merge_agent_record",
    impliedBy: "merge_agents_and_subjects",
    inRepository: false,
  },
  container_profile: {
    types: ["container_profile"],
    bodyName: "merge_request",
    wrongType: onlyType("container_profile"),
    permission: "update_container_profile_record",
    inRepository: false,
  },
  top_container: {
    types: ["top_container"],
    bodyName: "merge_request",
    wrongType: onlyType("top_container"),
    permission: "manage_container_record",
    inRepository: true,
  },
  resource: {
    types: ["resource"],
    bodyName: "merge_request",
    wrongType: onlyType("resource"),
    permission: "merge_archival_record",
    inRepository: true,
  },
  digital_object: {
    types: ["digital_object"],
    bodyName: "merge_request",
    wrongType: onlyType("digital_object"),
    permission: "merge_archival_record",
    inRepository: true,
  },
} satisfies Record<string, MergeRoute>);

export type MergeKind = keyof typeof MERGE_ROUTES;

export const MERGE_KINDS = Object.keys(MERGE_ROUTES) as MergeKind[];
