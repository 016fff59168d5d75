// What text a request may carry: valid UTF-8, no lone surrogates (`"\ud800"`
// in JSON), no NUL. Each would otherwise be stored as something other than what was sent
// (U+FFFD) or break whoever reads the record next (C strings, XML exports).
import { isUtf8 } from "node:buffer";

export const NOT_UTF8 = "Must be valid UTF-8 text";
export const HAS_NUL = "Must not contain the NUL character (U+0000)";
export const LONE_SURROGATE = "Must be valid Unicode text: holds a lone surrogate";

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE_PATTERN = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a decoded string, if anything. */
export function textProblem(text: string): string | undefined {
  if (text.includes("\0")) return HAS_NUL;
  if (LONE_SURROGATE_PATTERN.test(text)) return LONE_SURROGATE;
  return undefined;
}

/** The offset of the first byte that is not part of a valid UTF-8 sequence; -1 when all are. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    let length: number;
    let min: number;
    if (byte < 0x80) {
      i++;
      continue;
    } else if (byte >= 0xc2 && byte <= 0xdf) [length, min] = [2, 0x80];
    else if (byte >= 0xe0 && byte <= 0xef) [length, min] = [3, 0x800];
    else if (byte >= 0xf0 && byte <= 0xf4) [length, min] = [4, 0x10000];
    else return i;
    if (i + length > bytes.length) return i;
    let codePoint = byte & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k]!;
      if ((next & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
    if (codePoint < min || (codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return i;
    i += length;
  }
  return -1;
}

const HEX = /^[0-9a-fA-F]{2}$/;

export type DecodedComponent = { text: string } | { problem: string };

/**
 * A form or query-string component (`a+b%C3%A9`) as text, or what is wrong with it: `+` is a
 * space, `%XX` a byte, and the bytes must be UTF-8. `charsAreBytes`: the component's own
 * characters are bytes too (a request target, which node reads as latin1), else they are
 * already text (a form body, decoded as UTF-8 before).
 */
export function decodeComponent(component: string, charsAreBytes: boolean): DecodedComponent {
  const spaced = component.includes("+") ? component.replaceAll("+", " ") : component;
  const text = charsAreBytes && !/^[\x00-\x7f]*$/.test(spaced) ? viaBytes(spaced, true) : viaDecodeUri(spaced);
  if (text === undefined) return { problem: NOT_UTF8 };
  const problem = textProblem(text);
  return problem === undefined ? { text } : { problem };
}

function viaDecodeUri(text: string): string | undefined {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // A `%` not followed by two hex digits stays as it is (as node's querystring keeps it);
    // only bytes that are not UTF-8 are refused.
    return viaBytes(text, false);
  }
}

function viaBytes(text: string, charsAreBytes: boolean): string | undefined {
  const bytes = Buffer.alloc(text.length * 3);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "%" && HEX.test(hex)) {
      bytes[length++] = Number.parseInt(hex, 16);
      i += 2;
    } else if (charsAreBytes) {
      bytes[length++] = text.charCodeAt(i) & 0xff;
    } else {
      const codePoint = text.codePointAt(i)!;
      if (codePoint > 0xffff) i++;
      length += bytes.write(String.fromCodePoint(codePoint), length, "utf8");
    }
  }
  const used = bytes.subarray(0, length);
  return isUtf8(used) ? used.toString("utf8") : undefined;
}
