// The contract's transport rules (api-contract.md §1, §7) over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ARCA_VERSION } from "../../src/version.js";
import { startApp, type RunningApp } from "./app.js";

let app: RunningApp;
beforeAll(async () => {
  app = await startApp({ BODY_LIMIT_BYTES: "2048" });
});
afterAll(() => app.stop());

async function send(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${app.url}${path}`, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("transport", () => {
  it("GET / describes the service as JSON, uncached", async () => {
    const { status, headers, text } = await send("/");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(headers.get("cache-control")).toBe("private, must-revalidate, max-age=0");
    expect(JSON.parse(text)).toMatchObject({ name: "Arca", arcaVersion: ARCA_VERSION });
  });

  it("GET /version is plain text", async () => {
    const { status, headers, text } = await send("/version");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^text\/plain/);
    expect(text).toBe(`Arca ${ARCA_VERSION}`);
  });

  it.each([
    ["an unknown route", "/no/such/thing", "GET"],
    ["a known path with another method", "/version", "DELETE"],
  ])("%s answers 404 JSON, no stack trace", async (_name, path, method) => {
    const { status, headers, text } = await send(path, { method });
    expect(status).toBe(404);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    const body = JSON.parse(text);
    expect(Object.keys(body)).toEqual(["error"]);
    expect(typeof body.error).toBe("string");
    expect(text).not.toMatch(/node_modules|at .*\.js:\d+/);
  });

  it.each([
    ["with a JSON Content-Type", { "Content-Type": "application/json" }],
    ["without a Content-Type", {}],
  ])("malformed JSON %s answers 400 with the parse problem", async (_name, headers) => {
    const { status, text } = await send("/version", { method: "POST", headers, body: '{"title": ' });
    expect(status).toBe(400);
    expect(JSON.parse(text).error).toMatch(/^Had some trouble parsing your request: /);
  });

  it("a body nested deeper than the limit answers 400", async () => {
    const deep = "[".repeat(100) + "]".repeat(100);
    const { status, text } = await send("/version", { method: "POST", headers: { "Content-Type": "application/json" }, body: deep });
    expect(status).toBe(400);
    expect(JSON.parse(text).error).toMatch(/nesting deeper than/);
  });

  it("a body over the limit answers 413 JSON", async () => {
    const { status, text } = await send("/version", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ title: "x".repeat(4096) }) });
    expect(status).toBe(413);
    expect(JSON.parse(text)).toEqual({ error: "Request body too large" });
  });

  it("an empty body with a JSON Content-Type is not a parse error", async () => {
    const { status, text } = await send("/version", { method: "POST", headers: { "Content-Type": "application/json" }, body: "" });
    // No POST /version route exists: the request gets as far as routing.
    expect(status).toBe(404);
    expect(JSON.parse(text).error).toMatch(/not found/);
  });
});
