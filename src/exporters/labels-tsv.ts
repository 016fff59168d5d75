// Tab-separated rows written to a stream as they are made, through a small buffer flushed with
// backpressure, so a file of any length never sits whole in memory. TSV has no quoting: a tab or
// line break inside a value would split its row, so each run of them becomes one space; and a
// cell a spreadsheet would take for a formula (=, +, -, @) is prefixed with a quote, as the CSV
// reports are (OWASP's CSV injection advice): label cells are what users typed.
import { withoutFormula } from "../jobs/reports.js";
import { SinkBuffer, type XmlSink } from "./sink-buffer.js";
import { xmlChars } from "./xml-writer.js";

/** A value as one TSV cell: on one line, without tabs, never a formula. */
export function tsvCell(value: string): string {
  // Control characters other than the separators are dropped too: a label printer has no use for them.
  return withoutFormula(xmlChars(value).replace(/[\t\r\n]+/g, " "));
}

export class TsvWriter {
  private readonly out: SinkBuffer;

  constructor(sink: XmlSink, flushAt = 64 * 1024) {
    this.out = new SinkBuffer(sink, flushAt);
  }

  /** Adds a row (CRLF-terminated); flushes when the buffer is full. */
  async row(cells: readonly string[]): Promise<void> {
    this.out.put(`${cells.map(tsvCell).join("\t")}\r\n`);
    if (this.out.full) await this.out.flush();
  }

  /** Writes what is buffered; waits while the sink is full. @throws SinkClosedError when the sink is gone. */
  flush(): Promise<void> {
    return this.out.flush();
  }
}
