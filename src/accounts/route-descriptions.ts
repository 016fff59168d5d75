// How the account routes (*-controller.ts) are described in /openapi.json: login, logout,
// current-user, and the routes of the user and group types. Those two types are served by
// controllers of their own rather than the generic record controller, so their routes start from
// the generic five the registry describes and say where they differ (a password parameter, bare
// lists, no resolve[]). Everything the registry knows (paths, permissions, schemas) still comes
// from the registry.
import {
  booleanParameter,
  commonResponses,
  conflictResponse,
  jsonResponse,
  responseRef,
  type DocumentContext,
  type Operation,
  type Parameter,
  type Schema,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import {
  accessNote,
  RECORD_READ,
  recordOperations,
  recordRouteOperation,
  tidyResponses,
  type RecordOperationName,
  type RecordOperationSet,
} from "../openapi/record-paths.js";
import { PARAMETER_REQUIRED } from "../records/http/request-params.js";
import type { RecordType } from "../registry/registry.js";

type Adjustment = (operations: RecordOperationSet, type: RecordType, ctx: DocumentContext) => void;
type RouteDescriptions = Readonly<Record<RecordOperationName, (ctx: DocumentContext) => RouteOperation>>;

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

/** How the user routes differ from the generic five. */
const adjustUserRoutes: Adjustment = (operations, type, ctx) => {
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
};

/** How the group routes differ from the generic five. */
const adjustGroupRoutes: Adjustment = (operations, type, ctx) => {
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
};

/** The five routes of an account type: the registry's description of each, adjusted. */
function accountRouteDescriptions(typeName: string, adjust: Adjustment): RouteDescriptions {
  const describe =
    (name: RecordOperationName) =>
    (ctx: DocumentContext): RouteOperation => {
      const type = ctx.registry.get(typeName);
      const operations = recordOperations(ctx, type);
      adjust(operations, type, ctx);
      return recordRouteOperation(ctx, type, name, operations[name]);
    };
  return {
    list: describe("list"),
    create: describe("create"),
    read: describe("read"),
    update: describe("update"),
    delete: describe("delete"),
  };
}

export const describeUserRoute = accountRouteDescriptions("user", adjustUserRoutes);
export const describeGroupRoute = accountRouteDescriptions("group", adjustGroupRoutes);

const SESSION: Tag = { name: "session", description: "Login, logout and the current user." };

const LOGIN_FIELDS: Schema = {
  type: "object",
  properties: {
    password: { type: "string" },
    expiring: { type: "string", pattern: "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$" },
  },
};

function loginResult(ctx: DocumentContext): Schema {
  return ctx.component("LoginResult", {
    type: "object",
    required: ["session", "user"],
    properties: {
      session: {
        type: "string",
        pattern: "^[0-9a-f]{64}$",
        description: "The session token: send it in the session header.",
      },
      user: {
        allOf: [ctx.recordRef("user")],
        description:
          "The user, with `permissions`: permission codes by repository uri (`_archivesspace` for global ones).",
      },
      expire_after_seconds: {
        type: "integer",
        minimum: 1,
        description: "Only with `expiring=false`: when the session is forced out.",
      },
    },
    additionalProperties: false,
  });
}

/** Login, logout and current-user (docs/api.md §2). */
export const describeSessionRoute = {
  login: (ctx: DocumentContext): RouteOperation => {
    const error = ctx.fixedRef("Error");
    return {
      operationId: "login",
      summary: "Log in",
      description:
        "Needs no session. `password` comes from the query string, a form body or a JSON object body. Wrong password, unknown or inactive user: " +
        "403 `Login failed`, the same answer for each. After LOGIN_FREE_FAILURES (default 5) failures for a username or a client address, " +
        "that key is held for a delay doubling per failure up to LOGIN_MAX_DELAY_SECONDS (default 60): attempts meanwhile answer 429 with Retry-After. " +
        "Sessions expire after SESSION_IDLE_SECONDS (default 3600) without use; " +
        "with `expiring=false` they are forced out after SESSION_MAX_AGE_SECONDS (default 7 days).",
      tag: SESSION,
      pathParameters: [
        {
          name: "username",
          in: "path",
          required: true,
          description: "Case-insensitive; surrounding spaces are trimmed.",
          schema: { type: "string" },
        },
      ],
      parameters: [
        { name: "password", in: "query", description: "Required, here or in the body.", schema: { type: "string" } },
        booleanParameter("expiring", "Whether the session expires when unused (default true)."),
      ],
      requestBody: {
        required: false,
        description:
          "The parameters, as a form or a JSON object, instead of the query string. An empty body is no body.",
        content: {
          "application/x-www-form-urlencoded": { schema: LOGIN_FIELDS },
          "multipart/form-data": { schema: LOGIN_FIELDS },
          "application/json": { schema: LOGIN_FIELDS },
        },
      },
      responses: {
        "200": jsonResponse("Logged in.", loginResult(ctx)),
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
    };
  },

  logout: (ctx: DocumentContext): RouteOperation => ({
    operationId: "logout",
    summary: "Log out",
    description: "Ends the session the request carries; without one, answers `no_active_session`.",
    tag: SESSION,
    responses: {
      "200": jsonResponse(
        "The outcome.",
        ctx.component("LogoutResult", {
          type: "object",
          required: ["status"],
          properties: { status: { type: "string", enum: ["session_logged_out", "no_active_session"] } },
          additionalProperties: false,
        }),
      ),
      ...commonResponses(),
    },
    security: ctx.security(null, { optional: true }),
  }),

  currentUser: (ctx: DocumentContext): RouteOperation => ({
    operationId: "get_current_user",
    summary: "The logged-in user",
    description:
      "Needs a session. The user with `permissions`: permission codes by repository uri (`_archivesspace` for global ones).",
    tag: SESSION,
    responses: {
      "200": jsonResponse("The user.", ctx.recordRef("user")),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
    },
    security: ctx.security(null),
  }),
};
