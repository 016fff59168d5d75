// Subjects as MARC subject added entries, by their first term's type as ArchivesSpace's exporter
// places them (630 uniform title, 648 chronological, 650 topical, 651 geographic, 655 genre/form,
// 656 occupation), except functions: 657, MARC's field for them (ArchivesSpace writes 656, which
// reads back as an occupation). The first term is $a, the others subdivisions ($v $x $y $z $t),
// the authority id $0. The thesaurus: second indicator 0 for LCSH, 2 for MeSH, else 7 with the
// source in $2 (ArchivesSpace's 1, 3, 5 and 6 name thesauri Arca's importer cannot tell apart).
import type { Subject } from "../../generated/types/index.js";
import { str } from "./ead-terms.js";
import { dataField, type MarcField } from "./marc21-fields.js";
import { subdivisions } from "./marc21-names.js";

function tagOf(termType: string | undefined): string {
  switch (termType) {
    case "uniform_title":
      return "630";
    case "temporal":
      return "648";
    case "geographic":
    case "cultural_context":
      return "651";
    case "genre_form":
    case "style_period":
      return "655";
    case "occupation":
      return "656";
    case "function":
      return "657";
    default:
      return "650";
  }
}

function sourceOf(source: string | undefined): { ind2: string; code?: string } {
  if (source === "lcsh") return { ind2: "0" };
  if (source === "mesh") return { ind2: "2" };
  return { ind2: "7", code: source ?? "local" };
}

export function subjectField(subject: Subject): MarcField | undefined {
  const [first, ...rest] = subject.terms;
  const tag = tagOf(str(first.term_type));
  const source = sourceOf(str(subject.source));
  return dataField(tag, tag === "630" ? "0" : " ", source.ind2, [
    ["a", first.term],
    ...subdivisions(rest),
    ["0", subject.authority_id],
    ["2", source.code],
  ]);
}
