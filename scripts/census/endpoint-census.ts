// The endpoint census: which of ArchivesSpace's backend endpoints, and which calls its clients make, an OpenAPI
// document (Arca's /openapi.json) serves. Pure functions over data, so the CLI (scripts/endpoint-census.ts) and
// the test (test/openapi/endpoint-census.test.ts) run the same code; nothing here starts or fetches anything.

export type HttpMethod = "GET" | "POST" | "DELETE" | "PUT" | "PATCH";

const METHODS: readonly HttpMethod[] = ["GET", "POST", "DELETE", "PUT", "PATCH"];

/** One endpoint ArchivesSpace's backend declares (test/fixtures/archivesspace-endpoints.json). */
export interface ArchivesSpaceEndpoint {
  method: HttpMethod;
  path: string;
  controller: string;
}

/** One call a client makes (test/fixtures/client-calls.json). */
export interface ClientCall {
  client: string;
  method: HttpMethod;
  path: string;
  where: string;
}

/** The part of an OpenAPI document the census reads: each path and the methods described on it. */
export interface OpenApiPath {
  path: string;
  /** Lower-case, as OpenAPI writes them; keys that are not methods (parameters, summary) are left out later. */
  methods: string[];
}

export interface ControllerTally {
  controller: string;
  total: number;
  served: number;
  /** The endpoints not served, sorted by path then method. */
  missing: ArchivesSpaceEndpoint[];
}

export interface CallVerdict extends ClientCall {
  served: boolean;
}

export interface Census {
  total: number;
  served: number;
  notServed: number;
  /** Every controller with at least one endpoint, sorted by name. */
  controllers: ControllerTally[];
  /** Every client call, sorted by client, path, method. */
  calls: CallVerdict[];
  /** Operations in the document that match no ArchivesSpace endpoint (Arca's own routes). */
  arcaOnly: number;
}

export class CensusPathError extends Error {}

const PARAMETER = /:[A-Za-z_][A-Za-z0-9_]*/g;
const OPENAPI_PARAMETER = /\{[^{}/]+\}/g;
/** What a path may hold once its parameters are taken out: ArchivesSpace's paths use no more than this. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_.\-:*{}]+$/;

/**
 * The form two templates share when they differ only in parameter names: every parameter becomes `{}`, in
 * ArchivesSpace's `:name` form or OpenAPI's `{name}`, also inside a segment (`:id.:fmt` and `{id}.{fmt}`).
 * Throws CensusPathError for what is not a path template, so a typo in a fixture fails loudly.
 */
export function templateKey(path: string, style: "archivesspace" | "openapi"): string {
  if (!path.startsWith("/")) throw new CensusPathError(`"${path}" does not start with /`);
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  if (trimmed === "/") return "/";
  const segments = trimmed.slice(1).split("/");
  const keyed = segments.map((segment) => {
    if (segment === "") throw new CensusPathError(`"${path}" has an empty segment`);
    const replaced =
      style === "archivesspace" ? segment.replace(PARAMETER, "{}") : segment.replace(OPENAPI_PARAMETER, "{}");
    if (!PLAIN_SEGMENT.test(replaced)) throw new CensusPathError(`"${path}" has an unexpected segment "${segment}"`);
    return replaced;
  });
  return `/${keyed.join("/")}`;
}

export function parseMethod(method: string): HttpMethod {
  const upper = method.toUpperCase();
  const found = METHODS.find((candidate) => candidate === upper);
  if (!found) throw new CensusPathError(`"${method}" is not a method the census knows`);
  return found;
}

function operationKey(method: HttpMethod, key: string): string {
  return `${method} ${key}`;
}

/** The operations an OpenAPI document describes, as `METHOD key` strings. */
export function servedOperations(document: readonly OpenApiPath[]): Set<string> {
  const served = new Set<string>();
  for (const { path, methods } of document) {
    const key = templateKey(path, "openapi");
    for (const name of methods) {
      const method = METHODS.find((candidate) => candidate.toLowerCase() === name);
      if (method) served.add(operationKey(method, key));
    }
  }
  return served;
}

function byPathThenMethod(a: { path: string; method: string }, b: { path: string; method: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.method < b.method ? -1 : a.method > b.method ? 1 : 0;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function runCensus(
  document: readonly OpenApiPath[],
  endpoints: readonly ArchivesSpaceEndpoint[],
  calls: readonly ClientCall[],
): Census {
  const served = servedOperations(document);
  const tallies = new Map<string, ControllerTally>();
  const archivesSpaceKeys = new Set<string>();
  let servedCount = 0;
  for (const endpoint of endpoints) {
    const key = operationKey(endpoint.method, templateKey(endpoint.path, "archivesspace"));
    archivesSpaceKeys.add(key);
    const tally = tallies.get(endpoint.controller) ?? {
      controller: endpoint.controller,
      total: 0,
      served: 0,
      missing: [],
    };
    tallies.set(endpoint.controller, tally);
    tally.total += 1;
    if (served.has(key)) {
      tally.served += 1;
      servedCount += 1;
    } else {
      tally.missing.push(endpoint);
    }
  }
  const controllers = [...tallies.values()].sort((a, b) => compareText(a.controller, b.controller));
  for (const tally of controllers) tally.missing.sort(byPathThenMethod);
  const verdicts = calls
    .map((call) => ({
      ...call,
      served: served.has(operationKey(call.method, templateKey(call.path, "archivesspace"))),
    }))
    .sort((a, b) => compareText(a.client, b.client) || byPathThenMethod(a, b));
  let arcaOnly = 0;
  for (const key of served) if (!archivesSpaceKeys.has(key)) arcaOnly += 1;
  return {
    total: endpoints.length,
    served: servedCount,
    notServed: endpoints.length - servedCount,
    controllers,
    calls: verdicts,
    arcaOnly,
  };
}

/** The census as Markdown, every list sorted, so two runs over the same inputs print the same text. */
export function renderCensus(census: Census): string {
  const lines: string[] = [];
  lines.push("## Summary", "");
  lines.push(`- ArchivesSpace backend endpoints: ${census.total}`);
  lines.push(`- served by Arca: ${census.served}`);
  lines.push(`- not served: ${census.notServed}`);
  lines.push(`- Arca operations that are not ArchivesSpace endpoints: ${census.arcaOnly}`);
  const clients = [...new Set(census.calls.map((call) => call.client))];
  for (const client of clients) {
    const own = census.calls.filter((call) => call.client === client);
    lines.push(`- ${client}: ${own.filter((call) => call.served).length} of ${own.length} calls served`);
  }
  lines.push("", "## Client calls", "");
  lines.push("| client | method | path | served | where |", "| --- | --- | --- | --- | --- |");
  for (const call of census.calls) {
    lines.push(
      `| ${call.client} | ${call.method} | \`${call.path}\` | ${call.served ? "yes" : "**no**"} | ${call.where} |`,
    );
  }
  lines.push("", "## Served, by controller", "");
  lines.push("| controller | served | of |", "| --- | --- | --- |");
  for (const tally of census.controllers) lines.push(`| ${tally.controller} | ${tally.served} | ${tally.total} |`);
  lines.push("", "## Not served, by controller", "");
  for (const tally of census.controllers) {
    if (tally.missing.length === 0) continue;
    lines.push(`### ${tally.controller}`, "");
    for (const endpoint of tally.missing) lines.push(`- \`${endpoint.method} ${endpoint.path}\``);
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown, what: string): string {
  if (typeof value !== "string") throw new CensusPathError(`${what} is not a string`);
  return value;
}

/** The endpoints of test/fixtures/archivesspace-endpoints.json, checked field by field. */
export function readEndpoints(json: unknown): ArchivesSpaceEndpoint[] {
  if (!isRecord(json) || !Array.isArray(json.endpoints)) throw new CensusPathError("no endpoints array");
  return json.endpoints.map((entry: unknown, index) => {
    if (!isRecord(entry)) throw new CensusPathError(`endpoints[${index}] is not an object`);
    return {
      method: parseMethod(text(entry.method, `endpoints[${index}].method`)),
      path: text(entry.path, `endpoints[${index}].path`),
      controller: text(entry.controller, `endpoints[${index}].controller`),
    };
  });
}

/** The calls of test/fixtures/client-calls.json, checked field by field. */
export function readCalls(json: unknown): ClientCall[] {
  if (!isRecord(json) || !Array.isArray(json.calls)) throw new CensusPathError("no calls array");
  return json.calls.map((entry: unknown, index) => {
    if (!isRecord(entry)) throw new CensusPathError(`calls[${index}] is not an object`);
    return {
      client: text(entry.client, `calls[${index}].client`),
      method: parseMethod(text(entry.method, `calls[${index}].method`)),
      path: text(entry.path, `calls[${index}].path`),
      where: text(entry.where, `calls[${index}].where`),
    };
  });
}

/** The paths of an OpenAPI document, checked enough for the census to read. */
export function readOpenApi(json: unknown): OpenApiPath[] {
  if (!isRecord(json) || !isRecord(json.paths)) throw new CensusPathError("not an OpenAPI document (no paths)");
  return Object.entries(json.paths).map(([path, item]) => {
    if (!isRecord(item)) throw new CensusPathError(`paths["${path}"] is not an object`);
    return { path, methods: Object.keys(item) };
  });
}
