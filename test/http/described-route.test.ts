// @Route: a controller's route and its description in one declaration, read back in order, and
// the document refusing what would make it invalid (an undescribed path parameter, a route
// described twice, two schemas under one component name).
import { describe, expect, it } from "@jest/globals";
import { commonResponses, jsonResponse, type DocumentContext, type Tag } from "../../src/http/api-description.js";
import { describedRoutes, Route, type RouteOperation } from "../../src/http/described-route.js";
import { openApiDocument } from "../../src/openapi/document.js";
import { registry } from "../../src/registry/index.js";

const TAG: Tag = { name: "probe", description: "Test routes." };
const probe =
  (operationId: string, extra: Partial<RouteOperation> = {}) =>
  (): RouteOperation => ({
    operationId,
    summary: operationId,
    tag: TAG,
    responses: { "200": jsonResponse("Fine.", { type: "object" }), ...commonResponses() },
    ...extra,
  });

class Probes {
  @Route("get", "/probes", probe("list_probes"))
  list(): void {}

  @Route(
    "post",
    "/probes/:id",
    probe("update_probe", {
      pathParameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
    }),
  )
  update(): void {}
}

class Plain {
  plain(): void {}
}

describe("@Route", () => {
  it("files each route with its method and path, in declaration order, under its class", () => {
    expect(describedRoutes([Probes, Plain]).map(({ method, path }) => `${method} ${path}`)).toEqual([
      "get /probes",
      "post /probes/:id",
    ]);
    expect(describedRoutes([Plain])).toEqual([]);
  });

  it("puts the described routes in the document, path parameters on the path, tags listed once", () => {
    const document = openApiDocument(registry, "1", { routes: describedRoutes([Probes]) });
    expect(document.paths["/probes"]?.get).toMatchObject({ operationId: "list_probes", tags: ["probe"] });
    expect(document.paths["/probes/{id}"]?.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "integer" } },
    ]);
    expect(document.paths["/probes/{id}"]?.post).not.toHaveProperty("pathParameters");
    expect(document.tags.filter((tag) => tag.name === "probe")).toEqual([TAG]);
  });

  it("refuses a path parameter with no description", () => {
    const routes = [{ method: "get" as const, path: "/probes/:id/:part", describe: probe("read_part") }];
    expect(() => openApiDocument(registry, "1", { routes })).toThrow(
      "GET /probes/:id/:part: no description of :id, :part",
    );
  });

  it("refuses a route described twice", () => {
    const routes = [...describedRoutes([Probes]), ...describedRoutes([Probes])];
    expect(() => openApiDocument(registry, "1", { routes })).toThrow("GET /probes is described twice");
  });

  it("keeps one schema per component name, refusing a different one under the same name", () => {
    const same = (operationId: string, description: string) => ({
      method: "get" as const,
      path: `/${operationId}`,
      describe: (ctx: DocumentContext): RouteOperation => ({
        ...probe(operationId)(),
        responses: { "200": jsonResponse("Fine.", ctx.component("Probe", { type: "object", description })) },
      }),
    });
    const document = openApiDocument(registry, "1", { routes: [same("a", "one"), same("b", "one")] });
    expect(document.components.schemas.Probe).toEqual({ type: "object", description: "one" });
    expect(document.paths["/b"]?.get?.responses["200"]).toEqual(
      jsonResponse("Fine.", { $ref: "#/components/schemas/Probe" }),
    );
    expect(() => openApiDocument(registry, "1", { routes: [same("a", "one"), same("b", "two")] })).toThrow(
      "Two different schemas are described as Probe",
    );
  });
});
