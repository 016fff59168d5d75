// The interactive API explorer at /docs: Swagger UI from its npm package (swagger-ui-dist), served
// by Arca itself, so it works on a closed network (no CDN, no online validator). Its files are
// read once at start-up and answered from memory under fixed names; no part of a request's path
// ever reaches the file system.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface ExplorerAsset {
  type: string;
  body: Buffer;
}

/** Where the page finds the explorer's files, and their names. */
export const EXPLORER_ASSETS_PATH = "/docs/assets";
export const EXPLORER_ASSET_NAMES = ["swagger-ui.css", "swagger-ui-bundle.js", "explorer.js", "favicon.png"] as const;
export const EXPLORER_ASSET_NOT_FOUND = "No explorer file has this name";

/**
 * Starts Swagger UI on the document at /openapi.json. Kept in a file of its own (not inline in
 * the page) so the page's policy can allow scripts from 'self' only.
 */
const INITIALIZER = `"use strict";
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#explorer",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 1,
    persistAuthorization: true,
    displayRequestDuration: true,
    validatorUrl: null
  });
});
`;

/** The explorer's files by name (read from swagger-ui-dist, plus the initializer above). */
export function explorerAssets(): ReadonlyMap<string, ExplorerAsset> {
  const packageDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const file = (name: string) => readFileSync(join(packageDir, name));
  const assets: Record<(typeof EXPLORER_ASSET_NAMES)[number], ExplorerAsset> = {
    "swagger-ui.css": { type: "text/css; charset=utf-8", body: file("swagger-ui.css") },
    "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", body: file("swagger-ui-bundle.js") },
    "explorer.js": { type: "text/javascript; charset=utf-8", body: Buffer.from(INITIALIZER) },
    // Named by the page, so the browser does not ask for /favicon.ico (a 404).
    "favicon.png": { type: "image/png", body: file("favicon-32x32.png") },
  };
  return new Map(EXPLORER_ASSET_NAMES.map((name) => [name, assets[name]]));
}
