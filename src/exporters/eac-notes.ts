// An agent's notes as EAC-CPF, as ArchivesSpace's serializer writes them: a biographical/historical
// note is a <biogHist>, its subnotes <abstract>, <p>, <citation>, <list> (ordered: @localType
// "ordered" and each item's the enumeration; defined: "defined" and each item's its label),
// <chronList> (one <chronItem> per event, its date as written) and <outline>; general context
// and structure/genealogy notes hold the same blocks; mandates and legal statuses (cpf.xsd gives
// them no paragraphs) a <citation> and a <descriptiveNote>. Text is written as text: stored
// inline markup stays characters (EAC's only inline element is <span>), as ArchivesSpace writes
// it. Where cpf.xsd is stricter than ArchivesSpace's output the structure bends to stay valid: a
// <biogHist> opens with at most one <abstract> (a later one is a <p>), empty lists and
// chronologies are left out, an outline level holds one item, a chronology item without events
// still has its <event>, and the other notes come before the biographies.
import type {
  AgentNote,
  NoteBioghist,
  NoteCitation,
  NoteOutline,
  NoteOutlineLevel,
} from "../../generated/types/index.js";
import { writeEventDate } from "./eac-dates.js";
import { anyUri, text } from "./eac-terms.js";
import type { XmlWriter } from "./xml-writer.js";

type BioghistSubnote = NonNullable<NoteBioghist["subnotes"]>[number];
type Subnote = Exclude<BioghistSubnote, { jsonmodel_type: "note_abstract" }>;
type Chronology = Extract<Subnote, { jsonmodel_type: "note_chronology" }>;

/** `<descriptiveNote>` with one `<p>` per text given, when any is. */
export function writeDescriptiveNote(xml: XmlWriter, paragraphs: ReadonlyArray<string | undefined>): void {
  const shown = paragraphs.map(text).filter((paragraph) => paragraph !== undefined);
  if (shown.length === 0) return;
  xml.open("descriptiveNote");
  for (const paragraph of shown) xml.element("p", {}, paragraph);
  xml.close("descriptiveNote");
}

/** Notes written in description's choice of elements, before the biographies (cpf.xsd's order). */
export function writeContextNotes(xml: XmlWriter, notes: readonly AgentNote[] | undefined): void {
  const order = ["note_general_context", "note_mandate", "note_legal_status", "note_structure_or_genealogy"];
  const sorted = (notes ?? [])
    .filter((note) => note.jsonmodel_type !== "note_bioghist")
    .sort((a, b) => order.indexOf(a.jsonmodel_type) - order.indexOf(b.jsonmodel_type));
  for (const note of sorted) {
    switch (note.jsonmodel_type) {
      case "note_general_context":
      case "note_structure_or_genealogy": {
        const name = note.jsonmodel_type === "note_general_context" ? "generalContext" : "structureOrGenealogy";
        xml.open(name);
        for (const subnote of note.subnotes ?? []) writeSubnote(xml, subnote);
        xml.close(name);
        break;
      }
      case "note_mandate":
      case "note_legal_status": {
        const name = note.jsonmodel_type === "note_mandate" ? "mandate" : "legalStatus";
        const subnotes = note.subnotes ?? [];
        const citation = subnotes.find((subnote) => subnote.jsonmodel_type === "note_citation");
        xml.open(name);
        if (citation !== undefined) writeCitation(xml, citation);
        writeDescriptiveNote(
          xml,
          subnotes
            .filter((subnote) => subnote !== citation)
            .map((subnote) => (subnote.jsonmodel_type === "note_text" ? subnote.content : subnote.content.join("--"))),
        );
        xml.close(name);
        break;
      }
      default:
        break;
    }
  }
}

/** The biographical/historical notes, each a <biogHist>, in order. */
export function writeBiographies(xml: XmlWriter, notes: readonly AgentNote[] | undefined): void {
  for (const note of notes ?? []) {
    if (note.jsonmodel_type !== "note_bioghist") continue;
    xml.open("biogHist");
    (note.subnotes ?? []).forEach((subnote, index) => {
      if (subnote.jsonmodel_type !== "note_abstract") writeSubnote(xml, subnote);
      else if (index === 0) xml.optional("abstract", text(subnote.content.join("--")));
      else xml.optional("p", text(subnote.content.join("--")));
    });
    xml.close("biogHist");
  }
}

function writeSubnote(xml: XmlWriter, subnote: Subnote): void {
  switch (subnote.jsonmodel_type) {
    case "note_text":
      xml.optional("p", text(subnote.content));
      break;
    case "note_citation":
      writeCitation(xml, subnote);
      break;
    case "note_orderedlist": {
      const items = (subnote.items ?? []).map(text);
      if (items.length === 0) return;
      xml.open("list", { localType: "ordered" });
      for (const item of items) xml.element("item", { localType: anyUri(subnote.enumeration) }, item ?? "");
      xml.close("list");
      break;
    }
    case "note_definedlist": {
      const items = subnote.items ?? [];
      if (items.length === 0) return;
      xml.open("list", { localType: "defined" });
      for (const item of items) xml.element("item", { localType: anyUri(item.label) }, text(item.value) ?? "");
      xml.close("list");
      break;
    }
    case "note_chronology":
      writeChronology(xml, subnote);
      break;
    case "note_outline":
      writeOutline(xml, subnote);
      break;
  }
}

function writeCitation(xml: XmlWriter, citation: NoteCitation): void {
  const link = citation.xlink ?? {};
  const href = anyUri(link.href);
  xml.element(
    "citation",
    {
      "xlink:type": href === undefined ? undefined : "simple",
      "xlink:href": href,
      "xlink:title": href === undefined ? undefined : text(link.title),
    },
    text(citation.content.join("--")) ?? "",
  );
}

function writeChronology(xml: XmlWriter, chronology: Chronology): void {
  const items = chronology.items ?? [];
  if (items.length === 0) return;
  xml.open("chronList");
  for (const item of items) {
    const events = item.events ?? [];
    // One <chronItem> per event (it holds one); an item without events keeps its date.
    for (const event of events.length === 0 ? [""] : events) {
      xml.open("chronItem");
      writeEventDate(xml, item.event_date);
      xml.element("event", {}, text(event) ?? "");
      xml.close("chronItem");
    }
  }
  xml.close("chronList");
}

/**
 * An outline: each string item a <level> with its <item>, the levels listed after it nested in
 * that level (cpf.xsd's <level> holds one item, then levels); levels before any string hang
 * under an empty item.
 */
function writeOutline(xml: XmlWriter, outline: NoteOutline): void {
  const levels = (outline.levels ?? []).filter(hasItems);
  if (levels.length === 0) return;
  xml.open("outline");
  for (const level of levels) writeLevelItems(xml, level);
  xml.close("outline");
}

function hasItems(level: NoteOutlineLevel): boolean {
  return (level.items ?? []).some((item) => typeof item === "string" || hasItems(item));
}

function writeLevelItems(xml: XmlWriter, level: NoteOutlineLevel): void {
  let open = false;
  for (const item of level.items ?? []) {
    if (typeof item === "string") {
      if (open) xml.close("level");
      xml.open("level");
      xml.element("item", {}, text(item) ?? "");
      open = true;
    } else if (hasItems(item)) {
      if (!open) {
        xml.open("level");
        xml.element("item");
        open = true;
      }
      writeLevelItems(xml, item);
    }
  }
  if (open) xml.close("level");
}
