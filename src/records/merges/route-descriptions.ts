// How the merge routes (controller.ts) are described in /openapi.json.
import {
  booleanParameter,
  commonResponses,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Schema,
  type Tag,
} from "../../http/api-description.js";
import type { RouteOperation } from "../../http/described-route.js";
import { MERGE_ROUTES, type MergeKind, type MergeRoute } from "./merge-routes.js";
import { MAX_VICTIMS } from "./request.js";

const MERGE: Tag = {
  name: "merge",
  description:
    "Merging duplicate records into one, as ArchivesSpace's `/merge_requests` do: every link to a merged record is " +
    "re-pointed to the target, and the merged records are deleted, in one transaction.",
};

const ref = { type: "object", required: ["ref"], properties: { ref: { type: "string" } } } as const satisfies Schema;

const mergeRequest: Schema = {
  type: "object",
  description:
    "The record to keep (`target`) and those merged into it (`victims`, 1 to " +
    `${MAX_VICTIMS}); ArchivesSpace's later names \`merge_destination\` and \`merge_candidates\` are taken too.`,
  properties: {
    uri: { type: "string" },
    jsonmodel_type: { type: "string" },
    target: ref,
    victims: { type: "array", minItems: 1, maxItems: MAX_VICTIMS, items: ref },
    merge_destination: ref,
    merge_candidates: { type: "array", minItems: 1, maxItems: MAX_VICTIMS, items: ref },
  },
};

const detailRequest: Schema = {
  ...mergeRequest,
  properties: {
    ...(mergeRequest.properties as Record<string, Schema>),
    selections: {
      type: "object",
      description:
        'Sub-records of the first merged agent the target takes: `{"names": [{"primary_name": "REPLACE", ' +
        '"position": "0"}], "agent_record_identifiers": [{"append": "REPLACE", "position": "1"}]}` (docs/api.md §18).',
    },
  },
};

const repoIdParameter: Parameter = {
  name: "repo_id",
  in: "query",
  required: true,
  description: "The repository every record of the request is in.",
  schema: { type: "integer", minimum: 1 },
};

const dryRunParameter = booleanParameter(
  "dry_run",
  "Answer the target as the merge would leave it, and merge nothing.",
);

const SUBJECTS = {
  subject: "subjects",
  agent: "agents (of any of the four agent types)",
  agent_detail: "agents, the target taking the selected sub-records of the first merged agent",
  container_profile: "container profiles",
  top_container: "top containers",
  resource: "resources; the merged resources' top-level archival objects move under the target after its own",
  digital_object: "digital objects; the merged objects' top-level components move under the target after its own",
} as const satisfies Record<MergeKind, string>;

/** The description of `POST /merge_requests/<kind>`. */
export function describeMerge(kind: MergeKind): (ctx: DocumentContext) => RouteOperation {
  const route: MergeRoute = MERGE_ROUTES[kind];
  const implied = route.impliedBy === undefined ? "" : ` (or \`${route.impliedBy}\` in any repository)`;
  const where = route.inRepository ? "in the repository `repo_id`" : "in any repository (a global code: globally)";
  return (ctx) => ({
    operationId: `merge_${kind}`,
    tag: MERGE,
    summary: `Merge ${kind.replace("_detail", "")} records`,
    description:
      `Merges ${SUBJECTS[kind]}. Needs \`${route.permission}\` ${where}${implied}. Every link to a merged record, in ` +
      "every record of every type, is re-pointed to the target (a list item that would then repeat another is " +
      "dropped), each changed record gets a new lock_version, and the merged records are deleted, in one " +
      "transaction. Refusals are 400s naming the body, as ArchivesSpace's: a record of another type, or of " +
      "another repository than `repo_id`; nothing but the target to merge; a link the target's type cannot take.",
    ...(route.inRepository || kind === "agent_detail"
      ? {
          parameters: [
            ...(route.inRepository ? [repoIdParameter] : []),
            ...(kind === "agent_detail" ? [dryRunParameter] : []),
          ],
        }
      : {}),
    security: ctx.security(route.permission),
    requestBody: { required: true, content: jsonContent(kind === "agent_detail" ? detailRequest : mergeRequest) },
    responses: {
      "200": jsonResponse(
        kind === "agent_detail" ? '`{"status": "OK"}`; with `dry_run=true`, the target as it would be.' : "Merged.",
        { type: "object" },
        { status: "OK" },
      ),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, [route.types.length > 1 ? "Agent" : titleOf(route.types[0] as string)]),
      "413": responseRef("TooLarge"),
      ...commonResponses(),
    },
  });
}

function titleOf(type: string): string {
  const words = type.split("_").join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
