// The text of EAD elements. EAD is mixed content: inline elements (<emph>, <title>, <persname>,
// <extref>, ...) inside paragraphs and titles. As ArchivesSpace's importer does, titles and note
// text keep that inline markup as written (`Papers of <persname>Ada</persname>`), so nothing
// of it is lost; text itself is kept as it reads (entities expanded, not re-escaped). Runs of
// whitespace become one space; <lb/> becomes a paragraph break ("\n\n") where breaks are kept.
import type { XmlElement } from "../xml/xml-reader.js";

/** Marks a paragraph break while whitespace is collapsed (U+0000 cannot occur in XML text). */
const BREAK = "\u0000";

function finish(raw: string, breaks: boolean): string {
  const collapsed = raw.replace(/\s+/g, " ");
  return breaks
    ? collapsed
        .replace(/ ?\u0000 ?/g, BREAK)
        .replace(/\u0000+/g, "\n\n")
        .trim()
    : collapsed
        .replace(/\u0000/g, " ")
        .replace(/ +/g, " ")
        .trim();
}

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

interface Rules {
  skip?: (child: XmlElement) => boolean;
  /** Children written as their content only, without their tags. */
  unwrap?: (child: XmlElement) => boolean;
}

/** Opening tag text of an inline element kept as markup. */
function openTag(element: XmlElement): string {
  const attributes = Object.entries(element.attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join("");
  return element.children.length === 0 ? `<${element.name}${attributes}/>` : `<${element.name}${attributes}>`;
}

/**
 * Text to write, or an element whose children are still to be gone through (`top`: the element markup() was asked
 * about).
 */
type Work = string | { element: XmlElement; top: boolean };

/**
 * The element's children as text and markup, in document order. A stack of work instead of
 * recursion: a file may nest inline elements as deep as the reader allows, and the call stack
 * must not be what limits it.
 */
function inner(element: XmlElement, out: string[], rules: Rules, top: boolean): void {
  const stack: Work[] = [{ element, top }];
  while (stack.length > 0) {
    const work = stack.pop() as Work;
    if (typeof work === "string") {
      out.push(work);
      continue;
    }
    const items: Work[] = [];
    for (const child of work.element.children) {
      if (typeof child === "string") items.push(child);
      else if (rules.skip?.(child)) continue;
      else if (child.name === "lb") items.push(BREAK);
      else if (work.top && child.name === "p") items.push(BREAK, { element: child, top: false }, BREAK);
      else if (rules.unwrap?.(child)) items.push({ element: child, top: false });
      else if (child.children.length === 0) items.push(openTag(child));
      else items.push(openTag(child), { element: child, top: false }, `</${child.name}>`);
    }
    for (let i = items.length - 1; i >= 0; i--) stack.push(items[i] as Work);
  }
}

/**
 * The element's content with its inline markup, whitespace collapsed. `breaks`: <lb/> (and
 * top-level <p>) give paragraph breaks, else a space. `skip` leaves children out (a <unitdate>
 * inside a <unittitle>, which becomes a date of its own); `unwrap` keeps only their content.
 */
export function markup(element: XmlElement, options: Rules & { breaks?: boolean } = {}): string {
  const out: string[] = [];
  inner(element, out, options, true);
  return finish(out.join(""), options.breaks === true);
}

/** Only the text, descendants included, whitespace collapsed (for names, codes, numbers). */
export function plain(element: XmlElement): string {
  const out: string[] = [];
  // Depth first in document order, iteratively (see inner).
  const stack: Array<XmlElement | string> = [element];
  while (stack.length > 0) {
    const node = stack.pop() as XmlElement | string;
    if (typeof node === "string") out.push(node);
    else if (node !== element && node.name === "lb") out.push(" ");
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as XmlElement | string);
  }
  return finish(out.join(""), false);
}

/** Child elements with one of these names. */
export function childrenNamed(element: XmlElement, ...names: string[]): XmlElement[] {
  return element.children.filter(
    (child): child is XmlElement => typeof child !== "string" && names.includes(child.name),
  );
}

export function childNamed(element: XmlElement, ...names: string[]): XmlElement | undefined {
  for (const child of element.children) if (typeof child !== "string" && names.includes(child.name)) return child;
  return undefined;
}

export function elementChildren(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== "string");
}

/** Whether the element holds text of its own (outside child elements). */
export function hasOwnText(element: XmlElement): boolean {
  return element.children.some((child) => typeof child === "string" && child.trim() !== "");
}

/** An attribute's value, trimmed; undefined when absent or blank. */
export function attribute(element: XmlElement, name: string): string | undefined {
  const value = element.attributes[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** Long text in pieces of at most `max` characters, cut at paragraph breaks, else spaces, where it can be. */
export function pieces(text: string, max = 65000): string[] {
  const result: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf("\n\n", max);
    if (cut <= 0) cut = rest.lastIndexOf(" ", max);
    if (cut <= 0) cut = max;
    result.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== "" || result.length === 0) result.push(rest);
  return result;
}
