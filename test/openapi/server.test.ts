// The routes mounted as src/server.ts mounts them: their controller in a Ts.ED express platform
// with the one error filter, the session middleware and the body parsers in front. Errors
// leave through the filter as contract JSON, and a bad session token is a 412 here too
// (the check runs before routing, on every route), while no token is needed at all.
import "@tsed/platform-express";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Configuration } from "@tsed/di";
import { PlatformExpress } from "@tsed/platform-express";
import type { PlatformBuilder } from "@tsed/platform-http";
import type { Application } from "express";
import { sessionMiddleware } from "../../src/auth/session-middleware.js";
import type { SessionStore } from "../../src/auth/session-store.js";
import { ErrorFilter } from "../../src/errors/error-filter.js";
import { bodyParsers } from "../../src/http/body-parsers.js";
import { openApiController } from "../../src/openapi/index.js";
import { registry } from "../../src/registry/index.js";

@Configuration({
  httpsPort: false,
  imports: [ErrorFilter],
  logger: { disableRoutesSummary: true, level: "off" },
})
class OpenApiServer {}

const HEADERS = ["X-Service-Session", "X-ArchivesSpace-Session"];
/** Every token is unknown to this store. */
const noSessions = { lookup: async () => ({ status: "gone" }) } as unknown as SessionStore;

let platform: PlatformBuilder<Application>;
let url: string;

beforeAll(async () => {
  platform = await PlatformExpress.bootstrap(OpenApiServer, {
    httpPort: "127.0.0.1:0",
    mount: { "/": [openApiController(registry, "0.0.0", { sessionHeaders: HEADERS })] },
    middlewares: [sessionMiddleware(noSessions, { names: HEADERS }), ...bodyParsers({ limitBytes: 1024 * 1024 })],
  });
  await platform.listen();
  url = `http://${String(platform.settings.get("httpPort"))}`;
});
afterAll(async () => {
  await platform.stop();
});

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
