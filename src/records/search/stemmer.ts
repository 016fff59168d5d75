// The Snowball "English" (Porter2) stemmer, written from the algorithm's published description, so
// that inflected forms of a word index and search as one ("papers", "paper"). Only folded ASCII
// words are stemmed: English rules say nothing useful about other scripts, and numbers or
// identifiers ("1990s", "mss") must be found as written.

// Words the algorithm would get wrong, answered directly (Porter2's first exception list).
const EXCEPTIONS = new Map<string, string>([
  ["skis", "ski"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["idly", "idl"],
  ["gently", "gentl"],
  ["ugly", "ugli"],
  ["early", "earli"],
  ["only", "onli"],
  ["singly", "singl"],
  ["sky", "sky"],
  ["news", "news"],
  ["howe", "howe"],
  ["atlas", "atlas"],
  ["cosmos", "cosmos"],
  ["bias", "bias"],
  ["andes", "andes"],
]);

// Left as they are once step 1a has run (Porter2's second exception list).
const AFTER_STEP_1A = new Set(["inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"]);

// R1 starts after these prefixes rather than after the first vowel-consonant pair, so that
// "generalization" and "general" meet.
const REGION_PREFIXES = ["gener", "commun", "arsen"];

const DOUBLES = new Set(["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"]);
const LI_ENDINGS = "cdeghkmnrt";

type Rule = [suffix: string, replacement: string];

// Longest suffix first: a step acts on the longest suffix that matches, or not at all.
const STEP_2: Rule[] = [
  ["ization", "ize"],
  ["ational", "ate"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["iveness", "ive"],
  ["tional", "tion"],
  ["biliti", "ble"],
  ["lessli", "less"],
  ["entli", "ent"],
  ["ation", "ate"],
  ["alism", "al"],
  ["aliti", "al"],
  ["ousli", "ous"],
  ["iviti", "ive"],
  ["fulli", "ful"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["abli", "able"],
  ["izer", "ize"],
  ["ator", "ate"],
  ["alli", "al"],
  ["bli", "ble"],
  ["ogi", "og"],
  ["li", ""],
];

const STEP_3: Rule[] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["alize", "al"],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ative", ""],
  ["ical", "ic"],
  ["ness", ""],
  ["ful", ""],
];

const STEP_4 = [
  "ement",
  "ance",
  "ence",
  "able",
  "ible",
  "ment",
  "ant",
  "ent",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
  "ion",
  "al",
  "er",
  "ic",
];

const ASCII_WORD = /^[a-z]+$/;

/** The Porter2 stem of a folded word; words shorter than 3 letters or not all a-z are returned as given. */
export function stem(token: string): string {
  if (token.length < 3 || !ASCII_WORD.test(token)) return token;
  const exception = EXCEPTIONS.get(token);
  if (exception !== undefined) return exception;

  // A "y" that acts as a consonant (first letter, or after a vowel) is marked "Y" while stemming.
  let w = "";
  for (let i = 0; i < token.length; i++) {
    const c = token[i] ?? "";
    w += c === "y" && (i === 0 || isVowel(w[i - 1])) ? "Y" : c;
  }
  const p1 = regionStart(w);
  const p2 = afterVowelConsonant(w, p1);

  w = step1a(w);
  if (AFTER_STEP_1A.has(w)) return w;
  w = step1b(w, p1);
  w = step1c(w);
  w = step2(w, p1);
  w = step3(w, p1, p2);
  w = step4(w, p2);
  w = step5(w, p1, p2);
  return w.replace(/Y/g, "y");
}

function isVowel(c: string | undefined): boolean {
  return c !== undefined && c.length === 1 && "aeiouy".includes(c);
}

function regionStart(w: string): number {
  for (const prefix of REGION_PREFIXES) if (w.startsWith(prefix)) return prefix.length;
  return afterVowelConsonant(w, 0);
}

/** The index after the first consonant that follows a vowel, at or after `from`; the length if none. */
function afterVowelConsonant(w: string, from: number): number {
  let i = from;
  while (i < w.length && !isVowel(w[i])) i++;
  while (i < w.length && isVowel(w[i])) i++;
  return i < w.length ? i + 1 : w.length;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(w[i])) return true;
  return false;
}

/** Whether `w` ends in a short syllable. */
function endsShort(w: string): boolean {
  const n = w.length;
  if (n === 2) return isVowel(w[0]) && !isVowel(w[1]);
  if (n < 3) return false;
  const last = w[n - 1] ?? "";
  return !isVowel(w[n - 3]) && isVowel(w[n - 2]) && !isVowel(last) && !"wxY".includes(last);
}

function step1a(w: string): string {
  if (w.endsWith("sses")) return w.slice(0, -2);
  if (w.endsWith("ied") || w.endsWith("ies")) return w.slice(0, -3) + (w.length > 4 ? "i" : "ie");
  if (w.endsWith("us") || w.endsWith("ss")) return w;
  // "s" goes if a vowel comes before the letter preceding it: "gaps" → "gap", "gas" stays.
  if (w.endsWith("s") && hasVowel(w, w.length - 2)) return w.slice(0, -1);
  return w;
}

function step1b(w: string, p1: number): string {
  for (const suffix of ["eedly", "eed"]) {
    if (w.endsWith(suffix)) return w.length - suffix.length >= p1 ? w.slice(0, -suffix.length) + "ee" : w;
  }
  const suffix = ["ingly", "edly", "ing", "ed"].find((s) => w.endsWith(s));
  if (suffix === undefined) return w;
  const stemmed = w.slice(0, -suffix.length);
  if (!hasVowel(stemmed, stemmed.length)) return w;
  if (stemmed.endsWith("at") || stemmed.endsWith("bl") || stemmed.endsWith("iz")) return stemmed + "e";
  if (DOUBLES.has(stemmed.slice(-2))) return stemmed.slice(0, -1);
  // A short word ("hop" from "hoping") gets its "e" back.
  if (p1 >= stemmed.length && endsShort(stemmed)) return stemmed + "e";
  return stemmed;
}

function step1c(w: string): string {
  const n = w.length;
  const last = w[n - 1];
  if (n > 2 && (last === "y" || last === "Y") && !isVowel(w[n - 2])) return w.slice(0, -1) + "i";
  return w;
}

function step2(w: string, p1: number): string {
  const rule = STEP_2.find(([suffix]) => w.endsWith(suffix));
  if (rule === undefined) return w;
  const [suffix, replacement] = rule;
  const start = w.length - suffix.length;
  if (start < p1) return w;
  if (suffix === "ogi" && w[start - 1] !== "l") return w;
  if (suffix === "li" && !LI_ENDINGS.includes(w[start - 1] ?? "?")) return w;
  return w.slice(0, start) + replacement;
}

function step3(w: string, p1: number, p2: number): string {
  const rule = STEP_3.find(([suffix]) => w.endsWith(suffix));
  if (rule === undefined) return w;
  const [suffix, replacement] = rule;
  const start = w.length - suffix.length;
  if (start < (suffix === "ative" ? p2 : p1)) return w;
  return w.slice(0, start) + replacement;
}

function step4(w: string, p2: number): string {
  const suffix = STEP_4.find((s) => w.endsWith(s));
  if (suffix === undefined) return w;
  const start = w.length - suffix.length;
  if (start < p2) return w;
  if (suffix === "ion" && w[start - 1] !== "s" && w[start - 1] !== "t") return w;
  return w.slice(0, start);
}

function step5(w: string, p1: number, p2: number): string {
  const start = w.length - 1;
  if (w.endsWith("e")) {
    const rest = w.slice(0, start);
    if (start >= p2 || (start >= p1 && !endsShort(rest))) return rest;
  } else if (w.endsWith("l") && start >= p2 && w[start - 1] === "l") {
    return w.slice(0, start);
  }
  return w;
}
