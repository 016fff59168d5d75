// The generator behind `npm run generate`: record-types/*.schema.json → generated/. It is a
// library so the tests can run exactly this code into a temporary folder (the stale check and
// the drop-in fixture type).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { messageOf, SchemaDefinitionError } from "../errors.js";
import { createRecordAjv } from "../keywords.js";
import type { RecordTypeManifest, RegistryManifest } from "../manifest.js";
import { Registry } from "../registry.js";
import { bundleSchema, defNameOf, SchemaFiles } from "./bundle.js";
import { emitManifestModule } from "./emit-manifest.js";
import { emitTypeScript, type BundledType } from "./emit-types.js";
import { readTypeSettings } from "./type-settings.js";

export interface GeneratedOutput {
  readonly manifest: RegistryManifest;
  /** Relative path inside the output folder → file text. */
  readonly files: ReadonlyMap<string, string>;
}

/** The top-level schema files of a record-types folder (shared/ holds subrecords, not types). */
export function recordTypeFiles(schemaDir: string): string[] {
  return readdirSync(schemaDir)
    .filter((name) => name.endsWith(".schema.json"))
    .sort()
    .map((name) => join(schemaDir, name));
}

export async function generate(schemaDirectory: string): Promise<GeneratedOutput> {
  const schemaDir = resolve(schemaDirectory);
  const files = new SchemaFiles(schemaDir);
  // Compiling each bundle checks every x- keyword's value and ajv strict mode at generate time;
  // links are not resolved here, so no registry is needed yet.
  const ajv = createRecordAjv({ parseUri: () => undefined, uriTemplate: () => undefined });
  const types: RecordTypeManifest[] = [];
  const bundles: BundledType[] = [];
  const output = new Map<string, string>();
  for (const file of recordTypeFiles(schemaDir)) {
    const source = files.describe(file);
    const schema = bundleSchema(files, file);
    try {
      ajv.compile(schema);
    } catch (error) {
      throw new SchemaDefinitionError(source, messageOf(error));
    }
    const settings = readTypeSettings(schema, source);
    if (defNameOf(file) !== settings.name) {
      throw new SchemaDefinitionError(
        source,
        `a record type's file is named after its x-record-type: ${settings.name}.schema.json`,
      );
    }
    types.push({ ...settings, schema });
    bundles.push({ name: settings.name, schema });
  }
  const manifest: RegistryManifest = { types };
  // Cross-type rules (unique names, collections, URIs, link declarations) are the Registry's.
  new Registry(manifest);
  output.set("types/index.ts", await emitTypeScript(bundles, schemaDir));
  output.set("registry.ts", emitManifestModule(manifest));
  return { manifest, files: output };
}

/** Writes the output, removing generated type files whose schema is gone. */
export function writeGenerated(outDir: string, output: GeneratedOutput): void {
  const typesDir = join(outDir, "types");
  mkdirSync(typesDir, { recursive: true });
  for (const name of readdirSync(typesDir)) {
    if (!output.files.has(`types/${name}`)) rmSync(join(typesDir, name));
  }
  for (const [path, text] of output.files) {
    const target = join(outDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}
