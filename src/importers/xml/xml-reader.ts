// A safe, streaming XML reader for the importers (EAD, MARCXML, EAC-CPF), over saxes.
// Safe: nothing outside the byte stream is ever read (saxes fetches no DTD and expands no
// entity but the five predefined ones and character references); a DOCTYPE naming an external
// DTD, as real EAD files have, is accepted and ignored, while entity declarations (an
// expansion bomb's tool) and references to entities nobody defined are refused. Streaming: the
// bytes are decoded and parsed chunk by chunk and handed on as events, or as one record's
// subtree at a time. Every problem is an ImportError with the line and column it was found at.
// Bounded: elements nested deeper than a limit, and a text node, CDATA section, comment,
// attribute value or name longer than a limit, refuse the file as soon as the parser reaches
// them (checked after every slice of text fed to saxes, so an over-long token costs at most one
// slice more than the limit), so no file can make the reader hold more than that at once.
import type { Readable } from "node:stream";
import type { TextDecoder } from "node:util";
import { SaxesParser, type SaxesAttributeNS, type SaxesStartTagNS, type SaxesTagNS } from "saxes";
import { ImportError, type ImportInput, type SourceLocation } from "../pending.js";
import { decoderFor, sniffEncoding } from "./decode.js";
import { ElementBuilder } from "./element-builder.js";
import type { XmlElement, XmlEvent } from "./xml-events.js";
import { DEFAULT_XML_LIMITS, type XmlLimits } from "./xml-limits.js";

export type { XmlCloseEvent, XmlElement, XmlEvent, XmlOpenEvent, XmlTextEvent } from "./xml-events.js";

export interface XmlReadOptions {
  /** The root element's local names the format allows, e.g. `["ead"]`, `["collection", "record"]`. */
  roots: readonly string[];
  /** Default: the settings' defaults (DEFAULT_XML_LIMITS). */
  limits?: XmlLimits;
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

/**
 * A prefix no declaration binds (EAD 2002 DTD files use `xlink:` that the DTD declares): tolerated, with a made-up
 * namespace.
 */
const unboundPrefix = (prefix: string): string => `urn:arca:unbound-prefix:${prefix}`;

/** saxes prefixes its messages with `file:line:column: `; the location is reported separately. */
const saxesMessage = (error: Error): string => error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, "").replace(/\.$/, "");

function explain(message: string): string {
  if (message === "undefined entity")
    return "reference to an undefined entity (entities declared in a DTD are never read or expanded)";
  if (message === "document must contain a root element") return "the document has no root element (empty or not XML)";
  const unclosed = /^unclosed tag: (.*)$/.exec(message);
  if (unclosed) return `the file ends inside <${unclosed[1]}> (truncated?)`;
  return message;
}

interface Frame {
  path: string;
  siblings?: Map<string, number>;
}

/**
 * Decoded text is fed to saxes this many characters at a time: between slices the tokens it is
 * still reading are measured, so an over-long one is caught within a slice of the limit.
 */
const SLICE_CHARS = 64 * 1024;

/**
 * No real record's element has this many attributes (EAD's have a few dozen at most); saxes holds them all until the
 * tag ends.
 */
const MAX_ATTRIBUTES = 1024;

/**
 * Paths number same-named siblings, so each open element counts its children per name; no real
 * file has this many differently named children under one element, and a file that did could
 * grow the counts without bound.
 */
const MAX_CHILD_NAMES = 10_000;

/** What saxes is in the middle of reading, between two writes (its fields are private in its typings). */
interface SaxesPending {
  text?: unknown;
  name?: unknown;
  piTarget?: unknown;
  entity?: unknown;
  attribList?: unknown;
}

const PENDING_TOKENS: ReadonlyArray<[keyof SaxesPending, string]> = [
  ["text", "a text node, CDATA section, comment or attribute value"],
  ["name", "an element or attribute name"],
  ["piTarget", "a processing instruction's name"],
  ["entity", "an entity reference"],
];

/** The start of `name` for a message: a hostile file's names are echoed at most this long. */
export function shortName(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
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

  constructor(
    private readonly roots: readonly string[],
    private readonly limits: XmlLimits,
  ) {
    const parser = this.parser;
    parser.on("error", (error) => {
      const message = saxesMessage(error);
      // saxes has just closed the element the end tag fails to match.
      if (message === "unexpected close tag" && this.closed !== undefined) {
        const { name, path } = this.closed;
        throw new ImportError(`malformed XML: an end tag does not match the open element <${name}>`, {
          line: parser.line,
          column: Math.max(parser.column, 1),
          path,
        });
      }
      throw new ImportError(`malformed XML: ${explain(message)}`, this.here());
    });
    parser.on("doctype", (doctype) => {
      this.checkLength(doctype.length, "the DOCTYPE");
      if (/<!ENTITY/i.test(doctype)) {
        throw new ImportError(
          "the DOCTYPE declares entities, which are refused (entity expansion could exhaust memory, external entities could read files)",
          this.here(),
        );
      }
      // Anything else in it (an external DTD's public and system ids) is ignored, never fetched.
    });
    parser.on("opentagstart", (tag: SaxesStartTagNS) => {
      // The parser has read the name and the character after it: the `<` is name.length + 1
      // characters back, which counted from 1 is column - name.length - 1.
      this.tagLine = parser.line;
      this.tagColumn = Math.max(parser.column - tag.name.length - 1, 1);
      if (this.names.length >= this.limits.maxDepth) {
        throw new ImportError(
          `elements nested too deep: <${shortName(tag.name)}> would be ${this.names.length + 1} levels down, and at most ${this.limits.maxDepth} are read (IMPORT_MAX_XML_DEPTH)`,
          { line: this.tagLine, column: this.tagColumn, ...this.innermostPath() },
        );
      }
    });
    parser.on("opentag", (tag: SaxesTagNS) => this.open(tag));
    parser.on("text", (text) => {
      this.checkLength(text.length, "a text node");
      if (this.names.length > 0) this.events.push({ kind: "text", text });
    });
    parser.on("cdata", (text) => {
      this.checkLength(text.length, "a CDATA section");
      this.events.push({ kind: "text", text });
    });
    parser.on("comment", (text) => this.checkLength(text.length, "a comment"));
    parser.on("closetag", (tag: SaxesTagNS) => {
      this.closed = { name: tag.name, path: this.frames.pop()?.path ?? "" };
      this.names.pop();
      this.events.push({ kind: "close", name: tag.local });
    });
  }

  private innermostPath(): { path?: string } {
    const path = this.frames.at(-1)?.path;
    return path ? { path } : {};
  }

  /** Where the parser is, with the innermost open element's path. */
  here(): SourceLocation {
    return { line: this.parser.line, column: Math.max(this.parser.column, 1), ...this.innermostPath() };
  }

  private tooLong(what: string): ImportError {
    return new ImportError(
      `${what} is longer than ${this.limits.maxTextChars} characters, the most an import reads (IMPORT_MAX_XML_TEXT_BYTES)`,
      this.here(),
    );
  }

  private checkLength(length: number, what: string): void {
    if (length > this.limits.maxTextChars) throw this.tooLong(what);
  }

  /** The tokens saxes is still reading (a text node, a name, an attribute list) measured against the limits. */
  private checkPending(): void {
    const pending = this.parser as unknown as SaxesPending;
    for (const [field, what] of PENDING_TOKENS) {
      const value = pending[field];
      if (typeof value === "string") this.checkLength(value.length, what);
    }
    if (Array.isArray(pending.attribList) && pending.attribList.length > MAX_ATTRIBUTES) {
      throw new ImportError(`an element with more than ${MAX_ATTRIBUTES} attributes`, this.here());
    }
  }

  private open(tag: SaxesTagNS): void {
    const name = tag.local;
    const location = () => ({ line: this.tagLine, column: this.tagColumn });
    this.checkLength(tag.name.length, "an element name");
    // Counted, measured and taken by local name in one walk: every element of a file comes here.
    const attributes = localAttributes(tag.attributes, (attribute, count) => {
      if (count > MAX_ATTRIBUTES)
        throw new ImportError(`an element with more than ${MAX_ATTRIBUTES} attributes`, location());
      this.checkLength(attribute.name.length, "an attribute name");
      this.checkLength(attribute.value.length, "an attribute value");
    });
    if (this.names.length === 0 && !this.roots.includes(name)) {
      const expected = this.roots.map((root) => `<${root}>`).join(" or ");
      throw new ImportError(`wrong root element: expected ${expected}, found <${shortName(tag.name)}>`, {
        ...location(),
        path: `/${shortName(name)}`,
      });
    }
    const parent = this.frames[this.frames.length - 1];
    const siblings = (parent.siblings ??= new Map());
    if (siblings.size >= MAX_CHILD_NAMES && !siblings.has(name)) {
      throw new ImportError(`more than ${MAX_CHILD_NAMES} differently named child elements in one element`, {
        ...location(),
        ...this.innermostPath(),
      });
    }
    const place = (siblings.get(name) ?? 0) + 1;
    siblings.set(name, place);
    const path = `${parent.path}/${name}${place > 1 ? `[${place}]` : ""}`;
    this.frames.push({ path });
    this.names.push(name);
    this.events.push({
      kind: "open",
      name,
      namespace: tag.uri,
      attributes,
      line: this.tagLine,
      column: this.tagColumn,
      path,
      names: this.names.slice(),
    });
  }

  write(text: string): void {
    for (let start = 0; start < text.length; start += SLICE_CHARS) {
      this.parser.write(text.slice(start, start + SLICE_CHARS));
      this.checkPending();
    }
  }

  close(): void {
    this.parser.close();
  }
}

/**
 * Attributes by local name, in an object without a prototype: names are the file's, and `constructor` or `__proto__`
 * are names like any other. `check` sees each attribute first, with how many there are so far.
 */
function localAttributes(
  attributes: Record<string, SaxesAttributeNS>,
  check: (attribute: SaxesAttributeNS, count: number) => void,
): Record<string, string> {
  const result = Object.create(null) as Record<string, string>;
  let prefixed: SaxesAttributeNS[] | undefined;
  let count = 0;
  for (const key in attributes) {
    const attribute = attributes[key] as SaxesAttributeNS;
    check(attribute, ++count);
    if (attribute.uri === XMLNS_URI || attribute.name === "xmlns") continue;
    if (attribute.prefix === "") result[attribute.local] = attribute.value;
    else (prefixed ??= []).push(attribute);
  }
  for (const attribute of prefixed ?? [])
    if (!Object.hasOwn(result, attribute.local)) result[attribute.local] = attribute.value;
  return result;
}

function byteSource(source: XmlSource): AsyncIterable<Uint8Array | string> & { destroy?(): void } {
  return "open" in source && typeof source.open === "function"
    ? source.open()
    : (source as AsyncIterable<Uint8Array | string>);
}

const asBytes = (chunk: Uint8Array | string): Uint8Array =>
  typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;

/**
 * The file's elements and text as a stream of events, in document order. Throws (from the
 * iteration) an ImportError for malformed XML, a wrong root element, an unknown encoding, a
 * truncated file, entity declarations and undefined entities.
 */
export async function* xmlEvents(
  source: XmlSource,
  options: XmlReadOptions,
): AsyncGenerator<XmlEvent, void, undefined> {
  for await (const batch of xmlEventBatches(source, options)) yield* batch;
}

/**
 * The same events in batches (those of one chunk of the file, in order): for readers that go
 * through millions of events, one await per batch instead of one per event. Errors as
 * xmlEvents, after the batch of events read before them.
 */
export async function* xmlEventBatches(
  source: XmlSource,
  options: XmlReadOptions,
): AsyncGenerator<XmlEvent[], void, undefined> {
  const bytes = byteSource(source);
  const queue = new EventQueue(options.roots, options.limits ?? DEFAULT_XML_LIMITS);
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
        final
          ? `the file ends inside a character: truncated, or not ${encoding}`
          : `bytes after line ${where.line} are not valid ${encoding} (the encoding ${encoding === "utf-8" ? "assumed" : "declared"})`,
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
      if (first !== "<")
        throw new ImportError(
          `not XML: the file starts with ${JSON.stringify(text.trimStart().slice(0, 20))}, not with '<'`,
          { line: 1, column: 1 },
        );
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
export async function* xmlSubtrees(
  source: XmlSource,
  options: XmlSubtreeOptions,
): AsyncGenerator<XmlElement, void, undefined> {
  const builder = new ElementBuilder(options.limits);
  for await (const batch of xmlEventBatches(source, options)) {
    const done: XmlElement[] = [];
    for (const event of batch) {
      if (event.kind === "open") {
        if (builder.building || options.isRecord(event.names)) builder.start(event);
      } else if (event.kind === "text") {
        builder.text(event.text);
      } else if (builder.building) {
        const element = builder.end();
        if (element !== undefined) {
          done.push(element);
          builder.release();
        }
      }
    }
    yield* done;
  }
}
