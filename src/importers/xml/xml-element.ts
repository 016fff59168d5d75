// Reading an XmlElement subtree (from xmlSubtrees): its text, its children by name.
import type { XmlElement } from "./xml-events.js";

/** Runs of whitespace (spaces, tabs, line breaks) as one space, trimmed. */
export const normaliseSpace = (text: string): string => text.replace(/\s+/g, " ").trim();

/**
 * All the text inside an element, descendants included, as written (entities expanded). Gone
 * through with a stack of its own, never recursion: nesting is as deep as the reader allows.
 */
export function rawText(element: XmlElement): string {
  const out: string[] = [];
  const stack: Array<XmlElement | string> = [element];
  while (stack.length > 0) {
    const node = stack.pop() as XmlElement | string;
    if (typeof node === "string") out.push(node);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as XmlElement | string);
  }
  return out.join("");
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
  const stack: XmlElement[] = [element];
  while (stack.length > 0) {
    const node = stack.pop() as XmlElement;
    if (node !== element && node.name === name) found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i];
      if (typeof child !== "string" && child !== undefined) stack.push(child);
    }
  }
  return found;
}
