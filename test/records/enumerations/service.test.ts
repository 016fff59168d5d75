// The enumeration routes as the service mounts them (src/server.ts, with the real accounts):
// the bootstrap's administrators group may edit enumerations, a user in no group may only read,
// and the OpenAPI document describes the routes.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Ajv2020 } from "ajv/dist/2020.js";
import { UPDATE_ENUMERATION } from "../../../src/records/enumerations/index.js";
import type { RecordOperations } from "../../../src/records/operations/index.js";
import { startService, type Service } from "../../support/service.js";

let service: Service;
let operations: RecordOperations;

beforeAll(async () => {
  service = await startService({ dbName: "enumeration_service" });
  operations = service.ops;
}, 30_000);
afterAll(() => service.stop());

async function call(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await service.send(method, path, { token, body });
  return { status: reply.status, body: reply.body as Record<string, unknown> };
}

describe("in the service", () => {
  it("the administrators group grants update_enumeration_record", async () => {
    const [group] = await operations.find("group", { group_code: "administrators" }, 1);
    expect(group?.grants_permissions).toContain(UPDATE_ENUMERATION);
  });

  it("the admin edits an enumeration; a user without the code only reads it", async () => {
    const admin = service.adminToken;
    const current = await call("GET", "/config/enumerations/names/subject_source", admin);
    expect(current.status).toBe(200);
    const values = current.body.values as string[];
    expect(
      (await call("POST", current.body.uri as string, admin, { ...current.body, values: [...values, "fast"] })).status,
    ).toBe(200);

    expect(
      (await call("POST", "/users?password=secret123", admin, { username: "reader", name: "Reader" })).status,
    ).toBe(200);
    const reader = await service.login("reader", "secret123");
    const read = await call("GET", current.body.uri as string, reader);
    expect([read.status, read.body.values]).toEqual([200, [...values, "fast"]]);
    expect(await call("POST", current.body.uri as string, reader, { ...read.body, values })).toEqual({
      status: 403,
      body: { error: "Access denied" },
    });
  });

  it("describes the routes in /openapi.json, and the answers match the described schemas", async () => {
    const document = (await call("GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/config/enumerations",
        "/config/enumerations/{id}",
        "/config/enumerations/names/{name}",
        "/config/enumeration_values/{id}",
      ]),
    );
    expect(document.paths["/config/enumerations/{id}"]?.post?.security).toEqual([
      { ServiceSession: [UPDATE_ENUMERATION] },
      { ArchivesSpaceSession: [UPDATE_ENUMERATION] },
    ]);

    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    ajv.addSchema(document, "https://arca.test/openapi.json");
    const component = (name: string) =>
      ajv.compile({ $ref: `https://arca.test/openapi.json#/components/schemas/${name}` });
    const admin = service.adminToken;
    const list = (await call("GET", "/config/enumerations", admin)).body as unknown as Array<{
      enumeration_values: Array<{ uri: string }>;
    }>;
    const enumeration = component("Enumeration");
    for (const item of list) expect([enumeration(item), enumeration.errors ?? null]).toEqual([true, null]);
    const value = (await call("GET", list[0]!.enumeration_values[0]!.uri, admin)).body;
    expect(component("EnumerationValue")(value)).toBe(true);
    expect(enumeration({ ...list[0], uri: "/enumerations/1" })).toBe(false);
  });
});
