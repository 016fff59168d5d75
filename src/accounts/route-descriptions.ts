// How the session routes (session-controller.ts) are described in /openapi.json: login, logout
// and current-user. Users and groups are record types: the registry describes their routes.
import {
  booleanParameter,
  commonResponses,
  jsonResponse,
  responseRef,
  type DocumentContext,
  type Schema,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import { PARAMETER_REQUIRED } from "../records/http/request-params.js";

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
