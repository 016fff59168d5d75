// The account routes (src/accounts/*-controller.ts): login, logout, current-user, and the routes
// of the user and group types. Those two types are served by hand-written controllers rather
// than the generic record controller, so where those routes differ from the generic five (a
// password parameter, bare lists, no resolve[]), this file says how. Everything the registry
// knows (paths, permissions, schemas) still comes from the registry.
import { PARAMETER_REQUIRED } from "../records/http/request-params.js";
import { lookupTable } from "../registry/dictionary.js";
import type { RecordType } from "../registry/registry.js";
import {
  commonResponses,
  conflictResponse,
  jsonResponse,
  responseRef,
  type DocumentContext,
  type Operation,
  type Parameter,
  type Paths,
} from "./model.js";
import { accessNote, booleanParameter, RECORD_READ, tidyResponses, type RecordOperationSet } from "./record-paths.js";

type Adjustment = (operations: RecordOperationSet, type: RecordType, ctx: DocumentContext) => void;

const NO_RESOLVE = "It takes no `resolve[]`.";
const BAD_ID = "A path id that is not a positive whole number answers 400 naming it.";

function passwordParameter(required: boolean, description: string): Parameter {
  return { name: "password", in: "query", required, description, schema: { type: "string", minLength: 1 } };
}

function appendDescription(operation: Operation, text: string): void {
  operation.description = operation.description === undefined ? text : `${operation.description} ${text}`;
}

/** Item routes of the account types read their ids with idParam: a bad one is a 400, and no resolve[]. */
function accountItemRoutes(operations: RecordOperationSet, type: RecordType): void {
  delete operations.read.parameters;
  operations.read.description = `${accessNote(type, "read")} ${RECORD_READ}`;
  for (const operation of [operations.read, operations.update, operations.delete]) {
    operation.responses["400"] = responseRef("BadRequest");
    appendDescription(operation, BAD_ID);
    tidyResponses(operation);
  }
  appendDescription(operations.read, NO_RESOLVE);
}

/** A list route that answers every record as a bare array, with no paging. */
function bareList(
  operations: RecordOperationSet,
  type: RecordType,
  ctx: DocumentContext,
  description: string,
  parameters: Parameter[],
): void {
  const list = operations.list;
  list.description = description;
  list.parameters = parameters;
  list.responses["200"] = jsonResponse(`Every ${type.title} record, in id order.`, {
    type: "array",
    items: ctx.recordRef(type.name),
  });
  tidyResponses(list);
}

/** How the account types' routes differ from the generic five, by type name. */
export const ACCOUNT_ROUTE_ADJUSTMENTS: Readonly<Record<string, Adjustment>> = lookupTable({
  user: (operations, type, ctx) => {
    accountItemRoutes(operations, type);
    operations.create.parameters = [
      passwordParameter(true, "The new user's password; it is stored apart from the record and never shown."),
    ];
    appendDescription(
      operations.create,
      `Answers 400 \`{"error":{"password":["${PARAMETER_REQUIRED}"]}}\` without a password. A username already in use is a 400. ` +
        "Only an administrator may create an administrator (`is_admin: true`).",
    );
    operations.update.parameters = [passwordParameter(false, "A new password.")];
    appendDescription(
      operations.update,
      "Usernames cannot be changed. Changing an administrator, or making one, needs an administrator. " +
        "A password change or a deactivation ends the user's other sessions.",
    );
    appendDescription(
      operations.read,
      "An active user carries `permissions`: permission codes by repository uri (`_archivesspace` for global ones).",
    );
    appendDescription(
      operations.delete,
      "Deleting an administrator needs an administrator; the user's sessions end. The `admin` user cannot be deleted (409).",
    );
    operations.delete.responses["409"] = conflictResponse(
      ctx,
      "The `admin` user cannot be deleted.",
      "The admin user cannot be deleted",
    );
    tidyResponses(operations.delete);
  },

  group: (operations, type, ctx) => {
    accountItemRoutes(operations, type);
    bareList(
      operations,
      type,
      ctx,
      `${accessNote(type, "read")} ` +
        "A bare array of the repository's groups in id order, with no paging; `group_code` narrows it to that group. " +
        "Each group has `group_code`, `description`, `member_usernames`, `grants_permissions`, `uri` and `lock_version`.",
      [{ name: "group_code", in: "query", description: "Only the group with this code.", schema: { type: "string" } }],
    );
    for (const operation of [operations.create, operations.update]) {
      appendDescription(
        operation,
        "Member usernames are normalised (trimmed, lower case) and de-duplicated; every member must be an existing user and every granted code " +
          "a known permission (400 otherwise). A membership change applies to the members' existing sessions at once.",
      );
    }
    appendDescription(operations.delete, "Its members lose what it granted at once.");
  },
});

/** Login, logout and current-user (docs/api.md §2). */
export function sessionPaths(ctx: DocumentContext): Paths {
  const tags = ["session"];
  const error = ctx.fixedRef("Error");
  const loginFields = {
    type: "object",
    properties: {
      password: { type: "string" },
      expiring: { type: "string", pattern: "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$" },
    },
  };
  const user = ctx.registry.has("user") ? ctx.recordRef("user") : { type: "object" };
  return {
    "/users/{username}/login": {
      parameters: [
        {
          name: "username",
          in: "path",
          required: true,
          description: "Case-insensitive; surrounding spaces are trimmed.",
          schema: { type: "string" },
        },
      ],
      post: {
        operationId: "login",
        summary: "Log in",
        description:
          "Needs no session. `password` comes from the query string, a form body or a JSON object body. Wrong password, unknown or inactive user: " +
          "403 `Login failed`, the same answer for each. After LOGIN_FREE_FAILURES (default 5) failures for a username or a client address, " +
          "that key is held for a delay doubling per failure up to LOGIN_MAX_DELAY_SECONDS (default 60): attempts meanwhile answer 429 with Retry-After. " +
          "Sessions expire after SESSION_IDLE_SECONDS (default 3600) without use; " +
          "with `expiring=false` they are forced out after SESSION_MAX_AGE_SECONDS (default 7 days).",
        tags,
        parameters: [
          { name: "password", in: "query", description: "Required, here or in the body.", schema: { type: "string" } },
          booleanParameter("expiring", "Whether the session expires when unused (default true)."),
        ],
        requestBody: {
          required: false,
          description:
            "The parameters, as a form or a JSON object, instead of the query string. An empty body is no body.",
          content: {
            "application/x-www-form-urlencoded": { schema: loginFields },
            "multipart/form-data": { schema: loginFields },
            "application/json": { schema: loginFields },
          },
        },
        responses: {
          "200": jsonResponse("Logged in.", ctx.fixedRef("LoginResult")),
          "400": jsonResponse("No password.", error, { error: { password: [PARAMETER_REQUIRED] } }),
          "403": jsonResponse("Login failed.", error, { error: "Login failed" }),
          "429": jsonResponse(
            "Too many failed logins for this username or client address; the Retry-After header says how many seconds to wait.",
            error,
            { error: "Too many failed logins; try again later" },
          ),
          ...commonResponses(),
          "413": responseRef("TooLarge"),
        },
      },
    },
    "/logout": {
      post: {
        operationId: "logout",
        summary: "Log out",
        description: "Ends the session the request carries; without one, answers `no_active_session`.",
        tags,
        responses: { "200": jsonResponse("The outcome.", ctx.fixedRef("LogoutResult")), ...commonResponses() },
        security: ctx.security(null, { optional: true }),
      },
    },
    "/users/current-user": {
      get: {
        operationId: "get_current_user",
        summary: "The logged-in user",
        description:
          "Needs a session. The user with `permissions`: permission codes by repository uri (`_archivesspace` for global ones).",
        tags,
        responses: { "200": jsonResponse("The user.", user), "403": responseRef("AccessDenied"), ...commonResponses() },
        security: ctx.security(null),
      },
    },
  };
}
