// The vocabulary routes are described in: the pieces of an OpenAPI 3.1 document, and the context
// every description is written against (which component holds which schema, the security
// schemes, the standard responses). Controllers describe their own routes with it
// (described-route.ts); src/openapi/ assembles the document.
import type { JsonObject, JsonValue } from "../registry/json.js";
import type { Registry } from "../registry/registry.js";

export type Schema = JsonObject;
export type HttpMethod = "get" | "post" | "delete";
export const HTTP_METHODS: readonly HttpMethod[] = ["get", "post", "delete"];

export interface Parameter {
  name: string;
  in: "query" | "path";
  required?: boolean;
  description?: string;
  schema: Schema;
  style?: "form" | "simple";
  explode?: boolean;
}

export interface MediaType {
  schema: Schema;
  example?: JsonValue;
}

export interface Response {
  description: string;
  content?: Record<string, MediaType>;
}

export interface Reference {
  $ref: string;
}

export interface RequestBody {
  description?: string;
  required?: boolean;
  content: Record<string, MediaType>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, Response | Reference>;
  security?: SecurityRequirement[];
}

export interface PathItem {
  parameters?: Parameter[];
  get?: Operation;
  post?: Operation;
  delete?: Operation;
}

export type Paths = Record<string, PathItem>;

export interface Tag {
  name: string;
  description?: string;
}

/** `true` only when A and B are the same set of keys. */
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : false;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * `true` when an object schema (declared `as const`) names exactly the fields of T and requires
 * exactly its required ones: where an answer has both a schema and a TypeScript type, the
 * compiler keeps them together.
 */
export type DescribesFields<S extends { properties: object; required: readonly string[] }, T> = [
  SameKeys<keyof S["properties"], keyof T>,
  SameKeys<S["required"][number], RequiredKeys<T>>,
] extends [true, true]
  ? true
  : false;

/** The schemas of the answers every route shares, by role; their component names may vary. */
export const FIXED_SCHEMAS = [
  "Error",
  "SessionError",
  "InternalError",
  "WriteResult",
  "DeleteResult",
  "PageEnvelope",
] as const;
export type FixedSchema = (typeof FIXED_SCHEMAS)[number];

/** What every builder needs to know about the document being built. */
export interface DocumentContext {
  readonly registry: Registry;
  /** `{$ref}` to a record type's component. */
  recordRef(typeName: string): Schema;
  /** `{$ref}` to one of the fixed components. */
  fixedRef(role: FixedSchema): Schema;
  /**
   * `{$ref}` to a named component holding `schema`, added on first use: the schema of an answer
   * that is not a record, declared by the route that gives it. Every use of a name must give
   * the same schema.
   */
  component(name: string, schema: Schema): Schema;
  /**
   * The security of an operation: each session header is one alternative. `permission`:
   * the code needed (named as the scheme's role, as OpenAPI 3.1 allows for apiKey schemes);
   * null: a session with no particular permission; `optional`: a session is used when given.
   */
  security(permission: string | null, options?: { optional?: boolean }): SecurityRequirement[];
}

export function jsonContent(schema: Schema, example?: JsonValue): Record<string, MediaType> {
  return { "application/json": example === undefined ? { schema } : { schema, example } };
}

export function jsonResponse(description: string, schema: Schema, example?: JsonValue): Response {
  return { description, content: jsonContent(schema, example) };
}

/** The responses in `components.responses`: 400, 403, 412, 413 and 500. */
export type StandardResponse = "BadRequest" | "AccessDenied" | "SessionGone" | "TooLarge" | "InternalError";

export const responseRef = (name: StandardResponse): Reference => ({ $ref: `#/components/responses/${name}` });

export function standardResponses(ctx: DocumentContext): Record<StandardResponse, Response> {
  const error = ctx.fixedRef("Error");
  return {
    BadRequest: jsonResponse(
      "A bad parameter, an invalid record (messages by slash-separated field path, e.g. `dates/0/begin`), malformed JSON, a duplicate identifier or a broken link.",
      error,
      { error: { title: ["Property is required but was missing"] } },
    ),
    AccessDenied: jsonResponse("No session on a route that needs one, or the caller lacks the permission.", error, {
      error: "Access denied",
    }),
    SessionGone: jsonResponse(
      "The request carried a session token that is unknown, logged out (`SESSION_GONE`) or expired (`SESSION_EXPIRED`). Checked before routing, on every route.",
      ctx.fixedRef("SessionError"),
      { code: "SESSION_GONE", error: "No session found for the token you provided" },
    ),
    TooLarge: jsonResponse(
      "The request body is over the configured limit (default 10 MiB); nothing was written.",
      error,
      { error: "Request body too large" },
    ),
    InternalError: jsonResponse(
      "Something unexpected; the details are in the server log under the request id.",
      ctx.fixedRef("InternalError"),
      {
        error: "Internal error",
        id: "3f1c2a9e-0d4b-4c55-9a57-1f2e3d4c5b6a",
      },
    ),
  };
}

/** `/repositories/:repo_id/accessions/:id` → `/repositories/{repo_id}/accessions/{id}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** The names of the path parameters of an express route template, in order. */
export function pathParameterNames(expressPath: string): string[] {
  return [...expressPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? "");
}

const TRUE_OR_FALSE = "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$";

const RESOLVE_FIELD = "[a-z_][a-z0-9_]*";

/** `resolve[]`: link fields whose targets are embedded as `_resolved` (docs/api.md §6). */
export const resolveParameter: Parameter = {
  name: "resolve[]",
  in: "query",
  description:
    "Link fields to resolve: each matching `ref` (at any depth) gets `_resolved`, the target record as its own GET returns it. " +
    "`a::b` resolves `a`, then `b` inside the resolved records. At most RESOLVE_MAX_REFS (default 1000) refs are resolved per response; " +
    'past that the rest carry no `_resolved` and the response has `"_resolve_truncated": true`. A broken ref simply has no `_resolved`.',
  schema: { type: "array", items: { type: "string", pattern: `^${RESOLVE_FIELD}(::${RESOLVE_FIELD})*$` } },
  style: "form",
  explode: true,
};

/** A boolean parameter as ArchivesSpace clients send it: true/false in any case. */
export function booleanParameter(name: string, description: string): Parameter {
  return {
    name,
    in: "query",
    description: `${description} \`true\` or \`false\`, in any case.`,
    schema: { type: "string", pattern: TRUE_OR_FALSE },
  };
}

/** A positive whole-number path parameter. */
export function idPathParameter(name: string, description: string): Parameter {
  return { name, in: "path", required: true, description, schema: { type: "integer", minimum: 1 } };
}

/** Responses every operation can give: 412 (the session check runs on every route) and 500. */
export function commonResponses(): Record<string, Reference> {
  return { "412": responseRef("SessionGone"), "500": responseRef("InternalError") };
}

/** 404 for a missing record (`titles[0]`) or container (the others), in the contract's words. */
export function notFoundResponse(ctx: DocumentContext, titles: readonly string[], note = ""): Response {
  const messages = titles.map((title) => `\`{"error":"${title} not found"}\``).join(" or ");
  return jsonResponse(`Not found: ${messages}.${note === "" ? "" : ` ${note}`}`, ctx.fixedRef("Error"), {
    error: `${titles[0] ?? "Record"} not found`,
  });
}

export function conflictResponse(ctx: DocumentContext, description: string, example: string): Response {
  return jsonResponse(description, ctx.fixedRef("Error"), { error: example });
}
