// A described record's notes as EAD. The did notes (abstract, physdesc, physloc, materialspec,
// physfacet, dimensions, langmaterial) go inside <did>; the others become their own elements
// (<scopecontent>, <bioghist>, ...: head from the note's label, paragraphs and structured
// subnotes in order), <bibliography> and <index>. An unpublished note is left out unless
// include_unpublished, then marked audience="internal". A note's persistent_id is its @id.
import type { Note, NoteBibliography, NoteIndex, NoteMultipart } from "../../generated/types/index.js";
import type { EadContext } from "./ead-context.js";
import { ACCESS_ELEMENTS, ead3Numeration, INDEX_ITEM_ELEMENTS, str, xmlId } from "./ead-terms.js";
import type { DescribedRecord } from "./export-records.js";

type Subnote = NonNullable<NoteMultipart["subnotes"]>[number];

/** Note types that live in <did>. */
const DID_NOTE_TYPES: ReadonlySet<string> = new Set([
  "abstract",
  "physdesc",
  "physloc",
  "materialspec",
  "physfacet",
  "dimensions",
  "langmaterial",
]);

/** Note types whose EAD element holds mixed content (no <p>, no <head>). */
const MIXED_CONTENT_TYPES: ReadonlySet<string> = new Set([
  "abstract",
  "physdesc",
  "physloc",
  "materialspec",
  "physfacet",
  "dimensions",
  "langmaterial",
  "legalstatus",
]);

function noteAttributes(ctx: EadContext, note: Note, withLabel = false): Record<string, string | undefined> {
  return {
    id: xmlId(str(note.persistent_id)),
    label: withLabel ? str(note.label) : undefined,
    audience: ctx.audience(note),
  };
}

/** The plain text of a multipart note's text subnotes (for a mixed-content element). */
function subnoteTexts(ctx: EadContext, note: NoteMultipart): string[] {
  return (note.subnotes ?? []).flatMap((subnote) => {
    const text = subnote.jsonmodel_type === "note_text" && ctx.shown(subnote) ? str(subnote.content) : undefined;
    return text === undefined ? [] : [text];
  });
}

function isDidNote(note: Note): boolean {
  return (
    (note.jsonmodel_type === "note_singlepart" || note.jsonmodel_type === "note_multipart") &&
    DID_NOTE_TYPES.has(note.type)
  );
}

/** The did notes of `record`, in order. */
export function writeDidNotes(ctx: EadContext, record: DescribedRecord): void {
  const xml = ctx.xml;
  for (const note of record.notes ?? []) {
    if (note.jsonmodel_type !== "note_singlepart" && note.jsonmodel_type !== "note_multipart") continue;
    if (!isDidNote(note) || !ctx.shown(note)) continue;
    const type = note.type;
    const texts = note.jsonmodel_type === "note_multipart" ? subnoteTexts(ctx, note) : note.content;
    if (type === "physfacet" || type === "dimensions") {
      // Children of <physdesc> in both versions.
      xml.open("physdesc", { audience: ctx.audience(note) });
      xml.open(type, { id: xmlId(str(note.persistent_id)), label: str(note.label) });
      ctx.lines(texts);
      xml.close(type);
      xml.close("physdesc");
    } else if (type === "langmaterial" && ctx.ead3) {
      // EAD3's <langmaterial> holds <language> elements, not text.
      xml.open("langmaterial", noteAttributes(ctx, note, true));
      xml.open("language");
      ctx.lines(texts);
      xml.close("language");
      xml.close("langmaterial");
    } else {
      xml.open(type, noteAttributes(ctx, note, true));
      ctx.lines(texts);
      xml.close(type);
    }
  }
}

/** Every other note of `record` (multipart, bibliography, index), in order. */
export function writeDescriptiveNotes(ctx: EadContext, record: DescribedRecord): void {
  for (const note of record.notes ?? []) {
    if (isDidNote(note) || !ctx.shown(note)) continue;
    switch (note.jsonmodel_type) {
      case "note_multipart":
        writeMultipart(ctx, note);
        break;
      case "note_bibliography":
        writeBibliography(ctx, note);
        break;
      case "note_index":
        writeIndex(ctx, note);
        break;
      default:
        // Singlepart notes of other types do not exist (their types are all did notes).
        break;
    }
  }
}

function head(ctx: EadContext, note: Note): void {
  ctx.prose("head", str(note.label));
}

function writeMultipart(ctx: EadContext, note: NoteMultipart): void {
  const xml = ctx.xml;
  const type = str(note.type);
  if (type === undefined) return;
  if (type === "legalstatus" && !ctx.ead3) {
    // EAD 2002 has <legalstatus> only inside <accessrestrict>, as mixed content: its id and
    // label go on the <legalstatus>, so it reads back as the one note it is.
    xml.open("accessrestrict", { audience: ctx.audience(note) });
    xml.open("legalstatus", noteAttributes(ctx, note, true));
    ctx.lines(subnoteTexts(ctx, note));
    xml.close("legalstatus");
    xml.close("accessrestrict");
    return;
  }
  xml.open(type, noteAttributes(ctx, note));
  head(ctx, note);
  if (MIXED_CONTENT_TYPES.has(type) && !(type === "legalstatus" && ctx.ead3)) ctx.lines(subnoteTexts(ctx, note));
  else writeSubnotes(ctx, note);
  xml.close(type);
}

function writeSubnotes(ctx: EadContext, note: NoteMultipart): void {
  for (const subnote of note.subnotes ?? []) if (ctx.shown(subnote)) writeSubnote(ctx, subnote);
}

function writeSubnote(ctx: EadContext, subnote: Subnote): void {
  const xml = ctx.xml;
  const audience = ctx.audience(subnote);
  switch (subnote.jsonmodel_type) {
    case "note_text":
      ctx.paragraphs(str(subnote.content), { audience });
      break;
    case "note_chronology":
      xml.open("chronlist", { audience });
      ctx.prose("head", str(subnote.title));
      for (const item of subnote.items ?? []) writeChronItem(ctx, item);
      xml.close("chronlist");
      break;
    case "note_orderedlist": {
      const numeration = str(subnote.enumeration);
      const attributes = ctx.ead3
        ? { listtype: "ordered", numeration: ead3Numeration(numeration), audience }
        : { type: "ordered", numeration: numeration === "null" ? undefined : numeration, audience };
      xml.open("list", attributes);
      ctx.prose("head", str(subnote.title));
      for (const item of subnote.items ?? []) ctx.proseElement("item", item);
      xml.close("list");
      break;
    }
    case "note_definedlist":
      xml.open("list", ctx.ead3 ? { listtype: "deflist", audience } : { type: "deflist", audience });
      ctx.prose("head", str(subnote.title));
      for (const item of subnote.items ?? []) {
        xml.open("defitem");
        ctx.proseElement("label", str(item.label));
        ctx.proseElement("item", str(item.value));
        xml.close("defitem");
      }
      xml.close("list");
      break;
  }
}

type ChronItem = NonNullable<Extract<Subnote, { jsonmodel_type: "note_chronology" }>["items"]>[number];

function writeChronItem(ctx: EadContext, item: ChronItem): void {
  const xml = ctx.xml;
  const events = item.events ?? [];
  xml.open("chronitem");
  // The date is required in both versions, even when the item has none.
  xml.element(ctx.ead3 ? "datesingle" : "date", {}, str(item.event_date) ?? "");
  if (events.length === 1) ctx.proseElement("event", events[0]);
  else if (events.length > 1) {
    xml.open(ctx.ead3 ? "chronitemset" : "eventgrp");
    for (const event of events) ctx.proseElement("event", event);
    xml.close();
  }
  xml.close("chronitem");
}

function writeBibliography(ctx: EadContext, note: NoteBibliography): void {
  const xml = ctx.xml;
  xml.open("bibliography", noteAttributes(ctx, note));
  head(ctx, note);
  for (const paragraph of note.content) ctx.paragraphs(paragraph);
  for (const item of note.items ?? []) ctx.prose("bibref", item);
  xml.close("bibliography");
}

function writeIndex(ctx: EadContext, note: NoteIndex): void {
  const xml = ctx.xml;
  xml.open("index", noteAttributes(ctx, note));
  head(ctx, note);
  for (const paragraph of note.content) ctx.paragraphs(paragraph);
  for (const item of note.items ?? []) {
    const element = INDEX_ITEM_ELEMENTS[str(item.type) ?? ""];
    const value = str(item.value);
    if (element === undefined) continue;
    xml.open("indexentry");
    if (value !== undefined) {
      if (ctx.ead3 && ACCESS_ELEMENTS.has(element)) ctx.accessTerm(element, {}, [{ text: value }]);
      else xml.element(element, {}, value);
    }
    const referenceText = str(item.reference_text);
    if (referenceText !== undefined) xml.element("ref", { target: xmlId(str(item.reference)) }, referenceText);
    xml.close("indexentry");
  }
  xml.close("index");
}
