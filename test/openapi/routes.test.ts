// The schema and documentation routes over HTTP: their Ts.ED controller in a platform with the
// service's one error filter (ApiError → its status and body).
import "@tsed/platform-express";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Configuration } from "@tsed/di";
import { PlatformExpress } from "@tsed/platform-express";
import type { PlatformBuilder } from "@tsed/platform-http";
import type { Application } from "express";
import { ErrorFilter } from "../../src/errors/error-filter.js";
import { describedRoutes } from "../../src/http/described-route.js";
import { openApiDocument } from "../../src/openapi/document.js";
import { openApiController } from "../../src/openapi/routes.js";
import { registry } from "../../src/registry/index.js";
import type { Registry } from "../../src/registry/registry.js";
import { fixtureRegistry, removeTempDirs, validateOpenApi } from "./helpers.js";

const VERSION = "9.9.9";

@Configuration({
  httpsPort: false,
  imports: [ErrorFilter],
  logger: { disableRoutesSummary: true, level: "off" },
})
class DocsServer {}

let platform: PlatformBuilder<Application>;
let fixtures: Registry;
/** Each controller under a prefix of its own: the platform's routes are one table per process. */
let real: { url: string };
let fixture: { url: string };
let serviceOnly: { url: string };
const realController = openApiController(registry, VERSION);

beforeAll(async () => {
  fixtures = await fixtureRegistry();
  platform = await PlatformExpress.bootstrap(DocsServer, {
    httpPort: "127.0.0.1:0",
    mount: {
      "/real": [realController],
      "/fixture": [openApiController(fixtures, VERSION)],
      "/service-only": [openApiController(registry, VERSION, { sessionHeaders: ["X-Service-Session"] })],
    },
  });
  await platform.listen();
  const base = `http://${String(platform.settings.get("httpPort"))}`;
  real = { url: `${base}/real` };
  fixture = { url: `${base}/fixture` };
  serviceOnly = { url: `${base}/service-only` };
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

describe("GET /schemas", () => {
  it("answers every type's bundled schema by type name", async () => {
    const reply = await fetch(`${real.url}/schemas`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await reply.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(registry.types.map((type) => type.name));
    for (const type of registry.types) expect(body[type.name]).toEqual(type.schema);
  });

  it("includes a schema-only type", async () => {
    const body = (await (await fetch(`${fixture.url}/schemas`)).json()) as Record<string, unknown>;
    expect(body.widget).toEqual(fixtures.get("widget").schema);
  });
});

describe("GET /schemas/:name", () => {
  it("answers one type's schema", async () => {
    const reply = await fetch(`${real.url}/schemas/accession`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await reply.json()).toEqual(registry.get("accession").schema);
    expect(await (await fetch(`${fixture.url}/schemas/gizmo`)).json()).toEqual(fixtures.get("gizmo").schema);
  });

  it.each(["nope", "Accession", "accessions", "__proto__", "constructor", "widget"])(
    "answers 404 JSON for %s",
    async (name) => {
      const reply = await fetch(`${real.url}/schemas/${name}`);
      expect(reply.status).toBe(404);
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await reply.json()).toEqual({ error: "Schema not found" });
    },
  );
});

describe("GET /openapi.json", () => {
  it("answers the document generated from the registry, valid OpenAPI 3.1", async () => {
    const reply = await fetch(`${real.url}/openapi.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    const body: unknown = await reply.json();
    // Its own routes described with the registry's.
    const routes = describedRoutes([realController]);
    expect(routes.map((route) => route.path)).toEqual([
      "/schemas",
      "/schemas/:name",
      "/openapi.json",
      "/docs",
      "/docs/assets/:file",
    ]);
    expect(body).toEqual(JSON.parse(JSON.stringify(openApiDocument(registry, VERSION, { routes }))));
    expect(await validateOpenApi(body)).toMatchObject({ valid: true, version: "3.1" });
  });

  it("names the session headers it was given", async () => {
    const body = (await (await fetch(`${serviceOnly.url}/openapi.json`)).json()) as {
      components: { securitySchemes: object };
    };
    expect(Object.keys(body.components.securitySchemes)).toEqual(["ServiceSession"]);
  });
});

describe("GET /docs", () => {
  it("is the explorer's page, loading only Arca's own files", async () => {
    const reply = await fetch(`${real.url}/docs`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(reply.headers.get("content-security-policy")).toContain("default-src 'none'; script-src 'self'");
    const page = await reply.text();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<div id="explorer"></div>');
    expect(page).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    expect(page).toContain('<script src="/docs/assets/explorer.js"></script>');
    expect(page).not.toMatch(/<iframe|@import|url\(/i);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(page).toContain(`Arca API ${VERSION}`);
    expect(page).toContain('href="/openapi.json"');
  });

  it("serves the explorer's files from memory, by name only", async () => {
    const expected: Array<[string, string, RegExp]> = [
      ["swagger-ui-bundle.js", "text/javascript; charset=utf-8", /SwaggerUIBundle/],
      ["swagger-ui.css", "text/css; charset=utf-8", /\.swagger-ui/],
      ["explorer.js", "text/javascript; charset=utf-8", /url: "\/openapi\.json"[\s\S]*validatorUrl: null/],
    ];
    for (const [name, type, content] of expected) {
      const reply = await fetch(`${real.url}/docs/assets/${name}`);
      expect([name, reply.status, reply.headers.get("content-type"), reply.headers.get("cache-control")]).toEqual([
        name,
        200,
        type,
        "public, max-age=3600",
      ]);
      expect(await reply.text()).toMatch(content);
    }
    const icon = await fetch(`${real.url}/docs/assets/favicon.png`);
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(
      Buffer.from(await icon.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    // Any other name, a file of the package the page does not use, or a climb out: 404.
    for (const name of [
      "index.html",
      "package.json",
      "..%2Fpackage.json",
      "%2E%2E%2F%2E%2E%2Fpackage.json",
      "swagger-ui-bundle.js.map",
    ]) {
      const reply = await fetch(`${real.url}/docs/assets/${name}`);
      expect([name, reply.status, await reply.json()]).toEqual([
        name,
        404,
        { error: "No explorer file has this name" },
      ]);
    }
  });

  it("lists every path of the document with its methods, and links every schema, for a browser without scripts", async () => {
    const page = await (await fetch(`${real.url}/docs`)).text();
    const document = openApiDocument(registry, VERSION);
    for (const [path, item] of Object.entries(document.paths)) {
      const rows = page.split("\n").filter((line) => line.startsWith(`<tr><td class="path">${path}</td>`));
      const methods = rows.map((row) => /class="method (get|post|delete)"/.exec(row)?.[1]);
      expect([path, methods.sort()]).toEqual([
        path,
        (["get", "post", "delete"] as const).filter((method) => item[method] !== undefined).sort(),
      ]);
    }
    for (const type of registry.types) {
      expect(page).toContain(`<td class="path">${type.collectionPath.replace(/:([a-z_]+)/g, "{$1}")}</td>`);
      expect(page).toContain(`href="/schemas/${type.name}"`);
    }
  });

  it("mentions every collection path of a registry with schema-only types", async () => {
    const page = await (await fetch(`${fixture.url}/docs`)).text();
    for (const type of fixtures.types)
      expect(page).toContain(`<td class="path">${type.collectionPath.replace(/:([a-z_]+)/g, "{$1}")}</td>`);
    expect(page).toContain("/tools/gizmos");
  });
});
