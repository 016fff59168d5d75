// The schema and documentation routes: `GET /schemas`, `GET /schemas/:name`, `GET /openapi.json`,
// `GET /docs` and the explorer's files under /docs/assets, as one Ts.ED controller mounted beside
// the record controllers. None needs a session. The document, the page and the bodies are built
// once, when the controller is made at start-up, and written to express as they are (Ts.ED sends
// nothing more once the body is out).
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import { Get } from "@tsed/schema";
import type { Request, Response } from "express";
import { ApiError } from "../errors/api-error.js";
import type { Registry } from "../registry/registry.js";
import { DOCS_CONTENT_SECURITY_POLICY, docsPage } from "./docs-page.js";
import { openApiDocument, type OpenApiOptions } from "./document.js";
import { EXPLORER_ASSET_NOT_FOUND, EXPLORER_ASSETS_PATH, explorerAssets } from "./explorer.js";
import { SCHEMA_NOT_FOUND } from "./service-routes.js";

const JSON_TYPE = "application/json; charset=utf-8";

/** The path parameter `name` as express parsed it (a string on these routes). */
const pathParam = (ctx: PlatformContext, name: string): string => String(ctx.getRequest<Request>().params[name]);

function send(ctx: PlatformContext, type: string, body: string | Buffer): void {
  ctx.getResponse<Response>().type(type).send(body);
}

/** The Ts.ED controller of the schema and documentation routes, to mount at "/". */
export function openApiController(
  registry: Registry,
  version: string,
  options: OpenApiOptions = {},
): new () => unknown {
  const document = openApiDocument(registry, version, options);
  const documentJson = JSON.stringify(document);
  const page = docsPage(document, registry);
  const schemasJson = JSON.stringify(Object.fromEntries(registry.types.map((type) => [type.name, type.schema])));
  const schemaJson = new Map(registry.types.map((type) => [type.name, JSON.stringify(type.schema)]));
  const assets = explorerAssets();

  @Controller("/")
  class OpenApiController {
    @Get("/schemas")
    schemas(@Context() ctx: PlatformContext): void {
      send(ctx, JSON_TYPE, schemasJson);
    }

    @Get("/schemas/:name")
    schema(@Context() ctx: PlatformContext): void {
      const body = schemaJson.get(pathParam(ctx, "name"));
      if (body === undefined) throw new ApiError(404, SCHEMA_NOT_FOUND);
      send(ctx, JSON_TYPE, body);
    }

    @Get("/openapi.json")
    openApi(@Context() ctx: PlatformContext): void {
      send(ctx, JSON_TYPE, documentJson);
    }

    @Get("/docs")
    docs(@Context() ctx: PlatformContext): void {
      ctx.getResponse<Response>().setHeader("Content-Security-Policy", DOCS_CONTENT_SECURITY_POLICY);
      send(ctx, "text/html; charset=utf-8", page);
    }

    @Get(`${EXPLORER_ASSETS_PATH}/:file`)
    asset(@Context() ctx: PlatformContext): void {
      const asset = assets.get(pathParam(ctx, "file"));
      if (asset === undefined) throw new ApiError(404, EXPLORER_ASSET_NOT_FOUND);
      // The same for every caller and until the next release: a browser may keep it an hour.
      ctx.getResponse<Response>().setHeader("Cache-Control", "public, max-age=3600");
      send(ctx, asset.type, asset.body);
    }
  }
  return OpenApiController;
}
