// The report file of `npm run import -- --report FILE` (src/importers/import-report.ts): CSV a
// spreadsheet reads safely whatever a finding aid put in its messages.
import { describe, expect, it } from "@jest/globals";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ImportReport } from "../../src/importers/import-report.js";

describe("the import report file", () => {
  it("quotes commas, quotes and line breaks, and defuses what a spreadsheet would run", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "arca-report-")), "report.csv");
    const report = new ImportReport(path);
    report.warning({ file: "a.xml", line: 3, column: 5, path: "/ead", message: 'odd "value", here\nand there' });
    report.warning({ file: "a.xml", message: '=HYPERLINK("http://x")' });
    report.finished({
      file: "a.xml",
      format: "ead",
      dryRun: false,
      outcome: "failed",
      created: {},
      reused: {},
      uris: [],
      warnings: [],
      errors: [{ file: "a.xml", line: 9, message: "-1 is not a number" }],
      fidelity: { notes: { source: 5, imported: 3 } },
    });
    await report.close();
    expect((await readFile(path, "utf8")).split("\r\n")).toEqual([
      "file,kind,line,column,path,message",
      'a.xml,warning,3,5,/ead,"odd ""value"", here\nand there"',
      'a.xml,warning,,,,"\'=HYPERLINK(""http://x"")"',
      "a.xml,error,9,,,'-1 is not a number",
      'a.xml,fidelity,,,notes,"source 5, imported 3"',
      "",
    ]);
  });
});
