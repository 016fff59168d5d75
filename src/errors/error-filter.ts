// The one place errors become responses. Every error, whatever threw it (an operation, the
// body parser, Ts.ED's router, a bug), leaves as the contract's JSON: `{"error": ...}` with
// its status, and an unexpected one as a 500 with a request id, its details in the log only.
import { Exception } from "@tsed/exceptions";
import { Catch, type ExceptionFilterMethods } from "@tsed/platform-exceptions";
import mongoose from "mongoose";
import type { PlatformContext } from "@tsed/platform-http";
import { randomUUID } from "node:crypto";
import { ApiError } from "./api-error.js";
import { boundedDetail } from "./bounded-detail.js";

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

/** Errors raised before our code runs (body parsers, the router), as contract errors. */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const http = (error ?? {}) as HttpLikeError;
  const status = http.status ?? http.statusCode;
  if (http.type === "entity.parse.failed")
    return new ApiError(400, `Had some trouble parsing your request: ${http.message ?? "malformed JSON"}`);
  if (http.type === "entity.too.large" || status === 413) return new ApiError(413, "Request body too large");
  if (status === 404) return new ApiError(404, http.message ?? "Not found");
  if (status === 405) return new ApiError(405, http.message ?? "Method not allowed");
  if (status !== undefined && status >= 400 && status < 500) return new ApiError(status, http.message ?? "Bad request");
  return undefined;
}

/** The error's body, each part bounded in size (bounded-detail.ts): what a caller sent is never echoed whole. */
export function boundedBody(error: ApiError): Record<string, unknown> {
  // Its own names are ours (`error`, `code`, `warning`), never the caller's.
  const body: Record<string, unknown> = {}; // keys: see above
  for (const [name, value] of Object.entries({ ...error.extra, error: error.detail })) {
    const { detail, truncated } = boundedDetail(value);
    body[name] = detail;
    if (truncated) body[`${name}_truncated`] = truncated;
  }
  return body;
}

// Ts.ED picks the filter registered for the nearest class of the error and ships its own
// for Exception, MongooseError and thrown strings, which put messages and stacks in the
// body: this filter claims all of them, so it is the only one that ever answers.
@Catch(Error, Exception, mongoose.Error, String)
export class ErrorFilter implements ExceptionFilterMethods {
  catch(error: unknown, ctx: PlatformContext): void {
    const apiError = toApiError(error);
    if (apiError) {
      ctx.response.status(apiError.status).body(boundedBody(apiError));
      return;
    }
    const id = randomUUID();
    ctx.logger.error({
      event: "unhandled_error",
      request_id: id,
      error: error instanceof Error ? error.stack : String(error),
    });
    ctx.response.status(500).body({ error: "Internal error", id });
  }
}
