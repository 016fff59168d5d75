// The drop-in promise, for the API description: a record type that exists only as a schema file
// (test/registry/fixtures/record-types/) gets its paths, operations, component schema,
// parameters and security in the OpenAPI document and on the docs page, with no code.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { docsPage } from "../../src/openapi/docs-page.js";
import { openApiDocument, type OpenApiDocument } from "../../src/openapi/document.js";
import { sortableFields } from "../../src/records/operations/list.js";
import type { Registry } from "../../src/registry/registry.js";
import { fixtureRegistry, operationsOf, removeTempDirs, validateOpenApi } from "./helpers.js";

let registry: Registry;
let document: OpenApiDocument;

beforeAll(async () => {
  registry = await fixtureRegistry();
  document = openApiDocument(registry, "0.0.1");
});
afterAll(removeTempDirs);

describe("schema-only record types", () => {
  it("are in the registry the document is built from", () => {
    expect(registry.types.map((type) => type.name)).toEqual(expect.arrayContaining(["widget", "gizmo"]));
  });

  it("leave the document valid OpenAPI 3.1", async () => {
    const outcome = await validateOpenApi(document);
    expect(outcome.errors).toBeUndefined();
    expect(outcome).toMatchObject({ valid: true, version: "3.1" });
  });

  it("get their collection and item paths with the five operations", () => {
    const widgets = document.paths["/repositories/{repo_id}/widgets"];
    const widget = document.paths["/repositories/{repo_id}/widgets/{id}"];
    expect(widgets?.get?.operationId).toBe("list_widget");
    expect(widgets?.post?.operationId).toBe("create_widget");
    expect(widget?.get?.operationId).toBe("read_widget");
    expect(widget?.post?.operationId).toBe("update_widget");
    expect(widget?.delete?.operationId).toBe("delete_widget");
    expect(widget?.parameters?.map((parameter) => parameter.name)).toEqual(["repo_id", "id"]);
    // A global type with its own URI prefix (x-uri-prefix).
    expect(document.paths["/tools/gizmos"]?.parameters).toBeUndefined();
    expect(Object.keys(document.paths["/tools/gizmos/{id}"] ?? {}).sort()).toEqual([
      "delete",
      "get",
      "parameters",
      "post",
    ]);
  });

  it("get their schema as a component, sharing the subrecords of the real types", () => {
    const ref = { $ref: "#/components/schemas/Widget" };
    expect(document.components.schemas.Widget).toMatchObject({ title: "Widget", "x-record-type": "widget" });
    expect(
      document.paths["/repositories/{repo_id}/widgets"]?.post?.requestBody?.content["application/json"]?.schema,
    ).toEqual(ref);
    expect(document.paths["/repositories/{repo_id}/widgets/{id}"]?.get?.responses["200"]).toMatchObject({
      content: { "application/json": { schema: ref } },
    });
    const dates = (document.components.schemas.Widget?.properties as Record<string, unknown>).dates;
    expect(dates).toEqual({ type: "array", items: { $ref: "#/components/schemas/Date" } });
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith("Date"))).toEqual(["Date"]);
  });

  it("get their own list parameters and delete rules", () => {
    const list = document.paths["/repositories/{repo_id}/widgets"]?.get;
    expect(list?.parameters?.find((parameter) => parameter.name === "sort_field")?.schema).toEqual({
      type: "string",
      enum: sortableFields(registry.get("widget")),
    });
    // A gizmo's link to a widget is "restrict": deleting a linked widget is refused.
    const remove = document.paths["/repositories/{repo_id}/widgets/{id}"]?.delete;
    expect(Object.keys(remove?.responses ?? {})).toContain("409");
    expect(remove?.description).toContain("gizmo");
    expect(
      Object.keys(document.paths["/repositories/{repo_id}/accessions/{id}"]?.delete?.responses ?? {}),
    ).not.toContain("409");
  });

  it("get security from their permissions: none where the type is publicly readable (x-public-read)", () => {
    const gizmos = document.paths["/tools/gizmos"];
    const gizmo = document.paths["/tools/gizmos/{id}"];
    expect(registry.permission("gizmo", "read")).toBeNull();
    expect(gizmos?.get).not.toHaveProperty("security");
    expect(gizmo?.get).not.toHaveProperty("security");
    expect(gizmos?.post?.security).toEqual([
      { ServiceSession: ["manage_gizmos"] },
      { ArchivesSpaceSession: ["manage_gizmos"] },
    ]);
    expect(gizmo?.delete?.security).toEqual([
      { ServiceSession: ["manage_gizmos"] },
      { ArchivesSpaceSession: ["manage_gizmos"] },
    ]);
    for (const { operation } of operationsOf({
      "/repositories/{repo_id}/widgets/{id}": document.paths["/repositories/{repo_id}/widgets/{id}"] ?? {},
    })) {
      expect(operation.security).toBeDefined();
    }
    expect(document.paths["/repositories/{repo_id}/widgets/{id}"]?.delete?.security).toEqual([
      { ServiceSession: ["delete_widget_record"] },
      { ArchivesSpaceSession: ["delete_widget_record"] },
    ]);
  });

  it("are listed on the docs page, with their schema links", () => {
    const page = docsPage(document, registry);
    for (const path of [
      "/repositories/{repo_id}/widgets",
      "/repositories/{repo_id}/widgets/{id}",
      "/tools/gizmos",
      "/tools/gizmos/{id}",
    ]) {
      expect(page).toContain(`<td class="path">${path}</td>`);
    }
    expect(page).toContain('href="/schemas/widget"');
    expect(page).toContain('href="/schemas/gizmo"');
  });
});
