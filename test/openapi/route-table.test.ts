// The API description and the routes the service really serves, compared in both directions:
// every route express would dispatch to is in /openapi.json with its method, and every
// operation of /openapi.json has a route. A route added without its description, or a
// description left behind by a removed route, fails here.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Service } from "../support/service.js";

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** "GET /repositories/{repo_id}/accessions/{id}" for every route in a router stack, nested routers included. */
function servedRoutes(stack: readonly Layer[], into = new Set<string>()): Set<string> {
  for (const layer of stack) {
    if (layer.route !== undefined) {
      const path = layer.route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
      for (const method of Object.keys(layer.route.methods)) into.add(`${method.toUpperCase()} ${path}`);
    } else if (layer.handle?.stack !== undefined) {
      servedRoutes(layer.handle.stack, into);
    }
  }
  return into;
}

describe("the route table and /openapi.json", () => {
  let app: Service;
  let served: Set<string>;
  let described: Set<string>;

  beforeAll(async () => {
    app = await startService();
    served = servedRoutes((app.express as unknown as { router: { stack: Layer[] } }).router.stack);
    const document = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    described = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        ["get", "post", "put", "delete"]
          .filter((method) => item[method] !== undefined)
          .map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
  });
  afterAll(() => app.stop());

  it("finds the routes of every layer (the generic controller's and the hand-written routers')", () => {
    expect(served.size).toBeGreaterThan(100);
    expect(served).toContain("GET /repositories/{repo_id}/accessions/{id}");
    expect(served).toContain("POST /users/{username}/login");
    expect(served).toContain("GET /config/enumerations");
  });

  it("describes every route the service serves", () => {
    expect([...served].filter((route) => !described.has(route)).sort()).toEqual([]);
  });

  it("serves every operation it describes", () => {
    expect([...described].filter((route) => !served.has(route)).sort()).toEqual([]);
  });
});
