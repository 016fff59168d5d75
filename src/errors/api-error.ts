// The errors a request can end in, each carrying the contract's status and JSON body
// (docs/api.md §7). Operations throw these; the one filter (error-filter.ts) writes them.

export type ErrorDetail = string | Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
    /** Extra top-level fields of the body, e.g. `code` on a 412 or `warning` on a 400. */
    readonly extra: Record<string, unknown> = {}, // keys: field names written in code
  ) {
    // No stack: this is an answer to the client, not a fault to trace, and capturing one
    // through the request's async frames cost ~20 µs per error (a login flood makes
    // hundreds a second).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    Error.stackTraceLimit = limit;
  }

  get body(): Record<string, unknown> {
    return { ...this.extra, error: this.detail };
  }
}

export const badRequest = (detail: ErrorDetail) => new ApiError(400, detail);
export const accessDenied = () => new ApiError(403, "Access denied");
export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const conflict = (message: string) => new ApiError(409, message);
