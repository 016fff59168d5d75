// The report file of `npm run import -- --report FILE`: every warning with its place (the summary
// lists at most MAX_MESSAGES), each file's errors and its fidelity report, as CSV so that an
// archivist migrating many finding aids can sort and filter it in a spreadsheet. Columns:
// file, kind (warning, error, fidelity), line, column, path (for fidelity: the category),
// message (for fidelity: "source N, imported M").
import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { FIDELITY_CATEGORIES } from "./fidelity.js";
import type { ImportMessage, ImportSummary } from "./pending.js";
const HEADER = ["file", "kind", "line", "column", "path", "message"];

/** One CSV field, quoted when it must be (RFC 4180); a leading =, +, - or @ escaped so no spreadsheet runs it. */
function field(value: string | number | undefined): string {
  if (value === undefined) return "";
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export class ImportReport {
  private readonly out: WriteStream;

  constructor(path: string) {
    this.out = createWriteStream(path, { encoding: "utf8" });
    this.row(HEADER);
  }

  private row(fields: Array<string | number | undefined>): void {
    this.out.write(`${fields.map(field).join(",")}\r\n`);
  }

  private message(kind: "warning" | "error", message: ImportMessage): void {
    this.row([message.file, kind, message.line, message.column, message.path, message.message]);
  }

  /** A warning as the import finds it. */
  warning(warning: ImportMessage): void {
    this.message("warning", warning);
  }

  /** A file's end: its errors and its fidelity lines. */
  finished(summary: ImportSummary): void {
    for (const error of summary.errors) this.message("error", error);
    for (const category of FIDELITY_CATEGORIES) {
      const line = summary.fidelity?.[category];
      if (line !== undefined)
        this.row([
          summary.file,
          "fidelity",
          undefined,
          undefined,
          category,
          `source ${line.source}, imported ${line.imported}`,
        ]);
    }
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, "finish");
  }
}
