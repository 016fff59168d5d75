// Linked agents as MARC name headings, as ArchivesSpace's MARC exporter places them: the main
// creator as the main entry (100 person or family, 110 corporate body, 111 meeting), agents
// linked as subjects as subject added entries (600/610/611, their link's terms as $v $x $y $z
// subdivisions; software as an uncontrolled 653), the other creators and the sources as added
// entries (700/710/711). The name's parts go to the subfields Arca's MARCXML importer reads them
// from, so an exported name reads back as the same name:
//   person     $a primary, rest (inverted) or primary rest (direct)  $b number
//              $c prefix, title, suffix  $q fuller form  $d dates  $g qualifier
//   family     $a family name  $c prefix  $d dates  $g qualifier
//   corporate  $a primary  $b subordinate names (meeting: $e)  $c location  $d dates  $n number
//              $g qualifier
// then the relator ($e term, $j for meetings; $4 code), $0 the authority id, and for subject
// entries the name's source: second indicator 0 for the NACO file, 4 for none, else 7 with $2.
// A source's role is written as the term "source" (ArchivesSpace writes "former owner", which
// reads back as the relator fmo, a value the link did not have).
import type { LinkedAgent, Term } from "../../generated/types/index.js";
import { lookupTable } from "../registry/dictionary.js";
import { displayName, preferred, str } from "./ead-terms.js";
import type { LinkedAgentRecord } from "./export-records.js";
import { commaBefore, parenthesized, subfieldsOf, type MarcField, type SubfieldSpec } from "./marc21-fields.js";

/** Where a heading goes: the main entry (1xx), a subject added entry (6xx) or an added entry (7xx). */
export type HeadingKind = "main" | "subject" | "added";

const TAG_BLOCK: Readonly<Record<HeadingKind, string>> = lookupTable({ main: "1", subject: "6", added: "7" });

/** A subject term's subdivision code ($v form, $x general, $y chronological, $z geographic, $t title). */
export function subdivisionCode(termType: string | undefined): string | undefined {
  switch (termType) {
    case "genre_form":
    case "style_period":
      return "v";
    case "topical":
    case "cultural_context":
      return "x";
    case "temporal":
      return "y";
    case "geographic":
      return "z";
    case "uniform_title":
      return "t";
    default:
      return undefined;
  }
}

/** A term list as subdivision subfields (terms of a type MARC has no subdivision for are left out). */
export function subdivisions(terms: readonly Term[] | undefined): SubfieldSpec[] {
  return (terms ?? []).flatMap((term) => {
    const code = subdivisionCode(str(term.term_type));
    return code === undefined ? [] : [[code, term.term] as const];
  });
}

/** The second indicator and $2 of a subject entry's name: 0 for the NACO authority file, 4 for none, 7 with $2. */
function nameSource(source: string | undefined): { ind2: string; code?: string } {
  if (source === undefined) return { ind2: "4" };
  if (source === "naf") return { ind2: "0" };
  return { ind2: "7", code: source };
}

/** The relator subfields: $e (or $j) terms and $4 codes, by where the heading goes and the link's role. */
function relatorSpecs(kind: HeadingKind, link: LinkedAgent, termCode: string): SubfieldSpec[] {
  const relator = str(link.relator);
  const specs: SubfieldSpec[] = [];
  if (kind === "added" && link.role === "source") specs.push([termCode, "source"]);
  else if (kind !== "subject" && relator === undefined) specs.push([termCode, "creator"]);
  if (relator !== undefined) specs.push(["4", relator]);
  return specs;
}

interface Heading {
  suffix: string;
  ind1: string;
  name: SubfieldSpec[];
  /** The relator term's code: $e, or $j for a meeting. */
  termCode: string;
  /** Subfields that the one before ends with a comma (ISBD). */
  commas: string[];
}

function headingOf(agent: LinkedAgentRecord): Heading | undefined {
  switch (agent.type) {
    case "agent_person": {
      const name = preferred(agent.record.names);
      if (name === undefined) return undefined;
      const direct = str(name.name_order) === "direct";
      const parts = [str(name.primary_name), str(name.rest_of_name)].filter((part) => part !== undefined);
      const extras = [str(name.prefix), str(name.title), str(name.suffix)].filter((part) => part !== undefined);
      return {
        suffix: "00",
        ind1: direct ? "0" : "1",
        name: [
          ["a", parts.join(direct ? " " : ", ")],
          ["b", name.number],
          ["c", extras.join(", ")],
          ["q", parenthesized(name.fuller_form)],
          ["d", name.dates],
          ["g", parenthesized(name.qualifier)],
        ],
        termCode: "e",
        commas: ["c", "d", "e"],
      };
    }
    case "agent_family": {
      const name = preferred(agent.record.names);
      if (name === undefined) return undefined;
      return {
        suffix: "00",
        ind1: "3",
        name: [
          ["a", name.family_name],
          ["c", name.prefix],
          ["d", name.dates],
          ["g", parenthesized(name.qualifier)],
        ],
        termCode: "e",
        commas: ["c", "d", "e"],
      };
    }
    case "agent_corporate_entity": {
      const name = preferred(agent.record.names);
      if (name === undefined) return undefined;
      const meeting = name.conference_meeting === true;
      const subordinate = meeting ? "e" : "b";
      return {
        suffix: meeting ? "11" : "10",
        ind1: "2",
        name: [
          ["a", name.primary_name],
          [subordinate, name.subordinate_name_1],
          [subordinate, name.subordinate_name_2],
          ["c", name.location],
          ["d", name.dates],
          ["n", name.number],
          ["g", parenthesized(name.qualifier)],
        ],
        termCode: meeting ? "j" : "e",
        commas: meeting ? [] : ["e"],
      };
    }
    default:
      return undefined;
  }
}

/**
 * The heading of `agent` linked by `link`, as a `kind` entry; undefined when MARC has no field for it (software
 * other than as a subject, a name without its primary part).
 */
export function nameField(agent: LinkedAgentRecord, link: LinkedAgent, kind: HeadingKind): MarcField | undefined {
  const name = displayName(agent);
  if (agent.type === "agent_software") {
    const software = preferred(agent.record.names);
    if (kind !== "subject" || software === undefined) return undefined;
    const subfields = subfieldsOf([["a", software.software_name]]);
    return subfields.length === 0 ? undefined : { tag: "653", ind1: " ", ind2: " ", subfields };
  }
  const heading = headingOf(agent);
  if (heading === undefined || name === undefined) return undefined;
  const source = kind === "subject" ? nameSource(str(name.source)) : { ind2: " " };
  const subfields = subfieldsOf([
    ...heading.name,
    ...relatorSpecs(kind, link, heading.termCode),
    ...(kind === "subject" ? subdivisions(link.terms) : []),
    ["0", name.authority_id],
    ["2", source.code],
  ]);
  if (subfields[0]?.code !== "a") return undefined;
  return {
    tag: `${TAG_BLOCK[kind]}${heading.suffix}`,
    ind1: heading.ind1,
    ind2: source.ind2,
    subfields: commaBefore(subfields, heading.commas),
  };
}
