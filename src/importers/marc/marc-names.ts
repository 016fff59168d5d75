// MARC name headings (X00 persons and families, X10 corporate bodies, X11 meetings: 100/110/111,
// 400/410/411, 600/610/611, 700/710/711) as agent names, and the relator ($e terms, $4 codes)
// of a described record's link to the agent.
import type { Term } from "../../../generated/types/index.js";
import { lookupTable } from "../../registry/dictionary.js";
import type { EnumeratedValues } from "../csv/enumerated-values.js";
import type { AgentType, NameDraft, NameTextField } from "../agent-records.js";
import { values, withoutEndPunctuation, type DataField } from "./marc-record.js";

export interface MarcName {
  type: AgentType;
  name: NameDraft;
  /** Subfield codes the name has no place for (reported by the caller). */
  unused: string[];
}

/** A 6xx name's subdivisions ($v form, $x general, $y chronological, $z geographic), as a linked agent's terms. */
const SUBDIVISIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({ v: "genre_form", x: "topical", y: "temporal", z: "geographic" }),
);

/**
 * Subfields read elsewhere or not data: linkage and control ($6, $8, $w), relators, the source ($2), authority ids ($0,
 * $1).
 */
const IGNORED = new Set(["6", "8", "e", "4", "j", "2", "0", "1", "w"]);

/** The name source ($2 of a 6xx, or the 6xx second indicator 0: LC name authority). */
const NAME_SOURCES: Readonly<Record<string, string>> = lookupTable({
  "naco authority file": "naf",
  lcnaf: "naf",
  naf: "naf",
  "library of congress name authority file": "naf",
  "local sources": "local",
  local: "local",
  ulan: "ulan",
  nad: "nad",
});

const joinParts = (parts: string[], separator: string): string | undefined => {
  const cleaned = parts.map(withoutEndPunctuation).filter((part) => part !== "");
  return cleaned.length === 0 ? undefined : cleaned.join(separator);
};

function set(name: NameDraft, field: NameTextField, value: string | undefined): void {
  if (value !== undefined && value !== "") name[field] = value;
}

/** The agent type and name a heading field stands for; undefined when it has no $a. */
export function marcName(field: DataField): MarcName | undefined {
  const kind = field.tag.slice(1);
  const primary = joinParts(values(field, "a"), " ");
  if (primary === undefined) return undefined;
  const name: NameDraft = {};
  let type: AgentType;
  let used: string[];
  if (kind === "00" && field.ind1 === "3") {
    type = "agent_family";
    set(name, "family_name", primary);
    set(name, "prefix", joinParts(values(field, "c"), ", "));
    used = ["a", "c", "d", "g"];
  } else if (kind === "00") {
    type = "agent_person";
    if (field.ind1 === "0") {
      name.primary_name = primary;
      name.name_order = "direct";
    } else {
      // Surname first: "Primary, Rest of name".
      const comma = primary.indexOf(",");
      if (comma > 0) {
        name.primary_name = primary.slice(0, comma).trim();
        name.rest_of_name = primary.slice(comma + 1).trim();
      } else name.primary_name = primary;
      name.name_order = "inverted";
    }
    set(name, "number", joinParts(values(field, "b"), " "));
    set(name, "title", joinParts(values(field, "c"), ", "));
    set(name, "fuller_form", joinParts(values(field, "q"), " ")?.replace(/^\((.*)\)$/, "$1"));
    used = ["a", "b", "c", "d", "g", "q"];
  } else {
    type = "agent_corporate_entity";
    name.primary_name = primary;
    const subordinates = joinParts(values(field, kind === "11" ? "e" : "b"), ". ")?.split(". ") ?? [];
    set(name, "subordinate_name_1", subordinates[0]);
    set(name, "subordinate_name_2", subordinates.slice(1).join(". "));
    set(name, "number", joinParts(values(field, "n"), " "));
    set(name, "location", joinParts(values(field, "c"), ", "));
    if (kind === "11") name.conference_meeting = true;
    used = ["a", "b", "c", "d", "g", "n", ...(kind === "11" ? ["e", "q"] : [])];
  }
  set(name, "dates", joinParts(values(field, "d"), " "));
  const qualifier = joinParts([...values(field, "g"), ...(kind === "11" ? values(field, "q") : [])], " ");
  set(name, "qualifier", qualifier?.replace(/^\((.*)\)$/, "$1"));
  set(name, "authority_id", values(field, "0")[0]);
  const isSubject = field.tag.startsWith("6");
  const unused = field.subfields
    .map((subfield) => subfield.code)
    .filter((code) => !used.includes(code) && !IGNORED.has(code) && !(isSubject && SUBDIVISIONS.has(code)));
  return { type, name, unused: [...new Set(unused)] };
}

/** The name source a 6xx heading declares ($2, or second indicator 0), if it is one of name_source. */
export function nameSource(field: DataField, enumerations: EnumeratedValues): { source?: string; unknown?: string } {
  if (field.ind2 === "0") return { source: enumerations.match("name_source", "naf") };
  const declared = values(field, "2")[0];
  if (declared === undefined) return {};
  const known = NAME_SOURCES[declared.trim().toLowerCase()] ?? declared;
  const source = enumerations.match("name_source", known);
  return source === undefined ? { unknown: declared } : { source };
}

/** A 6xx name's subdivisions as linked agent terms. */
export function nameSubdivisions(field: DataField, vocabulary: string): Term[] {
  if (!field.tag.startsWith("6")) return [];
  return field.subfields
    .flatMap((subfield) => {
      const termType = SUBDIVISIONS.get(subfield.code);
      return termType === undefined
        ? []
        : [{ term: withoutEndPunctuation(subfield.value), term_type: termType, vocabulary }];
    })
    .filter((term) => term.term !== "");
}

/** Common relator terms written out instead of coded. */
const RELATOR_TERMS: Readonly<Record<string, string>> = lookupTable({
  author: "aut",
  collector: "col",
  compiler: "com",
  composer: "cmp",
  correspondent: "crp",
  depositor: "dpt",
  donor: "dnr",
  editor: "edt",
  "former owner": "fmo",
  illustrator: "ill",
  interviewee: "ive",
  interviewer: "ivr",
  photographer: "pht",
  publisher: "pbl",
  recipient: "rcp",
  "associated name": "asn",
  artist: "art",
  architect: "arc",
  producer: "pro",
});

/** Relators that make a 7xx agent the records' source rather than their creator. */
const SOURCE_RELATORS = new Set(["dnr", "dpt", "fmo", "sll", "col"]);

export interface MarcRelator {
  /** linked_agent_role: creator, source or subject. */
  role: string;
  relator?: string;
  /** Relator text that is neither a code nor a known term. */
  unknown?: string;
}

/** The role and relator of a heading's link: 1xx/7xx creators (7xx donors and former owners sources), 6xx subjects. */
export function marcRelator(field: DataField): MarcRelator {
  const terms = values(field, field.tag.endsWith("11") ? "j" : "e").map(withoutEndPunctuation);
  const codes = values(field, "4").map((code) => code.trim().toLowerCase());
  let role = field.tag.startsWith("6") ? "subject" : "creator";
  let relator: string | undefined = codes.find((code) => /^[a-z]{3}$/.test(code));
  let unknown: string | undefined;
  for (const term of terms) {
    const lower = term.toLowerCase();
    // ArchivesSpace's own exports write the role itself ("creator", "source") in $e.
    if (["creator", "source", "subject"].includes(lower)) {
      if (!field.tag.startsWith("6")) role = lower;
      continue;
    }
    const code =
      /\(([a-z]{3})\)$/i.exec(term)?.[1]?.toLowerCase() ??
      RELATOR_TERMS[lower] ??
      (/^[a-z]{3}$/.test(lower) ? lower : undefined);
    if (code === undefined) unknown = term;
    else relator ??= code;
  }
  if (field.tag.startsWith("7") && relator !== undefined && SOURCE_RELATORS.has(relator)) role = "source";
  return { role, ...(relator !== undefined && { relator }), ...(unknown !== undefined && { unknown }) };
}
