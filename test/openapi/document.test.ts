// The OpenAPI document the service serves, from the real registry and the routes' own
// descriptions: valid OpenAPI 3.1, the five operations of every record type, the fixed routes,
// security from the permissions, and schemas that mean what the registry's schemas mean.
import { afterAll, describe, expect, it } from "@jest/globals";
import { Ajv2020 } from "ajv/dist/2020.js";
import { DEFAULT_SESSION_HEADERS, openApiDocument, type OpenApiDocument } from "../../src/openapi/document.js";
import type { Operation, Parameter, Reference, Response } from "../../src/http/api-description.js";
import { sortableFields } from "../../src/records/operations/list.js";
import { recordFormats } from "../../src/registry/formats.js";
import { registry, type JsonValue } from "../../src/registry/index.js";
import { ARCA_VERSION } from "../../src/version.js";
import type { RecordOperation } from "../../src/registry/manifest.js";
import {
  minimalResource,
  realResource,
  recordedResource,
  sampleAccession,
  sampleGroup,
  sampleRepository,
  sampleUser,
} from "../registry/samples.js";
import { startService } from "../support/service.js";
import { operationsOf, validateOpenApi, valuesOfKey } from "./helpers.js";

const app = await startService();
afterAll(() => app.stop());
const document = (await (await fetch(`${app.url}/openapi.json`)).json()) as OpenApiDocument;
/** The registry's part alone: what a document built with no described routes holds. */
const registryOnly = openApiDocument(registry, ARCA_VERSION);
const openApi = (path: string) => path.replace(/:([a-z_]+)/g, "{$1}");

function operation(path: string, method: "get" | "post" | "delete"): Operation {
  const found = document.paths[path]?.[method];
  if (found === undefined) throw new Error(`no ${method.toUpperCase()} ${path}`);
  return found;
}

function response(op: Operation, status: string): Response {
  const found = op.responses[status];
  if (found === undefined) throw new Error(`${op.operationId} has no ${status}`);
  if ("$ref" in found) {
    const name = (found as Reference).$ref.replace("#/components/responses/", "");
    const resolved = document.components.responses[name];
    if (resolved === undefined) throw new Error(`unresolved ${found.$ref}`);
    return resolved;
  }
  return found;
}

function jsonSchemaOf(op: Operation, status: string): unknown {
  return response(op, status).content?.["application/json"]?.schema;
}

describe("the generated document", () => {
  it("is valid OpenAPI 3.1 (meta-schema and every $ref)", async () => {
    const outcome = await validateOpenApi(document);
    expect(outcome.errors).toBeUndefined();
    expect(outcome).toMatchObject({ valid: true, version: "3.1" });
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: "Arca", version: ARCA_VERSION });
  });

  it("is the same every time it is built, and holds the registry's part as built", () => {
    expect(JSON.parse(JSON.stringify(registryOnly))).toEqual(registryOnly);
    expect(openApiDocument(registry, ARCA_VERSION)).toEqual(registryOnly);
    // Every record type's routes, users and groups included, are the registry's.
    const recordPaths = Object.keys(registryOnly.paths);
    expect(recordPaths).toEqual(expect.arrayContaining(["/users", "/users/{id}", "/repositories/{repo_id}/groups"]));
    for (const path of recordPaths) expect([path, document.paths[path]]).toEqual([path, registryOnly.paths[path]]);
  });

  it("uses OpenAPI path templates, declaring each path parameter exactly once", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      expect(path).not.toContain(":");
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      for (const { operation: op } of operationsOf({ [path]: item })) {
        const declared = [...(item.parameters ?? []), ...(op.parameters ?? [])].filter(
          (parameter: Parameter) => parameter.in === "path",
        );
        expect(declared.map((parameter) => parameter.name).sort()).toEqual(templated);
        for (const parameter of declared) expect(parameter.required).toBe(true);
      }
    }
  });

  it("has unique operation ids, each operation answering 200 (or redirecting), 412 and 500", () => {
    const operations = operationsOf(document.paths);
    const ids = operations.map(({ operation: op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { operation: op } of operations) {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["412", "500"]));
      // /by-external-id answers as ArchivesSpace does: a 303 to the one record found, or a 300 listing several.
      const success = Object.hasOwn(op.responses, "200") ? ["200"] : ["300", "303"];
      expect([op.operationId, Object.keys(op.responses)]).toEqual([op.operationId, expect.arrayContaining(success)]);
    }
  });

  it("points every $ref at a component that exists, and no longer at a bundled $defs", () => {
    const refs = valuesOfKey(document, "$ref");
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) {
      const match = /^#\/components\/(schemas|responses)\/([A-Za-z0-9._-]+)$/.exec(ref);
      expect(match).not.toBeNull();
      const [, kind, name] = match ?? [];
      expect(document.components[kind as "schemas" | "responses"][name ?? ""]).toBeDefined();
    }
    expect(JSON.stringify(document).includes('"$defs":')).toBe(false);
  });
});

describe("every record type", () => {
  it.each(registry.types.map((type) => [type.name, type] as const))(
    "%s has its five operations at its collection and item paths",
    (name, type) => {
      const collection = openApi(type.collectionPath);
      const item = openApi(type.itemPath);
      expect(
        Object.keys(document.paths[collection] ?? {})
          .filter((key) => key !== "parameters")
          .sort(),
      ).toEqual(["get", "post"]);
      expect(
        Object.keys(document.paths[item] ?? {})
          .filter((key) => key !== "parameters")
          .sort(),
      ).toEqual(["delete", "get", "post"]);
      expect(operation(collection, "get").operationId).toBe(`list_${name}`);
      expect(operation(collection, "post").operationId).toBe(`create_${name}`);
      expect(operation(item, "get").operationId).toBe(`read_${name}`);
      expect(operation(item, "post").operationId).toBe(`update_${name}`);
      expect(operation(item, "delete").operationId).toBe(`delete_${name}`);
    },
  );

  it.each(registry.types.map((type) => [type.name, type] as const))(
    "%s: bodies and answers use its component schema",
    (_name, type) => {
      const component = type.name
        .split("_")
        .map((part) => part[0]?.toUpperCase() + part.slice(1))
        .join("");
      const ref = { $ref: `#/components/schemas/${component}` };
      expect(document.components.schemas[component]).toMatchObject({ title: type.title, "x-record-type": type.name });
      const create = operation(openApi(type.collectionPath), "post");
      const update = operation(openApi(type.itemPath), "post");
      expect(create.requestBody?.content["application/json"]?.schema).toEqual(ref);
      expect(update.requestBody?.content["application/json"]?.schema).toEqual({
        allOf: [ref, { required: ["lock_version"] }],
      });
      expect(jsonSchemaOf(operation(openApi(type.itemPath), "get"), "200")).toEqual(ref);
      expect(jsonSchemaOf(create, "200")).toEqual({
        allOf: [{ $ref: "#/components/schemas/WriteResult" }, { properties: { status: { const: "Created" } } }],
      });
      expect(jsonSchemaOf(update, "200")).toEqual({
        allOf: [{ $ref: "#/components/schemas/WriteResult" }, { properties: { status: { const: "Updated" } } }],
      });
      expect(jsonSchemaOf(operation(openApi(type.itemPath), "delete"), "200")).toEqual({
        $ref: "#/components/schemas/DeleteResult",
      });
    },
  );

  it("has its errors: 400 on bad input, 404 for what is missing, 409 on update, 413 on a body", () => {
    for (const type of registry.types) {
      const list = operation(openApi(type.collectionPath), "get");
      const create = operation(openApi(type.collectionPath), "post");
      const read = operation(openApi(type.itemPath), "get");
      const update = operation(openApi(type.itemPath), "post");
      const remove = operation(openApi(type.itemPath), "delete");
      expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["400", "413"]));
      expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(["400", "404", "409", "413"]));
      expect(response(read, "404").content?.["application/json"]?.example).toEqual({
        error: `${type.title} not found`,
      });
      expect(response(remove, "404")).toBeDefined();
      expect(response(update, "409").description).toContain("lock_version");
      expect(response(update, "412").content?.["application/json"]?.schema).toEqual({
        $ref: "#/components/schemas/SessionError",
      });
      expect(jsonSchemaOf(create, "400")).toEqual({ $ref: "#/components/schemas/Error" });
      if (type.scope === "repository")
        expect(response(list, "404").content?.["application/json"]?.example).toEqual({ error: "Repository not found" });
    }
  });

  it("lists with the three modes' parameters, and the filters its schema declares", () => {
    expect(registry.types.map((type) => type.name)).toEqual(expect.arrayContaining(["accession", "resource", "user"]));
    for (const type of registry.types) {
      const list = operation(openApi(type.collectionPath), "get");
      expect(list.parameters?.map((parameter) => parameter.name)).toEqual([
        "page",
        "page_size",
        "id_set[]",
        "id_set",
        "all_ids",
        "modified_since",
        "sort_field",
        "sort_direction",
        "resolve[]",
        ...type.listFilters,
      ]);
      expect(list.parameters?.find((parameter) => parameter.name === "sort_field")?.schema).toEqual({
        type: "string",
        enum: sortableFields(type),
      });
      const answer = jsonSchemaOf(list, "200") as { oneOf: unknown[] };
      expect(answer.oneOf).toHaveLength(3);
      expect(operation(openApi(type.itemPath), "get").parameters?.map((parameter) => parameter.name)).toEqual([
        "resolve[]",
      ]);
    }
    // GET /repositories with no mode answers every repository (x-list-unpaged); the hidden one is never served.
    expect(operation("/repositories", "get").description).toContain(
      "With none, every record as a bare array, in id order",
    );
    expect(operation("/repositories", "get").description).toContain("The Repository records 1 exist");
    expect(operation("/repositories/{repo_id}/accessions", "get").description).toContain(
      "With none, 400 naming all three.",
    );
    // GET /repositories/:id/groups answers every group with no mode (x-list-unpaged), narrowed by group_code.
    expect(operation("/repositories/{repo_id}/groups", "get").description).toContain(
      "With none, every record as a bare array, in id order",
    );
    expect(registry.get("group").listFilters).toEqual(["group_code"]);
  });

  it("describes the write parameters a type's schema declares (a user's password, groups[]; a group's with_members)", () => {
    expect(operation("/repositories/{repo_id}/accessions", "post").parameters).toBeUndefined();
    const groups = expect.objectContaining({
      name: "groups[]",
      in: "query",
      required: false,
      schema: { type: "array", items: { type: "string", minLength: 1 } },
    });
    expect(operation("/users", "post").parameters).toEqual([
      expect.objectContaining({ name: "password", in: "query", required: true }),
      groups,
    ]);
    expect(operation("/users/{id}", "post").parameters).toEqual([
      expect.objectContaining({ name: "password", in: "query", required: false }),
      groups,
      expect.objectContaining({ name: "repo_id", in: "query", required: false }),
    ]);
    expect(operation("/repositories/{repo_id}/groups/{id}", "post").parameters).toEqual([
      expect.objectContaining({ name: "with_members", in: "query", required: false }),
    ]);
    expect(operation("/repositories/{repo_id}/groups", "post").parameters).toBeUndefined();
  });
});

describe("security", () => {
  const OPERATION_PERMISSION: Record<string, RecordOperation> = {
    list: "read",
    create: "create",
    read: "read",
    update: "update",
    delete: "delete",
  };

  it("declares one apiKey scheme per session header", () => {
    expect(document.components.securitySchemes).toEqual({
      ServiceSession: expect.objectContaining({ type: "apiKey", in: "header", name: "X-Service-Session" }),
      ArchivesSpaceSession: expect.objectContaining({ type: "apiKey", in: "header", name: "X-ArchivesSpace-Session" }),
    });
    expect(DEFAULT_SESSION_HEADERS).toEqual(["X-Service-Session", "X-ArchivesSpace-Session"]);
    const serviceOnly = openApiDocument(registry, ARCA_VERSION, { sessionHeaders: ["X-Service-Session"] });
    expect(Object.keys(serviceOnly.components.securitySchemes)).toEqual(["ServiceSession"]);
    expect(operation("/users", "get").security).toHaveLength(2);
    expect(serviceOnly.paths["/users"]?.get?.security).toEqual([{ ServiceSession: ["manage_users"] }]);
  });

  it("is absent exactly where a type is publicly readable, a bare session where the code is null, else the code", () => {
    let open = 0;
    let anySession = 0;
    for (const type of registry.types) {
      for (const op of operationsOf({
        [openApi(type.collectionPath)]: document.paths[openApi(type.collectionPath)] ?? {},
        [openApi(type.itemPath)]: document.paths[openApi(type.itemPath)] ?? {},
      })) {
        const code = type.permissions[OPERATION_PERMISSION[op.operation.operationId.split("_")[0] ?? ""] ?? "read"];
        if (type.publicRead && op.method === "get") {
          open += 1;
          expect(op.operation).not.toHaveProperty("security");
          expect(op.operation.responses).not.toHaveProperty("403");
        } else if (code === null) {
          anySession += 1;
          expect(op.operation.security).toEqual([{ ServiceSession: [] }, { ArchivesSpaceSession: [] }]);
          expect(op.operation.responses["403"]).toEqual({ $ref: "#/components/responses/AccessDenied" });
        } else {
          expect(op.operation.security).toEqual([{ ServiceSession: [code] }, { ArchivesSpaceSession: [code] }]);
          expect(op.operation.responses["403"]).toEqual({ $ref: "#/components/responses/AccessDenied" });
        }
      }
    }
    // Only repositories are read without a session (x-public-read), list and item; reading
    // vocabularies, subjects, the four agent types, container profiles, locations and location
    // profiles needs a session but no code (read: null): list and read of each.
    expect(open).toBe(2);
    expect(anySession).toBe(2 * 9);
    expect(operation("/repositories", "get")).not.toHaveProperty("security");
    expect(operation("/repositories/{id}", "get")).not.toHaveProperty("security");
  });

  it("names only declared schemes", () => {
    const schemes = Object.keys(document.components.securitySchemes);
    for (const { operation: op } of operationsOf(document.paths)) {
      for (const requirement of op.security ?? [])
        for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
    }
  });
});

describe("the fixed routes", () => {
  it("are all there, the open ones without security", () => {
    const open: Array<[string, "get" | "post"]> = [
      ["/", "get"],
      ["/version", "get"],
      ["/users/{username}/login", "post"],
      ["/schemas", "get"],
      ["/schemas/{name}", "get"],
      ["/openapi.json", "get"],
      ["/docs", "get"],
    ];
    for (const [path, method] of open) expect(operation(path, method)).not.toHaveProperty("security");
    expect(operation("/logout", "post").security).toEqual([{ ServiceSession: [] }, { ArchivesSpaceSession: [] }, {}]);
    expect(operation("/users/current-user", "get").security).toEqual([
      { ServiceSession: [] },
      { ArchivesSpaceSession: [] },
    ]);
    for (const path of [
      "/users",
      "/users/{id}",
      "/repositories",
      "/repositories/{id}",
      "/repositories/{repo_id}/groups",
      "/repositories/{repo_id}/groups/{id}",
    ]) {
      expect(document.paths[path]).toBeDefined();
    }
  });

  it("answer in their own media types and shapes", () => {
    expect(Object.keys(response(operation("/version", "get"), "200").content ?? {})).toEqual(["text/plain"]);
    expect(Object.keys(response(operation("/docs", "get"), "200").content ?? {})).toEqual(["text/html"]);
    expect(jsonSchemaOf(operation("/users/{username}/login", "post"), "200")).toEqual({
      $ref: "#/components/schemas/LoginResult",
    });
    expect(
      response(operation("/users/{username}/login", "post"), "403").content?.["application/json"]?.example,
    ).toEqual({ error: "Login failed" });
    expect(
      response(operation("/users/{username}/login", "post"), "400").content?.["application/json"]?.example,
    ).toEqual({
      error: { password: ["Parameter required but no value provided"] },
    });
    expect(response(operation("/schemas/{name}", "get"), "404").content?.["application/json"]?.example).toEqual({
      error: "Schema not found",
    });
    expect(document.paths["/schemas/{name}"]?.parameters?.[0]?.schema).toEqual({
      type: "string",
      enum: registry.types.map((type) => type.name),
    });
    expect(jsonSchemaOf(operation("/", "get"), "200")).toEqual({ $ref: "#/components/schemas/ServiceInfo" });
  });
});

describe("the schemas", () => {
  // The whole document as one schema resource, so that component refs resolve as in OpenAPI.
  const ajv = new Ajv2020({ strict: false, discriminator: true, allErrors: true, validateSchema: false });
  for (const [name, check] of Object.entries(recordFormats)) ajv.addFormat(name, { type: "string", validate: check });
  ajv.addSchema(document as object, "https://arca.test/openapi.json");
  const component = (name: string) =>
    ajv.compile({ $ref: `https://arca.test/openapi.json#/components/schemas/${name}` });
  const bundled = (typeName: string) =>
    ajv.getSchema(`https://arca.test/bundled/${typeName}`) ??
    ajv.compile({ ...registry.get(typeName).schema, $id: `https://arca.test/bundled/${typeName}` });
  /** An inline schema of the document (an answer's), its component refs made absolute. */
  const schemaAt = (schema: unknown) =>
    ajv.compile(
      JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"https://arca.test/openapi.json#/components/'),
      ) as object,
    );

  const samples: Array<[string, Record<string, JsonValue>]> = [
    ["accession", sampleAccession()],
    ["accession", { ...sampleAccession(), publish: "yes" }],
    ["accession", { ...sampleAccession(), id_0: 7 }],
    ["resource", realResource()],
    ["resource", minimalResource()],
    ["resource", { ...(recordedResource() as Record<string, JsonValue>) }],
    [
      "resource",
      {
        ...minimalResource(),
        notes: [{ jsonmodel_type: "note_singlepart", type: "abstract", content: ["x"], mood: "calm" }],
      },
    ],
    [
      "resource",
      {
        ...minimalResource(),
        notes: [
          { jsonmodel_type: "note_multipart", type: "odd", subnotes: [{ jsonmodel_type: "note_text", content: "x" }] },
        ],
      },
    ],
    [
      "resource",
      { ...minimalResource(), dates: [{ date_type: "inclusive", label: "creation", begin: "1830", colour: "red" }] },
    ],
    ["repository", sampleRepository()],
    ["repository", { ...sampleRepository(), country: "usa" }],
    ["user", sampleUser()],
    ["user", { ...sampleUser(), password: "secret" }],
    ["group", sampleGroup()],
  ];

  it("accept and refuse records exactly as the registry's bundled schemas do", () => {
    const outcomes = samples.map(([typeName, record]) => {
      const name = typeName[0]?.toUpperCase() + typeName.slice(1);
      const viaComponent = component(name)(structuredClone(record));
      expect([typeName, viaComponent]).toEqual([typeName, bundled(typeName)(structuredClone(record))]);
      return viaComponent;
    });
    expect(outcomes.filter(Boolean).length).toBeGreaterThanOrEqual(6);
    expect(outcomes.filter((valid) => !valid).length).toBeGreaterThanOrEqual(6);
  });

  it("share each subrecord once", () => {
    const names = Object.keys(document.components.schemas);
    expect(names).toEqual(
      expect.arrayContaining(["Date", "Extent", "Ref", "Note", "NoteText", "Accession", "Resource"]),
    );
    expect(names.filter((name) => /^Date/.test(name))).toEqual(["Date"]);
    expect(document.components.schemas.Accession).not.toHaveProperty("$schema");
  });

  it("describe the three list answers, and only them", () => {
    const list = schemaAt(jsonSchemaOf(operation("/repositories/{repo_id}/accessions", "get"), "200"));
    const record = { ...sampleAccession(), uri: "/repositories/2/accessions/1", lock_version: 0 };
    expect(list({ first_page: 1, last_page: 3, this_page: 2, total: 21, results: [record] })).toBe(true);
    expect(list({ first_page: 1, last_page: 1, this_page: 9, total: 0, results: [], _resolve_truncated: true })).toBe(
      true,
    );
    expect(list([record])).toBe(true);
    expect(list([1, 2, 3])).toBe(true);
    expect(list([])).toBe(true);
    expect(list({ results: [] })).toBe(false);
    expect(list([1, record])).toBe(false);
    expect(list({ first_page: 1, last_page: 1, this_page: 1, total: 1, results: [{ nope: true }] })).toBe(false);
  });

  it("describe the write, delete and error answers", () => {
    const created = schemaAt(jsonSchemaOf(operation("/repositories/{repo_id}/accessions", "post"), "200"));
    const result = {
      status: "Created",
      id: 4,
      lock_version: 0,
      stale: null,
      uri: "/repositories/2/accessions/4",
      warnings: [],
    };
    expect(created(result)).toBe(true);
    expect(created({ ...result, stale: true })).toBe(true);
    expect(created({ ...result, status: "Updated" })).toBe(false);
    expect(created({ ...result, stale: false })).toBe(false);
    expect(component("DeleteResult")({ status: "Deleted", id: 4 })).toBe(true);
    const error = component("Error");
    expect(error({ error: "Accession not found" })).toBe(true);
    expect(error({ error: { title: ["Property is required but was missing"] }, warning: {} })).toBe(true);
    expect(error({ message: "nope" })).toBe(false);
    expect(component("SessionError")({ code: "SESSION_EXPIRED", error: "Session expired" })).toBe(true);
    expect(
      component("LoginResult")({
        session: "a".repeat(64),
        user: { ...sampleUser(), permissions: { _archivesspace: ["manage_users"] } },
      }),
    ).toBe(true);
    expect(component("LoginResult")({ session: "A".repeat(64), user: sampleUser() })).toBe(false);
  });
});
