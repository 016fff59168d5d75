// How /repositories/with_agent (controller.ts) is described in /openapi.json.
import {
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Schema,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import { LOCK_VERSION_MISSING } from "../records/operations/update.js";

const WITH_AGENT: Tag = {
  name: "repository_with_agent",
  description: "A repository read and written together with the corporate agent standing for it (ArchivesSpace's).",
};

function document(ctx: DocumentContext): Schema {
  return ctx.component("RepositoryWithAgent", {
    type: "object",
    required: ["repository"],
    properties: {
      jsonmodel_type: { const: "repository_with_agent" },
      uri: { type: "string", pattern: "^/repositories/with_agent/[1-9][0-9]*$", readOnly: true },
      repository: ctx.recordRef("repository"),
      agent_representation: ctx.recordRef("agent_corporate_entity"),
    },
  });
}

function writeResult(ctx: DocumentContext): Schema {
  return ctx.fixedRef("WriteResult");
}

const ERRORS_NOTE =
  "A field error is named by its place in the document (`repository/repo_code`, `agent_representation/names`).";

export const describeWithAgent = {
  create: (ctx: DocumentContext): RouteOperation => ({
    operationId: "create_repository_with_agent",
    summary: "Create a repository with its agent",
    description:
      "Needs `create_repository`. Creates the corporate agent `agent_representation` (when given) and the repository " +
      "linking it as its `agent_representation`, in one transaction: both or neither. Answers the repository's " +
      `create answer, the warnings of each part prefixed by the part's name. ${ERRORS_NOTE}`,
    tag: WITH_AGENT,
    requestBody: { required: true, content: jsonContent(document(ctx)) },
    responses: {
      "200": jsonResponse("Created: the repository's id and uri.", writeResult(ctx)),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
      "413": responseRef("TooLarge"),
    },
    security: ctx.security("create_repository"),
  }),

  read: (ctx: DocumentContext): RouteOperation => ({
    operationId: "get_repository_with_agent",
    summary: "A repository with its agent",
    description:
      "Needs a session (agents are not public). The repository and, when it links one, its agent_representation, " +
      "each as its own GET shows it.",
    tag: WITH_AGENT,
    pathParameters: [idPathParameter("id", "The repository's id.")],
    responses: {
      "200": jsonResponse("The document.", document(ctx)),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["Repository"]),
      ...commonResponses(),
    },
    security: ctx.security(null),
  }),

  update: (ctx: DocumentContext): RouteOperation => ({
    operationId: "update_repository_with_agent",
    summary: "Update a repository with its agent",
    description:
      "Needs `create_repository` (ArchivesSpace's code for repository updates). In one transaction: a given " +
      "`agent_representation` updates the agent the repository links (its `lock_version` needed) or, when it " +
      "links none, is created and linked; none given unlinks the agent (the agent stays). Then the repository is " +
      `updated (its \`lock_version\` needed). ${ERRORS_NOTE}`,
    tag: WITH_AGENT,
    pathParameters: [idPathParameter("id", "The repository's id.")],
    requestBody: { required: true, content: jsonContent(document(ctx)) },
    responses: {
      "200": jsonResponse("Updated: the repository's id, uri and lock_version.", writeResult(ctx)),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["Repository"]),
      "409": conflictResponse(ctx, "A lock_version missing or stale, of either part.", LOCK_VERSION_MISSING),
      ...commonResponses(),
      "413": responseRef("TooLarge"),
    },
    security: ctx.security("create_repository"),
  }),
};
