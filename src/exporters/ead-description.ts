// One described record (the resource at <archdesc>, or an archival object at <c>) as EAD: its
// <did> (title, identifier, origination, extents, dates, did notes, languages, containers and,
// asked for, digital objects), its other notes, and its <controlaccess>. The records it links
// to come from the context's LinkedRecords, loaded beforehand for its whole batch.
import type {
  ArchivalDate,
  DigitalObject,
  FileVersion,
  LinkedAgent,
  NoteLangmaterial,
  Subject,
} from "../../generated/types/index.js";
import type { EadContext } from "./ead-context.js";
import { writeDescriptiveNotes, writeDidNotes } from "./ead-notes.js";
import {
  agentElement,
  agentName,
  displayName,
  enumerationWords,
  physdescStructuredType,
  str,
  subjectElement,
  termTexts,
} from "./ead-terms.js";
import type { DescribedRecord, LinkedAgentRecord } from "./export-records.js";

export type DescribedKind = "archdesc" | "component";

/** The identifier EAD shows: a resource's id_0..id_3 joined with '.', a component's component_id. */
export function unitId(record: DescribedRecord): string | undefined {
  if (!("id_0" in record)) return str(record.component_id);
  const parts = [record.id_0, record.id_1, record.id_2, record.id_3]
    .map(str)
    .filter((part): part is string => part !== undefined);
  return parts.length === 0 ? undefined : parts.join(".");
}

/** Everything inside <archdesc> or <c> except the components below it. */
export function writeDescription(
  ctx: EadContext,
  record: DescribedRecord,
  kind: DescribedKind,
  repositoryName?: string,
): void {
  const xml = ctx.xml;
  xml.open("did");
  if (repositoryName !== undefined) {
    xml.open("repository");
    ctx.accessTerm("corpname", {}, [{ text: repositoryName }]);
    xml.close("repository");
  }
  ctx.prose("unittitle", str(record.title));
  xml.optional("unitid", unitId(record));
  if (ctx.options.includeUris) xml.optional("unitid", str(record.uri), { type: "aspace_uri" });
  if (ctx.options.includeUnpublished) {
    for (const external of record.external_ids ?? [])
      xml.optional("unitid", str(external.external_id), { audience: "internal", type: str(external.source) });
  }
  writeOrigination(ctx, record);
  writeExtents(ctx, record);
  writeDates(ctx, record);
  writeDidNotes(ctx, record);
  writeLanguages(ctx, record);
  writeContainers(ctx, record);
  // EAD3 has <dao> only inside <did>; EAD 2002 puts the resource's after it (ArchivesSpace's choice).
  if (kind === "component" || ctx.ead3) writeDigitalObjects(ctx, record);
  xml.close("did");
  if (kind === "archdesc" && !ctx.ead3) writeDigitalObjects(ctx, record);
  writeDescriptiveNotes(ctx, record);
  writeControlAccess(ctx, record);
}

/** Creators and sources: `<origination label="Creator">` with the agent's name element. */
function writeOrigination(ctx: EadContext, record: DescribedRecord): void {
  for (const link of record.linked_agents ?? []) {
    const role = link.role;
    if (role !== "creator" && role !== "source") continue;
    const agent = ctx.linked.agent(link.ref);
    if (agent === undefined || !ctx.shown(agent.record)) continue;
    ctx.xml.open("origination", {
      label: role === "creator" ? "Creator" : "source",
      audience: ctx.audience(agent.record),
    });
    ctx.accessTerm(agentElement(agent), agentAttributes(ctx, agent, link), [{ text: agentName(agent) }]);
    ctx.xml.close("origination");
  }
}

function agentAttributes(
  ctx: EadContext,
  agent: LinkedAgentRecord,
  link: LinkedAgent,
): Record<string, string | undefined> {
  const name = displayName(agent);
  const relator = str(link.relator);
  const source = str(name?.source);
  const rules = str(name?.rules);
  return ctx.ead3
    ? { relator, source, rules, identifier: str(name?.authority_id) }
    : { role: relator, source, rules, authfilenumber: str(name?.authority_id) };
}

function writeExtents(ctx: EadContext, record: DescribedRecord): void {
  const xml = ctx.xml;
  // Extents have no publish of their own: they are shown with their record.
  for (const extent of record.extents ?? []) {
    const number = str(extent.number);
    const type = str(extent.extent_type);
    const summary = str(extent.container_summary);
    if (ctx.ead3) {
      xml.open("physdescstructured", {
        coverage: str(extent.portion) ?? "whole",
        physdescstructuredtype: physdescStructuredType(type),
      });
      xml.element("quantity", {}, number ?? "");
      xml.element("unittype", {}, type === undefined ? "" : enumerationWords(type));
      ctx.prose("physfacet", str(extent.physical_details));
      xml.optional("dimensions", str(extent.dimensions));
      xml.close("physdescstructured");
      ctx.prose("physdesc", summary, { localtype: "container_summary" });
    } else {
      xml.open("physdesc", { altrender: str(extent.portion) });
      if (number !== undefined && type !== undefined)
        xml.element("extent", { altrender: "materialtype spaceoccupied" }, `${number} ${enumerationWords(type)}`);
      ctx.prose("extent", summary, { altrender: "carrier" });
      ctx.prose("physfacet", str(extent.physical_details));
      xml.optional("dimensions", str(extent.dimensions));
      xml.close("physdesc");
    }
  }
}

/** `bulk` or `inclusive`; none for a single date (its @normal or <datesingle> says it), which reads back as single. */
function dateType(date: ArchivalDate): string | undefined {
  const type = str(date.date_type);
  if (type === "bulk") return "bulk";
  if (type === "single") return undefined;
  return "inclusive";
}

function dateText(date: ArchivalDate): string {
  const begin = str(date.begin);
  const end = str(date.end);
  return (
    str(date.expression) ?? (begin === undefined ? "" : end === undefined || end === begin ? begin : `${begin}-${end}`)
  );
}

function writeDates(ctx: EadContext, record: DescribedRecord): void {
  const xml = ctx.xml;
  // Dates have no publish of their own: they are shown with their record.
  for (const date of record.dates ?? []) {
    const begin = str(date.begin);
    const end = str(date.end);
    const common = {
      certainty: str(date.certainty),
      era: str(date.era),
      calendar: str(date.calendar),
      datechar: str(date.label),
    };
    if (!ctx.ead3) {
      const normal =
        begin === undefined
          ? undefined
          : `${begin}/${str(date.date_type) === "single" || end === undefined ? begin : end}`;
      xml.element("unitdate", { normal, type: dateType(date), ...common }, dateText(date));
      continue;
    }
    // EAD3 knows bulk and inclusive; a single date says so by its <datesingle> alone.
    const unitdatetype = dateType(date);
    const expression = str(date.expression);
    if (begin === undefined && end === undefined) {
      xml.element("unitdate", { unitdatetype, ...common }, expression ?? "");
      continue;
    }
    // The expression, when there is one, rides on the structured date's @altrender, so one
    // date stays one element (a <unitdate> beside it would read back as a second date).
    xml.open("unitdatestructured", { unitdatetype, ...common, altrender: expression });
    if (str(date.date_type) === "single" || end === undefined) {
      xml.element("datesingle", { standarddate: begin ?? end }, begin ?? end);
    } else {
      xml.open("daterange");
      if (begin !== undefined) xml.element("fromdate", { standarddate: begin }, begin);
      xml.element("todate", { standarddate: end }, end);
      xml.close("daterange");
    }
    xml.close("unitdatestructured");
  }
}

function writeLanguages(ctx: EadContext, record: DescribedRecord): void {
  const xml = ctx.xml;
  const materials = record.lang_materials ?? [];
  const languages = materials.flatMap((material) =>
    material.language_and_script === undefined ? [] : [material.language_and_script],
  );
  const notes = materials.flatMap((material) => material.notes ?? []).filter((note) => ctx.shown(note));
  if (languages.length > 0) {
    // EAD3 writes the notes inside this one element: it carries their label.
    xml.open("langmaterial", { label: ctx.ead3 ? notes.map((note) => str(note.label)).find(Boolean) : undefined });
    for (const language of languages) {
      const code = str(language.language);
      const script = str(language.script);
      if (ctx.ead3 && script !== undefined) {
        xml.open("languageset");
        xml.element("language", { langcode: code }, code);
        xml.element("script", { scriptcode: script }, script);
        xml.close("languageset");
      } else {
        xml.element("language", ctx.ead3 ? { langcode: code } : { langcode: code, scriptcode: script }, code);
      }
    }
    if (ctx.ead3) for (const note of notes) writeLanguageNote(ctx, note);
    xml.close("langmaterial");
  }
  if (!ctx.ead3 || languages.length === 0) {
    for (const note of notes) {
      xml.open("langmaterial", { id: str(note.persistent_id), label: str(note.label), audience: ctx.audience(note) });
      if (ctx.ead3) {
        xml.element("language");
        writeLanguageNote(ctx, note);
      } else {
        ctx.lines(note.content);
      }
      xml.close("langmaterial");
    }
  }
}

function writeLanguageNote(ctx: EadContext, note: NoteLangmaterial): void {
  ctx.xml.open("descriptivenote");
  for (const text of note.content) ctx.paragraphs(text);
  ctx.xml.close("descriptivenote");
}

/**
 * Each container instance: the top container (type, indicator, @label the instance type, its
 * barcode in EAD 2002's label as ArchivesSpace writes it, `@containerid` in EAD3), then the
 * sub container levels, each naming the one above in @parent.
 */
function writeContainers(ctx: EadContext, record: DescribedRecord): void {
  const xml = ctx.xml;
  for (const instance of record.instances ?? []) {
    const sub = instance.sub_container;
    if (sub === undefined) continue;
    const top = ctx.linked.topContainer(sub.top_container.ref);
    if (top === undefined) continue;
    const instanceType = str(instance.instance_type);
    const barcode = str(top.barcode);
    let id = ctx.containerId();
    const typeAttribute = ctx.ead3 ? "localtype" : "type";
    xml.element(
      "container",
      ctx.ead3
        ? { id, [typeAttribute]: str(top.type), label: instanceType, containerid: barcode }
        : {
            id,
            [typeAttribute]: str(top.type),
            label: barcode === undefined ? instanceType : `${instanceType ?? "mixed_materials"} [${barcode}]`,
          },
      str(top.indicator) ?? "",
    );
    const levels = [
      { type: str(sub.type_2), indicator: str(sub.indicator_2) },
      { type: str(sub.type_3), indicator: str(sub.indicator_3) },
    ];
    for (const { type, indicator } of levels) {
      if (type === undefined && indicator === undefined) continue;
      const parent = id;
      id = ctx.containerId();
      xml.element("container", { id, parent, [typeAttribute]: type }, indicator ?? "");
    }
  }
}

/** The text ArchivesSpace gives a digital object in EAD: its title, then its first date. */
function digitalObjectText(object: DigitalObject): string {
  const title = str(object.title) ?? "";
  const [date] = object.dates ?? [];
  if (date === undefined) return title;
  const when = dateText(date);
  return when === "" ? title : `${title}: ${when}`;
}

function writeDigitalObjects(ctx: EadContext, record: DescribedRecord): void {
  if (!ctx.options.includeDaos) return;
  const xml = ctx.xml;
  for (const instance of record.instances ?? []) {
    const object =
      instance.digital_object === undefined ? undefined : ctx.linked.digitalObject(instance.digital_object.ref);
    if (!ctx.shown(object)) continue;
    const versions = (object.file_versions ?? []).filter((version) => ctx.shown(version));
    const title = str(object.title);
    const description = digitalObjectText(object);
    if (ctx.ead3) {
      const daotype = str(object.digital_object_type);
      const common = {
        daotype: daotype === undefined ? "unknown" : "otherdaotype",
        otherdaotype: daotype,
        linktitle: title,
      };
      const dao = (href: string | undefined, version: FileVersion | undefined) => {
        xml.open("dao", {
          ...common,
          href,
          actuate: str(version?.xlink_actuate_attribute)?.toLowerCase() ?? "onrequest",
          show: str(version?.xlink_show_attribute)?.toLowerCase() ?? "new",
          localtype: str(version?.use_statement),
          audience: ctx.audience(version ?? object) ?? ctx.audience(object),
        });
        xml.open("descriptivenote");
        ctx.paragraphs(description);
        xml.close("descriptivenote");
        xml.close("dao");
      };
      if (versions.length <= 1) dao(str(versions[0]?.file_uri) ?? str(object.digital_object_id), versions[0]);
      else {
        xml.open("daoset", { label: title, audience: ctx.audience(object) });
        for (const version of versions) dao(str(version.file_uri), version);
        xml.close("daoset");
      }
      continue;
    }
    if (versions.length <= 1) {
      const version = versions[0];
      xml.open("dao", {
        "xlink:type": "simple",
        "xlink:href": str(version?.file_uri) ?? str(object.digital_object_id),
        "xlink:title": title,
        "xlink:role": str(version?.use_statement),
        "xlink:actuate": str(version?.xlink_actuate_attribute) ?? "onRequest",
        "xlink:show": str(version?.xlink_show_attribute) ?? "new",
        audience: ctx.audience(version ?? object) ?? ctx.audience(object),
      });
      xml.open("daodesc");
      ctx.paragraphs(description);
      xml.close("daodesc");
      xml.close("dao");
    } else {
      xml.open("daogrp", { "xlink:type": "extended", "xlink:title": title, audience: ctx.audience(object) });
      xml.open("daodesc");
      ctx.paragraphs(description);
      xml.close("daodesc");
      for (const version of versions) {
        xml.element("daoloc", {
          "xlink:type": "locator",
          "xlink:href": str(version.file_uri),
          "xlink:role": str(version.use_statement),
          "xlink:title": str(version.caption),
          audience: ctx.audience(version),
        });
      }
      xml.close("daogrp");
    }
  }
}

/** Subjects (by their first term's type) and agents linked as subjects. */
function writeControlAccess(ctx: EadContext, record: DescribedRecord): void {
  const xml = ctx.xml;
  const subjects: Array<{ element: string; subject: Subject }> = [];
  for (const link of record.subjects ?? []) {
    const subject = ctx.linked.subject(link.ref);
    const element = subject === undefined ? undefined : subjectElement(subject);
    if (element !== undefined && ctx.shown(subject)) subjects.push({ element, subject });
  }
  const agents: Array<{ link: LinkedAgent; agent: LinkedAgentRecord }> = [];
  for (const link of record.linked_agents ?? []) {
    if (link.role !== "subject") continue;
    const agent = ctx.linked.agent(link.ref);
    if (agent !== undefined && ctx.shown(agent.record)) agents.push({ link, agent });
  }
  if (subjects.length === 0 && agents.length === 0) return;
  xml.open("controlaccess");
  for (const { element, subject } of subjects) {
    const attributes = ctx.ead3
      ? { source: str(subject.source), identifier: str(subject.authority_id) }
      : { source: str(subject.source), authfilenumber: str(subject.authority_id) };
    const parts = subject.terms.map((term) => ({ text: str(term.term) ?? "", localtype: str(term.term_type) }));
    ctx.accessTerm(element, attributes, parts);
  }
  for (const { link, agent } of agents) {
    const parts = [{ text: agentName(agent) }, ...termTexts(link).map((text) => ({ text }))];
    const attributes = { ...agentAttributes(ctx, agent, link), audience: ctx.audience(agent.record) };
    ctx.accessTerm(agentElement(agent), attributes, parts);
  }
  xml.close("controlaccess");
}
