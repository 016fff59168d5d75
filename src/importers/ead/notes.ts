// EAD's descriptive notes as ArchivesSpace notes. Most (scopecontent, bioghist, accessrestrict,
// ...) are multipart notes: <head> is the label, paragraphs become text subnotes and <chronlist>
// and <list> become chronology, ordered and defined list subnotes, in document order. A note
// element nested in another (a <legalstatus> in an <accessrestrict>, a <note> anywhere) becomes
// a note of its own, as ArchivesSpace reads them. The did notes (abstract, physloc,
// materialspec, physfacet, physdesc) are singlepart; <bibliography> and <index> have their own
// shapes. @id is the note's persistent_id, @audience="internal" unpublishes it.
import type {
  Note,
  NoteBibliography,
  NoteChronology,
  NoteDefinedlist,
  NoteIndex,
  NoteIndexItem,
  NoteMultipart,
  NoteOrderedlist,
  NoteSinglepart,
  NoteText,
} from "../../../generated/types/index.js";
import { lookupTable } from "../../registry/dictionary.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { nonEmpty, put } from "../record-draft.js";
import { at, publishOf, type EadContext } from "./context.js";
import { attribute, childrenNamed, elementChildren, markup, pieces, plain } from "./text.js";

/** What a multipart note holds. */
type Subnote = NoteText | NoteChronology | NoteOrderedlist | NoteDefinedlist;

/** Note elements that are multipart notes of the same type (EAD3's <legalstatus> is one too). */
export const MULTIPART_NOTES: ReadonlySet<string> = new Set([
  "accruals",
  "appraisal",
  "arrangement",
  "bioghist",
  "accessrestrict",
  "userestrict",
  "custodhist",
  "altformavail",
  "originalsloc",
  "fileplan",
  "odd",
  "acqinfo",
  "legalstatus",
  "otherfindaid",
  "phystech",
  "prefercite",
  "processinfo",
  "relatedmaterial",
  "scopecontent",
  "separatedmaterial",
  "dimensions",
]);

/** Note elements whose content is mixed (text and inline elements, no paragraphs). */
const MIXED_CONTENT: ReadonlySet<string> = new Set(["legalstatus", "dimensions"]);

/** Every element that starts a note of its own wherever it is. */
export const NOTE_ELEMENTS: ReadonlySet<string> = new Set([...MULTIPART_NOTES, "note", "bibliography", "index"]);

/**
 * A note's @id, as ArchivesSpace reads it (Arca's and ArchivesSpace's exports prefix ids that are not XML names with
 * `aspace_`).
 */
export function persistentId(element: XmlElement): string | undefined {
  return attribute(element, "id")?.replace(/^aspace_/, "");
}

function base<T extends { persistent_id?: string; publish?: boolean }>(element: XmlElement, note: T): T {
  put(note, "persistent_id", persistentId(element));
  put(note, "publish", publishOf(element));
  return note;
}

export function singlepartNote(type: string, content: string[], element: XmlElement): NoteSinglepart {
  const note = base<NoteSinglepart>(element, {
    jsonmodel_type: "note_singlepart",
    type,
    content: nonEmpty(
      content.flatMap((text) => pieces(text)),
      "",
    ),
  });
  put(note, "label", attribute(element, "label"));
  return note;
}

export function multipartTextNote(type: string, text: string, element: XmlElement): NoteMultipart {
  const note = base<NoteMultipart>(element, {
    jsonmodel_type: "note_multipart",
    type,
    subnotes: pieces(text).map((content) => ({ jsonmodel_type: "note_text", content })),
  });
  put(note, "label", attribute(element, "label"));
  return note;
}

function listHead(element: XmlElement): string | undefined {
  const head = childrenNamed(element, "head")[0];
  return head === undefined ? undefined : markup(head) || undefined;
}

/** A <chronitem>'s date: EAD 2002 <date>, EAD3 <datesingle>, <daterange> or <dateset>. */
function chronDate(item: XmlElement): string | undefined {
  const date = childrenNamed(item, "date", "datesingle", "daterange", "dateset")[0];
  if (date === undefined) return undefined;
  if (date.name === "daterange")
    return (
      elementChildren(date)
        .map((part) => plain(part))
        .filter(Boolean)
        .join("-") || undefined
    );
  return plain(date) || attribute(date, "standarddate") || attribute(date, "normal");
}

function chronology(element: XmlElement): NoteChronology {
  const subnote: NoteChronology = { jsonmodel_type: "note_chronology" };
  put(subnote, "title", listHead(element));
  put(subnote, "publish", publishOf(element));
  const items: NonNullable<NoteChronology["items"]> = [];
  for (const item of childrenNamed(element, "chronitem")) {
    const entry: (typeof items)[number] = {};
    put(entry, "event_date", chronDate(item));
    const events = childrenNamed(item, "event", "eventgrp", "chronitemset").flatMap((child) =>
      child.name === "event" ? [child] : childrenNamed(child, "event"),
    );
    entry.events = events.map((event) => markup(event, { breaks: true }));
    items.push(entry);
  }
  subnote.items = items;
  return subnote;
}

/** EAD 2002 @numeration and EAD3's CSS-like names as note_orderedlist enumerations. */
const NUMERATIONS: Readonly<Record<string, string>> = lookupTable({
  arabic: "arabic",
  decimal: "arabic",
  loweralpha: "loweralpha",
  "lower-alpha": "loweralpha",
  "lower-latin": "loweralpha",
  upperalpha: "upperalpha",
  "upper-alpha": "upperalpha",
  "upper-latin": "upperalpha",
  lowerroman: "lowerroman",
  "lower-roman": "lowerroman",
  upperroman: "upperroman",
  "upper-roman": "upperroman",
});

function list(ctx: EadContext, element: XmlElement): NoteDefinedlist | NoteOrderedlist {
  const type = (attribute(element, "type") ?? attribute(element, "listtype"))?.toLowerCase();
  const defitems = childrenNamed(element, "defitem");
  if (type === "deflist" || defitems.length > 0) {
    const subnote: NoteDefinedlist = { jsonmodel_type: "note_definedlist" };
    put(subnote, "title", listHead(element));
    put(subnote, "publish", publishOf(element));
    const items = defitems.map((item) => {
      const label = childrenNamed(item, "label")[0];
      const value = childrenNamed(item, "item")[0];
      return {
        label: label === undefined ? "" : markup(label, { breaks: true }),
        value: value === undefined ? "" : markup(value, { breaks: true }),
      };
    });
    const loose = childrenNamed(element, "item");
    if (loose.length > 0)
      ctx.warn(`a defined list has ${loose.length} <item> outside <defitem>: kept as items without label`, at(element));
    for (const item of loose) items.push({ label: "", value: markup(item, { breaks: true }) });
    subnote.items = items;
    return subnote;
  }
  const numeration = attribute(element, "numeration")?.toLowerCase();
  const subnote: NoteOrderedlist = {
    jsonmodel_type: "note_orderedlist",
    enumeration: (numeration === undefined ? undefined : NUMERATIONS[numeration]) ?? "null",
  };
  put(subnote, "title", listHead(element));
  put(subnote, "publish", publishOf(element));
  subnote.items = childrenNamed(element, "item").map((item) => markup(item, { breaks: true }));
  return subnote;
}

/**
 * A multipart note and the notes nested in it. `type` is the note's type (a nested <note>
 * takes its parent's, as in ArchivesSpace).
 */
export function multipartNotes(ctx: EadContext, element: XmlElement, type: string): Note[] {
  const note = base<NoteMultipart>(element, { jsonmodel_type: "note_multipart", type });
  const head = childrenNamed(element, "head")[0];
  put(note, "label", head === undefined ? attribute(element, "label") : markup(head) || undefined);
  const nested: Note[] = [];
  const subnotes: Subnote[] = [];
  let paragraphs: string[] = [];
  const flush = (): void => {
    const text = paragraphs.filter(Boolean).join("\n\n");
    paragraphs = [];
    if (text !== "") for (const content of pieces(text)) subnotes.push({ jsonmodel_type: "note_text", content });
  };
  if (MIXED_CONTENT.has(element.name) && childrenNamed(element, "p").length === 0) {
    paragraphs.push(markup(element, { breaks: true, skip: (child) => child.name === "head" }));
  } else {
    let inline = "";
    const endInline = (): void => {
      if (inline.trim() !== "") paragraphs.push(markup({ ...element, children: [inline] }, { breaks: true }));
      inline = "";
    };
    for (const child of element.children) {
      if (typeof child === "string") {
        inline += child;
        continue;
      }
      if (child.name === "head") continue;
      if (child.name === "lb") {
        inline += "\u0000";
        continue;
      }
      if (child.name === "chronlist" || child.name === "list") {
        endInline();
        flush();
        subnotes.push(child.name === "chronlist" ? chronology(child) : list(ctx, child));
      } else if (NOTE_ELEMENTS.has(child.name)) {
        endInline();
        nested.push(...notesOf(ctx, child, type));
      } else if (
        child.name === "p" ||
        child.name === "blockquote" ||
        child.name === "address" ||
        child.name === "table" ||
        child.name === "descgrp"
      ) {
        endInline();
        paragraphs.push(
          child.name === "p"
            ? markup(child, { breaks: true })
            : markup({ ...element, children: [child] }, { breaks: true }),
        );
      } else {
        // Inline content directly in the note (mixed content such as <legalstatus>).
        inline += markup({ ...element, children: [child] });
      }
    }
    endInline();
  }
  flush();
  note.subnotes = subnotes;
  return [note, ...nested];
}

function bibliography(ctx: EadContext, element: XmlElement): [NoteBibliography, ...Note[]] {
  const note = base<NoteBibliography>(element, { jsonmodel_type: "note_bibliography", content: [""] });
  const head = childrenNamed(element, "head")[0];
  put(note, "label", head === undefined ? undefined : markup(head) || undefined);
  const content: string[] = [];
  const items: string[] = [];
  const nested: Note[] = [];
  for (const child of elementChildren(element)) {
    if (child.name === "head") continue;
    if (child.name === "bibref" || child.name === "archref") items.push(markup(child, { breaks: true }));
    else if (child.name === "bibliography") {
      const [inner, ...more] = bibliography(ctx, child);
      items.push(...(inner.items ?? []));
      content.push(...inner.content.filter(Boolean));
      nested.push(...more);
    } else if (child.name === "list")
      items.push(...childrenNamed(child, "item").map((item) => markup(item, { breaks: true })));
    else if (NOTE_ELEMENTS.has(child.name)) nested.push(...notesOf(ctx, child, "odd"));
    else content.push(markup({ ...element, children: [child] }, { breaks: true }));
  }
  note.content = nonEmpty(
    content.filter(Boolean).flatMap((text) => pieces(text)),
    "",
  );
  put(note, "items", items.filter(Boolean));
  return [note, ...nested];
}

/** Index entry elements and the note_index_item type each gives. */
const INDEX_ITEM_TYPES: Readonly<Record<string, string>> = lookupTable({
  name: "name",
  persname: "person",
  famname: "family",
  corpname: "corporate_entity",
  subject: "subject",
  function: "function",
  occupation: "occupation",
  title: "title",
  geogname: "geographic_name",
  genreform: "genre_form",
});

function index(ctx: EadContext, element: XmlElement): Note[] {
  const note = base<NoteIndex>(element, { jsonmodel_type: "note_index", content: [""] });
  const head = childrenNamed(element, "head")[0];
  put(note, "label", head === undefined ? undefined : markup(head) || undefined);
  const content: string[] = [];
  const items: NoteIndexItem[] = [];
  const nested: Note[] = [];
  for (const child of elementChildren(element)) {
    if (child.name === "head" || child.name === "listhead") continue;
    if (child.name === "indexentry") {
      const reference = childrenNamed(child, "ref", "ptr", "ptrgrp")[0];
      const names = elementChildren(child)
        .flatMap((part) => (part.name === "namegrp" ? elementChildren(part) : [part]))
        .filter((part) => INDEX_ITEM_TYPES[part.name] !== undefined);
      if (names.length === 0) ctx.warn("an <indexentry> without a name, subject or title element: left out", at(child));
      for (const name of names) {
        const item: NoteIndexItem = {
          jsonmodel_type: "note_index_item",
          value: plain(name),
          type: INDEX_ITEM_TYPES[name.name],
        };
        if (reference !== undefined) {
          put(item, "reference", attribute(reference, "target"));
          put(item, "reference_text", plain(reference));
        }
        if (item.value === "") ctx.warn(`an empty <${name.name}> in an index entry: left out`, at(name));
        else items.push(item);
      }
    } else if (child.name === "index") nested.push(...index(ctx, child));
    else if (NOTE_ELEMENTS.has(child.name)) nested.push(...notesOf(ctx, child, "odd"));
    else content.push(markup({ ...element, children: [child] }, { breaks: true }));
  }
  note.content = nonEmpty(
    content.filter(Boolean).flatMap((text) => pieces(text)),
    "",
  );
  put(note, "items", items);
  return [note, ...nested];
}

/** The notes a note element gives (itself and those nested in it). `parentType`: what a <note> stands for. */
export function notesOf(ctx: EadContext, element: XmlElement, parentType = "odd"): Note[] {
  if (element.name === "bibliography") return bibliography(ctx, element);
  if (element.name === "index") return index(ctx, element);
  if (element.name === "note") return multipartNotes(ctx, element, parentType);
  return multipartNotes(ctx, element, element.name);
}

/** Whether a list of notes holds nothing but empty text (a note element with only a <head>, say). */
export function isEmptyNote(note: Note): boolean {
  return note.jsonmodel_type === "note_multipart" && (note.subnotes ?? []).length === 0 && note.label === undefined;
}
