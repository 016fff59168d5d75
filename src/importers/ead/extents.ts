// Extents from <physdesc> (EAD 2002: <extent> children, or plain text such as "1.75 linear feet
// (4 boxes)"), EAD3 <physdescstructured> and EAD3 <physdescset> (several structured descriptions
// of one thing: ".40 cubic feet" space occupied and "1 box" carrier, recorded as one extent
// with the others as its container summary). As ArchivesSpace reads them: a physdesc's first
// extent gives number and type, its further extents the container summary, its <physfacet> and
// <dimensions> the physical details and dimensions. A physdesc with no extent becomes notes.
// An extent whose type is not in the extent type list cannot be an extent: it is kept as a
// physdesc note, with a warning.
import type { Extent, Note } from "../../../generated/types/index.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { extentUnitCandidates } from "../extent-units.js";
import { put } from "../record-draft.js";
import { at, comparable, type EadContext } from "./context.js";
import { singlepartNote, multipartTextNote } from "./notes.js";
import { attribute, childrenNamed, elementChildren, hasOwnText, markup, plain } from "./text.js";

export interface ExtentsAndNotes {
  extents: Extent[];
  notes: Note[];
}

/** "5.0 Linear feet" -> number and the rest; undefined when the text does not start with a number. */
export function splitExtent(text: string): { number: string; unit: string; rest?: string } | undefined {
  const match = /^(\d+(?:[.,]\d+)?|\.\d+)\s*(.*)$/.exec(text.trim());
  if (match === null || match[2] === "") return undefined;
  // "1.75 linear feet (4 boxes)": the parenthesis is a container summary.
  const unit = /^(.*?)\s*(\(.*\))$/.exec(match[2]);
  return unit === null || unit[1] === ""
    ? { number: match[1].replace(",", "."), unit: match[2] }
    : { number: match[1].replace(",", "."), unit: unit[1], rest: unit[2] };
}

/** The extent type a unit stands for (extent-units.ts), if the list holds it. */
function extentType(ctx: EadContext, unit: string): string | undefined {
  for (const candidate of extentUnitCandidates(unit)) {
    const type = ctx.match("extent_extent_type", candidate);
    if (type !== undefined) return type;
  }
  return undefined;
}

function unmappable(ctx: EadContext, element: XmlElement, text: string, unit: string | undefined): Note {
  const why =
    unit === undefined
      ? "does not start with a number"
      : `has the type '${unit}', which is not in the extent_extent_type list (${ctx.values("extent_extent_type").join(", ")})`;
  ctx.warn(`extent '${text}' ${why}: kept as a physdesc note`, at(element));
  return singlepartNote("physdesc", [text], element);
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
    const type = parts === undefined ? undefined : extentType(ctx, parts.unit);
    if (extent === undefined && parts !== undefined && type !== undefined) {
      extent = {
        jsonmodel_type: "extent",
        portion: portion !== undefined && comparable(portion) === "part" ? "part" : "whole",
        number: parts.number,
        extent_type: type,
      };
      if (parts.rest !== undefined) summaries.push(parts.rest);
    } else if (extent !== undefined || parts === undefined) {
      // ArchivesSpace's reading: the extents after the first are its container summary.
      if (extent !== undefined) summaries.push(text);
      else result.notes.push(unmappable(ctx, child, text, undefined));
    } else {
      result.notes.push(unmappable(ctx, child, text, parts.unit));
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
    }
  }
  if (extent !== undefined) {
    put(extent, "container_summary", summaries.join("; "));
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
): { quantity: string; unit: string; text: string; type: string | undefined } {
  const quantity = plain(childrenNamed(element, "quantity")[0] ?? { ...element, children: [] });
  const unitElement = childrenNamed(element, "unittype")[0];
  const unit = unitElement === undefined ? "" : plain(unitElement);
  const numeric = /^\d+(?:[.,]\d+)?$|^\.\d+$/.test(quantity);
  const type = unit === "" || !numeric ? undefined : extentType(ctx, unit);
  return { quantity, unit, text: `${quantity} ${unit}`.trim(), type };
}

/** EAD3 <physdescstructured>: quantity, unittype, physfacet, dimensions, descriptivenote. */
export function physdescstructured(ctx: EadContext, element: XmlElement): ExtentsAndNotes {
  const { quantity, unit, text, type } = structuredParts(ctx, element);
  if (type === undefined) {
    const notes = [unmappable(ctx, element, text, /^\d/.test(quantity) ? unit : undefined)];
    for (const child of childrenNamed(element, "physfacet"))
      notes.push(singlepartNote("physfacet", [markup(child, { breaks: true })], child));
    for (const child of childrenNamed(element, "dimensions"))
      notes.push(multipartTextNote("dimensions", markup(child, { breaks: true }), child));
    return { extents: [], notes };
  }
  const coverage = attribute(element, "coverage");
  const extent: Extent = {
    jsonmodel_type: "extent",
    portion: coverage === "part" ? "part" : "whole",
    number: quantity.replace(",", "."),
    extent_type: type,
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
    childrenNamed(element, "descriptivenote")
      .map((child) => markup(child))
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
  const chosen = usable.find(({ member }) => member.attributes.physdescstructuredtype === "spaceoccupied") ?? usable[0];
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
 * All extents and extent notes of a <did>, in order. An EAD3 <physdesc localtype="container_summary">
 * right after a structured extent is that extent's container summary (as Arca's and
 * ArchivesSpace's EAD3 exports write it).
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
      element.attributes.localtype === "container_summary" &&
      previousStructured.container_summary === undefined
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
