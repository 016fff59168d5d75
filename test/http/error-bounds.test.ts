// Error bodies are bounded whatever the error holds (src/errors/bounded-detail.ts), in the
// contract's shapes (docs/api.md §7).
import { describe, expect, it } from "@jest/globals";
import { ApiError, badRequest } from "../../src/errors/api-error.js";
import { MAX_ERROR_FIELDS, MAX_ERROR_MESSAGES, MAX_ERROR_TEXT } from "../../src/errors/bounded-detail.js";
import { boundedBody } from "../../src/errors/error-filter.js";

describe("boundedBody", () => {
  it("leaves an ordinary error as it is", () => {
    expect(boundedBody(badRequest({ title: ["Property is required but was missing"] }))).toEqual({
      error: { title: ["Property is required but was missing"] },
    });
    expect(boundedBody(new ApiError(412, "gone", { code: "SESSION_GONE" }))).toEqual({
      code: "SESSION_GONE",
      error: "gone",
    });
  });

  it("cuts a 20 MB message, saying how much was left out", () => {
    const body = boundedBody(badRequest("x".repeat(20 * 1024 * 1024)));
    expect(body.error).toBe(
      `${"x".repeat(MAX_ERROR_TEXT)}… (${20 * 1024 * 1024 - MAX_ERROR_TEXT} more characters left out)`,
    );
  });

  it("echoes at most 100 fields of a 100,000-field map, each with at most 10 messages, and says what it left out", () => {
    const detail = Object.create(null) as Record<string, string[]>;
    for (let i = 0; i < 100_000; i++)
      detail[`field${i}`] = i === 0 ? Array.from({ length: 25 }, (_, k) => `message ${k}`) : ["bad"];
    const body = boundedBody(badRequest(detail));
    const echoed = body.error as Record<string, string[]>;
    expect(Object.keys(echoed)).toHaveLength(MAX_ERROR_FIELDS);
    expect(echoed.field0).toHaveLength(MAX_ERROR_MESSAGES);
    expect(body.error_truncated).toEqual({
      fields_left_out: 100_000 - MAX_ERROR_FIELDS,
      messages_left_out: 25 - MAX_ERROR_MESSAGES,
    });
    expect(JSON.stringify(body).length).toBeLessThan(64 * 1024);
  });

  it("cuts a long field name and a long message inside a map", () => {
    const name = "n".repeat(5000);
    const body = boundedBody(badRequest({ [name]: ["m".repeat(5000)] }));
    const [[field, messages]] = Object.entries(body.error as Record<string, string[]>);
    expect(field!.length).toBeLessThan(MAX_ERROR_TEXT + 50);
    expect(messages![0]!.length).toBeLessThan(MAX_ERROR_TEXT + 50);
  });

  it("bounds extra fields (a validation 400's warning) the same way", () => {
    const warning = Object.create(null) as Record<string, string[]>;
    for (let i = 0; i < 500; i++) warning[`w${i}`] = ["unknown field"];
    const body = boundedBody(new ApiError(400, { title: ["missing"] }, { warning }));
    expect(Object.keys(body.warning as object)).toHaveLength(MAX_ERROR_FIELDS);
    expect(body.warning_truncated).toEqual({ fields_left_out: 400, messages_left_out: 0 });
  });
});
