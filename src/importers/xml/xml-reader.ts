// A safe, streaming XML reader for the importers (EAD, MARCXML, EAC-CPF), over saxes.
// Safe: nothing outside the byte stream is ever read (saxes fetches no DTD and expands no
// entity but the five predefined ones and character references); a DOCTYPE naming an external
// DTD, as real EAD files have, is accepted and ignored, while entity declarations (an
// expansion bomb's tool) and references to entities nobody defined are refused. Streaming: the
// bytes are decoded and parsed chunk by chunk and handed on as events, or as one record's
// subtree at a time. Every problem is an ImportError with the line and column it was found at.
import type { Readable } from "node:stream";
import type { TextDecoder } from "node:util";
import { SaxesParser, type SaxesAttributeNS, type SaxesStartTagNS, type SaxesTagNS } from "saxes";
import { ImportError, type ImportInput, type SourceLocation } from "../pending.js";
import { decoderFor, sniffEncoding } from "./decode.js";
import { ElementBuilder } from "./element-builder.js";

export interface XmlOpenEvent {
  kind: "open";
  /** The local name: namespace prefixes are stripped (`marc:record` is `record`). */
  name: string;
  /** The element's namespace uri ("" for none). */
  namespace: string;
  /**
   * Attributes by local name (`xlink:href` is `href`; an unprefixed attribute wins over a
   * prefixed one of the same local name). Namespace declarations are left out.
   */
  attributes: Record<string, string>;
  /** Where the element's `<` is: line from 1, column from 1. */
  line: number;
  column: number;
  /** e.g. `/ead/archdesc/dsc/c01[3]`: local names, with the element's place among same-named siblings when not the first. */
  path: string;
  /** The local names from the root to this element, inclusive. */
  names: readonly string[];
}

export interface XmlTextEvent {
  kind: "text";
  /** Character data with entities expanded (CDATA sections included), as it is in the file. */
  text: string;
}

export interface XmlCloseEvent {
  kind: "close";
  name: string;
}

export type XmlEvent = XmlOpenEvent | XmlTextEvent | XmlCloseEvent;

/** An element read whole, with its descendants. */
export interface XmlElement {
  name: string;
  namespace: string;
  attributes: Record<string, string>;
  /** Child elements and text, in document order (adjacent text joined). */
  children: Array<XmlElement | string>;
  line: number;
  column: number;
  path: string;
}

export interface XmlReadOptions {
  /** The root element's local names the format allows, e.g. `["ead"]`, `["collection", "record"]`. */
  roots: readonly string[];
}

export interface XmlSubtreeOptions extends XmlReadOptions {
  /**
   * Whether the element at this path (local names from the root, inclusive) is a record to hand
   * on whole, e.g. `(names) => names.at(-1) === "record"`. Elements inside a selected one are
   * not asked.
   */
  isRecord(names: readonly string[]): boolean;
}

/** A file, an already open stream, or any async source of bytes. */
export type XmlSource = ImportInput | Readable | AsyncIterable<Uint8Array | string>;

const XMLNS_URI = "http://www.w3.org/2000/xmlns/";

/** A prefix no declaration binds (EAD 2002 DTD files use `xlink:` that the DTD declares): tolerated, with a made-up namespace. */
const unboundPrefix = (prefix: string): string => `urn:arca:unbound-prefix:${prefix}`;

/** saxes prefixes its messages with `file:line:column: `; the location is reported separately. */
const saxesMessage = (error: Error): string => error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, "").replace(/\.$/, "");

function explain(message: string): string {
  if (message === "undefined entity") return "reference to an undefined entity (entities declared in a DTD are never read or expanded)";
  if (message === "document must contain a root element") return "the document has no root element (empty or not XML)";
  const unclosed = /^unclosed tag: (.*)$/.exec(message);
  if (unclosed) return `the file ends inside <${unclosed[1]}> (truncated?)`;
  return message;
}

interface Frame {
  path: string;
  siblings?: Map<string, number>;
}

/** Parses decoded text with saxes, queueing events; every error leaves as an ImportError with its location. */
class EventQueue {
  readonly events: XmlEvent[] = [];
  private readonly parser = new SaxesParser({ xmlns: true, position: true, resolvePrefix: unboundPrefix });
  private readonly frames: Frame[] = [{ path: "" }];
  private readonly names: string[] = [];
  private tagLine = 1;
  private tagColumn = 1;
  /** The element closed last (for the message about an end tag that does not match). */
  private closed?: { name: string; path: string };

  constructor(private readonly roots: readonly string[]) {
    const parser = this.parser;
    parser.on("error", (error) => {
      const message = saxesMessage(error);
      // saxes has just closed the element the end tag fails to match.
      if (message === "unexpected close tag" && this.closed !== undefined) {
        const { name, path } = this.closed;
        throw new ImportError(`malformed XML: an end tag does not match the open element <${name}>`, { line: parser.line, column: Math.max(parser.column, 1), path });
      }
      throw new ImportError(`malformed XML: ${explain(message)}`, this.here());
    });
    parser.on("doctype", (doctype) => {
      if (/<!ENTITY/i.test(doctype)) {
        throw new ImportError("the DOCTYPE declares entities, which are refused (entity expansion could exhaust memory, external entities could read files)", this.here());
      }
      // Anything else in it (an external DTD's public and system ids) is ignored, never fetched.
    });
    parser.on("opentagstart", (tag: SaxesStartTagNS) => {
      // The parser has read the name and the character after it: the `<` is name.length + 1
      // characters back, which counted from 1 is column - name.length - 1.
      this.tagLine = parser.line;
      this.tagColumn = Math.max(parser.column - tag.name.length - 1, 1);
    });
    parser.on("opentag", (tag: SaxesTagNS) => this.open(tag));
    parser.on("text", (text) => {
      if (this.names.length > 0) this.events.push({ kind: "text", text });
    });
    parser.on("cdata", (text) => this.events.push({ kind: "text", text }));
    parser.on("closetag", (tag: SaxesTagNS) => {
      this.closed = { name: tag.name, path: this.frames.pop()?.path ?? "" };
      this.names.pop();
      this.events.push({ kind: "close", name: tag.local });
    });
  }

  /** Where the parser is, with the innermost open element's path. */
  here(): SourceLocation {
    const path = this.frames.at(-1)?.path;
    return { line: this.parser.line, column: Math.max(this.parser.column, 1), ...(path ? { path } : {}) };
  }

  private open(tag: SaxesTagNS): void {
    const name = tag.local;
    if (this.names.length === 0 && !this.roots.includes(name)) {
      const expected = this.roots.map((root) => `<${root}>`).join(" or ");
      throw new ImportError(`wrong root element: expected ${expected}, found <${tag.name}>`, { line: this.tagLine, column: this.tagColumn, path: `/${name}` });
    }
    const parent = this.frames[this.frames.length - 1];
    const siblings = (parent.siblings ??= new Map());
    const place = (siblings.get(name) ?? 0) + 1;
    siblings.set(name, place);
    const path = `${parent.path}/${name}${place > 1 ? `[${place}]` : ""}`;
    this.frames.push({ path });
    this.names.push(name);
    this.events.push({
      kind: "open",
      name,
      namespace: tag.uri,
      attributes: localAttributes(tag.attributes),
      line: this.tagLine,
      column: this.tagColumn,
      path,
      names: this.names.slice(),
    });
  }

  write(text: string): void {
    this.parser.write(text);
  }

  close(): void {
    this.parser.close();
  }
}

function localAttributes(attributes: Record<string, SaxesAttributeNS>): Record<string, string> {
  const result: Record<string, string> = {};
  const prefixed: SaxesAttributeNS[] = [];
  for (const attribute of Object.values(attributes)) {
    if (attribute.uri === XMLNS_URI || attribute.name === "xmlns") continue;
    if (attribute.prefix === "") result[attribute.local] = attribute.value;
    else prefixed.push(attribute);
  }
  for (const attribute of prefixed) if (!(attribute.local in result)) result[attribute.local] = attribute.value;
  return result;
}

function byteSource(source: XmlSource): AsyncIterable<Uint8Array | string> & { destroy?(): void } {
  return "open" in source && typeof source.open === "function" ? source.open() : (source as AsyncIterable<Uint8Array | string>);
}

const asBytes = (chunk: Uint8Array | string): Uint8Array => (typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);

/**
 * The file's elements and text as a stream of events, in document order. Throws (from the
 * iteration) an ImportError for malformed XML, a wrong root element, an unknown encoding, a
 * truncated file, entity declarations and undefined entities.
 */
export async function* xmlEvents(source: XmlSource, options: XmlReadOptions): AsyncGenerator<XmlEvent, void, undefined> {
  for await (const batch of xmlEventBatches(source, options)) yield* batch;
}

/**
 * The same events in batches (those of one chunk of the file, in order): for readers that go
 * through millions of events, one await per batch instead of one per event. Errors as
 * xmlEvents, after the batch of events read before them.
 */
export async function* xmlEventBatches(source: XmlSource, options: XmlReadOptions): AsyncGenerator<XmlEvent[], void, undefined> {
  const bytes = byteSource(source);
  const queue = new EventQueue(options.roots);
  let decoder: TextDecoder | undefined;
  let encoding = "utf-8";
  let head: Uint8Array[] = [];
  let headLength = 0;

  const decode = (chunk: Uint8Array, final: boolean): string => {
    try {
      return (decoder as TextDecoder).decode(chunk, { stream: !final });
    } catch {
      const where = queue.here();
      throw new ImportError(
        final ? `the file ends inside a character: truncated, or not ${encoding}` : `bytes after line ${where.line} are not valid ${encoding} (the encoding ${encoding === "utf-8" ? "assumed" : "declared"})`,
        where,
      );
    }
  };
  let started = false;
  const feed = (chunk: Uint8Array, final = false): void => {
    const text = decode(chunk, final);
    if (!started && text.trim() !== "") {
      started = true;
      // Anything but markup first (a CSV, a PDF) is not XML at all: say so at its start.
      const first = text.trimStart()[0];
      if (first !== "<") throw new ImportError(`not XML: the file starts with ${JSON.stringify(text.trimStart().slice(0, 20))}, not with '<'`, { line: 1, column: 1 });
    }
    if (text !== "") queue.write(text);
  };
  const start = (): void => {
    const first = Buffer.concat(head);
    head = [];
    encoding = sniffEncoding(first);
    decoder = decoderFor(encoding);
    encoding = decoder.encoding;
    feed(first);
  };
  /** Runs a step; the events read before an error are handed on before it is thrown. */
  async function* step(run: () => void): AsyncGenerator<XmlEvent[], void, undefined> {
    let failure: unknown;
    try {
      run();
    } catch (error) {
      failure = error;
    }
    if (queue.events.length > 0) yield queue.events.splice(0);
    if (failure !== undefined) throw failure;
  }

  try {
    for await (const chunk of bytes) {
      if (decoder === undefined) {
        head.push(asBytes(chunk));
        headLength += chunk.length;
        if (headLength < 1024) continue;
        yield* step(start);
      } else {
        yield* step(() => feed(asBytes(chunk)));
      }
    }
    yield* step(() => {
      if (decoder === undefined) start();
      feed(new Uint8Array(0), true);
      queue.close();
    });
  } finally {
    bytes.destroy?.();
  }
}

/**
 * The elements `isRecord` selects, each whole once its end tag is read (e.g. each MARC
 * `record`), holding only the subtree being read and those one chunk of the file completed.
 * Errors as xmlEvents, after the subtrees completed before them.
 */
export async function* xmlSubtrees(source: XmlSource, options: XmlSubtreeOptions): AsyncGenerator<XmlElement, void, undefined> {
  const builder = new ElementBuilder();
  for await (const batch of xmlEventBatches(source, options)) {
    const done: XmlElement[] = [];
    for (const event of batch) {
      if (event.kind === "open") {
        if (builder.building || options.isRecord(event.names)) builder.start(event);
      } else if (event.kind === "text") {
        builder.text(event.text);
      } else if (builder.building) {
        const element = builder.end();
        if (element !== undefined) done.push(element);
      }
    }
    yield* done;
  }
}
