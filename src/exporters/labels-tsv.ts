// Tab-separated rows written to a stream as they are made, through a small buffer flushed with
// backpressure, so a file of any length never sits whole in memory. TSV has no quoting: a tab or
// line break inside a value would split its row, so each run of them becomes one space; and a
// cell a spreadsheet would take for a formula (=, +, -, @) is prefixed with a quote, as the CSV
// reports are (OWASP's CSV injection advice): label cells are what users typed.
import { withoutFormula } from "../jobs/reports.js";
import { xmlChars, SinkClosedError, type XmlSink } from "./xml-writer.js";

/** A value as one TSV cell: on one line, without tabs, never a formula. */
export function tsvCell(value: string): string {
  // Control characters other than the separators are dropped too: a label printer has no use for them.
  return withoutFormula(xmlChars(value).replace(/[\t\r\n]+/g, " "));
}

export class TsvWriter {
  private buffer: string[] = [];
  private buffered = 0;

  constructor(
    private readonly sink: XmlSink,
    /** Buffered characters before a write to the sink. */
    private readonly flushAt = 64 * 1024,
  ) {}

  /** Adds a row (CRLF-terminated); flushes when the buffer is full. */
  async row(cells: readonly string[]): Promise<void> {
    const line = `${cells.map(tsvCell).join("\t")}\r\n`;
    this.buffer.push(line);
    this.buffered += line.length;
    if (this.buffered >= this.flushAt) await this.flush();
  }

  /** Writes what is buffered; waits while the sink is full. @throws SinkClosedError when the sink is gone. */
  async flush(): Promise<void> {
    if (this.sink.destroyed) throw new SinkClosedError();
    if (this.buffered === 0) return;
    const chunk = this.buffer.join("");
    this.buffer = [];
    this.buffered = 0;
    if (this.sink.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        this.sink.removeListener("drain", onDrain);
        this.sink.removeListener("close", onClose);
        this.sink.removeListener("error", onClose);
        if (error) reject(error);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () => done(new SinkClosedError());
      this.sink.once("drain", onDrain);
      this.sink.once("close", onClose);
      this.sink.once("error", onClose);
    });
  }
}
