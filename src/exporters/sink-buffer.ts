// Text on its way to a sink (an HTTP response, a file stream) through a small buffer, flushed with
// backpressure: a flush waits while the sink is full and fails once it is gone, so an export of any
// size never sits whole in memory and stops as soon as its reader hangs up.

/** Where an export goes: an HTTP response, a file stream, anything Writable-like. */
export interface XmlSink {
  write(chunk: string): boolean;
  once(event: "drain" | "close" | "error", listener: (...args: unknown[]) => void): unknown;
  removeListener(event: "drain" | "close" | "error", listener: (...args: unknown[]) => void): unknown;
  readonly destroyed: boolean;
}

/** The sink went away (the client hung up): stop producing. */
export class SinkClosedError extends Error {
  constructor() {
    super("the output stream closed before the document was complete");
  }
}

export class SinkBuffer {
  private buffer: string[] = [];
  private buffered = 0;

  constructor(
    private readonly sink: XmlSink,
    /** Buffered characters before a write to the sink. */
    private readonly flushAt: number,
  ) {}

  put(chunk: string): void {
    this.buffer.push(chunk);
    this.buffered += chunk.length;
  }

  /**
   * Replaces the last chunk put with `change(chunk)` when it is still buffered and `change` gives a string; whether it
   * did.
   */
  amendLast(change: (chunk: string) => string | undefined): boolean {
    const last = this.buffer.at(-1);
    const changed = last === undefined ? undefined : change(last);
    if (changed === undefined || last === undefined) return false;
    this.buffer[this.buffer.length - 1] = changed;
    this.buffered += changed.length - last.length;
    return true;
  }

  /** Whether the buffer has reached its size (time to flush). */
  get full(): boolean {
    return this.buffered >= this.flushAt;
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
      const done = (error?: unknown) => {
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
