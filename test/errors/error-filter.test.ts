// The one error filter: every error becomes the contract's JSON; an unexpected one a 500 with
// a request id, its details in the log and never in the body.
import { describe, expect, it } from "@jest/globals";
import type { PlatformContext } from "@tsed/platform-http";
import { ApiError } from "../../src/errors/api-error.js";
import { ErrorFilter, toApiError } from "../../src/errors/error-filter.js";

function fakeContext() {
  const sent: { status?: number; body?: unknown; logged: unknown[] } = { logged: [] };
  const response = {
    status(code: number) {
      sent.status = code;
      return response;
    },
    body(value: unknown) {
      sent.body = value;
      return response;
    },
  };
  const ctx = {
    response,
    logger: { error: (entry: unknown) => sent.logged.push(entry) },
  } as unknown as PlatformContext;
  return { ctx, sent };
}

describe("ErrorFilter", () => {
  it("writes an ApiError's status and body", () => {
    const { ctx, sent } = fakeContext();
    new ErrorFilter().catch(new ApiError(412, "No session", { code: "SESSION_GONE" }), ctx);
    expect(sent).toMatchObject({ status: 412, body: { code: "SESSION_GONE", error: "No session" } });
  });

  it("answers an unexpected error with 500, a request id, and keeps the details in the log", () => {
    const { ctx, sent } = fakeContext();
    new ErrorFilter().catch(new TypeError("cannot read properties of undefined (reading 'secret')"), ctx);
    expect(sent.status).toBe(500);
    expect(sent.body).toEqual({ error: "Internal error", id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(JSON.stringify(sent.body)).not.toContain("secret");
    expect(JSON.stringify(sent.logged)).toContain("secret");
  });

  it("maps the body parser's and router's errors to the contract", () => {
    expect(toApiError({ type: "entity.parse.failed", message: "Unexpected token" })?.body).toEqual({
      error: "Had some trouble parsing your request: Unexpected token",
    });
    expect(toApiError({ type: "entity.too.large", status: 413 })?.status).toBe(413);
    expect(toApiError({ status: 404, message: 'Resource "/x" not found' })?.body).toEqual({
      error: 'Resource "/x" not found',
    });
    expect(toApiError(new Error("plain"))).toBeUndefined();
  });
});
