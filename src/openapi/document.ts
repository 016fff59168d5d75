// The OpenAPI 3.1 document of the API, from two sources: the record type registry (every
// type's collection and item paths with the five operations, its schema as a component,
// security from its permissions; the tree routes) and the described routes of the other
// controllers (@Route, src/http/described-route.ts), each described where it is served.
// Nothing here names a record type or a route: a type dropped into record-types/ is described
// with no code, and a controller brings its own description.
import type { DescribedRoute } from "../http/described-route.js";
import type { Registry } from "../registry/registry.js";
import { fixedSchemas } from "./fixed-schemas.js";
import {
  FIXED_SCHEMAS,
  HTTP_METHODS,
  openApiPath,
  pathParameterNames,
  standardResponses,
  type DocumentContext,
  type FixedSchema,
  type PathItem,
  type Paths,
  type Response,
  type Schema,
  type SecurityRequirement,
  type Tag,
} from "../http/api-description.js";
import { recordOperations, recordPaths, recordTag } from "./record-paths.js";
import { ComponentNames, componentRef, recordSchemaComponents } from "./schemas.js";
import { TreePaths } from "./tree-paths.js";

/** The session headers the service accepts by default (config.ts: ARCHIVESSPACE_SESSION_HEADER=true). */
export const DEFAULT_SESSION_HEADERS: readonly string[] = ["X-Service-Session", "X-ArchivesSpace-Session"];

export interface OpenApiOptions {
  /** The headers a session token is accepted in (config.auth.sessionHeaders); each is a security scheme. */
  sessionHeaders?: readonly string[];
  /** The routes controllers describe themselves (describedRoutes()), placed ahead of the records'. */
  routes?: readonly DescribedRoute[];
}

export interface SecurityScheme {
  type: "apiKey";
  in: "header";
  name: string;
  description: string;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  tags: Tag[];
  paths: Paths;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, Response>;
    securitySchemes: Record<string, SecurityScheme>;
  };
}

/** `X-ArchivesSpace-Session` → `ArchivesSpaceSession`. */
export function securitySchemeName(header: string): string {
  return header
    .replace(/^x-/i, "")
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== "")
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");
}

const DESCRIPTION =
  'Arca: an ArchivesSpace-compatible archival records backend. Every body is JSON (errors are `{"error": ...}`) except `GET /version` ' +
  "and `GET /docs`; every success is 200. Log in with `POST /users/{username}/login` and send the session token in a session header. " +
  "A request carrying an unknown, logged-out or expired token answers 412 on any route, before routing. " +
  "Scalar parameters come from the query string or a form body; array parameters are written `name[]=a&name[]=b`; " +
  "booleans are `true`/`false` in any case. Unknown routes answer 404 JSON. " +
  "Every operation that needs a permission names it as the role of its security requirement.";

/** Adds `extra`'s operations to `into`; an operation `extra` has for the same path and method wins. */
function mergePaths(into: Paths, extra: Paths): void {
  for (const [path, item] of Object.entries(extra)) {
    const existing = into[path];
    if (existing === undefined) {
      into[path] = item;
      continue;
    }
    const merged: PathItem = { ...existing };
    if (item.parameters !== undefined) merged.parameters = item.parameters;
    for (const method of HTTP_METHODS) if (item[method] !== undefined) merged[method] = item[method];
    into[path] = merged;
  }
}

function uniqueTags(tags: Tag[]): Tag[] {
  const seen = new Set<string>();
  return tags.filter((tag) => !seen.has(tag.name) && seen.add(tag.name));
}

/** The paths of described routes, and the tags they are listed under in order of first use. */
function describedPaths(ctx: DocumentContext, routes: readonly DescribedRoute[]): { paths: Paths; tags: Tag[] } {
  const paths: Paths = {};
  const tags: Tag[] = [];
  for (const route of routes) {
    const { tag, pathParameters = [], ...operation } = route.describe(ctx);
    const path = openApiPath(route.path);
    const item: PathItem = paths[path] ?? {};
    const parameters = item.parameters ?? pathParameters;
    // A template name without its parameter would make an invalid document: a developer's
    // mistake, refused at start-up.
    const undescribed = pathParameterNames(route.path).filter((name) => !parameters.some((p) => p.name === name));
    if (undescribed.length > 0)
      throw new Error(`${route.method.toUpperCase()} ${route.path}: no description of :${undescribed.join(", :")}`);
    if (item[route.method] !== undefined)
      throw new Error(`${route.method.toUpperCase()} ${route.path} is described twice`);
    paths[path] = {
      ...item,
      ...(parameters.length > 0 && { parameters }),
      [route.method]: { ...operation, tags: [tag.name] },
    };
    tags.push(tag);
  }
  return { paths, tags };
}

export function openApiDocument(registry: Registry, version: string, options: OpenApiOptions = {}): OpenApiDocument {
  const names = new ComponentNames();
  const records = recordSchemaComponents(registry.types, names);
  const fixedNames = Object.fromEntries(FIXED_SCHEMAS.map((role) => [role, names.allocate(role)])) as Record<
    FixedSchema,
    string
  >;
  const components = new Map<string, { name: string; schema: Schema; json: string }>();
  const headers = options.sessionHeaders ?? DEFAULT_SESSION_HEADERS;
  const schemes = headers.map((header) => ({ name: securitySchemeName(header), header }));

  const ctx: DocumentContext = {
    registry,
    recordRef: (typeName) => componentRef(records.typeComponents.get(typeName) ?? registry.get(typeName).name),
    fixedRef: (role) => componentRef(fixedNames[role]),
    security: (permission, { optional = false } = {}) => {
      const roles = permission === null ? [] : [permission];
      const required: SecurityRequirement[] = schemes.map((scheme) => ({ [scheme.name]: roles }));
      return optional ? [...required, {}] : required;
    },
    component: (name, schema) => {
      const json = JSON.stringify(schema);
      const known = components.get(name) ?? { name: names.allocate(name), schema, json };
      if (known.json !== json) throw new Error(`Two different schemas are described as ${name}`);
      components.set(name, known);
      return componentRef(known.name);
    },
  };

  // The described routes come first: their controllers are mounted ahead of the record controllers.
  const described = describedPaths(ctx, options.routes ?? []);
  const paths = described.paths;
  const recordPathSets: Paths = {};
  const trees = new TreePaths(ctx);
  for (const type of registry.types) {
    mergePaths(recordPathSets, recordPaths(ctx, type, recordOperations(ctx, type)));
    const nodes = registry.treeNodeTypeOf(type.name);
    if (nodes !== undefined) mergePaths(recordPathSets, trees.root(type, nodes));
    if (type.tree !== null) mergePaths(recordPathSets, trees.node(type));
  }
  for (const [path, item] of Object.entries(recordPathSets)) paths[path] = { ...item, ...paths[path] };

  const fixed = fixedSchemas();
  const schemas: Record<string, Schema> = { ...records.schemas };
  for (const role of FIXED_SCHEMAS) schemas[fixedNames[role]] = fixed[role];
  for (const { name, schema } of components.values()) schemas[name] = schema;

  return {
    openapi: "3.1.0",
    info: { title: "Arca", version, description: DESCRIPTION, license: { name: "MIT", identifier: "MIT" } },
    tags: uniqueTags([...described.tags, ...registry.types.map(recordTag)]),
    paths,
    components: {
      schemas,
      responses: standardResponses(ctx),
      securitySchemes: Object.fromEntries(
        schemes.map((scheme) => [
          scheme.name,
          {
            type: "apiKey",
            in: "header",
            name: scheme.header,
            description: `The session token from login. Roles name the permission code an operation needs.`,
          } satisfies SecurityScheme,
        ]),
      ),
    },
  };
}
