// How the user routes beyond the generic five (user-routes.ts) are described in /openapi.json.
import {
  booleanParameter,
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Schema,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import { PERMISSION_LEVELS } from "./permission-list.js";
import { MAX_COMPLETIONS } from "./username-completion.js";
import { MAX_GROUPS_PER_REQUEST } from "./user-groups.js";

const USERS: Tag = {
  name: "user-accounts",
  description:
    "What ArchivesSpace's users controller does beyond a record's five routes: groups, activation, passwords.",
};

const userId: Parameter = idPathParameter("id", "The user's id.");

const groupsParameter: Parameter = {
  name: "groups[]",
  in: "query",
  description: `Group uris (\`/repositories/N/groups/M\`), at most ${MAX_GROUPS_PER_REQUEST}; those of another repository than \`repo_id\` are ignored.`,
  schema: { type: "array", items: { type: "string" } },
  style: "form",
  explode: true,
};

function statusOk(ctx: DocumentContext): Schema {
  return ctx.component("StatusOk", {
    type: "object",
    required: ["status"],
    properties: { status: { const: "OK" } },
    additionalProperties: false,
  });
}

function passwordResult(ctx: DocumentContext): Schema {
  return ctx.component("PasswordChanged", {
    type: "object",
    required: ["status", "id", "uri"],
    properties: { status: { const: "Updated" }, id: { type: "integer", minimum: 1 }, uri: { type: "string" } },
    additionalProperties: false,
  });
}

function activation(ctx: DocumentContext, active: boolean): RouteOperation {
  const verb = active ? "activate" : "deactivate";
  return {
    operationId: `${verb}_user`,
    summary: active ? "Activate a user" : "Deactivate a user",
    description:
      `A GET, as in ArchivesSpace. Needs \`manage_users\`; only an administrator may ${verb} an administrator. ` +
      (active
        ? "The user may log in again."
        : "The user's sessions end and logins fail until the user is activated again; the `admin` user " +
          "cannot be deactivated (409).") +
      " Answers the user as its GET does.",
    tag: USERS,
    pathParameters: [userId],
    responses: {
      "200": jsonResponse("The user, as it now is.", ctx.recordRef("user")),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["User"]),
      ...(active ? {} : { "409": conflictResponse(ctx, "The admin user.", "The admin user cannot be deactivated") }),
      ...commonResponses(),
    },
    security: ctx.security("manage_users"),
  };
}

/** The routes of user-routes.ts. */
export const describeUserRoute = {
  groups: (ctx: DocumentContext): RouteOperation => ({
    operationId: "set_user_groups",
    summary: "Set a user's groups in one repository",
    description:
      "As ArchivesSpace's: the user's groups in repository `repo_id` become those of `groups[]` in it (none: the user " +
      "leaves every group there), in one transaction; groups elsewhere are untouched. Needs `manage_repository` in " +
      "`repo_id`; only an administrator changes an administrator's groups or a group granting `administer_system`. " +
      "`remove_groups` is taken and checked but, as in ArchivesSpace, changes nothing: the list always replaces.",
    tag: USERS,
    pathParameters: [userId],
    parameters: [
      groupsParameter,
      { name: "repo_id", in: "query", required: true, description: "The repository.", schema: { type: "integer" } },
      booleanParameter("remove_groups", "Accepted for ArchivesSpace's clients."),
    ],
    responses: {
      "200": jsonResponse("Done.", statusOk(ctx), { status: "OK" }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["User", "Repository", "Group"]),
      ...commonResponses(),
    },
    security: ctx.security("manage_repository"),
  }),

  activate: (ctx: DocumentContext): RouteOperation => activation(ctx, true),
  deactivate: (ctx: DocumentContext): RouteOperation => activation(ctx, false),

  password: (ctx: DocumentContext): RouteOperation => ({
    operationId: "set_user_password",
    summary: "Change a user's password",
    description:
      "Arca's own (ArchivesSpace changes a password through the user's update with `password=`, which Arca takes " +
      "too). Needs `manage_users` (only an administrator sets an administrator's), or is the caller's own account " +
      "with `current_password`. Ends the user's other sessions; the caller's own stays.",
    tag: USERS,
    pathParameters: [userId],
    parameters: [
      { name: "password", in: "query", required: true, description: "The new password.", schema: { type: "string" } },
      {
        name: "current_password",
        in: "query",
        description: "The caller's present password, when they change their own without `manage_users`.",
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": jsonResponse("Changed.", passwordResult(ctx)),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["User"]),
      ...commonResponses(),
    },
    security: ctx.security(null),
  }),

  complete: (ctx: DocumentContext): RouteOperation => ({
    operationId: "complete_usernames",
    summary: "Usernames starting with a prefix",
    description:
      `The usernames starting with \`query\` (case-insensitive), sorted, at most ${MAX_COMPLETIONS}, as ` +
      "ArchivesSpace's staff interface offers them when adding a member. Needs `manage_users`, or " +
      "`manage_repository` in some repository (ArchivesSpace answers any session; Arca does not tell usernames to " +
      "whoever logs in).",
    tag: USERS,
    parameters: [
      { name: "query", in: "query", required: true, description: "The prefix.", schema: { type: "string" } },
    ],
    responses: {
      "200": jsonResponse(
        "The usernames.",
        ctx.component("Usernames", { type: "array", items: { type: "string" }, maxItems: MAX_COMPLETIONS }),
        ["archivist", "archivist2"],
      ),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
    },
    security: ctx.security(null),
  }),

  permissions: (ctx: DocumentContext): RouteOperation => ({
    operationId: "list_permissions",
    summary: "The permission codes",
    description:
      "Every permission code a group may grant, at one level (`repository`: any group; `global`: only a group of " +
      "the global repository) or `all`, as ArchivesSpace lists them. Needs a session.",
    tag: USERS,
    parameters: [
      {
        name: "level",
        in: "query",
        required: true,
        description: "Which codes.",
        schema: { type: "string", enum: [...PERMISSION_LEVELS] },
      },
    ],
    responses: {
      "200": jsonResponse(
        "The codes.",
        ctx.component("PermissionList", {
          type: "array",
          items: {
            type: "object",
            required: ["jsonmodel_type", "permission_code", "description", "level"],
            properties: {
              jsonmodel_type: { const: "permission" },
              permission_code: { type: "string" },
              description: { type: "string" },
              level: { type: "string", enum: ["repository", "global"] },
            },
            additionalProperties: false,
          },
        }),
      ),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
    },
    security: ctx.security(null),
  }),
};
