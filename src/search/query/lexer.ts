// Splits a Lucene-syntax query into tokens in one left-to-right pass (no regex runs over the query,
// so no input can make it backtrack). Escapes are resolved here: a token carries the text the user
// meant, and whether a "*" was typed bare (a wildcard) or escaped (a literal star) is settled here.
import { lookupTable } from "../../registry/index.js";

export class QueryParseError extends Error {
  constructor(
    message: string,
    /** The index in the query, in UTF-16 units, where the problem was found. */
    readonly position: number,
  ) {
    super(message);
    this.name = "QueryParseError";
  }
}

export type Token =
  | { type: "lparen" | "rparen" | "and" | "or" | "not" | "plus" | "minus"; pos: number; image: string }
  | { type: "boost" | "slop"; pos: number; image: string }
  | { type: "field"; pos: number; image: string; name: string }
  | { type: "term" | "phrase"; pos: number; image: string; text: string }
  | { type: "prefix"; pos: number; image: string; prefix: string }
  | { type: "star" | "alldocs"; pos: number; image: string }
  | {
      type: "range";
      pos: number;
      image: string;
      from: string | null;
      to: string | null;
      includeFrom: boolean;
      includeTo: boolean;
    };

const WILDCARD_POSITION_MESSAGE = "Wildcards are supported only at the end of a term";

// Lucene's operator words, recognised only when a whole unescaped word is exactly one of them
// ("ANDY", "and" and "A\ND" are terms).
const OPERATOR_WORDS: Readonly<Record<string, "and" | "or" | "not">> = lookupTable({
  AND: "and",
  "&&": "and",
  OR: "or",
  "||": "or",
  NOT: "not",
});
const WORD_END = new Set(["(", ")", '"', "^", "~"]);
const SINGLE: Readonly<Record<string, "lparen" | "rparen" | "plus" | "minus" | "not">> = lookupTable({
  "(": "lparen",
  ")": "rparen",
  "+": "plus",
  "-": "minus",
  "!": "not",
});

const SPACE = /\s/;

function isSpace(c: string): boolean {
  return SPACE.test(c);
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

const FIELD_START = /[A-Za-z_]/;
const FIELD_CHAR = /[A-Za-z0-9_.]/;

/** Where a term is shown in an error: the start of its image, never a whole 4 KB run. */
export function shown(image: string): string {
  return image.length > 30 ? `${image.slice(0, 30)}…` : image;
}

export function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  // After `field:` a colon is part of the value (`time:12:30`), never a second field.
  let afterField = false;
  while (i < q.length) {
    const c = q[i] ?? "";
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    let token: Token;
    const single = SINGLE[c];
    if (single !== undefined) {
      token = { type: single, pos: start, image: c };
      i++;
    } else if (c === '"') {
      const phrase = readQuoted(q, i);
      token = { type: "phrase", pos: start, image: q.slice(start, phrase.end), text: phrase.text };
      i = phrase.end;
    } else if (c === "[" || c === "{") {
      [token, i] = readRange(q, i);
    } else if (c === "^" || c === "~") {
      i++;
      const numberEnd = readNumber(q, i);
      if (c === "^" && numberEnd === i)
        throw new QueryParseError(`Expected a number after '^' at position ${start}`, i);
      i = numberEnd;
      token = { type: c === "^" ? "boost" : "slop", pos: start, image: q.slice(start, i) };
    } else if (c === "]" || c === "}" || c === ":") {
      throw new QueryParseError(`Unexpected '${c}' at position ${start}`, start);
    } else {
      [token, i] = readWord(q, i, afterField);
    }
    afterField = token.type === "field";
    tokens.push(token);
  }
  return tokens;
}

/** The end of a number (digits, optionally "." and digits) starting at `i`; `i` if there is none. */
function readNumber(q: string, i: number): number {
  let end = i;
  while (isDigit(q[end])) end++;
  if (end > i && q[end] === "." && isDigit(q[end + 1])) {
    end++;
    while (isDigit(q[end])) end++;
  }
  return end;
}

function escapeAt(q: string, i: number): string {
  const next = q[i + 1];
  if (next === undefined)
    throw new QueryParseError(`The query ends with an unfinished escape '\\' at position ${i}`, i);
  return next;
}

/** A quoted string from the `"` at `start`: its unescaped text and the index after the closing quote. */
function readQuoted(q: string, start: number): { text: string; end: number } {
  let text = "";
  let i = start + 1;
  while (i < q.length) {
    const c = q[i];
    if (c === '"') return { text, end: i + 1 };
    if (c === "\\") {
      text += escapeAt(q, i);
      i += 2;
    } else {
      text += c;
      i++;
    }
  }
  throw new QueryParseError(`Unbalanced quotes: the '"' at position ${start} is never closed`, start);
}

/**
 * A word from `start`: an operator, a field name (when a colon follows a plain name), or a term,
 * prefix or star. Inside a word, "-", "+", "!", brackets and braces are ordinary characters.
 */
function readWord(q: string, start: number, afterField: boolean): [Token, number] {
  let text = "";
  let escaped = false;
  let fieldLike = true;
  // Unescaped stars: their index in `text` and in the query.
  const stars: { at: number; pos: number }[] = [];
  let i = start;
  while (i < q.length) {
    const c = q[i] ?? "";
    if (c === "\\") {
      text += escapeAt(q, i);
      escaped = true;
      fieldLike = false;
      i += 2;
      continue;
    }
    if (isSpace(c) || WORD_END.has(c)) break;
    if (c === ":" && fieldLike && !afterField) {
      return [{ type: "field", pos: start, image: q.slice(start, i + 1), name: text }, i + 1];
    }
    if (c === "?") throw new QueryParseError(`${WILDCARD_POSITION_MESSAGE} ('?' at position ${i})`, i);
    if (c === "*") stars.push({ at: text.length, pos: i });
    fieldLike = fieldLike && (text === "" ? FIELD_START : FIELD_CHAR).test(c);
    text += c;
    i++;
  }
  const image = q.slice(start, i);
  const operator = escaped ? undefined : OPERATOR_WORDS[text];
  if (operator !== undefined) return [{ type: operator, pos: start, image }, i];
  if (stars.length === 0) return [{ type: "term", pos: start, image, text }, i];
  if (!afterField && image === "*:*") return [{ type: "alldocs", pos: start, image }, i];
  // Only a run of stars ending the word is a wildcard: `abc*` is a prefix, `*` alone anything.
  const prefixLength = text.length - stars.length;
  const misplaced = stars.find((star, k) => star.at !== prefixLength + k);
  if (misplaced !== undefined) {
    throw new QueryParseError(`${WILDCARD_POSITION_MESSAGE} ('*' at position ${misplaced.pos})`, misplaced.pos);
  }
  if (prefixLength === 0) return [{ type: "star", pos: start, image }, i];
  return [{ type: "prefix", pos: start, image, prefix: text.slice(0, prefixLength) }, i];
}

/** A range value: quoted, or a run up to whitespace, "]" or "}" with escapes; `*` alone is an open end. */
function readRangeValue(q: string, start: number): { value: string | null; bare: string; end: number } {
  if (q[start] === '"') {
    const quoted = readQuoted(q, start);
    return { value: quoted.text, bare: "", end: quoted.end };
  }
  let text = "";
  let escaped = false;
  let i = start;
  while (i < q.length) {
    const c = q[i] ?? "";
    if (isSpace(c) || c === "]" || c === "}") break;
    if (c === "\\") {
      text += escapeAt(q, i);
      escaped = true;
      i += 2;
    } else {
      text += c;
      i++;
    }
  }
  const bare = escaped ? "" : text;
  return { value: bare === "*" ? null : text, bare, end: i };
}

function skipSpaces(q: string, i: number): number {
  while (i < q.length && isSpace(q[i] ?? "")) i++;
  return i;
}

/** `[a TO b]`, `{a TO b}` or a mix, from the bracket at `start`. */
function readRange(q: string, start: number): [Token, number] {
  const malformed = (what: string, at: number) =>
    new QueryParseError(`Malformed range starting at position ${start}: ${what} at position ${at}`, at);
  const valueAt = (at: number) => {
    if (at >= q.length)
      throw new QueryParseError(`Unterminated range: the '${q[start]}' at position ${start} is never closed`, start);
    if (q[at] === "]" || q[at] === "}") throw malformed("expected a value", at);
    return readRangeValue(q, at);
  };
  let i = skipSpaces(q, start + 1);
  const from = valueAt(i);
  i = skipSpaces(q, from.end);
  const to = valueAt(i);
  if (to.bare !== "TO") throw malformed("expected 'TO'", i);
  i = skipSpaces(q, to.end);
  const upper = valueAt(i);
  i = skipSpaces(q, upper.end);
  const close = q[i];
  if (close === undefined) {
    throw new QueryParseError(`Unterminated range: the '${q[start]}' at position ${start} is never closed`, start);
  }
  if (close !== "]" && close !== "}") throw malformed("expected ']' or '}'", i);
  const token: Token = {
    type: "range",
    pos: start,
    image: q.slice(start, i + 1),
    from: from.value,
    to: upper.value,
    includeFrom: q[start] === "[",
    includeTo: close === "]",
  };
  return [token, i + 1];
}
