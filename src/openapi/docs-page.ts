// `GET /docs`: a small, self-contained HTML page made from the OpenAPI document: every path
// with its methods, what each needs, and a link to each record type's schema. No script, no
// external style or font: the page works offline and under a `default-src 'none'` policy.
import { lookupTable } from "../registry/dictionary.js";
import type { Registry } from "../registry/registry.js";
import type { OpenApiDocument } from "./document.js";
import { HTTP_METHODS, openApiPath, type Operation } from "./model.js";

/** The page's Content-Security-Policy: nothing but its own inline style. */
export const DOCS_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ESCAPES: Record<string, string> = lookupTable({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" });

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
  return roles.length === 0 ? "session" : `session + ${roles.map((role) => `<code>${escapeHtml(role)}</code>`).join(", ")}`;
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1d1d1f; }
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
<style>${STYLE}</style>
</head>
<body>
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
</body>
</html>
`;
}
