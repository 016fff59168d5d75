// How finding aids and catalogue records write extent units, and the extent_extent_type value each
// stands for: one table for every importer (EAD's <extent>, <unittype> and free text; MARC's 300).
// A unit is looked up as written, then through this table, then in its other number (a "box" is
// counted in "boxes" when the list holds that value: ArchivesSpace's default list does not, an
// administrator may add it). Case, spacing and a closing period never matter.
//
//   written as                                       extent type
//   linear ft, lin. ft., lin ft, linear foot, lf, l.f.  linear_feet
//   cubic ft, cu. ft., cu ft, cubic foot, cf, c.f.      cubic_feet
//   gb, gigabyte / mb, megabyte / tb, terabyte         gigabytes / megabytes / terabytes
//   v., vol., vols., volume                            volumes
//   leaf, sheet, reel, file                            leaves, sheets, reels, files
//   cassette, audiocassette(s)                         cassettes
//   photograph(s), photographic print, print(s)        photographic_prints
//   slide(s), photographic slide                       photographic_slides
//
// Quantities are read as people write them: "2.5", ".40", "2,5" (a decimal comma), "1,200" (a
// thousands separator), "1 1/2" and "1/2", after "ca.", "circa", "approx.", "about" or
// "approximately" (then the quantity is approximate).
import { lookupTable } from "../registry/dictionary.js";

const APPROXIMATE = /^(?:approximately|approx\.?|circa|ca\.?|c\.|about|around|some)\s*/i;
const QUANTITY = /^(?:(\d+)\s+(\d+)\/(\d+)|(\d+)\/(\d+)|(\d{1,3}(?:,\d{3})+)(?![\d.,])|(\d+(?:[.,]\d+)?|\.\d+))/;

/** A quantity at the start of `text` as a decimal string, and what follows it; undefined when there is none. */
export function readQuantity(text: string): { number: string; rest: string; approximate: boolean } | undefined {
  const trimmed = text.trim();
  const prefix = APPROXIMATE.exec(trimmed);
  const body = prefix === null ? trimmed : trimmed.slice(prefix[0].length);
  const match = QUANTITY.exec(body);
  if (match === null) return undefined;
  const [read, whole, numerator, denominator, loneNumerator, loneDenominator, thousands, decimal] = match;
  let number: string;
  if (whole !== undefined) number = String(Number(whole) + Number(numerator) / Number(denominator));
  else if (loneNumerator !== undefined) number = String(Number(loneNumerator) / Number(loneDenominator));
  else if (thousands !== undefined) number = thousands.replace(/,/g, "");
  else number = decimal.replace(",", ".");
  if (!Number.isFinite(Number(number))) return undefined;
  return { number, rest: body.slice(read.length).trim(), approximate: prefix !== null };
}

/** A unit as this table keys it: lower case, one space between words, no closing period. */
export function unitKey(unit: string): string {
  return unit
    .toLowerCase()
    .replace(/[\s_\-/]+/g, " ")
    .trim()
    .replace(/\.$/, "");
}

const UNITS: Readonly<Record<string, string>> = lookupTable({
  "linear ft": "linear_feet",
  "lin. ft": "linear_feet",
  "lin ft": "linear_feet",
  "linear foot": "linear_feet",
  "linear feet": "linear_feet",
  lf: "linear_feet",
  "l.f": "linear_feet",
  "cubic ft": "cubic_feet",
  "cu. ft": "cubic_feet",
  "cu ft": "cubic_feet",
  "cubic foot": "cubic_feet",
  "cubic feet": "cubic_feet",
  cf: "cubic_feet",
  "c.f": "cubic_feet",
  gb: "gigabytes",
  gigabyte: "gigabytes",
  mb: "megabytes",
  megabyte: "megabytes",
  tb: "terabytes",
  terabyte: "terabytes",
  v: "volumes",
  vol: "volumes",
  vols: "volumes",
  volume: "volumes",
  leaf: "leaves",
  sheet: "sheets",
  reel: "reels",
  file: "files",
  cassette: "cassettes",
  audiocassette: "cassettes",
  audiocassettes: "cassettes",
  photograph: "photographic_prints",
  photographs: "photographic_prints",
  "photographic print": "photographic_prints",
  print: "photographic_prints",
  prints: "photographic_prints",
  slide: "photographic_slides",
  slides: "photographic_slides",
  "photographic slide": "photographic_slides",
});

/**
 * The values a unit may stand for, most likely first: as written, the table's, then the other
 * number of its last word ("box" and "boxes", "items" and "item").
 */
export function extentUnitCandidates(unit: string): string[] {
  const key = unitKey(unit);
  if (key === "") return [];
  const candidates = [key];
  const mapped = Object.hasOwn(UNITS, key) ? UNITS[key] : undefined;
  if (mapped !== undefined) candidates.push(mapped);
  // English plurals of the words units use: boxes, folders, items, reels.
  if (/(?:x|ch|sh|ss)es$/.test(key)) candidates.push(key.slice(0, -2));
  else if (key.endsWith("s")) candidates.push(key.slice(0, -1));
  else candidates.push(/(?:x|ch|sh|s)$/.test(key) ? `${key}es` : `${key}s`);
  return [...new Set(candidates)];
}
