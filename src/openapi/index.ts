// The OpenAPI document generated from the record type registry, and the routes serving it,
// the schemas and the documentation page.
export { docsPage } from "./docs-page.js";
export { DEFAULT_SESSION_HEADERS, openApiDocument, type OpenApiDocument, type OpenApiOptions } from "./document.js";
export { openApiController } from "./routes.js";
