// The schema and documentation routes: `GET /schemas`, `GET /schemas/:name`, `GET /openapi.json`,
// `GET /docs` and the explorer's files under /docs/assets, as one Ts.ED controller mounted after
// every other. None needs a session. The document (the registry's routes, the routes the other
// controllers describe, and these), the page and the bodies are built once, when the controller
// is made at start-up, and written to express as they are (Ts.ED sends nothing more once the
// body is out).
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import { ApiError } from "../errors/api-error.js";
import { commonResponses, jsonResponse, type Tag } from "../http/api-description.js";
import { describedRoutes, Route, type DescribedRoute } from "../http/described-route.js";
import type { Registry } from "../registry/registry.js";
import { DOCS_CONTENT_SECURITY_POLICY, docsPage } from "./docs-page.js";
import { openApiDocument, type OpenApiOptions } from "./document.js";
import { EXPLORER_ASSET_NAMES, EXPLORER_ASSET_NOT_FOUND, EXPLORER_ASSETS_PATH, explorerAssets } from "./explorer.js";

const JSON_TYPE = "application/json; charset=utf-8";
export const SCHEMA_NOT_FOUND = "Schema not found";
const SCHEMAS: Tag = { name: "schemas", description: "The record types' schemas and this documentation." };

const JSON_SCHEMA = {
  type: "object",
  description:
    "A record type's JSON Schema (draft 2020-12), self-contained (subrecords in `$defs`), with the `x-` keywords that configure the type.",
  required: ["$schema"],
  properties: { $schema: { const: "https://json-schema.org/draft/2020-12/schema" }, title: { type: "string" } },
};

/** The path parameter `name` as express parsed it (a string on these routes). */
const pathParam = (ctx: PlatformContext, name: string): string => String(ctx.getRequest<Request>().params[name]);

function send(ctx: PlatformContext, type: string, body: string | Buffer): void {
  ctx.getResponse<Response>().type(type).send(body);
}

export interface OpenApiControllerOptions extends OpenApiOptions {
  /** The described routes of the controllers mounted before this one. */
  routes?: readonly DescribedRoute[];
}

/** The Ts.ED controller of the schema and documentation routes, to mount at "/" after every other. */
export function openApiController(
  registry: Registry,
  version: string,
  options: OpenApiControllerOptions = {},
): new () => unknown {
  const typeNames = registry.types.map((type) => type.name);
  let documentJson = "";
  let page = "";
  const schemasJson = JSON.stringify(Object.fromEntries(registry.types.map((type) => [type.name, type.schema])));
  const schemaJson = new Map(registry.types.map((type) => [type.name, JSON.stringify(type.schema)]));
  const assets = explorerAssets();

  @Controller("/")
  class OpenApiController {
    @Route("get", "/schemas", (ctx) => ({
      operationId: "get_schemas",
      summary: "Every record type's JSON Schema",
      description:
        "Needs no session. An object from record type name to that type's schema, as the service validates records with it.",
      tag: SCHEMAS,
      responses: {
        "200": jsonResponse("The schemas by type name.", {
          type: "object",
          required: typeNames,
          propertyNames: { enum: typeNames },
          additionalProperties: ctx.component("JsonSchema", JSON_SCHEMA),
        }),
        ...commonResponses(),
      },
    }))
    schemas(@Context() ctx: PlatformContext): void {
      send(ctx, JSON_TYPE, schemasJson);
    }

    @Route("get", "/schemas/:name", (ctx) => ({
      operationId: "get_schema",
      summary: "One record type's JSON Schema",
      description: "Needs no session.",
      tag: SCHEMAS,
      pathParameters: [
        {
          name: "name",
          in: "path",
          required: true,
          description: "A record type name.",
          schema: { type: "string", enum: typeNames },
        },
      ],
      responses: {
        "200": jsonResponse("The schema.", ctx.component("JsonSchema", JSON_SCHEMA)),
        "404": jsonResponse("No record type has this name.", ctx.fixedRef("Error"), { error: SCHEMA_NOT_FOUND }),
        ...commonResponses(),
      },
    }))
    schema(@Context() ctx: PlatformContext): void {
      const body = schemaJson.get(pathParam(ctx, "name"));
      if (body === undefined) throw new ApiError(404, SCHEMA_NOT_FOUND);
      send(ctx, JSON_TYPE, body);
    }

    @Route("get", "/openapi.json", () => ({
      operationId: "get_openapi_document",
      summary: "This OpenAPI document",
      description:
        "Needs no session. Generated at start-up from the record type registry and the routes' own descriptions.",
      tag: SCHEMAS,
      responses: {
        "200": jsonResponse("The OpenAPI 3.1 document.", { type: "object", required: ["openapi", "info", "paths"] }),
        ...commonResponses(),
      },
    }))
    openApi(@Context() ctx: PlatformContext): void {
      send(ctx, JSON_TYPE, documentJson);
    }

    @Route("get", "/docs", () => ({
      operationId: "get_docs",
      summary: "The API explorer, as a web page",
      description:
        "Needs no session. Swagger UI on this document, served by Arca itself (nothing loaded from elsewhere): every operation, its schemas, and " +
        "`Try it out` with the session token entered under `Authorize`. Without scripts: every path with its methods, and a link to each schema.",
      tag: SCHEMAS,
      responses: {
        "200": { description: "The page.", content: { "text/html": { schema: { type: "string" } } } },
        ...commonResponses(),
      },
    }))
    docs(@Context() ctx: PlatformContext): void {
      ctx.getResponse<Response>().setHeader("Content-Security-Policy", DOCS_CONTENT_SECURITY_POLICY);
      send(ctx, "text/html; charset=utf-8", page);
    }

    @Route("get", `${EXPLORER_ASSETS_PATH}/:file`, (ctx) => ({
      operationId: "get_docs_asset",
      summary: "A file of the API explorer (its script, style or icon)",
      description:
        "Needs no session. From the swagger-ui-dist package, and the script that starts it on this document.",
      tag: SCHEMAS,
      pathParameters: [
        {
          name: "file",
          in: "path",
          required: true,
          description: "One of the explorer's files.",
          schema: { type: "string", enum: [...EXPLORER_ASSET_NAMES] },
        },
      ],
      responses: {
        "200": {
          description: "The file.",
          content: {
            "text/css": { schema: { type: "string" } },
            "text/javascript": { schema: { type: "string" } },
            "image/png": { schema: { type: "string", format: "binary" } },
          },
        },
        "404": jsonResponse("No explorer file has this name.", ctx.fixedRef("Error"), {
          error: EXPLORER_ASSET_NOT_FOUND,
        }),
        ...commonResponses(),
      },
    }))
    asset(@Context() ctx: PlatformContext): void {
      const asset = assets.get(pathParam(ctx, "file"));
      if (asset === undefined) throw new ApiError(404, EXPLORER_ASSET_NOT_FOUND);
      // The same for every caller and until the next release: a browser may keep it an hour.
      ctx.getResponse<Response>().setHeader("Cache-Control", "public, max-age=3600");
      send(ctx, asset.type, asset.body);
    }
  }

  // The class exists now, so its own routes can be described with the others'.
  const document = openApiDocument(registry, version, {
    sessionHeaders: options.sessionHeaders,
    routes: [...(options.routes ?? []), ...describedRoutes([OpenApiController])],
  });
  documentJson = JSON.stringify(document);
  page = docsPage(document, registry);
  return OpenApiController;
}
