// Paths and file helpers shared by the registry tests.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { isJsonObject, type JsonObject } from "../../src/registry/json.js";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const recordTypesDir = join(repoRoot, "record-types");
export const generatedDir = join(repoRoot, "generated");
export const fixturesDir = fileURLToPath(new URL("./fixtures/", import.meta.url));
/** Real ArchivesSpace data (see ../shared/data/SOURCES.md); never edited. */
export const sharedDataDir = join(repoRoot, "..", "shared", "data");

export function readJsonObject(path: string): JsonObject {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isJsonObject(parsed)) throw new Error(`${path} does not hold a JSON object`);
  return parsed;
}

const created: string[] = [];

/** A new empty folder under the OS temp dir, removed by {@link removeTempDirs}. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `arca-${prefix}-`));
  created.push(dir);
  return dir;
}

/** For afterAll: removes the folders this test file made. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh record-types folder holding the real shared/ subrecords plus the given type schemas. */
export function schemaDirWith(types: Record<string, unknown>, options: { withRealTypes?: boolean } = {}): string {
  const dir = join(tempDir("record-types"), "record-types");
  if (options.withRealTypes) cpSync(recordTypesDir, dir, { recursive: true });
  else cpSync(join(recordTypesDir, "shared"), join(dir, "shared"), { recursive: true });
  for (const [name, schema] of Object.entries(types)) {
    writeFileSync(
      join(dir, `${name}.schema.json`),
      typeof schema === "string" ? schema : JSON.stringify(schema, null, 2),
    );
  }
  return dir;
}

/** Every file under `dir`, as sorted paths relative to it. */
export function listFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(dir, path));
    }
  };
  walk(dir);
  return found.sort();
}
