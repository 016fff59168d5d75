// One described unit, <archdesc> or a component (<c>, <c01>..<c12>), as the fields its record
// shares with the other: title, identifier, level, dates, extents, languages, notes, agents,
// subjects, instances. The records these link to (agents, subjects, top containers, digital
// objects) are handed to the context as they are met, to go out before this record.
import type {
  ArchivalDate,
  ArchivalObject,
  Extent,
  ExternalId,
  Instance,
  LangMaterial,
  LinkedAgent,
  Note,
  Ref,
  Resource,
} from "../../../generated/types/index.js";
import { ImportError } from "../pending.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { controlaccess, origination } from "./access-terms.js";
import { put, type Draft } from "../record-draft.js";
import { at, publishOf, type EadContext } from "./context.js";
import type { FindingAidFields } from "./header.js";
import { datesOf } from "./dates.js";
import { extentsOf, OTHER_UNMAPPED } from "./extents.js";
import { containerInstances, digitalObjectInstance } from "./instances.js";
import { langMaterials } from "./languages.js";
import { NOTE_ELEMENTS, isEmptyNote, multipartNotes, multipartTextNote, notesOf, singlepartNote } from "./notes.js";
import { attribute, childrenNamed, elementChildren, markup, plain } from "./text.js";

/**
 * What is read of an <archdesc> or component: its own element (without children) and its children other than
 * components.
 */
export interface DescribedUnit {
  element: XmlElement;
  children: XmlElement[];
}

/** The fields describe() fills, which a resource and an archival object share. */
type UnitFields = Draft<
  Pick<
    Resource,
    | "title"
    | "level"
    | "other_level"
    | "publish"
    | "dates"
    | "extents"
    | "lang_materials"
    | "notes"
    | "linked_agents"
    | "subjects"
    | "instances"
  >
>;

const DAO_ELEMENTS = new Set(["dao", "daogrp", "daoset"]);
const IGNORED = new Set(["head", "thead", "runner", "repository"]);
const DID_SINGLEPART = new Set(["abstract", "physloc", "materialspec"]);

/** level and other_level from @level and @otherlevel; no level is otherlevel "unspecified". */
function level(ctx: EadContext, element: XmlElement, record: UnitFields): void {
  const raw = attribute(element, "level");
  const other = attribute(element, "otherlevel");
  const value = raw === undefined ? undefined : ctx.match("archival_record_level", raw);
  if (value !== undefined && value !== "otherlevel") {
    record.level = value;
    return;
  }
  record.level = "otherlevel";
  record.other_level = (other ?? (value === undefined ? raw : undefined) ?? "unspecified").slice(0, 255);
}

/** The unit's notes, extents, dates, languages, links and instances: everything but title and identifiers. */
export function describe(
  ctx: EadContext,
  unit: DescribedUnit,
  record: UnitFields,
): { did?: XmlElement; extentProblems: string[] } {
  const notes: Note[] = [];
  const agents: LinkedAgent[] = [];
  const subjects: Ref[] = [];
  const instances: Instance[] = [];
  const langs: LangMaterial[] = [];
  const did = unit.children.find((child) => child.name === "did");
  const extentProblems: string[] = [];
  level(ctx, unit.element, record);
  put(record, "publish", publishOf(unit.element));

  // Notes of the <did> that EAD writes outside one (a further title, a <note>: general notes) come after those it
  // writes inside, so an export read back keeps the order.
  const outsideDid: Note[] = [];
  if (did !== undefined) {
    const titles = childrenNamed(did, "unittitle");
    const dateElements: XmlElement[] = [];
    for (const [i, title] of titles.entries()) {
      dateElements.push(...childrenNamed(title, "unitdate", "unitdatestructured"));
      const text = markup(title, { skip: (child) => child.name === "unitdate" || child.name === "unitdatestructured" });
      if (text === "") continue;
      if (record.title === undefined) record.title = text;
      else if (i > 0) outsideDid.push(titleNote(text, title));
    }
    dateElements.push(...childrenNamed(did, "unitdate", "unitdatestructured"));
    put(record, "dates", datesOf(ctx, dateElements));
    const extents = extentsOf(ctx, childrenNamed(did, "physdesc", "physdescstructured", "physdescset"));
    put(record, "extents", extents.extents);
    notes.push(...extents.notes);
    for (const note of extents.notes)
      if (note.jsonmodel_type === "note_singlepart" && note.type === "physdesc") extentProblems.push(...note.content);
    instances.push(...containerInstances(ctx, childrenNamed(did, "container")));
    for (const child of elementChildren(did)) {
      if (child.name === "origination") agents.push(...origination(ctx, child));
      else if (child.name === "langmaterial") langs.push(...langMaterials(child));
      else if (DAO_ELEMENTS.has(child.name)) {
        const instance = digitalObjectInstance(ctx, child);
        if (instance !== undefined) instances.push(instance);
      } else if (DID_SINGLEPART.has(child.name)) {
        const text = markup(child, { breaks: true });
        if (text !== "") notes.push(singlepartNote(child.name, [text], child));
      } else if (child.name === "note" || child.name === "didnote") {
        outsideDid.push(...multipartNotes(ctx, child, "odd"));
      } else if (child.name === "dimensions") {
        notes.push(...multipartNotes(ctx, child, "dimensions"));
      } else if (
        ![
          "unittitle",
          "unitid",
          "unitdate",
          "unitdatestructured",
          "physdesc",
          "physdescstructured",
          "physdescset",
          "container",
          ...IGNORED,
        ].includes(child.name)
      ) {
        ctx.warn(`<${child.name}> in <did> is not imported`, at(child));
      }
    }
  }

  notes.push(...outsideDid);
  for (const child of unit.children) collect(ctx, child, { notes, agents, subjects, instances });
  put(record, "lang_materials", langs);
  put(
    record,
    "notes",
    notes.filter((note) => !isEmptyNote(note)),
  );
  put(record, "linked_agents", agents);
  put(record, "subjects", subjects);
  put(record, "instances", instances);
  return { did, extentProblems };
}

/** A further <unittitle>: kept as a general note labelled "Title" (a record has one title). */
function titleNote(text: string, element: XmlElement): Note {
  return { ...multipartTextNote("odd", text, element), label: "Title" };
}

interface Collected {
  notes: Note[];
  agents: LinkedAgent[];
  subjects: Ref[];
  instances: Instance[];
}

/** A child of archdesc or a component other than its <did> (a <descgrp>'s children in its place, without recursion). */
function collect(ctx: EadContext, first: XmlElement, into: Collected): void {
  const refs = new Set(into.subjects.map((subject) => subject.ref));
  const stack: XmlElement[] = [first];
  while (stack.length > 0) {
    const child = stack.pop() as XmlElement;
    if (child.name === "did" || IGNORED.has(child.name)) continue;
    if (NOTE_ELEMENTS.has(child.name)) for (const note of notesOf(ctx, child, "odd")) into.notes.push(note);
    else if (child.name === "controlaccess") {
      const links = controlaccess(ctx, child);
      for (const agent of links.agents) into.agents.push(agent);
      for (const subject of links.subjects) {
        if (refs.has(subject.ref)) continue;
        refs.add(subject.ref);
        into.subjects.push(subject);
      }
    } else if (DAO_ELEMENTS.has(child.name)) {
      const instance = digitalObjectInstance(ctx, child);
      if (instance !== undefined) into.instances.push(instance);
    } else if (child.name === "descgrp") {
      stack.push(...elementChildren(child).reverse());
    } else if (plain(child) !== "" || elementChildren(child).length > 0) {
      ctx.warn(`<${child.name}> is not imported (not a note, access term or digital object)`, at(child));
    }
  }
}

/**
 * The first <unitid> that is an identifier (not Arca's or ArchivesSpace's exported `aspace_uri`); the others as
 * external ids.
 */
function identifiers(did: XmlElement | undefined): { id?: XmlElement; external: ExternalId[] } {
  const ids =
    did === undefined
      ? []
      : childrenNamed(did, "unitid").filter(
          (unitid) => attribute(unitid, "type") !== "aspace_uri" && plain(unitid) !== "",
        );
  const [id, ...others] = ids;
  return {
    id,
    external: others.map((other) => ({
      jsonmodel_type: "external_id",
      external_id: plain(other),
      source: attribute(other, "type") ?? "unitid",
    })),
  };
}

/** The resource: archdesc with the finding aid fields of the header. */
export function resourceRecord(ctx: EadContext, unit: DescribedUnit, findingAid: FindingAidFields): Resource {
  const record: Draft<Resource> = {};
  const described = describe(ctx, unit, record);
  const { extentProblems } = described;
  // Without a <did> the collection has none of what a resource must have: each gap is filled and said below.
  const did = described.did ?? unit.element;
  const { id, external } = identifiers(described.did);
  const identifier = id === undefined ? undefined : plain(id);
  if (identifier !== undefined) {
    if (identifier.length <= 50) record.id_0 = identifier;
    else {
      const parts = identifier.split(".");
      if (parts.length <= 4 && parts.every((part) => part.length <= 50 && part !== "")) {
        parts.forEach((part, i) => (record[ID_FIELDS[i]] = part));
        ctx.warn(
          `the unitid '${identifier}' is longer than an identifier part (50 characters): split at its dots into id_0..id_${parts.length - 1}`,
          at(id as XmlElement),
        );
      } else record.id_0 = identifier;
    }
  } else if (findingAid.ead_id !== undefined) {
    record.id_0 = findingAid.ead_id.slice(0, 50);
    ctx.warn(`<archdesc> has no <unitid>: the resource identifier is the EAD id '${record.id_0}'`, at(did));
  }
  put(record, "external_ids", external);
  if (record.lang_materials === undefined) {
    ctx.warn(
      "the collection has no <langmaterial> language: its language is recorded as 'und' (undetermined)",
      at(did),
    );
    record.lang_materials = [undeterminedLanguage()];
  }
  // The header's fields win over the archdesc's (its own field names: header.ts sets them).
  const { title, id_0, level, dates = [], extents = [], lang_materials = [], ...rest } = { ...record, ...findingAid };
  // What a resource must have and the finding aid lacks is a gap to fill and say, not a reason to refuse the file.
  const [extent = missingExtent(ctx, did, extentProblems), ...moreExtents] = extents;
  const [date = missingDate(ctx, did), ...moreDates] = dates;
  const resourceTitle = title ?? fallback(ctx, did, "<unittitle>", "title", findingAid.finding_aid_title ?? id_0);
  const resourceId = id_0 ?? fallback(ctx, did, "<unitid> or EAD id", "identifier", ctx.fileIdentity.slice(0, 50));
  const [language = undeterminedLanguage(), ...moreLanguages] = lang_materials;
  return {
    ...rest,
    title: resourceTitle,
    id_0: resourceId,
    level: level ?? "otherlevel",
    dates: [date, ...moreDates],
    extents: [extent, ...moreExtents],
    lang_materials: [language, ...moreLanguages],
    finding_aid_language: rest.finding_aid_language ?? "und",
    finding_aid_script: rest.finding_aid_script ?? "Zyyy",
  };
}

/** A collection without an extent statement with a number: other_unmapped 0, its text (if any) kept, said. */
function missingExtent(ctx: EadContext, did: XmlElement, read: string[]): Extent {
  if (!ctx.values("extent_extent_type").includes(OTHER_UNMAPPED))
    throw new ImportError(
      "the collection has no extent with a number, which a resource must have, and the extent type list has no " +
        `'${OTHER_UNMAPPED}' to record it as`,
      at(did),
    );
  const text = read.join("; ");
  ctx.warn(
    `the collection has no extent with a number${text === "" ? "" : ` (read: '${text}')`}: recorded as 0 ${OTHER_UNMAPPED}, to be corrected`,
    at(did),
  );
  return ctx.placeholder({
    jsonmodel_type: "extent",
    portion: "whole",
    number: "0",
    extent_type: OTHER_UNMAPPED,
    ...(text !== "" && { container_summary: text }),
  });
}

/** A collection without a date: "undated", as archivists write it, said. */
function missingDate(ctx: EadContext, did: XmlElement): ArchivalDate {
  ctx.warn("the collection has no <unitdate>: its date is recorded as 'undated'", at(did));
  return ctx.placeholder({ jsonmodel_type: "date", date_type: "single", label: "creation", expression: "undated" });
}

/** A value a resource must have, taken from elsewhere in the finding aid, said. */
function fallback(ctx: EadContext, did: XmlElement, element: string, field: string, value: string | undefined): string {
  const chosen = value ?? "Untitled";
  ctx.warn(`the collection has no ${element}: its ${field} is '${chosen}'`, at(did));
  return chosen;
}

/** The identifier fields a unitid too long for one is split into, at its dots. */
const ID_FIELDS = ["id_0", "id_1", "id_2", "id_3"] as const;

/** The language of a collection whose finding aid names none. */
function undeterminedLanguage(): LangMaterial {
  return {
    jsonmodel_type: "lang_material",
    language_and_script: { jsonmodel_type: "language_and_script", language: "und" },
  };
}

/**
 * The title of a component that has neither title nor date (a physical-holdings <dsc> often
 * gives only containers and a barcode): from its containers ("Box B-001076, Folder 3"), else its
 * unitid, else its level, so the component is kept rather than the finding aid refused.
 */
function derivedTitle(did: XmlElement | undefined, level: string | undefined): string {
  const containers = (did === undefined ? [] : childrenNamed(did, "container")).flatMap((container) => {
    const indicator = plain(container);
    if (indicator === "") return [];
    const type = attribute(container, "type") ?? attribute(container, "localtype");
    const label = type === undefined ? "" : `${type.charAt(0).toUpperCase()}${type.slice(1).replace(/_/g, " ")} `;
    return [`${label}${indicator}`];
  });
  if (containers.length > 0) return containers.join(", ");
  const unitid = did === undefined ? undefined : childrenNamed(did, "unitid")[0];
  const id = unitid === undefined ? "" : plain(unitid);
  if (id !== "") return id;
  return level === undefined ? "Untitled" : `${level.charAt(0).toUpperCase()}${level.slice(1)}`;
}

/** An archival object: a component, under the resource and its parent component. */
export function componentRecord(
  ctx: EadContext,
  unit: DescribedUnit,
  resourceKey: string,
  parentKey: string | undefined,
): ArchivalObject {
  const record: Draft<ArchivalObject> = {};
  const { did } = describe(ctx, unit, record);
  const rawId = attribute(unit.element, "id")?.replace(/^aspace_/, "");
  if (rawId !== undefined) {
    if (/^[A-Za-z0-9_.:-]+$/.test(rawId) && rawId.length <= 255) record.ref_id = rawId;
    else
      ctx.warn(
        `the component @id '${rawId}' cannot be a ref_id (letters, digits, _ . : - only): a ref_id is generated`,
        at(unit.element),
      );
  }
  const { id, external } = identifiers(did);
  if (id !== undefined) record.component_id = plain(id);
  put(record, "external_ids", external);
  if (did === undefined) ctx.warn(`a component without <did>: it has no title, identifier or date`, at(unit.element));
  if (record.title === undefined && (record.dates ?? []).length === 0) {
    record.title = derivedTitle(did, record.level);
    ctx.warn(
      `a component with neither title nor date: titled '${record.title}' from what it carries`,
      at(unit.element),
    );
  }
  const { level, ...rest } = record;
  return {
    ...rest,
    level: level ?? "otherlevel",
    resource: { ref: resourceKey },
    ...(parentKey !== undefined && { parent: { ref: parentKey } }),
  };
}

/**
 * A resource or component with the description met after its children added: the <archdesc> description after its
 * <dsc> (EAD 2002 allows it; wnyu.xml has a <relatedmaterial> there), or a component's after its child components
 * (which EAD does not allow but some exports write). Each element described once, as describe() does those before,
 * its notes, agents, subjects (each once) and digital objects after the ones the record has. The reader hands the
 * record on when its first child starts and this once it ends, so the file is read once.
 */
export function withLaterDescription<T extends Resource | ArchivalObject>(
  ctx: EadContext,
  resource: T,
  later: readonly XmlElement[],
): T {
  const into: Collected = { notes: [], agents: [], subjects: [...(resource.subjects ?? [])], instances: [] };
  for (const child of later) collect(ctx, child, into);
  const record: T = { ...resource };
  put(record, "notes", [...(resource.notes ?? []), ...into.notes.filter((note) => !isEmptyNote(note))]);
  put(record, "linked_agents", [...(resource.linked_agents ?? []), ...into.agents]);
  put(record, "subjects", into.subjects);
  put(record, "instances", [...(resource.instances ?? []), ...into.instances]);
  return record;
}
