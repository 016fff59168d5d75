// The hostile material the fuzz test mixes into every part of a request: object keys that are
// built-in property names, strings that break parsers and encoders, resolve[] paths that climb
// into prototypes, and URL fragments that are not valid percent-encoding. Kept apart from the
// generators so a failure report can name what it used.
import fc from "fast-check";

/** Keys that are properties of every plain object, operators of a query language, or paths. */
export const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupSetter__",
  "$where",
  "$gt",
  "$ne",
  "a.b",
  "ref",
  "_resolved",
  "uri",
  "lock_version",
  "jsonmodel_type",
  "",
  " ",
  "\u0000",
  "\ud800",
] as const;

/** resolve[] values aimed at the resolve tree: prototype climbs, deep and long paths, real link fields. */
export const HOSTILE_RESOLVE = [
  "__proto__",
  "__proto__::zzprobe",
  "__proto__::_archivesspace",
  "__proto__::polluted",
  "constructor::prototype::x",
  "constructor::prototype::polluted",
  "prototype::polluted",
  "toString",
  "valueOf::x",
  "hasOwnProperty",
  "::",
  "::::",
  "a::",
  "related_resources::related_accessions",
  "related_accessions::related_resources",
  "linked_agents",
  "subjects",
  "resource",
  "parent",
  "repository",
  "top_container",
  "instances::sub_container::top_container",
  "classifications::linked_records",
] as const;

/** Whole strings that break naive code: encodings, numbers that are not, markup, operators. */
export const HOSTILE_STRINGS = [
  "",
  " ",
  "__proto__",
  "constructor",
  "toString",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83dy",
  "\ufeff",
  "\u202e",
  "\u2028",
  "\r\n",
  "😀",
  "-1",
  "0",
  "-0",
  "1.5",
  "1e309",
  "9007199254740993",
  "0x10",
  " 1",
  "NaN",
  "Infinity",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  '{"$gt":""}',
  "' OR 1=1 --",
  "../../../etc/passwd",
  "<x>&amp;</x>",
  '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
  "%00",
  "%",
  "/repositories/1",
  "/repositories/2/accessions/1",
  "/users/1",
] as const;

/** Raw (already "encoded") URL fragments that are not valid percent-encoding or UTF-8. */
export const BAD_PERCENT = [
  "%",
  "%zz",
  "%E0%A4%A",
  "%C0%AF",
  "%FF",
  "%00",
  "%ED%A0%80",
  "%F4%90%80%80",
  "%%",
  "%u0041",
  "%2",
] as const;

/** Strings sized to hurt (a parser, a log line, a response that echoes them). */
export function hugeString(): fc.Arbitrary<string> {
  return fc
    .record({
      size: fc.constantFrom(10_000, 100_000, 1_000_000),
      unit: fc.constantFrom("x", "é", "\u0000", "<", "::", "\ud800"),
    })
    .map(({ size, unit }) => unit.repeat(Math.ceil(size / unit.length)));
}

/** Any string, hostile ones much more often than chance would give. */
export function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: hugeString() },
  );
}

export function hostileKey(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  );
}

/**
 * Percent-encodes every code unit that is not unreserved, as UTF-8; a lone surrogate is
 * encoded as its three WTF-8 bytes (ED A0 80 ...), which no decoder may accept as text.
 * (encodeURIComponent throws on lone surrogates, so it cannot send them.)
 */
export function percentEncode(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (/[A-Za-z0-9\-_.~]/.test(text[i])) {
      out += text[i];
      continue;
    }
    let codePoint = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    out += utf8Bytes(codePoint)
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`)
      .join("");
  }
  return out;
}

function utf8Bytes(codePoint: number): number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000)
    return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  return [
    0xf0 | (codePoint >> 18),
    0x80 | ((codePoint >> 12) & 0x3f),
    0x80 | ((codePoint >> 6) & 0x3f),
    0x80 | (codePoint & 0x3f),
  ];
}

/**
 * A string for a URL: hostile but short enough that the URL stays under node's 16 KiB header
 * limit (past it every request is the same 431, never reaching the service's code).
 */
export function urlString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom("x", "é", "::", "\u0000").map((unit) => unit.repeat(1_000)) },
  );
}

/** A URL component: usually an encoded string, sometimes raw broken percent-encoding around it. */
export function urlComponent(value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: value.map(percentEncode) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value.map(percentEncode), fc.constantFrom(...BAD_PERCENT))
        .map(([text, bad]) => `${text}${bad}`),
    },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_PERCENT) },
  );
}
