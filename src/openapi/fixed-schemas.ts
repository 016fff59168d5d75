// The schemas of the answers every route may give and that are not records (docs/api.md §2, §4,
// §5, §7); a route's own answers are described with it (DocumentContext.component).
import type { FixedSchema, Schema } from "../http/api-description.js";

const MESSAGES = { type: "array", items: { type: "string" } };

export function fixedSchemas(): Record<FixedSchema, Schema> {
  return {
    Error: {
      type: "object",
      description:
        "Every error body. `error` is a message, or messages by parameter name or slash-separated field path (`dates/0/begin`).",
      required: ["error"],
      properties: {
        error: { oneOf: [{ type: "string" }, { type: "object", additionalProperties: MESSAGES }] },
        warning: {
          type: "object",
          description: "Validation warnings, by field path, next to a validation error.",
          additionalProperties: MESSAGES,
        },
      },
    },
    SessionError: {
      type: "object",
      required: ["code", "error"],
      properties: { code: { type: "string", enum: ["SESSION_GONE", "SESSION_EXPIRED"] }, error: { type: "string" } },
    },
    InternalError: {
      type: "object",
      required: ["error", "id"],
      properties: {
        error: { const: "Internal error" },
        id: { type: "string", description: "The request id the server log files the details under." },
      },
    },
    WriteResult: {
      type: "object",
      description: "The answer to a create or update.",
      required: ["status", "id", "lock_version", "stale", "uri", "warnings"],
      properties: {
        status: { type: "string", enum: ["Created", "Updated"] },
        id: { type: "integer", minimum: 1 },
        lock_version: {
          type: "integer",
          minimum: 0,
          description: "0 after a create, one more than before after an update.",
        },
        stale: {
          enum: [true, null],
          description:
            "true when the server changed the stored record beyond the client's input (defaults, generated values): read it again.",
        },
        uri: { type: "string" },
        warnings: MESSAGES,
      },
      additionalProperties: false,
    },
    DeleteResult: {
      type: "object",
      required: ["status", "id"],
      properties: { status: { const: "Deleted" }, id: { type: "integer", minimum: 1 } },
      additionalProperties: false,
    },
    PageEnvelope: {
      type: "object",
      description: "One page of a list: `last_page` is max(1, ceil(total / page_size)).",
      required: ["first_page", "last_page", "this_page", "total", "results"],
      properties: {
        first_page: { const: 1 },
        last_page: { type: "integer", minimum: 1 },
        this_page: { type: "integer", minimum: 1 },
        total: { type: "integer", minimum: 0 },
        results: { type: "array", items: { type: "object" } },
        _resolve_truncated: { const: true, description: "Present when resolve[] stopped at its bound." },
      },
      additionalProperties: false,
    },
  };
}
