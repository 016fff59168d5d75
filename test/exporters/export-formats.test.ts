// The export routes come from the schemas' x-exports: a format no exporter has is a start-up error naming the schema,
// and every format a schema of the repository names exists.
import { describe, expect, it } from "@jest/globals";
import { manifest } from "../../generated/registry.js";
import type { AccessControl } from "../../src/auth/access-control.js";
import { exportController, EXPORT_FORMATS } from "../../src/exporters/index.js";
import type { RecordOperations } from "../../src/records/operations/index.js";
import { Registry, SchemaDefinitionError } from "../../src/registry/index.js";

/** The controller's dependencies over `registry` alone: building the routes reads nothing else. */
function controllerOver(registry: Registry) {
  const operations = { deps: { registry } } as unknown as RecordOperations;
  return () => exportController({ operations, access: {} as AccessControl });
}

describe("x-exports", () => {
  it("names only formats an exporter has, and uses every exporter", () => {
    const named = new Registry(manifest).types.flatMap((type) => type.exports.map((entry) => entry.format));
    expect(named.filter((format) => !EXPORT_FORMATS.has(format))).toEqual([]);
    expect(new Set(named)).toEqual(new Set(EXPORT_FORMATS.keys()));
    expect(controllerOver(new Registry(manifest))).not.toThrow();
  });

  it("naming a format no exporter has stops the service at start-up, naming the schema", () => {
    const nope = { format: "nope", path: "resources/nope", filename: { fields: ["title"], separator: "" } };
    const types = manifest.types.map((type) =>
      type.name === "resource" ? { ...type, exports: [...type.exports, nope] } : type,
    );
    const build = controllerOver(new Registry({ ...manifest, types }));
    expect(build).toThrow(SchemaDefinitionError);
    expect(build).toThrow(/resource.*x-exports: no export format is named "nope"/);
  });
});
