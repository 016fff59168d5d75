// The schema and documentation routes in the real service (test/support/service.ts): errors
// leave through the one filter as contract JSON, and a bad session token is a 412 here too (the
// check runs before routing, on every route), while no token is needed at all.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Service } from "../support/service.js";

let service: Service;
let url: string;

beforeAll(async () => {
  service = await startService();
  url = service.url;
});
afterAll(() => service.stop());

describe("in the Ts.ED server", () => {
  it("serves every route without a session", async () => {
    for (const [path, type] of [
      ["/schemas", /^application\/json/],
      ["/schemas/resource", /^application\/json/],
      ["/openapi.json", /^application\/json/],
      ["/docs", /^text\/html/],
    ] as const) {
      const reply = await fetch(`${url}${path}`);
      expect([path, reply.status]).toEqual([path, 200]);
      expect(reply.headers.get("content-type")).toMatch(type);
    }
  });

  it("answers an unknown schema name with the filter's 404 JSON", async () => {
    const reply = await fetch(`${url}/schemas/nothing`);
    expect(reply.status).toBe(404);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await reply.json()).toEqual({ error: "Schema not found" });
  });

  it("answers 412 to an unknown session token, before routing", async () => {
    const reply = await fetch(`${url}/docs`, { headers: { "X-ArchivesSpace-Session": "f".repeat(64) } });
    expect(reply.status).toBe(412);
    expect(await reply.json()).toMatchObject({ code: "SESSION_GONE" });
  });
});
