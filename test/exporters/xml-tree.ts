// A small DOM for reading exported XML in tests, built with saxes (a conformant, namespace-aware
// parser: a document that is not well-formed, or uses an unbound prefix, throws).
import { SaxesParser } from "saxes";

export interface XmlElement {
  /** Local name. */
  name: string;
  /** Namespace uri ("" for none). */
  uri: string;
  /** Attributes by qualified name (`id`, `xlink:href`). */
  attributes: Record<string, string>;
  children: XmlNode[];
  parent?: XmlElement;
}

export type XmlNode = XmlElement | string;

export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  let root: XmlElement | undefined;
  const stack: XmlElement[] = [];
  let failure: Error | undefined;
  parser.on("error", (error) => {
    failure ??= error;
  });
  parser.on("opentag", (tag) => {
    const attributes: Record<string, string> = {};
    for (const [name, attribute] of Object.entries(tag.attributes)) attributes[name] = attribute.value;
    const element: XmlElement = { name: tag.local, uri: tag.uri, attributes, children: [], parent: stack.at(-1) };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  parser.on("text", (value) => {
    stack.at(-1)?.children.push(value);
  });
  parser.write(text).close();
  if (failure) throw failure;
  if (!root) throw new Error("no root element");
  return root;
}

export function isElement(node: XmlNode | undefined): node is XmlElement {
  return typeof node === "object";
}

/** Child elements, optionally only those named `name` (one of several names, `a|b`). */
export function children(element: XmlElement | undefined, name?: string): XmlElement[] {
  if (!element) return [];
  const names = name?.split("|");
  return element.children.filter(isElement).filter((child) => names === undefined || names.includes(child.name));
}

/** The element at a slash path of child names below `element` (first match at each step). */
export function at(element: XmlElement | undefined, path: string): XmlElement | undefined {
  let current = element;
  for (const step of path.split("/")) current = children(current, step)[0];
  return current;
}

/** Every element at a slash path (all matches at each step). */
export function all(element: XmlElement | undefined, path: string): XmlElement[] {
  let current = element ? [element] : [];
  for (const step of path.split("/")) current = current.flatMap((node) => children(node, step));
  return current;
}

/** Every descendant element named `name`, in document order. */
export function descendants(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (node: XmlElement) => {
    for (const child of children(node)) {
      if (child.name === name) found.push(child);
      visit(child);
    }
  };
  visit(element);
  return found;
}

/** Text content (all descendant text), whitespace collapsed and trimmed. */
export function textOf(element: XmlElement | undefined): string {
  if (!element) return "";
  const parts: string[] = [];
  const visit = (node: XmlElement) => {
    for (const child of node.children) {
      if (typeof child === "string") parts.push(child);
      else visit(child);
    }
  };
  visit(element);
  return parts.join("").replace(/\s+/g, " ").trim();
}
