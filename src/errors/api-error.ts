// The errors a request can end in, each carrying the contract's status and JSON body
// (api-contract.md §7). Operations throw these; the one filter (error-filter.ts) writes them.

export type ErrorDetail = string | Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
    /** Extra top-level fields of the body, e.g. `code` on a 412 or `warning` on a 400. */
    readonly extra: Record<string, unknown> = {}, // keys: field names written in code
  ) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
  }

  get body(): Record<string, unknown> {
    return { ...this.extra, error: this.detail };
  }
}

export const badRequest = (detail: ErrorDetail) => new ApiError(400, detail);
export const accessDenied = () => new ApiError(403, "Access denied");
export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const conflict = (message: string) => new ApiError(409, message);
