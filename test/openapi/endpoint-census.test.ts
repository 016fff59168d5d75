// The endpoint census over the real service's /openapi.json: the fixtures read from ArchivesSpace and its clients
// parse, the counts add up, and the client calls Arca claims to serve are in the document it publishes.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import {
  CensusPathError,
  readCalls,
  readEndpoints,
  readOpenApi,
  renderCensus,
  runCensus,
  templateKey,
  type Census,
  type ClientCall,
} from "../../scripts/census/endpoint-census.js";
import { startService, type Service } from "../support/service.js";

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8")) as unknown;
}

const endpoints = readEndpoints(fixture("archivesspace-endpoints.json"));
const calls = readCalls(fixture("client-calls.json"));

/**
 * The client calls Arca serves, as `client METHOD path` exactly as in test/fixtures/client-calls.json. The lead
 * adds each call here once the endpoint behind it is merged (find_by_id, by-external-id, the legacy tree, search
 * ...); a call listed here that the published document does not describe fails the test.
 */
const SERVED_CLIENT_CALLS: readonly string[] = [
  // logins and sessions
  "agentarchives POST /users/:username/login",
  "ArchivesSnake POST /users/:username/login",
  "agentarchives POST /logout",
  // system
  "ArchivesSnake GET /version",
  "ArchivesSnake GET /repositories",
  "ArchivesSnake GET /repositories/:id",
  // record CRUD
  "ArchivesSnake GET /repositories/:repo_id/resources",
  "ArchivesSnake GET /repositories/:repo_id/resources/:id",
  "agentarchives GET /repositories/:repo_id/resources/:id",
  "agentarchives POST /repositories/:repo_id/resources/:id",
  "agentarchives DELETE /repositories/:repo_id/resources/:id",
  "agentarchives POST /repositories/:repo_id/archival_objects",
  "ArchivesSnake GET /repositories/:repo_id/archival_objects/:id",
  "agentarchives GET /repositories/:repo_id/archival_objects/:id",
  "agentarchives POST /repositories/:repo_id/archival_objects/:id",
  "agentarchives DELETE /repositories/:repo_id/archival_objects/:id",
  "agentarchives POST /repositories/:repo_id/digital_objects",
  "agentarchives GET /repositories/:repo_id/digital_objects/:id",
  "agentarchives POST /repositories/:repo_id/digital_object_components",
  "ArchivesSnake GET /agents/corporate_entities",
  "ArchivesSnake GET /agents/families",
  "ArchivesSnake GET /agents/people",
  "ArchivesSnake GET /agents/software",
  // trees
  "agentarchives GET /repositories/:repo_id/archival_objects/:id/children",
  "ArchivesSnake GET /repositories/:repo_id/resources/:id/tree/root",
  "ArchivesSnake GET /repositories/:repo_id/resources/:id/tree/node",
  "ArchivesSnake GET /repositories/:repo_id/resources/:id/tree/waypoint",
  // enumerations
  "agentarchives GET /config/enumerations/:enum_id",
  // issue 14: lookups and the legacy tree
  "agentarchives GET /repositories/:repo_id/find_by_id/archival_objects",
  "agentarchives GET /repositories/:repo_id/find_by_id/digital_object_components",
  "ArchivesSnake GET /by-external-id",
  "agentarchives GET /repositories/:repo_id/resources/:id/tree",
  "ArchivesSnake GET /repositories/:repo_id/resources/:id/tree",
];

const callName = (call: ClientCall): string => `${call.client} ${call.method} ${call.path}`;

let service: Service;
let census: Census;

beforeAll(async () => {
  service = await startService();
  const reply = await service.send("GET", "/openapi.json");
  expect(reply.status).toBe(200);
  census = runCensus(readOpenApi(reply.body), endpoints, calls);
});

afterAll(() => service.stop());

describe("the fixtures", () => {
  it("hold ArchivesSpace's endpoints, each a path template the census parses, none twice", () => {
    expect(endpoints.length).toBeGreaterThan(300);
    const keys = endpoints.map((endpoint) => `${endpoint.method} ${templateKey(endpoint.path, "archivesspace")}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const endpoint of endpoints) expect(endpoint.controller).toMatch(/^[a-z_]+\.rb$/);
  });

  it("hold the client calls, each parsed, none twice", () => {
    for (const call of calls) expect(() => templateKey(call.path, "archivesspace")).not.toThrow();
    const names = calls.map(callName);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(calls.map((call) => call.client))).toEqual(new Set(["agentarchives", "ArchivesSnake"]));
  });

  it("lists in SERVED_CLIENT_CALLS only calls the fixture holds", () => {
    const names = new Set(calls.map(callName));
    expect(SERVED_CLIENT_CALLS.filter((name) => !names.has(name))).toEqual([]);
  });
});

describe("templateKey", () => {
  it("ignores parameter names, also inside a segment, in both styles", () => {
    expect(templateKey("/repositories/:repo_id/resources/:id", "archivesspace")).toBe(
      templateKey("/repositories/{repo_id}/resources/{resource_id}", "openapi"),
    );
    expect(templateKey("/repositories/:repo_id/resource_descriptions/:id.:fmt/metadata", "archivesspace")).toBe(
      "/repositories/{}/resource_descriptions/{}.{}/metadata",
    );
    expect(templateKey("/ark:/:naan/:id", "archivesspace")).toBe("/ark:/{}/{}");
  });

  it("tells a literal segment from a parameter", () => {
    expect(templateKey("/users/current-user", "archivesspace")).not.toBe(templateKey("/users/:id", "archivesspace"));
  });

  it("refuses what is not a path template", () => {
    expect(() => templateKey("repositories/:id", "archivesspace")).toThrow(CensusPathError);
    expect(() => templateKey("/repositories//resources", "archivesspace")).toThrow(CensusPathError);
    expect(() => templateKey("/search?q=x", "archivesspace")).toThrow(CensusPathError);
  });
});

describe("the census of the real service", () => {
  it("adds up: served and not served make the total, per controller and overall", () => {
    expect(census.total).toBe(endpoints.length);
    expect(census.served + census.notServed).toBe(census.total);
    expect(census.controllers.reduce((sum, tally) => sum + tally.total, 0)).toBe(census.total);
    expect(census.controllers.reduce((sum, tally) => sum + tally.served, 0)).toBe(census.served);
    for (const tally of census.controllers) expect(tally.served + tally.missing.length).toBe(tally.total);
    expect(census.calls).toHaveLength(calls.length);
  });

  it("finds Arca serving the record endpoints and not, today, the ones it has no route for", () => {
    // Record CRUD is served on main; a made-up endpoint never is.
    const subject = census.controllers.find((tally) => tally.controller === "subject.rb");
    expect(subject).toEqual(expect.objectContaining({ served: 5, total: 5 }));
    const fake = runCensus(
      readOpenApi({ paths: {} }),
      [{ method: "GET", path: "/subjects", controller: "subject.rb" }],
      [],
    );
    expect(fake).toEqual(expect.objectContaining({ served: 0, notServed: 1 }));
    expect(census.served).toBeGreaterThan(100);
  });

  it("serves every client call listed as served", () => {
    const served = new Set(census.calls.filter((call) => call.served).map(callName));
    expect(SERVED_CLIENT_CALLS.filter((name) => !served.has(name))).toEqual([]);
  });

  it("renders the same Markdown twice, sorted", () => {
    const text = renderCensus(census);
    expect(renderCensus(census)).toBe(text);
    expect(text).toContain(`- ArchivesSpace backend endpoints: ${census.total}`);
    const controllerNames = census.controllers.map((tally) => tally.controller);
    expect(controllerNames).toEqual([...controllerNames].sort());
  });
});
