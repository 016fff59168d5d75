// `GET /docs`: the API explorer (Swagger UI, src/openapi/explorer.ts) on the OpenAPI document,
// with, for a browser without scripts, a plain listing made from the same document inside
// <noscript>: every path with its methods, what each needs, and a link to each record type's
// schema. Nothing is loaded from anywhere but Arca itself.
import { lookupTable } from "../registry/dictionary.js";
import type { Registry } from "../registry/registry.js";
import type { OpenApiDocument } from "./document.js";
import { EXPLORER_ASSETS_PATH } from "./explorer.js";
import { HTTP_METHODS, openApiPath, type Operation } from "../http/api-description.js";

/**
 * The page's Content-Security-Policy: scripts, styles and the explorer's requests to Arca only;
 * inline styles (the listing's, and those Swagger UI sets on its elements) and data: images
 * (its icons).
 */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ESCAPES: Record<string, string> = lookupTable({
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
});

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** Inline code spans of the descriptions (`x`) as <code>; everything else escaped. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function access(operation: Operation): string {
  if (operation.security === undefined) return "no session";
  const optional = operation.security.some((requirement) => Object.keys(requirement).length === 0);
  const roles = [...new Set(operation.security.flatMap((requirement) => Object.values(requirement).flat()))];
  if (optional) return "session optional";
  return roles.length === 0
    ? "session"
    : `session + ${roles.map((role) => `<code>${escapeHtml(role)}</code>`).join(", ")}`;
}

const STYLE = `
noscript { display: block; font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1d1d1f; }
code { font: 13px ui-monospace, monospace; background: #f2f2f4; padding: 0 .2em; border-radius: 3px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #ddd; }
td.path { white-space: nowrap; font-family: ui-monospace, monospace; }
.method { display: inline-block; min-width: 4.2em; font: bold 12px ui-monospace, monospace; text-transform: uppercase; }
.get { color: #0b6e33; } .post { color: #8a4b00; } .delete { color: #a4161a; }
td.desc { color: #444; font-size: 13px; }
`;

/** The page for a document and the registry it was made from. */
export function docsPage(document: OpenApiDocument, registry: Registry): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      rows.push(
        `<tr><td class="path">${escapeHtml(path)}</td><td><span class="method ${method}">${method}</span></td>` +
          `<td>${escapeHtml(operation.summary)}</td><td>${access(operation)}</td>` +
          `<td class="desc">${prose(operation.description ?? "")}</td></tr>`,
      );
    }
  }
  const schemas = registry.types.map(
    (type) =>
      `<li><a href="/schemas/${encodeURIComponent(type.name)}"><code>${escapeHtml(type.name)}</code></a> ${escapeHtml(type.title)}: ` +
      `<code>${escapeHtml(openApiPath(type.collectionPath))}</code></li>`,
  );
  const title = `${document.info.title} API ${document.info.version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${EXPLORER_ASSETS_PATH}/favicon.png">
<link rel="stylesheet" href="${EXPLORER_ASSETS_PATH}/swagger-ui.css">
<style>${STYLE}</style>
</head>
<body>
<div id="explorer"></div>
<script src="${EXPLORER_ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${EXPLORER_ASSETS_PATH}/explorer.js"></script>
<noscript>
<h1>${escapeHtml(title)}</h1>
<p>${prose(document.info.description)}</p>
<p>The machine-readable description: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}). All schemas at once: <a href="/schemas">/schemas</a>.</p>
<h2>Routes</h2>
<table>
<thead><tr><th>Path</th><th>Method</th><th>What</th><th>Needs</th><th>Notes</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
<h2>Record type schemas</h2>
<ul>
${schemas.join("\n")}
</ul>
</noscript>
</body>
</html>
`;
}
