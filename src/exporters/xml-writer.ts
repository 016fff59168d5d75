// A streaming XML writer: elements, attributes and text go out as they are written, through a
// small buffer flushed to a Node stream with backpressure, so a document of any size never
// exists whole in memory. Every text and attribute value is escaped, and characters XML 1.0
// cannot carry (control characters, lone surrogates, U+FFFE/U+FFFF) are dropped, so whatever
// the records hold the output is well-formed UTF-8.
// Indentation goes only where an element holds elements alone: text content is never touched.
import { SinkBuffer, type XmlSink } from "./sink-buffer.js";

export { SinkClosedError, type XmlSink } from "./sink-buffer.js";

/** Attribute values by name, in output order; an undefined, null or empty value is left out. */
export type Attributes = Record<string, string | number | undefined | null>;

// Everything outside XML 1.0's Char production. With the `u` flag a lone surrogate is one
// code point, so it is matched (and dropped) here too.
const NOT_XML_CHAR = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlChars(value: string): string {
  return value.replace(NOT_XML_CHAR, "");
}

export function escapeText(value: string): string {
  return xmlChars(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Also escapes quotes and the whitespace characters attribute normalisation would flatten. */
export function escapeAttribute(value: string): string {
  return escapeText(value)
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

const NAME = /^[A-Za-z_][A-Za-z0-9._:-]*$/;

interface OpenElement {
  name: string;
  /** Whether it holds text (then no indentation is added inside it). */
  mixed: boolean;
  /** Whether it holds any child element or text yet. */
  empty: boolean;
}

export interface XmlWriterOptions {
  /** Buffered characters before a write to the sink (default 64 KiB). */
  flushAt?: number;
  /** Indentation per level (default two spaces; "" for none). */
  indent?: string;
}

export class XmlWriter {
  private readonly out: SinkBuffer;
  /** Whether anything was written (a root element then starts on a new line). */
  private started = false;
  private readonly stack: OpenElement[] = [];
  private readonly indent: string;

  constructor(sink: XmlSink, options: XmlWriterOptions = {}) {
    this.out = new SinkBuffer(sink, options.flushAt ?? 64 * 1024);
    this.indent = options.indent ?? "  ";
  }

  /** How many elements are open. */
  get depth(): number {
    return this.stack.length;
  }

  declaration(): void {
    this.put('<?xml version="1.0" encoding="UTF-8"?>');
  }

  open(name: string, attributes: Attributes = {}): void {
    this.startTag(name, attributes, false);
  }

  close(name?: string): void {
    const element = this.stack.pop();
    if (element === undefined) throw new Error("XmlWriter: nothing to close");
    if (name !== undefined && name !== element.name)
      throw new Error(`XmlWriter: closing <${name}> but <${element.name}> is open`);
    if (element.empty) {
      // `<x>` was written; turn it into `<x/>` when nothing followed it in the buffer.
      if (this.out.amendLast((last) => (last.endsWith(">") ? `${last.slice(0, -1)}/>` : undefined))) return;
    }
    if (!element.mixed && !element.empty) this.newline(this.stack.length);
    this.put(`</${element.name}>`);
  }

  /** `<name attrs>text</name>`, or `<name attrs/>` without text. */
  element(name: string, attributes: Attributes = {}, text?: string): void {
    this.open(name, attributes);
    if (text !== undefined && text !== "") this.text(text);
    this.close(name);
  }

  /** Writes the element only when `text` has content. */
  optional(name: string, text: string | undefined | null, attributes: Attributes = {}): void {
    if (typeof text === "string" && text.trim() !== "") this.element(name, attributes, text);
  }

  text(value: string): void {
    const parent = this.stack.at(-1);
    if (parent) {
      parent.mixed = true;
      parent.empty = false;
    }
    this.put(escapeText(value));
  }

  /** Marks the open element as holding mixed content: nothing is indented inside it. */
  mixed(): void {
    const parent = this.stack.at(-1);
    if (parent) parent.mixed = true;
  }

  /** Writes what is buffered; waits while the sink is full. @throws SinkClosedError when the sink is gone. */
  flush(): Promise<void> {
    return this.out.flush();
  }

  /** Flushes when the buffer is past its size: call between units of work. */
  async yieldIfFull(): Promise<void> {
    if (this.out.full) await this.out.flush();
  }

  /** Ends the document (every element closed) and writes the rest. */
  async finish(): Promise<void> {
    if (this.stack.length > 0)
      throw new Error(`XmlWriter: <${this.stack.map((element) => element.name).join("><")}> left open`);
    this.put("\n");
    await this.flush();
  }

  private startTag(name: string, attributes: Attributes, selfClose: boolean): void {
    if (!NAME.test(name)) throw new Error(`XmlWriter: bad element name ${JSON.stringify(name)}`);
    const parent = this.stack.at(-1);
    if (parent) {
      if (!parent.mixed) this.newline(this.stack.length);
      parent.empty = false;
    } else if (this.started) {
      this.newline(0);
    }
    let tag = `<${name}`;
    for (const [attribute, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === "") continue;
      if (!NAME.test(attribute)) throw new Error(`XmlWriter: bad attribute name ${JSON.stringify(attribute)}`);
      tag += ` ${attribute}="${escapeAttribute(String(value))}"`;
    }
    this.put(selfClose ? `${tag}/>` : `${tag}>`);
    if (!selfClose) this.stack.push({ name, mixed: false, empty: true });
  }

  private newline(level: number): void {
    if (this.indent === "" && level > 0) return;
    this.put(`\n${this.indent.repeat(level)}`);
  }

  private put(chunk: string): void {
    this.started = true;
    this.out.put(chunk);
  }
}
