// Stored text that carries EAD inline markup. EAD importers (ArchivesSpace's and Arca's) keep
// the inline elements of titles and notes as written (`Papers of <title render="italic">X</title>`),
// so the export writes them back as elements, as ArchivesSpace's does, rather than as escaped
// text. Only when it is safe: the tags must be known EAD inline elements, properly nested and
// closed; anything else (`a < b`, `use <emph> for`, an unknown tag) is text, escaped. Text
// between tags is escaped (a loose `&` stays a character), attribute values are decoded and
// escaped again, and namespace prefixes are dropped, so the output is well-formed whatever the
// string holds. EAD 2002: the link attributes of linking elements (href, show, ...) get the
// root's declared `xlink:` prefix back, and a <part> or <geographiccoordinates> is unwrapped (its text kept). EAD3:
// <extref>/<extptr> become <ref>/<ptr> (title/role as linktitle/linkrole), and access terms'
// text goes in <part>.
import { dictionary, lookupTable } from "../registry/dictionary.js";
import { ACCESS_ELEMENTS } from "./ead-terms.js";
import type { XmlWriter } from "./xml-writer.js";

/** Inline (and the few block) elements stored text may carry. */
const INLINE_ELEMENTS: ReadonlySet<string> = new Set([
  "abbr",
  "archref",
  "bibref",
  "blockquote",
  "corpname",
  "date",
  "emph",
  "expan",
  "extptr",
  "extref",
  "famname",
  "footnote",
  "foreign",
  "function",
  "genreform",
  "geogname",
  "geographiccoordinates",
  "item",
  "lb",
  "list",
  "name",
  "num",
  "occupation",
  "p",
  "part",
  "persname",
  "ptr",
  "quote",
  "ref",
  "subject",
  "title",
]);

const TAG =
  /<(\/?)(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g;

type Token =
  | { kind: "text"; text: string }
  | { kind: "open" | "empty"; name: string; attributes: Record<string, string> }
  | { kind: "close"; name: string };

const ENTITIES: Readonly<Record<string, string>> = lookupTable({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" });

function decode(value: string): string {
  return value.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z]+);/g, (whole, entity: string) => {
    if (entity.startsWith("#x")) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith("#")) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return ENTITIES[entity] ?? whole;
  });
}

/** The xlink attributes of EAD 2002's linking elements (importers keep them by local name). */
const XLINK_ATTRIBUTES: ReadonlySet<string> = new Set([
  "actuate",
  "arcrole",
  "from",
  "href",
  "role",
  "show",
  "title",
  "to",
]);
const LINKING_ELEMENTS: ReadonlySet<string> = new Set(["archref", "bibref", "extptr", "extref", "ptr", "ref", "title"]);
/** EAD3's names for them on <ref>/<ptr> (undefined: EAD3 has no such attribute). */
const EAD3_LINK_ATTRIBUTES: ReadonlyMap<string, string | undefined> = new Map([
  ["title", "linktitle"],
  ["role", "linkrole"],
  ["from", undefined],
  ["to", undefined],
  ["type", undefined],
]);

function attributesOf(element: string, source: string, ead3: boolean): Record<string, string> {
  const attributes = dictionary<string>();
  const linking = LINKING_ELEMENTS.has(element);
  for (const match of source.matchAll(ATTRIBUTE)) {
    const [, qualified = "", double, single] = match;
    const [prefix, local = ""] = qualified.includes(":") ? qualified.split(":", 2) : [undefined, qualified];
    if (prefix === "xmlns" || qualified === "xmlns") continue;
    let name: string | undefined = local;
    let value = decode(double ?? single ?? "");
    if (!ead3 && linking && XLINK_ATTRIBUTES.has(local)) name = `xlink:${local}`;
    if (ead3 && (element === "extref" || element === "extptr" || element === "ref" || element === "ptr")) {
      if (EAD3_LINK_ATTRIBUTES.has(local)) name = EAD3_LINK_ATTRIBUTES.get(local);
      if (local === "actuate" || local === "show") value = value.toLowerCase();
    }
    if (name !== undefined && !Object.hasOwn(attributes, name)) attributes[name] = value;
  }
  return attributes;
}

/** The string as tokens, or undefined when it is not safe markup (then it is all text). */
function tokenize(value: string, ead3: boolean): Token[] | undefined {
  const tokens: Token[] = [];
  const open: string[] = [];
  let last = 0;
  for (const match of value.matchAll(TAG)) {
    const [whole, slash, name = "", attributes = "", selfClosing] = match;
    if (!INLINE_ELEMENTS.has(name)) continue; // not a tag we know: its characters are text
    const index = match.index ?? 0;
    if (index > last) tokens.push({ kind: "text", text: value.slice(last, index) });
    last = index + whole.length;
    if (slash === "/") {
      if (open.pop() !== name || attributes.trim() !== "" || selfClosing === "/") return undefined;
      tokens.push({ kind: "close", name });
    } else if (selfClosing === "/") {
      tokens.push({ kind: "empty", name, attributes: attributesOf(name, attributes, ead3) });
    } else {
      open.push(name);
      tokens.push({ kind: "open", name, attributes: attributesOf(name, attributes, ead3) });
    }
  }
  if (open.length > 0) return undefined;
  if (last < value.length) tokens.push({ kind: "text", text: value.slice(last) });
  return tokens;
}

function renamed(name: string, ead3: boolean): string | undefined {
  // EAD 2002 has neither <part> nor <geographiccoordinates>: their text is kept without them.
  if (!ead3) return name === "part" || name === "geographiccoordinates" ? undefined : name;
  if (name === "extref") return "ref";
  if (name === "extptr") return "ptr";
  return name;
}

/** Whether `value` holds inline markup that `writeMixed` would write as elements. */
export function hasMarkup(value: string): boolean {
  return value.includes("<") && (tokenize(value, false)?.some((token) => token.kind !== "text") ?? false);
}

/** Writes `value` into the open element: its safe inline markup as elements, the rest as text. */
export function writeMixed(xml: XmlWriter, value: string, ead3: boolean): void {
  const tokens = value.includes("<") ? tokenize(value, ead3) : undefined;
  if (tokens === undefined) {
    xml.text(value);
    return;
  }
  xml.mixed();
  // What each open element became: its output name (undefined: unwrapped), and whether its
  // text must go in <part> (an EAD3 access term).
  const stack: Array<{ name: string | undefined; parts: boolean }> = [];
  for (const token of tokens) {
    const top = stack.at(-1);
    if (token.kind === "text") {
      if (top?.parts && token.text.trim() !== "") xml.element("part", {}, token.text);
      else xml.text(token.text);
    } else if (token.kind === "close") {
      const element = stack.pop();
      if (element?.name !== undefined) xml.close(element.name);
    } else {
      const name = renamed(token.name, ead3);
      if (token.kind === "empty") {
        if (name !== undefined) xml.element(name, token.attributes);
        continue;
      }
      if (name !== undefined) {
        xml.open(name, token.attributes);
        xml.mixed();
      }
      stack.push({ name, parts: ead3 && name !== undefined && ACCESS_ELEMENTS.has(name) });
    }
  }
}

/**
 * `value` as plain text, for formats that carry no inline markup (MARC, TSV): safe EAD markup's tags dropped and its
 * text kept (`<lb/>` a line break, a closing `</p>` a blank line); anything that is not safe markup is text already.
 */
export function markupAsText(value: string): string {
  const tokens = value.includes("<") ? tokenize(value, false) : undefined;
  if (tokens === undefined || !tokens.some((token) => token.kind !== "text")) return value;
  let text = "";
  for (const token of tokens) {
    if (token.kind === "text") text += token.text;
    else if (token.kind === "empty" && token.name === "lb") text += "\n";
    else if (token.kind === "close" && token.name === "p") text += "\n\n";
  }
  return text.replace(/\n{3,}/g, "\n\n").trim();
}
