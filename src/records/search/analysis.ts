// Text analysis shared by indexing and querying: both sides must cut text the same way or a word
// indexed one way is looked up another. Identifiers ("MSS-060", "1990.2.3") are kept whole as well
// as split into words, so a search for the exact identifier and one for a part of it both find it.
// Case and diacritics are folded ("Émile" finds "emile") because catalogue text mixes both freely,
// and English words are stemmed (Porter2) so "papers" finds "paper" and "photographs" "photograph".

import { lookupTable } from "../../registry/index.js";
import { stem } from "./stemmer.js";

export { stem };

/** The longest text analyzed, in UTF-16 units; beyond it a record's text is not searchable. */
export const ANALYZE_MAX_LENGTH = 1_000_000;

const COMBINING_MARKS = /\p{M}/gu;
// Letters that Unicode does not decompose into a base letter and a mark, folded by hand.
const SPECIAL_LETTERS: Readonly<Record<string, string>> = lookupTable({
  ß: "ss",
  æ: "ae",
  ø: "o",
  œ: "oe",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
});
const SPECIAL_LETTER = /[ßæøœłđðþ]/g;

/** Lowercase, compatibility-decompose and drop combining marks: "Åsa Ærø" → "asa aero". */
export function fold(text: string): string {
  // Lowercase after NFKD: a compatibility form can decompose to capitals ("ℌ" → "H"), and the
  // marks a capital's lowercase adds ("İ" → "i̇") are removed after it.
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(COMBINING_MARKS, "")
    .replace(SPECIAL_LETTER, (letter) => SPECIAL_LETTERS[letter] ?? letter);
}

// An apostrophe between two letters or digits joins them ("o'brien", "children's"): names and
// possessives are one word, not a stray "s" or "o".
const INNER_APOSTROPHE = /(?<=[\p{L}\p{N}])['’ʼ](?=[\p{L}\p{N}])/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const WHITESPACE = /\s+/u;

/** The folded words of the text, in order. */
export function words(text: string): string[] {
  return fold(text)
    .replace(INNER_APOSTROPHE, "")
    .split(NOT_WORD)
    .filter((word) => word !== "");
}

/**
 * Each whitespace-separated run that has punctuation between its letters or digits ("MSS-060",
 * "(1990.2.3),"), folded and without its leading and trailing punctuation. Inner apostrophes
 * do not count: "children's" is already the one word "childrens".
 */
export function wholeTokens(text: string): string[] {
  const out: string[] = [];
  for (const run of text.split(WHITESPACE)) {
    if (run === "") continue;
    const folded = fold(run).replace(INNER_APOSTROPHE, "");
    const trimmed = trimToWordChars(folded);
    if (trimmed !== "" && NOT_WORD.test(trimmed)) out.push(trimmed);
  }
  return out;
}

// By index, not with an anchored regex: `[^\p{L}\p{N}]+$` retries from every start and takes
// quadratic time on a long run of punctuation.
function trimToWordChars(text: string): string {
  let start = 0;
  while (start < text.length) {
    const width = charWidth(text, start);
    if (WORD_CHAR.test(text.slice(start, start + width))) break;
    start += width;
  }
  let end = text.length;
  while (end > start) {
    const width = end - 2 >= start && isLowSurrogate(text, end - 1) && isHighSurrogate(text, end - 2) ? 2 : 1;
    if (WORD_CHAR.test(text.slice(end - width, end))) break;
    end -= width;
  }
  return text.slice(start, end);
}

function charWidth(text: string, index: number): number {
  return isHighSurrogate(text, index) && isLowSurrogate(text, index + 1) ? 2 : 1;
}

function isHighSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

/** What a text is indexed (and a query word looked up) as: stemmed words and whole identifiers. */
export function analyze(text: string): { terms: string[]; whole: string[] } {
  const bounded = text.length > ANALYZE_MAX_LENGTH ? text.slice(0, ANALYZE_MAX_LENGTH) : text;
  return { terms: words(bounded).map(stem), whole: wholeTokens(bounded) };
}
