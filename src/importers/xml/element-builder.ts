// Builds XmlElement subtrees from xmlEvents, for readers that stream most of a file and need a
// few parts of it whole (a MARC record, an EAD component's <did>). What a builder holds is
// bounded: the parts a reader keeps until it releases them (one record's worth) may hold at most
// so much text and so many elements, so a file cannot make one record fill the memory.
import { ImportError } from "../pending.js";
import { DEFAULT_XML_LIMITS, type XmlLimits } from "./xml-limits.js";
import type { XmlElement, XmlOpenEvent } from "./xml-events.js";

/** An element with no children yet, from its opening event. */
export function emptyElement(event: XmlOpenEvent): XmlElement {
  return {
    name: event.name,
    namespace: event.namespace,
    attributes: event.attributes,
    children: [],
    line: event.line,
    column: event.column,
    path: event.path,
  };
}

/**
 * The most elements one record's parts may hold at once. Real records hold far fewer (a large
 * EAD collection description outside its <dsc> a few thousand); the mapping code spreads lists of
 * a record's parts into calls, which must stay well below the engine's argument limit.
 */
export const MAX_HELD_ELEMENTS = 50_000;

/** A record's parts may hold this many times the longest text node's limit in text. */
export const HELD_TEXT_FACTOR = 4;

export class ElementBuilder {
  /** The open elements of the subtree being built, outermost first; empty between subtrees. */
  private readonly open: XmlElement[] = [];
  private heldElements = 0;
  private heldText = 0;
  private readonly maxText: number;

  constructor(limits: XmlLimits = DEFAULT_XML_LIMITS) {
    this.maxText = limits.maxTextChars * HELD_TEXT_FACTOR;
  }

  /** Whether a subtree is being built. */
  get building(): boolean {
    return this.open.length > 0;
  }

  /** Starts a subtree (when none is being built) or an element inside the one being built. */
  start(event: XmlOpenEvent): void {
    this.heldElements += 1;
    if (this.heldElements > MAX_HELD_ELEMENTS) {
      throw new ImportError(
        `one record holds more than ${MAX_HELD_ELEMENTS} elements, more than an import reads for one record`,
        { line: event.line, column: event.column, path: event.path },
      );
    }
    let attributes = 0;
    for (const name in event.attributes) attributes += (event.attributes[name] as string).length;
    this.hold(event.name.length + attributes);
    const element = emptyElement(event);
    this.open.at(-1)?.children.push(element);
    this.open.push(element);
  }

  /** Text inside the element being built (adjacent text is joined); ignored between subtrees. */
  text(text: string): void {
    const holder = this.open.at(-1);
    if (holder === undefined) return;
    this.hold(text.length);
    const last = holder.children.length - 1;
    if (typeof holder.children[last] === "string") holder.children[last] += text;
    else holder.children.push(text);
  }

  /** Ends the innermost open element; answers the subtree when that was its root. */
  end(): XmlElement | undefined {
    const element = this.open.pop();
    return this.open.length === 0 ? element : undefined;
  }

  /** The reader has let go of what it built so far (a record was handed on): its parts no longer count. */
  release(): void {
    this.heldElements = 0;
    this.heldText = 0;
  }

  private hold(characters: number): void {
    this.heldText += characters;
    if (this.heldText <= this.maxText) return;
    const innermost = this.open.at(-1);
    throw new ImportError(
      `one record holds more than ${this.maxText} characters of text, more than an import reads for one record (${HELD_TEXT_FACTOR} × IMPORT_MAX_XML_TEXT_BYTES)`,
      innermost === undefined ? {} : { line: innermost.line, column: innermost.column, path: innermost.path },
    );
  }
}
