// The registry read from record-types/: routes, URIs, links, permissions, indexes.
import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { manifest } from "../../generated/registry.js";
import { SchemaDefinitionError, UnknownRecordTypeError } from "../../src/registry/errors.js";
import { registry, uniqueFieldFor } from "../../src/registry/record-types.js";
import { Registry } from "../../src/registry/registry.js";
import { repoRoot } from "./helpers.js";

describe("types", () => {
  it("lists every schema in record-types/", () => {
    const schemaFiles = readdirSync(join(repoRoot, "record-types")).filter((file) => file.endsWith(".schema.json"));
    const names = schemaFiles.map((file) => file.replace(/\.schema\.json$/, "")).sort();
    expect(registry.types.map((type) => type.name).sort()).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(["accession", "archival_object", "repository", "resource", "user"]));
  });

  it("get() an unknown type throws", () => {
    expect(() => registry.get("widget")).toThrow(UnknownRecordTypeError);
    expect(registry.has("widget")).toBe(false);
  });

  it("routes and titles", () => {
    expect(registry.get("accession")).toMatchObject({
      title: "Accession",
      collection: "accessions",
      scope: "repository",
      collectionPath: "/repositories/:repo_id/accessions",
      itemPath: "/repositories/:repo_id/accessions/:id",
    });
    expect(registry.get("repository")).toMatchObject({
      collectionPath: "/repositories",
      itemPath: "/repositories/:id",
    });
    expect(registry.get("user")).toMatchObject({ collectionPath: "/users", itemPath: "/users/:id" });
    expect(registry.get("group").itemPath).toBe("/repositories/:repo_id/groups/:id");
  });

  it("byCollection and scopeOf", () => {
    expect(registry.byCollection("accessions", "repository")?.name).toBe("accession");
    expect(registry.byCollection("accessions", "global")).toBeUndefined();
    expect(registry.byCollection("repositories", "global")?.name).toBe("repository");
    expect(registry.byCollection("users", "global")?.name).toBe("user");
    expect(registry.byCollection("nope", "repository")).toBeUndefined();
    expect(registry.scopeOf("resource")).toBe("repository");
    expect(registry.scopeOf("user")).toBe("global");
  });
});

describe("uris", () => {
  it.each([
    ["accession", 7, 2, "/repositories/2/accessions/7"],
    ["resource", 13064, 2, "/repositories/2/resources/13064"],
    ["group", 3, 12, "/repositories/12/groups/3"],
    ["repository", 2, undefined, "/repositories/2"],
    ["user", 5, undefined, "/users/5"],
  ])("%s %i (repo %s) ⇄ %s", (type, id, repoId, uri) => {
    expect(registry.uriFor(type, id, repoId)).toBe(uri);
    expect(registry.parseUri(uri)).toEqual(repoId === undefined ? { type, id } : { type, id, repoId });
  });

  it.each([
    "/repositories/2/accessions/0",
    "/repositories/2/accessions/abc",
    "/repositories/2/accessions/7/extra",
    "/repositories/2/widgets/1",
    "/repositories/x/accessions/1",
    "/accessions/7",
    "/repositories/",
    "/users/-1",
    "repositories/2",
    "/repositories/2/accessions/99999999999999999999",
  ])("%s names no record", (uri) => {
    expect(registry.parseUri(uri)).toBeUndefined();
  });

  it("a repository-scoped uri needs a repository id; ids are positive integers", () => {
    expect(() => registry.uriFor("accession", 7)).toThrow(RangeError);
    expect(() => registry.uriFor("user", 0)).toThrow(RangeError);
    expect(() => registry.uriFor("user", 1.5)).toThrow(RangeError);
    expect(() => registry.uriFor("nope", 1)).toThrow(UnknownRecordTypeError);
  });
});

describe("links", () => {
  it("resource.related_accessions points at accessions and is removed when one is deleted", () => {
    expect(registry.refPaths("resource")).toContainEqual({
      path: "related_accessions/*/ref",
      segments: ["related_accessions", "*", "ref"],
      mongoPath: "related_accessions.ref",
      targets: ["accession"],
      onTargetDelete: "remove",
      removeAt: "related_accessions/*",
    });
  });

  it("instances link digital objects (the instance goes) and top containers (delete refused)", () => {
    const byPath = new Map(registry.refPaths("accession").map((refPath) => [refPath.path, refPath]));
    expect(byPath.get("instances/*/digital_object/ref")).toMatchObject({
      targets: ["digital_object"],
      onTargetDelete: "remove",
      removeAt: "instances/*",
    });
    expect(byPath.get("instances/*/sub_container/top_container/ref")).toMatchObject({
      targets: ["top_container"],
      onTargetDelete: "restrict",
    });
    expect([...byPath.keys()].sort()).toEqual([
      "classifications/*/ref",
      "component_links/*/ref",
      "instances/*/digital_object/ref",
      "instances/*/sub_container/top_container/ref",
      "linked_agents/*/ref",
      "linked_agents/*/terms/*/vocabulary",
      "related_accessions/*/ref",
      "related_resources/*/ref",
      "rights_statements/*/linked_agents/*/ref",
      "subjects/*/ref",
    ]);
  });

  it("server-maintained refs (repository) are not client links", () => {
    expect(registry.refPaths("group")).toEqual([]);
    expect(registry.refPaths("resource").some((refPath) => refPath.path.startsWith("repository"))).toBe(false);
  });

  it("linksTo: what a delete of an accession must visit", () => {
    expect(
      registry
        .linksTo("accession")
        .map((link) => `${link.type}: ${link.refPath.path}`)
        .sort(),
    ).toEqual([
      "accession: related_accessions/*/ref",
      "archival_object: accession_links/*/ref",
      "assessment: records/*/ref",
      "event: linked_records/*/ref",
      "resource: related_accessions/*/ref",
    ]);
    expect(registry.linksTo("user")).toEqual([]);
  });

  it("every link target is a record type (typo guard)", () => {
    for (const type of registry.types) {
      for (const refPath of type.refPaths) {
        for (const target of refPath.targets)
          expect({ target, known: registry.has(target) }).toEqual({ target, known: true });
      }
    }
  });
});

describe("permissions", () => {
  it("per type and operation (docs/api.md §8)", () => {
    expect(registry.permission("accession", "read")).toBe("view_repository");
    expect(registry.permission("accession", "create")).toBe("update_accession_record");
    expect(registry.permission("resource", "update")).toBe("update_resource_record");
    expect(registry.permission("resource", "delete")).toBe("delete_archival_record");
    expect(registry.permission("repository", "create")).toBe("create_repository");
    expect(registry.permission("repository", "read")).toBeNull();
    expect(registry.permission("user", "create")).toBe("manage_users");
    expect(registry.permission("group", "update")).toBe("manage_repository");
  });

  it("permissionCodes lists every code once", () => {
    expect(registry.permissionCodes()).toEqual([
      "create_repository",
      "delete_agent_record",
      "delete_archival_record",
      "delete_assessment_record",
      "delete_classification_record",
      "delete_event_record",
      "delete_repository",
      "delete_subject_record",
      "delete_vocabulary_record",
      "manage_assessment_attributes",
      "manage_container_profile_record",
      "manage_container_record",
      "manage_repository",
      "manage_users",
      "update_accession_record",
      "update_agent_record",
      "update_assessment_record",
      "update_classification_record",
      "update_container_profile_record",
      "update_container_record",
      "update_digital_object_record",
      "update_event_record",
      "update_location_profile_record",
      "update_location_record",
      "update_resource_record",
      "update_subject_record",
      "update_vocabulary_record",
      "view_repository",
    ]);
  });
});

describe("indexes", () => {
  it("accession: id, the 4-part identifier per repository, title and date for sorting", () => {
    expect(registry.indexes("accession")).toEqual([
      { name: "id_unique", keys: { repo_id: 1, id: 1 }, unique: true },
      {
        name: "identifier_unique",
        keys: { repo_id: 1, id_0: 1, id_1: 1, id_2: 1, id_3: 1 },
        unique: true,
        duplicateField: "id_0",
      },
      { name: "title_index", keys: { repo_id: 1, title: 1, id: 1 }, unique: false },
      { name: "accession_date_index", keys: { repo_id: 1, accession_date: 1, id: 1 }, unique: false },
      // x-external-id: /by-external-id looks in every repository, so not prefixed with repo_id.
      { name: "external_ids_external_id_lookup_index", keys: { "external_ids.external_id": 1 }, unique: false },
      // Every link path, sparse: what links to a record is found by its uri through an index, never a scan.
      ...[
        "related_accessions.ref",
        "instances.sub_container.top_container.ref",
        "instances.digital_object.ref",
        "subjects.ref",
        "linked_agents.ref",
        "linked_agents.terms.vocabulary",
        "classifications.ref",
        "related_resources.ref",
        "rights_statements.linked_agents.ref",
        "component_links.ref",
      ].map((path) => ({
        name: `${path.replaceAll(".", "_")}_link_index`,
        keys: { [path]: 1 },
        unique: false,
        sparse: true,
      })),
    ]);
  });

  it("an index on every link path of every type, unless an index is already led by it", () => {
    for (const type of registry.types) {
      const leading = new Set(type.indexes.map((index) => Object.keys(index.keys)[0]));
      expect({ type: type.name, unindexed: type.refPaths.filter((ref) => !leading.has(ref.mongoPath)) }).toEqual({
        type: type.name,
        unindexed: [],
      });
    }
    // A tree node's parent: each node's children are found by it when a tree is deleted.
    expect(registry.indexes("archival_object")).toContainEqual({
      name: "parent_ref_link_index",
      keys: { "parent.ref": 1 },
      unique: false,
      sparse: true,
    });
  });

  it("resource: ead_id unique per repository, only where present", () => {
    expect(registry.indexes("resource")).toContainEqual({
      name: "ead_id_unique",
      keys: { repo_id: 1, ead_id: 1 },
      unique: true,
      duplicateField: "ead_id",
      partialFilterExpression: { ead_id: { $exists: true } },
    });
    expect(registry.indexes("resource").map((index) => index.name)).toEqual([
      "id_unique",
      "identifier_unique",
      "ead_id_unique",
      "title_index",
      "external_ids_external_id_lookup_index",
      ...registry
        .refPaths("resource")
        .map((ref) => `${ref.mongoPath.replaceAll(".", "_")}_link_index`)
        .filter((name, i, all) => all.indexOf(name) === i),
    ]);
  });

  it("x-find-by-id: an index led by each field, unless one already is (after repo_id)", () => {
    const names = (type: string) => registry.indexes(type).map((index) => index.name);
    // ref_id's unique index is led by resource.ref: a lookup by ref_id alone needs its own.
    expect(registry.indexes("archival_object")).toEqual(
      expect.arrayContaining([
        { name: "ref_id_lookup_index", keys: { repo_id: 1, ref_id: 1, id: 1 }, unique: false },
        { name: "component_id_lookup_index", keys: { repo_id: 1, component_id: 1, id: 1 }, unique: false },
      ]),
    );
    // digital_object_id's unique index and indicator's x-indexes serve; barcode's is partial (sparse), so not.
    expect(names("digital_object")).not.toContain("digital_object_id_lookup_index");
    expect(names("top_container")).not.toContain("indicator_lookup_index");
    expect(names("top_container")).toContain("barcode_lookup_index");
  });

  it("global types: id and their unique codes", () => {
    expect(registry.indexes("repository")).toEqual([
      { name: "id_unique", keys: { id: 1 }, unique: true },
      { name: "repo_code_unique", keys: { repo_code: 1 }, unique: true, duplicateField: "repo_code" },
      {
        name: "agent_representation_ref_link_index",
        keys: { "agent_representation.ref": 1 },
        unique: false,
        sparse: true,
      },
    ]);
    expect(registry.indexes("user")).toContainEqual({
      name: "username_unique",
      keys: { username: 1 },
      unique: true,
      duplicateField: "username",
    });
    expect(registry.indexes("group")).toContainEqual({
      name: "group_code_unique",
      keys: { repo_id: 1, group_code: 1 },
      unique: true,
      duplicateField: "group_code",
    });
  });

  it("uniqueFieldFor names the field of a duplicate (E11000 keyPattern)", () => {
    expect(uniqueFieldFor("accession", { repo_id: 1, id_0: 1, id_1: 1, id_2: 1, id_3: 1 })).toBe("id_0");
    expect(uniqueFieldFor("resource", { repo_id: 1, ead_id: 1 })).toBe("ead_id");
    expect(uniqueFieldFor("repository", { repo_code: 1 })).toBe("repo_code");
    expect(registry.uniqueFieldFor("user", { username: 1 })).toBe("username");
    // A duplicate id is the server's bug, not the user's: no field to name.
    expect(uniqueFieldFor("accession", { repo_id: 1, id: 1 })).toBeUndefined();
    expect(uniqueFieldFor("accession", { title: 1 })).toBeUndefined();
  });
});

describe("consistency", () => {
  it("refuses two types with one name or one collection", () => {
    const accession = manifest.types.find((type) => type.name === "accession");
    if (accession === undefined) throw new Error("no accession in the manifest");
    expect(() => new Registry({ types: [accession, accession] })).toThrow(SchemaDefinitionError);
    expect(() => new Registry({ types: [accession, { ...accession, name: "accession2" }] })).toThrow(
      /x-collection "accessions" is already used by accession/,
    );
  });

  it("no type-specific branches in src/registry (everything comes from the schemas)", () => {
    const dir = join(repoRoot, "src", "registry");
    const sources = [...readdirSync(dir), ...readdirSync(join(dir, "build")).map((name) => join("build", name))].filter(
      (name) => name.endsWith(".ts"),
    );
    // "repository" is also a scope name, so it is only looked for as a compared type name.
    const typeLiterals =
      /["'](accession|resource|user|group|accessions|resources|users|groups|repositories)["']|(?:type|name) === ["']repository["']/;
    for (const name of sources) {
      const code = readFileSync(join(dir, name), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      expect({ name, found: typeLiterals.exec(code)?.[0] ?? null }).toEqual({ name, found: null });
    }
  });
});
