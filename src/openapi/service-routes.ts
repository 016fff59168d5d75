// The routes about the service itself: `GET /`, `GET /version` (src/http/system-controller.ts)
// and the schema and documentation routes (./routes.ts). None needs a session.
import { EXPLORER_ASSET_NAMES, EXPLORER_ASSET_NOT_FOUND, EXPLORER_ASSETS_PATH } from "./explorer.js";
import { commonResponses, jsonResponse, type DocumentContext, type Paths } from "./model.js";

export const SCHEMA_NOT_FOUND = "Schema not found";

export function servicePaths(ctx: DocumentContext, version: string): Paths {
  const system = ["system"];
  const schemas = ["schemas"];
  const typeNames = ctx.registry.types.map((type) => type.name);
  return {
    "/": {
      get: {
        operationId: "get_service_info",
        summary: "What the service is",
        description: "Needs no session. The keys ArchivesSpace answers with, which clients probe first.",
        tags: system,
        responses: {
          "200": jsonResponse("The service.", ctx.fixedRef("ServiceInfo"), {
            name: "Arca",
            arcaVersion: version,
            databaseProductName: "MongoDB",
          }),
          ...commonResponses(),
        },
      },
    },
    "/version": {
      get: {
        operationId: "get_version",
        summary: "The version, as plain text",
        description: "Needs no session.",
        tags: system,
        responses: {
          "200": {
            description: "The version.",
            content: { "text/plain": { schema: { type: "string" }, example: `Arca ${version}` } },
          },
          ...commonResponses(),
        },
      },
    },
    "/schemas": {
      get: {
        operationId: "get_schemas",
        summary: "Every record type's JSON Schema",
        description:
          "Needs no session. An object from record type name to that type's schema, as the service validates records with it.",
        tags: schemas,
        responses: {
          "200": jsonResponse("The schemas by type name.", {
            type: "object",
            required: typeNames,
            propertyNames: { enum: typeNames },
            additionalProperties: ctx.fixedRef("JsonSchema"),
          }),
          ...commonResponses(),
        },
      },
    },
    "/schemas/{name}": {
      parameters: [
        {
          name: "name",
          in: "path",
          required: true,
          description: "A record type name.",
          schema: { type: "string", enum: typeNames },
        },
      ],
      get: {
        operationId: "get_schema",
        summary: "One record type's JSON Schema",
        description: "Needs no session.",
        tags: schemas,
        responses: {
          "200": jsonResponse("The schema.", ctx.fixedRef("JsonSchema")),
          "404": jsonResponse("No record type has this name.", ctx.fixedRef("Error"), { error: SCHEMA_NOT_FOUND }),
          ...commonResponses(),
        },
      },
    },
    "/openapi.json": {
      get: {
        operationId: "get_openapi_document",
        summary: "This OpenAPI document",
        description: "Needs no session. Generated from the record type registry at start-up.",
        tags: schemas,
        responses: {
          "200": jsonResponse("The OpenAPI 3.1 document.", { type: "object", required: ["openapi", "info", "paths"] }),
          ...commonResponses(),
        },
      },
    },
    "/docs": {
      get: {
        operationId: "get_docs",
        summary: "The API explorer, as a web page",
        description:
          "Needs no session. Swagger UI on this document, served by Arca itself (nothing loaded from elsewhere): every operation, its schemas, and " +
          "`Try it out` with the session token entered under `Authorize`. Without scripts: every path with its methods, and a link to each schema.",
        tags: schemas,
        responses: {
          "200": { description: "The page.", content: { "text/html": { schema: { type: "string" } } } },
          ...commonResponses(),
        },
      },
    },
    [`${EXPLORER_ASSETS_PATH}/{file}`]: {
      parameters: [
        {
          name: "file",
          in: "path",
          required: true,
          description: "One of the explorer's files.",
          schema: { type: "string", enum: [...EXPLORER_ASSET_NAMES] },
        },
      ],
      get: {
        operationId: "get_docs_asset",
        summary: "A file of the API explorer (its script, style or icon)",
        description:
          "Needs no session. From the swagger-ui-dist package, and the script that starts it on this document.",
        tags: schemas,
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
      },
    },
  };
}
