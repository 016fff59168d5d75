// Telling a file's format from its first bytes (the import route without `format`, and the
// command without --format), on every file of ../shared/data.
import { describe, expect, it } from "@jest/globals";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { detectFileFormat, detectFormat } from "../../src/importers/formats.js";

const data = resolve("..", "shared", "data");
const expected: Record<string, string> = {
  ead2002: "ead",
  ead3: "ead3",
  marcxml: "marcxml",
  "eac-cpf": "eac",
  csv: "csv",
  "archivesspace-json": "aspace-json",
};

describe("format detection", () => {
  it.each(Object.entries(expected))("every file in %s/ is %s", async (folder, format) => {
    const files = readdirSync(join(data, folder));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect([file, await detectFileFormat(join(data, folder, file))]).toEqual([file, format]);
  });

  it("says nothing of what it cannot tell", () => {
    expect(detectFormat("notes.txt", Buffer.from("just words"))).toBeUndefined();
    expect(detectFormat("x.xml", Buffer.from('<?xml version="1.0"?><html><body/></html>'))).toBeUndefined();
    expect(detectFormat("x.xml", Buffer.from("<record><leader/></record>"))).toBeUndefined();
    expect(detectFormat("rows.csv", Buffer.from("a,b\n1,2\n"))).toBe("csv");
  });
});
