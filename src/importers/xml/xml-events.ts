// What the XML reader (xml-reader.ts) hands on: events, and whole element subtrees built from
// them (element-builder.ts). Types only, shared by both and by every format parser.

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
  /**
   * e.g. `/ead/archdesc/dsc/c01[3]`: local names, with the element's place among same-named siblings when not the
   * first.
   */
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
