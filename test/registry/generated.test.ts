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

  it("declares one interface per record type and re-exports only those from the index", () => {
    const index = readFileSync(join(generatedDir, "types", "index.ts"), "utf8");
    for (const title of ["Accession", "Group", "Repository", "Resource", "User"]) {
      expect(index).toContain(`export type { ${title} } from`);
    }
    expect(index).not.toContain("ArchivalDate");
    const accession = readFileSync(join(generatedDir, "types", "accession.ts"), "utf8");
    expect(accession).toMatch(/^export interface Accession \{/m);
    // additionalProperties: false everywhere: no accidental index signatures on records.
    expect(accession).not.toContain("[k: string]: unknown;\n}");
    expect(accession).not.toMatch(/export interface Accession \{[^}]*\[k: string\]/);
  });
});
