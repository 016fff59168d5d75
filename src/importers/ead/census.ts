// The census of a finding aid for the fidelity report (../fidelity.ts): what each described unit
// holds, counted from its elements and never through the mapping (description.ts and the
// modules it calls), so a mapping that drops something shows up as a shortfall. The rules, per
// unit (<archdesc> or a component):
//
// - components: each component element of every <dsc>.
// - agents and subjects: each distinct name (persname, corpname, famname, name) and term
//   (subject, geogname, genreform, occupation, function, title) in a <controlaccess> (nested
//   ones too) or, for names, an <origination>; distinct in the file by kind, letters and digits
//   of the name and authority id (terms: by authority id, else by kind, @source and text).
// - notes: each note element (scopecontent, bioghist, odd, ...; EAD3's too) that is a child of
//   the unit, of a <descgrp>, or of another note element (a <bioghist> in a <bioghist>); in the
//   <did>: abstract, physloc, materialspec, note/didnote, dimensions, each <unittitle> after the
//   first, and each part of a <physdesc> that states no extent (its physfacets, dimensions, text).
// - dates: each <unitdate> with text or @normal, and each <datesingle>/<daterange> of a
//   <unitdatestructured>; a <did> giving its dates both ways (NCSU's files do) states them once.
// - extents: each <physdesc> stating a number (in an <extent> or its own text), each numeric
//   <physdescstructured>, each <physdescset> (one extent, as ArchivesSpace records a set).
// - containers: each distinct top container: the first <container> of a <did> and each later one
//   with an @id and no @parent (the others are its folders); by @containerid, else type and indicator.
// - digital objects: each <dao> outside a group, <daogrp> and <daoset> with a link or a title.
import { readQuantity } from "../extent-units.js";
import type { FidelityCounts } from "../fidelity.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { AGENT_ELEMENTS, sameName, SUBJECT_ELEMENTS } from "./access-terms.js";
import { isSummaryText } from "./extents.js";
import { NOTE_ELEMENTS } from "./notes.js";
import { attribute, childrenNamed, elementChildren, hasOwnText, plain } from "./text.js";

const DID_NOTES = new Set(["abstract", "physloc", "materialspec", "note", "didnote", "dimensions"]);
const DAO_ELEMENTS = new Set(["dao", "daogrp", "daoset"]);

const normal = (text: string): string => text.replace(/\s+/g, " ").trim().toLowerCase();

/** Whether an element holds any text at all: stops at the first (the census runs on every component). */
function hasText(element: XmlElement): boolean {
  const stack: Array<XmlElement | string> = [...element.children];
  while (stack.length > 0) {
    const child = stack.pop() as XmlElement | string;
    if (typeof child === "string") {
      if (child.trim() !== "") return true;
    } else stack.push(...child.children);
  }
  return false;
}

/** Every descendant of `root` (not itself) that `wanted` accepts, without entering `skip`ped ones; no recursion. */
function descendants(
  root: XmlElement,
  wanted: (element: XmlElement) => boolean,
  enter: (element: XmlElement) => boolean = () => true,
): XmlElement[] {
  const found: XmlElement[] = [];
  const stack = [...elementChildren(root)].reverse();
  while (stack.length > 0) {
    const element = stack.pop() as XmlElement;
    if (wanted(element)) found.push(element);
    if (enter(element)) stack.push(...elementChildren(element).reverse());
  }
  return found;
}

export class SourceCensus {
  private readonly agents = new Set<string>();
  private readonly subjects = new Set<string>();
  private readonly containers = new Set<string>();

  /**
   * What one unit holds, from its children other than components (or part of them: description met later), that
   * was not counted before (agents, subjects and containers once per file).
   */
  unit(children: readonly XmlElement[], isComponent: boolean): FidelityCounts {
    const did = children.find((child) => child.name === "did");
    const counts: FidelityCounts = {
      components: isComponent ? 1 : 0,
      notes: this.unitNotes(children) + (did === undefined ? 0 : this.didNotes(did)),
      dates: did === undefined ? 0 : this.dates(did),
      extents: did === undefined ? 0 : this.extents(did),
      digital_objects: this.digitalObjects(children, did),
      agents: 0,
      subjects: 0,
      containers: did === undefined ? 0 : this.topContainers(did),
    };
    const terms = [
      ...accessTerms(children),
      ...(did === undefined
        ? []
        : childrenNamed(did, "origination").flatMap((origination) => elementChildren(origination))),
    ];
    for (const term of terms) {
      if (!hasText(term)) continue;
      const authority = attribute(term, "authfilenumber") ?? attribute(term, "identifier");
      const agentType = AGENT_ELEMENTS[term.name];
      if (agentType !== undefined) {
        const identity = JSON.stringify([agentType, sameName(plain(term)), authority ?? null]);
        if (!this.agents.has(identity)) {
          this.agents.add(identity);
          counts.agents = (counts.agents ?? 0) + 1;
        }
      } else if (SUBJECT_ELEMENTS[term.name] !== undefined) {
        const identity = JSON.stringify(
          authority !== undefined
            ? [authority]
            : [term.name, normal(attribute(term, "source") ?? ""), normal(plain(term))],
        );
        if (!this.subjects.has(identity)) {
          this.subjects.add(identity);
          counts.subjects = (counts.subjects ?? 0) + 1;
        }
      }
    }
    return counts;
  }

  /** Note elements among the unit's children, in <descgrp>s, and nested in note elements. */
  private unitNotes(children: readonly XmlElement[]): number {
    let count = 0;
    const stack = [...children];
    while (stack.length > 0) {
      const element = stack.pop() as XmlElement;
      if (element.name === "descgrp") stack.push(...elementChildren(element));
      else if (NOTE_ELEMENTS.has(element.name)) {
        if (hasText(element) || childrenNamed(element, "head").length > 0) count += 1;
        // A bibliography inside a bibliography is more of its items, not a note of its own.
        for (const child of elementChildren(element))
          if (NOTE_ELEMENTS.has(child.name) && !(child.name === "bibliography" && element.name === "bibliography"))
            stack.push(child);
      }
    }
    return count;
  }

  private didNotes(did: XmlElement): number {
    let count = 0;
    let titles = 0;
    const summaries = structuredSummaries(did);
    for (const child of elementChildren(did)) {
      if (summaries.has(child)) continue;
      if (DID_NOTES.has(child.name) && hasText(child)) count += 1;
      else if (child.name === "unittitle") {
        const text = plain({
          ...child,
          children: child.children.filter(
            (part) => typeof part === "string" || (part.name !== "unitdate" && part.name !== "unitdatestructured"),
          ),
        });
        if (text !== "" && ++titles > 1) count += 1;
      } else if (child.name === "physdesc" && !statesExtent(child)) {
        const parts = childrenNamed(child, "physfacet", "dimensions").filter(hasText).length;
        const ownText = plain({
          ...child,
          children: child.children.filter(
            (part) => typeof part === "string" || (part.name !== "physfacet" && part.name !== "dimensions"),
          ),
        });
        count += parts + (ownText === "" ? 0 : 1);
      }
    }
    return count;
  }

  private dates(did: XmlElement): number {
    const elements = [
      ...childrenNamed(did, "unitdate", "unitdatestructured"),
      ...childrenNamed(did, "unittitle").flatMap((title) => childrenNamed(title, "unitdate", "unitdatestructured")),
    ];
    let plainDates = 0;
    let structured = 0;
    for (const element of elements) {
      if (element.name === "unitdate") {
        if (hasText(element) || attribute(element, "normal") !== undefined) plainDates += 1;
        continue;
      }
      const parts = childrenNamed(element, "datesingle", "daterange", "dateset").flatMap((part) =>
        part.name === "dateset" ? childrenNamed(part, "datesingle", "daterange") : [part],
      );
      structured += parts.length;
    }
    if (plainDates === 0 || structured === 0) return plainDates + structured;
    return Math.max(plainDates, structured);
  }

  private extents(did: XmlElement): number {
    let count = 0;
    const summaries = structuredSummaries(did);
    for (const child of elementChildren(did)) {
      if (summaries.has(child)) continue;
      if (child.name === "physdesc" && statesExtent(child)) count += 1;
      else if (child.name === "physdescstructured" && numericQuantity(child)) count += 1;
      else if (child.name === "physdescset" && childrenNamed(child, "physdescstructured").some(numericQuantity))
        count += 1;
    }
    return count;
  }

  private topContainers(did: XmlElement): number {
    let count = 0;
    let first = true;
    for (const container of childrenNamed(did, "container")) {
      const indicator = plain(container);
      if (indicator === "") continue;
      const starts =
        first || (attribute(container, "id") !== undefined && attribute(container, "parent") === undefined);
      first = false;
      if (!starts) continue;
      const barcode = attribute(container, "containerid");
      const type = attribute(container, "type") ?? attribute(container, "localtype") ?? "";
      const identity = JSON.stringify(barcode !== undefined ? ["barcode", barcode] : [normal(type), indicator]);
      if (this.containers.has(identity)) continue;
      this.containers.add(identity);
      count += 1;
    }
    return count;
  }

  private digitalObjects(children: readonly XmlElement[], did: XmlElement | undefined): number {
    const holders = [...children.filter((child) => child.name !== "did"), ...(did === undefined ? [] : [did])];
    let count = 0;
    for (const holder of holders) {
      const daos = DAO_ELEMENTS.has(holder.name)
        ? [holder]
        : descendants(
            holder,
            (element) => DAO_ELEMENTS.has(element.name),
            (element) => !DAO_ELEMENTS.has(element.name) && (element === did || element.name === "descgrp"),
          );
      count += daos.filter(
        (dao) =>
          attribute(dao, "href") !== undefined ||
          attribute(dao, "title") !== undefined ||
          hasText(dao) ||
          descendants(dao, (element) => attribute(element, "href") !== undefined).length > 0,
      ).length;
    }
    return count;
  }
}

/** The children of <controlaccess>es (nested ones, and those in <descgrp>s, too) that are not themselves one. */
function accessTerms(children: readonly XmlElement[]): XmlElement[] {
  const terms: XmlElement[] = [];
  const stack = children.map((element) => ({ element, inAccess: false })).reverse();
  while (stack.length > 0) {
    const { element, inAccess } = stack.pop() as { element: XmlElement; inAccess: boolean };
    if (element.name === "controlaccess" || element.name === "descgrp")
      stack.push(
        ...elementChildren(element)
          .map((child) => ({ element: child, inAccess: inAccess || element.name === "controlaccess" }))
          .reverse(),
      );
    else if (inAccess) terms.push(element);
  }
  return terms;
}

/** EAD3: a text <physdesc> right after a <physdescstructured> is its container summary (as ArchivesSpace exports). */
function structuredSummaries(did: XmlElement): Set<XmlElement> {
  const summaries = new Set<XmlElement>();
  const physical = elementChildren(did).filter((child) => child.name.startsWith("physdesc"));
  physical.forEach((child, i) => {
    if (i > 0 && physical[i - 1].name === "physdescstructured" && child.name === "physdesc" && isSummaryText(child))
      summaries.add(child);
  });
  return summaries;
}

/** Whether a <physdesc> states an extent: an <extent> or its own text that is a quantity and a unit. */
function statesExtent(physdesc: XmlElement): boolean {
  const quantityAndUnit = (text: string): boolean => (readQuantity(text)?.rest ?? "") !== "";
  const extents = childrenNamed(physdesc, "extent");
  if (extents.length > 0) return extents.some((extent) => quantityAndUnit(plain(extent)));
  const ownText = plain({ ...physdesc, children: physdesc.children.filter((part) => typeof part === "string") });
  return hasOwnText(physdesc) && quantityAndUnit(ownText);
}

function numericQuantity(structured: XmlElement): boolean {
  const quantity = childrenNamed(structured, "quantity")[0];
  return quantity !== undefined && readQuantity(plain(quantity))?.rest === "";
}
