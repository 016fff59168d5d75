// Builds XmlElement subtrees from xmlEvents, for readers that stream most of a file and need a
// few parts of it whole (a MARC record, an EAD component's <did>).
import type { XmlElement, XmlOpenEvent } from "./xml-reader.js";

/** An element with no children yet, from its opening event. */
export function emptyElement(event: XmlOpenEvent): XmlElement {
  return { name: event.name, namespace: event.namespace, attributes: event.attributes, children: [], line: event.line, column: event.column, path: event.path };
}

export class ElementBuilder {
  /** The open elements of the subtree being built, outermost first; empty between subtrees. */
  private readonly open: XmlElement[] = [];

  /** Whether a subtree is being built. */
  get building(): boolean {
    return this.open.length > 0;
  }

  /** Starts a subtree (when none is being built) or an element inside the one being built. */
  start(event: XmlOpenEvent): void {
    const element = emptyElement(event);
    this.open.at(-1)?.children.push(element);
    this.open.push(element);
  }

  /** Text inside the element being built (adjacent text is joined); ignored between subtrees. */
  text(text: string): void {
    const holder = this.open.at(-1);
    if (holder === undefined) return;
    const last = holder.children.length - 1;
    if (typeof holder.children[last] === "string") holder.children[last] += text;
    else holder.children.push(text);
  }

  /** Ends the innermost open element; answers the subtree when that was its root. */
  end(): XmlElement | undefined {
    const element = this.open.pop();
    return this.open.length === 0 ? element : undefined;
  }
}
