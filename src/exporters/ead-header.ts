// The finding aid's own description: EAD 2002's <eadheader> or EAD3's <control>, from the
// resource's finding_aid_* fields and its repository.
import type { Repository, Resource } from "../../generated/types/index.js";
import type { EadContext } from "./ead-context.js";
import { unitId } from "./ead-description.js";
import { str } from "./ead-terms.js";

export function writeHeader(ctx: EadContext, resource: Resource, repository: Repository, now: Date): void {
  if (ctx.ead3) writeControl(ctx, resource, repository, now);
  else writeEadHeader(ctx, resource, repository, now);
}

function titleProper(resource: Resource): string {
  return str(resource.finding_aid_title) ?? str(resource.title) ?? "";
}

function writeEadHeader(ctx: EadContext, resource: Resource, repository: Repository, now: Date): void {
  const xml = ctx.xml;
  xml.open("eadheader", {
    findaidstatus: str(resource.finding_aid_status),
    repositoryencoding: "iso15511",
    countryencoding: "iso3166-1",
    dateencoding: "iso8601",
    langencoding: "iso639-2b",
  });
  xml.element(
    "eadid",
    {
      countrycode: str(repository.country),
      mainagencycode: mainAgencyCode(repository),
      url: str(resource.ead_location),
    },
    str(resource.ead_id) ?? "",
  );
  xml.open("filedesc");
  xml.open("titlestmt");
  // The finding aid title as it is (an imported one holds its <num> already); without one,
  // the resource's title and identifier, as ArchivesSpace writes them.
  xml.open("titleproper");
  const findingAidTitle = str(resource.finding_aid_title);
  ctx.content(findingAidTitle ?? str(resource.title) ?? "");
  const num = unitId(resource);
  if (findingAidTitle === undefined && num !== undefined) {
    xml.text(" ");
    xml.element("num", {}, num);
  }
  xml.close("titleproper");
  ctx.prose("titleproper", str(resource.finding_aid_filing_title), { type: "filing" });
  ctx.prose("subtitle", str(resource.finding_aid_subtitle));
  ctx.prose("author", str(resource.finding_aid_author));
  ctx.prose("sponsor", str(resource.finding_aid_sponsor));
  xml.close("titlestmt");
  blockOf(ctx, "editionstmt", str(resource.finding_aid_edition_statement));
  xml.open("publicationstmt");
  xml.optional("publisher", str(repository.name));
  xml.optional("date", str(resource.finding_aid_date));
  xml.close("publicationstmt");
  blockOf(ctx, "seriesstmt", str(resource.finding_aid_series_statement));
  const note = str(resource.finding_aid_note);
  if (note !== undefined) {
    xml.open("notestmt");
    blockOf(ctx, "note", note);
    xml.close("notestmt");
  }
  xml.close("filedesc");

  xml.open("profiledesc");
  xml.open("creation");
  xml.text("This finding aid was produced using Arca on ");
  xml.element("date", { normal: now.toISOString().slice(0, 10) }, now.toISOString());
  xml.text(".");
  xml.close("creation");
  const language = str(resource.finding_aid_language);
  const languageNote = str(resource.finding_aid_language_note);
  if (language !== undefined || languageNote !== undefined) {
    xml.open("langusage");
    if (languageNote !== undefined) xml.text(`${languageNote} `);
    if (language !== undefined)
      xml.element("language", { langcode: language, scriptcode: str(resource.finding_aid_script) }, language);
    xml.close("langusage");
  }
  xml.optional("descrules", str(resource.finding_aid_description_rules));
  xml.close("profiledesc");

  const revisions = (resource.revision_statements ?? []).filter((revision) => ctx.shown(revision));
  if (revisions.length > 0) {
    xml.open("revisiondesc");
    for (const revision of revisions) {
      xml.open("change", { audience: ctx.audience(revision) });
      xml.element("date", {}, str(revision.date) ?? "");
      xml.element("item", {}, str(revision.description) ?? "");
      xml.close("change");
    }
    xml.close("revisiondesc");
  }
  xml.close("eadheader");
}

function writeControl(ctx: EadContext, resource: Resource, repository: Repository, now: Date): void {
  const xml = ctx.xml;
  xml.open("control", {
    repositoryencoding: "iso15511",
    countryencoding: "iso3166-1",
    dateencoding: "iso8601",
    relatedencoding: "marc",
    langencoding: "iso639-2b",
    scriptencoding: "iso15924",
  });
  xml.element("recordid", { instanceurl: str(resource.ead_location) }, str(resource.ead_id) ?? "");
  xml.open("filedesc");
  xml.open("titlestmt");
  ctx.proseElement("titleproper", titleProper(resource));
  ctx.prose("titleproper", str(resource.finding_aid_filing_title), { localtype: "filing" });
  ctx.prose("subtitle", str(resource.finding_aid_subtitle));
  ctx.prose("author", str(resource.finding_aid_author));
  ctx.prose("sponsor", str(resource.finding_aid_sponsor));
  xml.close("titlestmt");
  blockOf(ctx, "editionstmt", str(resource.finding_aid_edition_statement));
  xml.open("publicationstmt");
  xml.optional("publisher", str(repository.name));
  xml.optional("date", str(resource.finding_aid_date));
  xml.optional("num", unitId(resource));
  xml.close("publicationstmt");
  blockOf(ctx, "seriesstmt", str(resource.finding_aid_series_statement));
  const note = str(resource.finding_aid_note);
  if (note !== undefined) {
    xml.open("notestmt");
    blockOf(ctx, "controlnote", note);
    xml.close("notestmt");
  }
  xml.close("filedesc");
  xml.element("maintenancestatus", { value: "derived" });
  xml.open("maintenanceagency", { countrycode: str(repository.country) });
  xml.optional("agencycode", mainAgencyCode(repository));
  xml.element("agencyname", {}, str(repository.name) ?? str(repository.repo_code) ?? "");
  xml.close("maintenanceagency");
  const language = str(resource.finding_aid_language);
  if (language !== undefined) {
    xml.open("languagedeclaration");
    xml.element("language", { langcode: language }, language);
    const script = str(resource.finding_aid_script);
    xml.element("script", { scriptcode: script }, script ?? "");
    const languageNote = str(resource.finding_aid_language_note);
    if (languageNote !== undefined) blockOf(ctx, "descriptivenote", languageNote);
    xml.close("languagedeclaration");
  }
  const rules = str(resource.finding_aid_description_rules);
  if (rules !== undefined) {
    xml.open("conventiondeclaration");
    xml.element("abbr", {}, rules);
    xml.element("citation", {}, rules);
    xml.close("conventiondeclaration");
  }
  const status = str(resource.finding_aid_status);
  if (status !== undefined) {
    xml.open("localcontrol", { localtype: "findaidstatus" });
    xml.element("term", {}, status);
    xml.close("localcontrol");
  }
  xml.open("maintenancehistory");
  maintenanceEvent(ctx, "derived", now.toISOString(), "machine", "Arca", "This finding aid was produced using Arca.");
  for (const revision of resource.revision_statements ?? []) {
    if (!ctx.shown(revision)) continue;
    maintenanceEvent(
      ctx,
      "revised",
      str(revision.date) ?? "",
      "unknown",
      "",
      str(revision.description) ?? "",
      ctx.audience(revision),
    );
  }
  xml.close("maintenancehistory");
  xml.close("control");
}

function maintenanceEvent(
  ctx: EadContext,
  type: string,
  when: string,
  agentType: string,
  agent: string,
  description: string,
  audience?: string,
): void {
  const xml = ctx.xml;
  xml.open("maintenanceevent", { audience });
  xml.element("eventtype", { value: type });
  xml.element("eventdatetime", {}, when);
  xml.element("agenttype", { value: agentType });
  xml.element("agent", {}, agent);
  xml.element("eventdescription", {}, description);
  xml.close("maintenanceevent");
}

/** An element of paragraphs (editionstmt, seriesstmt, note, ...), written only when there is text. */
function blockOf(ctx: EadContext, name: string, text: string | undefined): void {
  if (text === undefined || text.trim() === "") return;
  ctx.xml.open(name);
  ctx.paragraphs(text);
  ctx.xml.close(name);
}

/** ArchivesSpace's main agency code: the country, a dash, the repository's org_code. */
function mainAgencyCode(repository: Repository): string | undefined {
  const org = str(repository.org_code);
  if (org === undefined) return undefined;
  const country = str(repository.country);
  return country === undefined ? org : `${country}-${org}`;
}
