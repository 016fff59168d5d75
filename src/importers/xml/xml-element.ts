// Reading an XmlElement subtree (from xmlSubtrees): its text, its children by name.
import type { XmlElement } from "./xml-reader.js";

/** Runs of whitespace (spaces, tabs, line breaks) as one space, trimmed. */
export const normaliseSpace = (text: string): string => text.replace(/\s+/g, " ").trim();

/** All the text inside an element, descendants included, as written (entities expanded). */
export function rawText(element: XmlElement): string {
  let text = "";
  for (const child of element.children) text += typeof child === "string" ? child : rawText(child);
  return text;
}

/** All the text inside an element with whitespace normalised. */
export const textOf = (element: XmlElement): string => normaliseSpace(rawText(element));

/** The child elements, optionally only those with one of these local names. */
export function childElements(element: XmlElement, ...names: string[]): XmlElement[] {
  const children: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child !== "string" && (names.length === 0 || names.includes(child.name))) children.push(child);
  }
  return children;
}

/** The first child element with this local name. */
export function childElement(element: XmlElement, name: string): XmlElement | undefined {
  for (const child of element.children) if (typeof child !== "string" && child.name === name) return child;
  return undefined;
}

/** Every descendant element with this local name, in document order. */
export function descendants(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (node: XmlElement): void => {
    for (const child of node.children) {
      if (typeof child === "string") continue;
      if (child.name === name) found.push(child);
      walk(child);
    }
  };
  walk(element);
  return found;
}
