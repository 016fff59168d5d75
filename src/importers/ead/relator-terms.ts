// MARC relator terms as finding aids write them in @role or @relator ("Photographer", "former
// owner") and the code each stands for (https://id.loc.gov/vocabulary/relators): the terms
// archival description uses most. A term not here is a warning, the agent linked without a
// relator; a code ("pht", or "Photographer (pht)") needs no table.
import { lookupTable } from "../../registry/dictionary.js";

const TERMS: Readonly<Record<string, string>> = lookupTable({
  actor: "act",
  addressee: "rcp",
  annotator: "ann",
  architect: "arc",
  artist: "art",
  author: "aut",
  cartographer: "ctg",
  collector: "col",
  compiler: "com",
  composer: "cmp",
  conductor: "cnd",
  contributor: "ctb",
  correspondent: "crp",
  creator: "cre",
  curator: "cur",
  dedicatee: "dte",
  depicted: "dpc",
  designer: "dsr",
  director: "drt",
  distributor: "dst",
  donor: "dnr",
  editor: "edt",
  engraver: "egr",
  filmmaker: "fmk",
  "former owner": "fmo",
  funder: "fnd",
  illustrator: "ill",
  interviewee: "ive",
  interviewer: "ivr",
  lyricist: "lyr",
  manufacturer: "mfr",
  musician: "mus",
  narrator: "nrt",
  owner: "own",
  performer: "prf",
  photographer: "pht",
  printer: "prt",
  producer: "pro",
  publisher: "pbl",
  recipient: "rcp",
  scribe: "scr",
  signer: "sgn",
  singer: "sng",
  speaker: "spk",
  sponsor: "spn",
  translator: "trl",
  videographer: "vdg",
  witness: "wit",
});

/** The relator code a term stands for ("Photographer", "former owner."), if the table knows it. */
export function relatorCode(term: string): string | undefined {
  const key = term
    .trim()
    .toLowerCase()
    .replace(/[.\s]+$/, "")
    .replace(/\s+/g, " ");
  return Object.hasOwn(TERMS, key) ? TERMS[key] : undefined;
}
