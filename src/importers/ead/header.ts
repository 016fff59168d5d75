// The finding aid's own description: EAD 2002 <eadheader> or EAD3 <control>, as the resource's
// ead_id, ead_location and finding_aid_* fields (ArchivesSpace's mapping).
import type { Resource, RevisionStatement } from "../../../generated/types/index.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { put } from "../record-draft.js";
import { at, type EadContext } from "./context.js";

/** The resource's fields the header gives: ead_id, ead_location, finding_aid_*, revision_statements. */
export type FindingAidFields = Partial<
  Pick<
    Resource,
    | "ead_id"
    | "ead_location"
    | "finding_aid_title"
    | "finding_aid_subtitle"
    | "finding_aid_filing_title"
    | "finding_aid_date"
    | "finding_aid_author"
    | "finding_aid_description_rules"
    | "finding_aid_language"
    | "finding_aid_script"
    | "finding_aid_language_note"
    | "finding_aid_sponsor"
    | "finding_aid_edition_statement"
    | "finding_aid_series_statement"
    | "finding_aid_status"
    | "finding_aid_note"
    | "revision_statements"
  >
>;
import { attribute, childrenNamed, markup, plain } from "./text.js";

/** Description rules as written ("Describing Archives: A Content Standard") and their codes. */
function descriptionRules(text: string): string | undefined {
  if (/\bdacs\b|describing archives/i.test(text)) return "dacs";
  if (/\baacr|anglo-american/i.test(text)) return "aacr";
  if (/\brad\b|rules for archival description/i.test(text)) return "rad";
  if (/isad/i.test(text)) return "isadg";
  if (/\bcco\b|cataloging cultural objects/i.test(text)) return "cco";
  return undefined;
}

const FINDING_AID_STATUS_SYNONYMS: ReadonlyMap<string, string> = new Map(
  Object.entries({ in_process: "in_progress", complete: "completed", in_progress: "in_progress" }),
);

function descendant(element: XmlElement, ...path: string[]): XmlElement | undefined {
  let current: XmlElement | undefined = element;
  for (const name of path) current = current === undefined ? undefined : childrenNamed(current, name)[0];
  return current;
}

function block(element: XmlElement | undefined): string | undefined {
  return element === undefined ? undefined : markup(element, { breaks: true }) || undefined;
}

function titles(ctx: EadContext, titlestmt: XmlElement | undefined, record: FindingAidFields): void {
  if (titlestmt === undefined) return;
  for (const title of childrenNamed(titlestmt, "titleproper")) {
    const kind = (attribute(title, "type") ?? attribute(title, "localtype"))?.toLowerCase();
    const text = markup(title);
    if (kind === "filing") put(record, "finding_aid_filing_title", text);
    else if (record.finding_aid_title === undefined) put(record, "finding_aid_title", text);
  }
  put(
    record,
    "finding_aid_subtitle",
    childrenNamed(titlestmt, "subtitle")
      .map((child) => markup(child))
      .join("; "),
  );
  put(
    record,
    "finding_aid_author",
    childrenNamed(titlestmt, "author")
      .map((child) => markup(child))
      .join("; "),
  );
  put(
    record,
    "finding_aid_sponsor",
    childrenNamed(titlestmt, "sponsor")
      .map((child) => markup(child))
      .join("; "),
  );
}

function findingAidStatus(ctx: EadContext, raw: string | undefined, where: XmlElement, record: FindingAidFields): void {
  if (raw === undefined) return;
  put(
    record,
    "finding_aid_status",
    ctx.pick("resource_finding_aid_status", raw, "finding aid status", at(where), {
      synonyms: FINDING_AID_STATUS_SYNONYMS,
    }),
  );
}

function rules(ctx: EadContext, text: string | undefined, where: XmlElement, record: FindingAidFields): void {
  if (text === undefined || text === "") return;
  const code = ctx.match("resource_finding_aid_description_rules", text) ?? descriptionRules(text);
  if (code !== undefined) record.finding_aid_description_rules = code;
  else
    ctx.warnOnce(
      `descrules ${text}`,
      `description rules '${text}' are none of ${ctx.values("resource_finding_aid_description_rules").join(", ")}: left out`,
      at(where),
    );
}

/** EAD 2002 <eadheader>. */
function eadheader(ctx: EadContext, header: XmlElement, record: FindingAidFields): void {
  const eadid = childrenNamed(header, "eadid")[0];
  if (eadid !== undefined) {
    put(record, "ead_id", plain(eadid));
    put(record, "ead_location", attribute(eadid, "url"));
  }
  findingAidStatus(ctx, attribute(header, "findaidstatus"), header, record);
  const filedesc = childrenNamed(header, "filedesc")[0];
  if (filedesc !== undefined) {
    titles(ctx, childrenNamed(filedesc, "titlestmt")[0], record);
    put(record, "finding_aid_edition_statement", block(childrenNamed(filedesc, "editionstmt")[0]));
    put(record, "finding_aid_series_statement", block(childrenNamed(filedesc, "seriesstmt")[0]));
    const publication = childrenNamed(filedesc, "publicationstmt")[0];
    const date = publication === undefined ? undefined : childrenNamed(publication, "date")[0];
    put(record, "finding_aid_date", date === undefined ? undefined : plain(date));
    const notestmt = childrenNamed(filedesc, "notestmt")[0];
    if (notestmt !== undefined)
      put(
        record,
        "finding_aid_note",
        childrenNamed(notestmt, "note")
          .map((note) => block(note))
          .filter(Boolean)
          .join("\n\n"),
      );
  }
  const profile = childrenNamed(header, "profiledesc")[0];
  if (profile !== undefined) {
    const langusage = childrenNamed(profile, "langusage")[0];
    if (langusage !== undefined) {
      const language = childrenNamed(langusage, "language")[0];
      const code = language === undefined ? undefined : attribute(language, "langcode")?.toLowerCase();
      if (code !== undefined && /^[a-z]{3}$/.test(code)) record.finding_aid_language = code;
      const script = language === undefined ? undefined : attribute(language, "scriptcode");
      if (script !== undefined && /^[A-Za-z]{4}$/.test(script))
        record.finding_aid_script = script[0].toUpperCase() + script.slice(1).toLowerCase();
      // The note is what the <langusage> says besides its <language> (which the two fields above hold).
      put(record, "finding_aid_language_note", markup(langusage, { skip: (child) => child.name === "language" }));
    }
    const descrules = childrenNamed(profile, "descrules")[0];
    rules(ctx, descrules === undefined ? undefined : plain(descrules), descrules ?? profile, record);
  }
  const revisions = childrenNamed(header, "revisiondesc")[0];
  if (revisions !== undefined) {
    const statements = childrenNamed(revisions, "change").map((change): RevisionStatement => {
      const date = childrenNamed(change, "date")[0];
      const items = childrenNamed(change, "item").map((item) => markup(item, { breaks: true }));
      return {
        jsonmodel_type: "revision_statement",
        date: date === undefined ? "" : plain(date),
        description: items.join("\n\n"),
      };
    });
    put(record, "revision_statements", statements);
    const loose = childrenNamed(revisions, "list");
    if (loose.length > 0)
      ctx.warn("a <revisiondesc> <list> is not imported (only <change> elements are)", at(loose[0]));
  }
}

/** EAD3 <control>. */
function control(ctx: EadContext, header: XmlElement, record: FindingAidFields): void {
  const recordid = childrenNamed(header, "recordid")[0];
  if (recordid !== undefined) {
    put(record, "ead_id", plain(recordid));
    put(record, "ead_location", attribute(recordid, "instanceurl"));
  }
  const filedesc = childrenNamed(header, "filedesc")[0];
  if (filedesc !== undefined) {
    titles(ctx, childrenNamed(filedesc, "titlestmt")[0], record);
    put(record, "finding_aid_edition_statement", block(childrenNamed(filedesc, "editionstmt")[0]));
    put(record, "finding_aid_series_statement", block(childrenNamed(filedesc, "seriesstmt")[0]));
    const date = descendant(filedesc, "publicationstmt", "date");
    put(record, "finding_aid_date", date === undefined ? undefined : plain(date));
    const notestmt = childrenNamed(filedesc, "notestmt")[0];
    if (notestmt !== undefined)
      put(
        record,
        "finding_aid_note",
        childrenNamed(notestmt, "controlnote")
          .map((note) => block(note))
          .filter(Boolean)
          .join("\n\n"),
      );
  }
  const declaration = childrenNamed(header, "languagedeclaration")[0];
  if (declaration !== undefined) {
    const code = attribute(childrenNamed(declaration, "language")[0] ?? declaration, "langcode")?.toLowerCase();
    if (code !== undefined && /^[a-z]{3}$/.test(code)) record.finding_aid_language = code;
    const script = attribute(childrenNamed(declaration, "script")[0] ?? declaration, "scriptcode");
    if (script !== undefined && /^[A-Za-z]{4}$/.test(script))
      record.finding_aid_script = script[0].toUpperCase() + script.slice(1).toLowerCase();
    put(record, "finding_aid_language_note", block(childrenNamed(declaration, "descriptivenote")[0]));
  }
  const convention = childrenNamed(header, "conventiondeclaration")[0];
  if (convention !== undefined) {
    const text = [childrenNamed(convention, "abbr")[0], childrenNamed(convention, "citation")[0]]
      .filter((child): child is XmlElement => child !== undefined)
      .map((child) => plain(child))
      .join(" ");
    rules(ctx, text, convention, record);
  }
  for (const local of childrenNamed(header, "localcontrol")) {
    if (attribute(local, "localtype")?.toLowerCase() !== "findaidstatus") continue;
    const term = childrenNamed(local, "term")[0];
    findingAidStatus(ctx, term === undefined ? undefined : plain(term), local, record);
  }
  const history = childrenNamed(header, "maintenancehistory")[0];
  if (history !== undefined) {
    const statements: RevisionStatement[] = [];
    for (const event of childrenNamed(history, "maintenanceevent")) {
      const type = attribute(childrenNamed(event, "eventtype")[0] ?? event, "value");
      if (type !== "revised") continue;
      const when = childrenNamed(event, "eventdatetime")[0];
      const description = childrenNamed(event, "eventdescription")[0];
      statements.push({
        jsonmodel_type: "revision_statement",
        date: when === undefined ? "" : plain(when) || (attribute(when, "standarddatetime") ?? ""),
        description: description === undefined ? "" : markup(description, { breaks: true }),
      });
    }
    put(record, "revision_statements", statements);
  }
}

/** The finding aid fields of the resource, from the header element (eadheader or control). */
export function findingAidFields(ctx: EadContext, header: XmlElement | undefined): FindingAidFields {
  const record: FindingAidFields = {};
  if (header?.name === "eadheader") eadheader(ctx, header, record);
  else if (header?.name === "control") control(ctx, header, record);
  return record;
}
