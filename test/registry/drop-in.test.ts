// The drop-in promise: a record type that exists only as a schema file gets routes, URIs,
// validation, links and indexes from the same generator and registry code, with no code change.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generate, writeGenerated } from "../../src/registry/build/generate.js";
import { isJsonObject } from "../../src/registry/json.js";
import type { RegistryManifest } from "../../src/registry/manifest.js";
import { registry as generatedRegistry } from "../../src/registry/record-types.js";
import { Registry } from "../../src/registry/registry.js";
import { RecordValidator, type ValidationResult } from "../../src/registry/validation.js";
import { fixturesDir, removeTempDirs, schemaDirWith, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

function isManifest(value: unknown): value is RegistryManifest {
  return isJsonObject(value) && Array.isArray(value.types);
}

function errorsOf(result: ValidationResult): Record<string, string[]> {
  if (result.ok) throw new Error("expected validation to fail");
  return result.errors;
}

let outDir: string;
let registry: Registry;
let validator: RecordValidator;

beforeAll(async () => {
  // record-types/ as it is, plus two schemas that exist only under test/registry/fixtures/.
  const schemaDir = schemaDirWith({}, { withRealTypes: true });
  for (const name of ["widget", "gizmo"]) {
    copyFileSync(join(fixturesDir, "record-types", `${name}.schema.json`), join(schemaDir, `${name}.schema.json`));
  }
  outDir = tempDir("generated");
  writeGenerated(outDir, await generate(schemaDir));
  // Load the generated manifest module itself, as the service loads generated/registry.ts.
  const loaded: unknown = await import(pathToFileURL(join(outDir, "registry.ts")).href);
  const manifest = isJsonObject(loaded) ? loaded.manifest : undefined;
  if (!isManifest(manifest)) throw new Error("generated registry.ts exports no manifest");
  registry = new Registry(manifest);
  validator = new RecordValidator(registry);
});

describe("a schema-only record type", () => {
  it("gets a TypeScript interface, in the generated types beside the others", () => {
    const types = readFileSync(join(outDir, "types", "index.ts"), "utf8");
    expect(types).toMatch(/^export interface Widget \{/m);
    expect(types).toContain("  widget: Widget;");
    expect(types).toContain("  gizmo: Gizmo;");
  });

  it("gets routes and URIs", () => {
    expect(registry.get("widget")).toMatchObject({
      collection: "widgets",
      collectionPath: "/repositories/:repo_id/widgets",
      itemPath: "/repositories/:repo_id/widgets/:id",
    });
    expect(registry.byCollection("widgets", "repository")?.name).toBe("widget");
    expect(registry.uriFor("widget", 4, 3)).toBe("/repositories/3/widgets/4");
    expect(registry.parseUri("/repositories/3/widgets/4")).toEqual({ type: "widget", id: 4, repoId: 3 });
  });

  it("honours x-uri-prefix for a global type", () => {
    expect(registry.get("gizmo")).toMatchObject({
      scope: "global",
      collectionPath: "/tools/gizmos",
      itemPath: "/tools/gizmos/:id",
    });
    expect(registry.uriFor("gizmo", 9)).toBe("/tools/gizmos/9");
    expect(registry.parseUri("/tools/gizmos/9")).toEqual({ type: "gizmo", id: 9 });
    expect(registry.parseUri("/gizmos/9")).toBeUndefined();
  });

  it("gets its indexes and permissions", () => {
    expect(registry.indexes("widget")).toEqual([
      { name: "id_unique", keys: { repo_id: 1, id: 1 }, unique: true },
      { name: "identifier_unique", keys: { repo_id: 1, code_a: 1, code_b: 1 }, unique: true, duplicateField: "code_a" },
      {
        name: "serial_unique",
        keys: { serial: 1 },
        unique: true,
        duplicateField: "serial",
        partialFilterExpression: { serial: { $exists: true } },
      },
      { name: "name_colour_index", keys: { repo_id: 1, name: 1, colour: -1, id: 1 }, unique: false },
      // Each link path: what links to an accession, a resource or a gizmo is found through them on a delete.
      { name: "parts_source_ref_link_index", keys: { "parts.source.ref": 1 }, unique: false, sparse: true },
      { name: "tool_ref_link_index", keys: { "tool.ref": 1 }, unique: false, sparse: true },
    ]);
    expect(registry.uniqueFieldFor("widget", { serial: 1 })).toBe("serial");
    expect(registry.permission("widget", "delete")).toBe("delete_widget_record");
    expect(registry.permission("gizmo", "read")).toBeNull();
    expect(registry.permissionCodes()).toEqual(expect.arrayContaining(["update_widget_record", "manage_gizmos"]));
  });

  it("gets its read guards (x-read-permission)", () => {
    expect(registry.get("widget").readGuards).toEqual([
      { field: "cost", code: "view_widget_cost" },
      { field: "suppliers", code: "view_widget_cost" },
    ]);
    expect(registry.get("gizmo").readGuards).toEqual([{ field: "origin", code: "manage_gizmos" }]);
    expect(registry.get("accession").readGuards).toEqual([]);
  });

  it("gets its links, in both directions", () => {
    expect(registry.refPaths("widget")).toEqual([
      {
        path: "parts/*/source/ref",
        segments: ["parts", "*", "source", "ref"],
        mongoPath: "parts.source.ref",
        targets: ["accession", "resource"],
        onTargetDelete: "cascade",
        removeAt: "parts/*",
      },
      {
        path: "tool/ref",
        segments: ["tool", "ref"],
        mongoPath: "tool.ref",
        targets: ["gizmo"],
        onTargetDelete: "remove",
        removeAt: "tool",
      },
    ]);
    expect(registry.linksTo("widget")).toEqual([
      {
        type: "gizmo",
        refPath: expect.objectContaining({ path: "widget/ref", removeAt: "widget", onTargetDelete: "restrict" }),
      },
    ]);
    expect(registry.linksTo("gizmo")).toEqual([
      { type: "widget", refPath: expect.objectContaining({ path: "tool/ref", onTargetDelete: "remove" }) },
    ]);
    const intoResources = registry.linksTo("resource").map((link) => link.type);
    expect(intoResources).toContain("widget");
    expect(intoResources).not.toContain("gizmo");
  });

  it("gets validation: required fields, identifier rules, enums, links, defaults, read-only fields", () => {
    const valid = validator.validate("widget", {
      name: "Sprocket",
      code_a: "W",
      code_b: "1",
      dates: [{ date_type: "single", label: "creation", begin: "2001" }],
      parts: [{ label: "base", source: { ref: "/repositories/3/resources/8" } }],
      checked_by: "someone",
      uri: "/repositories/3/widgets/4",
    });
    expect(valid).toEqual({
      ok: true,
      doc: {
        name: "Sprocket",
        code_a: "W",
        code_b: "1",
        colour: "green",
        dates: [{ jsonmodel_type: "date", date_type: "single", label: "creation", begin: "2001" }],
        parts: [{ label: "base", source: { ref: "/repositories/3/resources/8" } }],
      },
      dropped: [],
    });
    expect(
      errorsOf(
        validator.validate("widget", {
          code_b: "x".repeat(51),
          colour: "blue",
          parts: [{ source: { ref: "/tools/gizmos/1" } }],
          // Unknown: dropped, not an error (validation.test.ts).
          spin: 1,
        }),
      ),
    ).toEqual({
      name: ["Property is required but was missing"],
      code_a: ["Property is required but was missing"],
      code_b: ["Must be 50 characters or fewer"],
      identifier: ["must not contain blank entries"],
      colour: ["Invalid value 'blue'.  Must be one of: red, green"],
      "parts/0/source/ref": [
        "Must be a uri of: accession (/repositories/:repo_id/accessions/:id), resource (/repositories/:repo_id/resources/:id)",
      ],
    });
    expect(validator.validate("gizmo", { label: "g", widget: { ref: "/repositories/3/widgets/4" } }).ok).toBe(true);
  });

  it("leaves the existing types as they were", () => {
    const shipped = generatedRegistry.types.map((type) => type.name);
    expect(registry.types.map((type) => type.name).sort()).toEqual([...shipped, "gizmo", "widget"].sort());
    expect(registry.uriFor("accession", 1, 2)).toBe("/repositories/2/accessions/1");
  });
});
