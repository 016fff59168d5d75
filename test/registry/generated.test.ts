// generated/ is committed; this fails when a schema changed without `npm run generate`.
import { afterAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generate, writeGenerated } from "../../src/registry/build/generate.js";
import { generatedDir, listFiles, recordTypesDir, removeTempDirs, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

describe("generated/", () => {
  it("is exactly what `npm run generate` writes from record-types/ (run it if this fails)", async () => {
    const fresh = tempDir("generated");
    writeGenerated(fresh, await generate(recordTypesDir));

    expect(listFiles(generatedDir)).toEqual(listFiles(fresh));
    for (const file of listFiles(fresh)) {
      const committed = readFileSync(join(generatedDir, file), "utf8");
      const regenerated = readFileSync(join(fresh, file), "utf8");
      expect({ file, text: committed }).toEqual({ file, text: regenerated });
    }
  });

  it("declares every record type and shared subrecord once, in one module, without index signatures on records", () => {
    const types = readFileSync(join(generatedDir, "types", "index.ts"), "utf8");
    expect(listFiles(join(generatedDir, "types"))).toEqual(["index.ts"]);
    for (const name of ["Accession", "ArchivalObject", "Group", "Repository", "Resource", "User", "Ref", "Extent"]) {
      expect(types.match(new RegExp(`^export interface ${name} \\{`, "gm"))).toHaveLength(1);
    }
    expect(types).toMatch(/^export interface RecordTypeMap \{\n(?:.*\n)*? {2}archival_object: ArchivalObject;/m);
    // additionalProperties: false everywhere, and "title or dates" rules not turned into an index signature: a
    // misspelt field in an importer's record is a compile error.
    for (const name of ["Accession", "ArchivalObject", "DigitalObjectComponent", "Event"]) {
      const body = new RegExp(`^export interface ${name} \\{\n((?:.*\n)*?)\\}`, "m").exec(types)?.[1] ?? "";
      expect(body).toContain("  jsonmodel_type?: string;");
      expect(body).not.toMatch(/^ {2}\[k: string\]/m);
    }
    expect(types).not.toMatch(/export type \w+ = \{\s*\[k: string\]/);
  });
});
