// One linear pass over JSON text before JSON.parse sees it, for the two things JSON.parse
// cannot bound or report: nesting depth (a 9 MB `[[[[...` must be refused after its first
// few dozen characters, not after a full parse and walk) and duplicate keys in one object
// (JSON.parse keeps the last silently). The scan is lenient about syntax: it only tracks
// strings, brackets and commas, and leaves every syntax error to JSON.parse, which runs next.
// The same pass also says which field a character offset falls in (for invalid UTF-8).

export type JsonScanProblem = { kind: "depth"; limit: number } | { kind: "duplicateKey"; path: string[] };

export interface JsonScanResult {
  problem?: JsonScanProblem;
  /** How many characters were looked at before stopping. */
  scanned: number;
}

interface Frame {
  isObject: boolean;
  /** The keys seen so far in this object (objects only). */
  keys: Set<string> | undefined;
  /** The key whose value is being read (objects), or the index (arrays). */
  key: string | undefined;
  index: number;
  expectingKey: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** Where the string starting after `open` (a quote) ends: its closing quote, or text.length. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1) {
    let backslashes = 0;
    for (let i = at - 1; i > open && text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return text.length;
}

/** A key's text with its escapes resolved (`"\u0061"` is `"a"`); undefined when malformed (JSON.parse will say). */
function keyText(raw: string): string | undefined {
  if (!raw.includes("\\")) return raw;
  try {
    const value: unknown = JSON.parse(`"${raw}"`);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function pathOf(stack: readonly Frame[]): string[] {
  return stack.map((frame) => (frame.isObject ? (frame.key ?? "") : String(frame.index)));
}

interface Walk {
  problem?: JsonScanProblem;
  scanned: number;
  /** The path at `stopAt`, when it was reached. */
  pathAtStop?: string[];
}

function walk(text: string, maxDepth: number, stopAt: number, checkDuplicates: boolean): Walk {
  const stack: Frame[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const end = closingQuote(text, i);
      const top = stack[stack.length - 1];
      const isKey = top !== undefined && top.isObject && top.expectingKey;
      if (isKey) {
        const key = keyText(text.slice(i + 1, end));
        if (key === undefined) return { scanned: end + 1 };
        top.key = key;
        top.expectingKey = false;
        if (checkDuplicates && top.keys!.has(key))
          return { problem: { kind: "duplicateKey", path: pathOf(stack) }, scanned: end + 1 };
        top.keys!.add(key);
      }
      if (stopAt >= i && stopAt <= end) return { scanned: end + 1, pathAtStop: pathOf(stack) };
      i = end + 1;
      continue;
    }
    if (i === stopAt) return { scanned: i + 1, pathAtStop: pathOf(stack) };
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (stack.length >= maxDepth) return { problem: { kind: "depth", limit: maxDepth }, scanned: i + 1 };
      const isObject = code === OPEN_BRACE;
      stack.push({
        isObject,
        keys: isObject ? new Set() : undefined,
        key: undefined,
        index: 0,
        expectingKey: isObject,
      });
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      stack.pop();
    } else if (code === COMMA) {
      const top = stack[stack.length - 1];
      if (top?.isObject) top.expectingKey = true;
      else if (top) top.index++;
    }
    i++;
  }
  return { scanned: length };
}

/**
 * Depth and duplicate keys of JSON text, stopping at the first problem. Linear in the text,
 * and a depth problem stops the scan where it is found.
 */
export function scanJson(text: string, maxDepth: number): JsonScanResult {
  const { problem, scanned } = walk(text, maxDepth, -1, true);
  return problem === undefined ? { scanned } : { problem, scanned };
}

/**
 * The nesting depth of a JSON body followed over its bytes as they arrive, so a body nested
 * past the limit is refused at the chunk where that shows, before the rest is received or
 * inflated (a 9 KB gzip of 9 MB of `[` costs one chunk, not 9 MB of inflating and scanning).
 * Bytes suffice: every structural character is ASCII, and no byte of a multi-byte UTF-8
 * sequence is. Like scanJson it is lenient about syntax, which JSON.parse judges later.
 */
export class DepthGuard {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly maxDepth: number) {}

  /** Follows one more chunk; false once the nesting has gone past `maxDepth`. */
  accept(chunk: Uint8Array): boolean {
    let { depth, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (code === BACKSLASH) escaped = true;
        else if (code === QUOTE) inString = false;
      } else if (code === QUOTE) {
        inString = true;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (++depth > this.maxDepth) return false;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        depth--;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return true;
  }
}

/** The path of the field that character `index` of JSON text falls in (`[]` for the top level). */
export function jsonPathAt(text: string, index: number): string[] {
  return walk(text, Number.MAX_SAFE_INTEGER, index, false).pathAtStop ?? [];
}
