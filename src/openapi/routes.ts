// The schema and documentation routes: `GET /schemas`, `GET /schemas/:name`, `GET /openapi.json`,
// `GET /docs` and the explorer's files under /docs/assets. None needs a session. The document,
// the page and the bodies are built once, when the router is made at start-up.
import { Router } from "express";
import { ApiError } from "../errors/api-error.js";
import type { Registry } from "../registry/registry.js";
import { DOCS_CONTENT_SECURITY_POLICY, docsPage } from "./docs-page.js";
import { openApiDocument, type OpenApiOptions } from "./document.js";
import { EXPLORER_ASSET_NOT_FOUND, EXPLORER_ASSETS_PATH, explorerAssets } from "./explorer.js";
import { SCHEMA_NOT_FOUND } from "./service-routes.js";

const JSON_TYPE = "application/json; charset=utf-8";

export function openApiRoutes(registry: Registry, version: string, options: OpenApiOptions = {}): Router {
  const document = openApiDocument(registry, version, options);
  const documentJson = JSON.stringify(document);
  const page = docsPage(document, registry);
  const schemasJson = JSON.stringify(Object.fromEntries(registry.types.map((type) => [type.name, type.schema])));
  const schemaJson = new Map(registry.types.map((type) => [type.name, JSON.stringify(type.schema)]));
  const assets = explorerAssets();

  const router = Router();

  router.get("/schemas", (_req, res) => {
    res.type(JSON_TYPE).send(schemasJson);
  });

  router.get("/schemas/:name", (req, res) => {
    const body = schemaJson.get(req.params.name);
    if (body === undefined) throw new ApiError(404, SCHEMA_NOT_FOUND);
    res.type(JSON_TYPE).send(body);
  });

  router.get("/openapi.json", (_req, res) => {
    res.type(JSON_TYPE).send(documentJson);
  });

  router.get("/docs", (_req, res) => {
    res.setHeader("Content-Security-Policy", DOCS_CONTENT_SECURITY_POLICY);
    res.type("text/html; charset=utf-8").send(page);
  });

  router.get(`${EXPLORER_ASSETS_PATH}/:file`, (req, res) => {
    const asset = assets.get(req.params.file);
    if (asset === undefined) throw new ApiError(404, EXPLORER_ASSET_NOT_FOUND);
    // The same for every caller and until the next release: a browser may keep it an hour.
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.type(asset.type).send(asset.body);
  });

  return router;
}
