// Extents from <physdesc> (EAD 2002: <extent> children, or plain text such as "1.75 linear feet
// (4 boxes)"), EAD3 <physdescstructured> and EAD3 <physdescset> (several structured descriptions
// of one thing: ".40 cubic feet" space occupied and "1 box" carrier, recorded as one extent
// with the others as its container summary). As ArchivesSpace reads them: a physdesc's first
// extent gives number and type, its further extents the container summary, its <physfacet> and
// <dimensions> the physical details and dimensions. A physdesc with no extent becomes notes.
// An extent with a number whose unit is not in the extent type list is still an extent (an
// archive's extent statements are never dropped into notes): of the type of the unit's head word
// when the list has it ("3 archival boxes" is boxes when an administrator added boxes), else
// ArchivesSpace's other_unmapped, the text kept as its container summary, with a warning.
// Only a statement with no number at all becomes a note.
import type { Extent, Note } from "../../../generated/types/index.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { extentUnitCandidates, readQuantity, unitKey } from "../extent-units.js";
import { put } from "../record-draft.js";
import { at, comparable, type EadContext } from "./context.js";
import { singlepartNote, multipartTextNote } from "./notes.js";
import { attribute, childrenNamed, elementChildren, hasOwnText, markup, plain } from "./text.js";

export interface ExtentsAndNotes {
  extents: Extent[];
  notes: Note[];
}

/** "5.0 Linear feet" -> number and the rest; undefined when the text does not start with a quantity (extent-units). */
export function splitExtent(text: string): { number: string; unit: string; rest?: string } | undefined {
  const read = readQuantity(text);
  if (read === undefined || read.rest === "") return undefined;
  // "1.75 linear feet (4 boxes)": the parenthesis is a container summary. An approximate quantity ("ca. 3
  // linear feet") keeps its statement there too, since an extent's number cannot say "about".
  const unit = /^(.*?)\s*(\(.*\))$/.exec(read.rest);
  const parenthesis = unit === null || unit[1] === "" ? undefined : unit[2];
  const rest = read.approximate ? text.trim() : parenthesis;
  return {
    number: read.number,
    unit: unit === null || parenthesis === undefined ? read.rest : unit[1],
    ...(rest !== undefined && { rest }),
  };
}

/** The extent type a unit stands for (extent-units.ts), if the list holds it. */
function extentType(ctx: EadContext, unit: string): string | undefined {
  for (const candidate of extentUnitCandidates(unit)) {
    const type = ctx.match("extent_extent_type", candidate);
    if (type !== undefined) return type;
  }
  return undefined;
}

/** ArchivesSpace's enumeration value for what an import cannot map. */
export const OTHER_UNMAPPED = "other_unmapped";

/** The first phrase of a unit: "linear feet" in "linear feet and 1 oversize box", "boxes" in "boxes, 3 folders". */
const firstPhrase = (unit: string): string => unit.split(/\s+(?:and|&|plus|in)\s+|[,;(:]/)[0].trim();

/** The head word of a unit phrase: "boxes" in "archival half boxes". */
const headWord = (phrase: string): string => phrase.split(/\s+/).at(-1) ?? "";

/**
 * An extent whose unit the list lacks: of its first phrase's type, else that phrase's head word's, if the list has
 * one, else other_unmapped; the whole text as its container summary. Undefined (then the caller keeps a note) only
 * when the list has none of these.
 */
function looseExtent(
  ctx: EadContext,
  element: XmlElement,
  read: { number: string; unit: string; text: string; portion: "whole" | "part" },
): Extent | undefined {
  const phrase = firstPhrase(read.unit);
  const type =
    [phrase, headWord(phrase)]
      .filter((candidate) => candidate !== "" && unitKey(candidate) !== unitKey(read.unit))
      .map((candidate) => extentType(ctx, candidate))
      .find((found) => found !== undefined) ??
    (ctx.values("extent_extent_type").includes(OTHER_UNMAPPED) ? OTHER_UNMAPPED : undefined);
  if (type === undefined) return undefined;
  ctx.warnOnce(
    `extent unit ${read.unit}`,
    `the extent unit '${read.unit}' is not in the extent_extent_type list: '${read.text}' is recorded as ${read.number} ${type}, its text kept as the container summary (an extent type can be added at /config/enumerations)`,
    at(element),
  );
  return {
    jsonmodel_type: "extent",
    portion: read.portion,
    number: read.number,
    extent_type: type,
    container_summary: read.text,
  };
}

/** An extent statement with no number: a physdesc note. */
function unnumbered(ctx: EadContext, element: XmlElement, text: string): Note {
  ctx.warn(`extent '${text}' does not start with a number: kept as a physdesc note`, at(element));
  return singlepartNote("physdesc", [text], element);
}

const portionOf = (value: string | undefined): "whole" | "part" =>
  value !== undefined && comparable(value) === "part" ? "part" : "whole";

/** A <physdesc> of text only (no <extent>, <physfacet>, <dimensions>): a summary when it follows a structured one. */
export function isSummaryText(physdesc: XmlElement): boolean {
  return childrenNamed(physdesc, "extent", "physfacet", "dimensions").length === 0 && plain(physdesc) !== "";
}

/** One EAD 2002 (or EAD3 unstructured) <physdesc>. */
export function physdesc(ctx: EadContext, element: XmlElement): ExtentsAndNotes {
  const result: ExtentsAndNotes = { extents: [], notes: [] };
  const extents = childrenNamed(element, "extent");
  const portion = attribute(element, "altrender") ?? attribute(element, "coverage");
  const physfacet = childrenNamed(element, "physfacet");
  const dimensions = childrenNamed(element, "dimensions");
  let extent: Extent | undefined;
  const summaries: string[] = [];
  for (const child of extents) {
    const text = plain(child);
    if (text === "") continue;
    const parts = splitExtent(text);
    // ArchivesSpace's reading: the extents after the first are its container summary.
    if (extent !== undefined) summaries.push(text);
    else if (parts === undefined) result.notes.push(unnumbered(ctx, child, text));
    else {
      const type = extentType(ctx, parts.unit);
      extent =
        type === undefined
          ? looseExtent(ctx, child, { ...parts, text, portion: portionOf(portion) })
          : { jsonmodel_type: "extent", portion: portionOf(portion), number: parts.number, extent_type: type };
      if (extent === undefined) result.notes.push(singlepartNote("physdesc", [text], child));
      else if (type !== undefined && parts.rest !== undefined) summaries.push(parts.rest);
    }
  }
  // Plain text "1.75 linear feet (4 boxes)" in a physdesc without <extent>.
  if (
    extents.length === 0 &&
    hasOwnText(element) &&
    elementChildren(element).every((child) =>
      ["physfacet", "dimensions", "genreform", "lb", "emph"].includes(child.name),
    )
  ) {
    const text = plain({ ...element, children: element.children.filter((child) => typeof child === "string") });
    const parts = splitExtent(text);
    const type = parts === undefined ? undefined : extentType(ctx, parts.unit);
    if (parts !== undefined && type !== undefined) {
      extent = { jsonmodel_type: "extent", portion: "whole", number: parts.number, extent_type: type };
      if (parts.rest !== undefined) summaries.push(parts.rest);
    } else if (parts !== undefined) {
      extent = looseExtent(ctx, element, { ...parts, text, portion: portionOf(portion) });
    }
  }
  if (extent !== undefined) {
    put(extent, "container_summary", [extent.container_summary ?? "", ...summaries].filter(Boolean).join("; "));
    put(extent, "physical_details", physfacet.map((child) => markup(child)).join("; "));
    put(extent, "dimensions", dimensions.map((child) => plain(child)).join("; "));
    result.extents.push(extent);
    return result;
  }
  // No extent: ArchivesSpace makes the physdesc a note ("unless it only contains extent tags").
  for (const child of physfacet)
    result.notes.push(singlepartNote("physfacet", [markup(child, { breaks: true })], child));
  for (const child of dimensions)
    result.notes.push(multipartTextNote("dimensions", markup(child, { breaks: true }), child));
  const rest = markup(element, {
    breaks: true,
    skip: (child) => child.name === "physfacet" || child.name === "dimensions" || child.name === "extent",
  });
  if (rest !== "") result.notes.push(singlepartNote("physdesc", [rest], element));
  return result;
}

/** A structured description's quantity and unit as written, and its extent type when the unit names one. */
function structuredParts(
  ctx: EadContext,
  element: XmlElement,
): { quantity: string; number?: string; unit: string; text: string; type: string | undefined; numeric: boolean } {
  const quantity = plain(childrenNamed(element, "quantity")[0] ?? { ...element, children: [] });
  const unitElement = childrenNamed(element, "unittype")[0];
  const unit = unitElement === undefined ? "" : plain(unitElement);
  const read = readQuantity(quantity);
  const numeric = read !== undefined && read.rest === "";
  const type = unit === "" || !numeric ? undefined : extentType(ctx, unit);
  return { quantity, number: read?.number, unit, text: `${quantity} ${unit}`.trim(), type, numeric };
}

/** EAD3 <physdescstructured>: quantity, unittype, physfacet, dimensions, descriptivenote. */
export function physdescstructured(ctx: EadContext, element: XmlElement): ExtentsAndNotes {
  const { quantity, number = quantity, unit, text, type, numeric } = structuredParts(ctx, element);
  const coverage = portionOf(attribute(element, "coverage"));
  const loose =
    type === undefined && numeric ? looseExtent(ctx, element, { number, unit, text, portion: coverage }) : undefined;
  if (type === undefined && loose === undefined) {
    const notes = [numeric ? singlepartNote("physdesc", [text], element) : unnumbered(ctx, element, text)];
    for (const child of childrenNamed(element, "physfacet"))
      notes.push(singlepartNote("physfacet", [markup(child, { breaks: true })], child));
    for (const child of childrenNamed(element, "dimensions"))
      notes.push(multipartTextNote("dimensions", markup(child, { breaks: true }), child));
    return { extents: [], notes };
  }
  const extent: Extent = loose ?? {
    jsonmodel_type: "extent",
    portion: coverage,
    number,
    extent_type: type as string,
  };
  put(
    extent,
    "physical_details",
    childrenNamed(element, "physfacet")
      .map((child) => markup(child))
      .join("; "),
  );
  put(
    extent,
    "dimensions",
    childrenNamed(element, "dimensions")
      .map((child) => plain(child))
      .join("; "),
  );
  put(
    extent,
    "container_summary",
    [extent.container_summary ?? "", ...childrenNamed(element, "descriptivenote").map((child) => markup(child))]
      .filter(Boolean)
      .join("; "),
  );
  return { extents: [extent], notes: [] };
}

/**
 * EAD3 <physdescset>: one extent from the description whose unit is an extent type (space occupied
 * first: ".40 cubic feet"), the others ("1 box", a carrier) and the set's descriptive note its
 * container summary, as ArchivesSpace records such a set. A set none of whose units is an extent
 * type is read as its descriptions one by one (each kept as a note, with a warning).
 */
export function physdescset(ctx: EadContext, element: XmlElement): ExtentsAndNotes {
  const members = childrenNamed(element, "physdescstructured").map((member) => ({
    member,
    parts: structuredParts(ctx, member),
  }));
  const usable = members.filter(({ parts }) => parts.type !== undefined);
  const chosen =
    usable.find(({ member }) => member.attributes.physdescstructuredtype === "spaceoccupied") ??
    usable[0] ??
    members.find(({ parts }) => parts.numeric);
  if (chosen === undefined)
    return extentsOf(
      ctx,
      members.map(({ member }) => member),
    );
  const read = physdescstructured(ctx, chosen.member);
  const [extent] = read.extents;
  if (extent !== undefined) {
    const summary = [
      extent.container_summary,
      ...members.filter((one) => one !== chosen).map(({ parts }) => parts.text),
      ...childrenNamed(element, "descriptivenote").map((child) => markup(child)),
    ].filter((part): part is string => part !== undefined && part !== "");
    put(extent, "container_summary", summary.join("; "));
  }
  return read;
}

/**
 * All extents and extent notes of a <did>, in order. An EAD3 <physdesc> of plain text right after a structured
 * extent is that extent's container summary (Arca's and ArchivesSpace's EAD3 exports write it so, with
 * localtype="container_summary"; NCSU's files without: `25.25 linear feet` then `28 archival boxes, 7 cartons`).
 */
export function extentsOf(ctx: EadContext, elements: readonly XmlElement[]): ExtentsAndNotes {
  const result: ExtentsAndNotes = { extents: [], notes: [] };
  let previousStructured: Extent | undefined;
  for (const element of elements) {
    if (element.name === "physdescstructured" || element.name === "physdescset") {
      const read = element.name === "physdescset" ? physdescset(ctx, element) : physdescstructured(ctx, element);
      result.extents.push(...read.extents);
      result.notes.push(...read.notes);
      previousStructured = read.extents[0];
      continue;
    }
    if (element.name !== "physdesc") continue;
    if (
      previousStructured !== undefined &&
      previousStructured.container_summary === undefined &&
      isSummaryText(element)
    ) {
      put(previousStructured, "container_summary", markup(element));
      previousStructured = undefined;
      continue;
    }
    previousStructured = undefined;
    const read = physdesc(ctx, element);
    result.extents.push(...read.extents);
    result.notes.push(...read.notes);
  }
  return result;
}
