// Shared by the OpenAPI tests: the real registry, a registry with the fixture types generated
// in (as test/registry/drop-in.test.ts makes it), the OpenAPI 3.1 validator, and walkers.
import { Validator } from "@seriousme/openapi-schema-validator";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Operation, PathItem } from "../../src/http/api-description.js";
import { generate, writeGenerated } from "../../src/registry/build/generate.js";
import { isJsonObject } from "../../src/registry/json.js";
import type { RegistryManifest } from "../../src/registry/manifest.js";
import { Registry } from "../../src/registry/registry.js";
import { fixturesDir, schemaDirWith, tempDir } from "../registry/helpers.js";

export { removeTempDirs } from "../registry/helpers.js";

function isManifest(value: unknown): value is RegistryManifest {
  return isJsonObject(value) && Array.isArray(value.types);
}

/** record-types/ as it is plus the schema-only fixture types (widget, gizmo), through the generator. */
export async function fixtureRegistry(): Promise<Registry> {
  const schemaDir = schemaDirWith({}, { withRealTypes: true });
  for (const name of ["widget", "gizmo"]) {
    copyFileSync(join(fixturesDir, "record-types", `${name}.schema.json`), join(schemaDir, `${name}.schema.json`));
  }
  const outDir = tempDir("openapi-generated");
  writeGenerated(outDir, await generate(schemaDir));
  // Load the generated manifest module itself, as the service loads generated/registry.ts.
  const loaded: unknown = await import(pathToFileURL(join(outDir, "registry.ts")).href);
  const manifest = isJsonObject(loaded) ? loaded.manifest : undefined;
  if (!isManifest(manifest)) throw new Error("generated registry.ts exports no manifest");
  return new Registry(manifest);
}

export interface ValidationOutcome {
  valid: boolean;
  version: string | undefined;
  errors: unknown;
}

/** The document checked by @seriousme/openapi-schema-validator (meta-schema and every $ref). */
export async function validateOpenApi(document: unknown): Promise<ValidationOutcome> {
  const validator = new Validator();
  // The validator takes the document apart while checking refs: give it a copy.
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
  return { valid: result.valid, version: validator.version, errors: result.errors };
}

export const METHODS = ["get", "post", "delete"] as const;

/** Every operation of a document with its path and method. */
export function operationsOf(
  paths: Record<string, PathItem>,
): { path: string; method: string; operation: Operation }[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation === undefined ? [] : [{ path, method, operation }];
    }),
  );
}

/** Every string value of `key` anywhere in a JSON value. */
export function valuesOfKey(value: unknown, key: string): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") {
      for (const [name, child] of Object.entries(node)) {
        if (name === key && typeof child === "string") found.push(child);
        walk(child);
      }
    }
  };
  walk(value);
  return found;
}
