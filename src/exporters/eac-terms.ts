// The values EAC-CPF 2010 (cpf.xsd) constrains, and the words it has for Arca's enumeration
// values. Every attribute or token a record's text fills is checked here first: a value the
// schema would refuse is left out (or replaced by the schema's own word), so whatever an agent
// holds the document stays valid. The mappings follow ArchivesSpace's EAC serializer
// (backend/app/exporters/serializers/eac.rb) where its words are in the schema.
import { xmlChars } from "./xml-writer.js";

export const EAC_NAMESPACE = "urn:isbn:1-931666-33-4";
export const XLINK_NAMESPACE = "http://www.w3.org/1999/xlink";

/** A text field's value with what XML cannot carry dropped; an empty one counts as none. */
export function text(value: string | undefined | null): string | undefined {
  if (typeof value !== "string") return undefined;
  const cleaned = xmlChars(value);
  return cleaned.trim() === "" ? undefined : cleaned;
}

// xs:NMTOKEN, kept to ASCII name characters: what every validator accepts the same way.
const NMTOKEN = /^[A-Za-z0-9._:-]+$/;

/**
 * A text value as an xs:anyURI attribute (@localType, @vocabularySource, xlink:href, ...): as it is when a validator
 * reads it as a URI reference (libxml2 escapes spaces and other characters first, but refuses a stray `%`, a second
 * `#`, brackets or a bad scheme), else percent-encoded whole, which always is one.
 */
export function anyUri(value: string | undefined | null): string | undefined {
  const written = text(value);
  if (written === undefined) return undefined;
  const scheme = /^([^/?#]*):/.exec(written)?.[1];
  const valid =
    !/%(?![0-9A-Fa-f]{2})/.test(written) &&
    !/[[\]]/.test(written) &&
    (written.match(/#/g) ?? []).length <= 1 &&
    (scheme === undefined || /^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme));
  return valid ? written : encodeURIComponent(written);
}

/** The value when it is an XML name token (recordId, authorizedForm, ...), else undefined. */
export function nmtoken(value: string | undefined | null): string | undefined {
  return typeof value === "string" && NMTOKEN.test(value) ? value : undefined;
}

const LAST_YEAR = 2099; // cpf.xsd's maxInclusive on every standard date

function realDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A year, year-month or day (xs:gYear, xs:gYearMonth, xs:date up to 2099): @standardDate and its kin. */
export function standardDate(value: string | undefined): string | undefined {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value ?? "");
  if (match === null) return undefined;
  const year = Number(match[1]);
  const month = match[2] === undefined ? 1 : Number(match[2]);
  const day = match[3] === undefined ? 1 : Number(match[3]);
  if (year < 1 || year > LAST_YEAR || month < 1 || month > 12 || !realDay(year, month, day)) return undefined;
  return value;
}

/** A standard date, or a date and time (xs:dateTime): @standardDateTime, @lastDateTimeVerified. */
export function standardDateTime(value: string | undefined): string | undefined {
  if (standardDate(value) !== undefined) return value;
  const match =
    /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/.exec(
      value ?? "",
    );
  return match !== null && standardDate(match[1]) !== undefined ? value : undefined;
}

/** An ISO 15511 agency code as cpf.xsd's pattern has it (`US-CtY-BR`). */
export function agencyCode(value: string | undefined): string | undefined {
  return typeof value === "string" && /^(?:[A-Z]{2}|[a-zA-Z]|[a-zA-Z]{3,4})-[a-zA-Z0-9:/-]{1,11}$/.test(value)
    ? value
    : undefined;
}

/** ISO 639-2 (three lower-case letters), as @languageCode requires. */
export function languageCode(value: string | undefined): string | undefined {
  return typeof value === "string" && /^[a-z]{3}$/.test(value) ? value : undefined;
}

/** ISO 15924 (`Latn`), as @scriptCode requires. */
export function scriptCode(value: string | undefined): string | undefined {
  return typeof value === "string" && /^[A-Z][a-z]{3}$/.test(value) ? value : undefined;
}

/** An xml:lang value (xs:language). */
export function xmlLang(value: string | undefined): string | undefined {
  return typeof value === "string" && /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/.test(value) ? value : undefined;
}

/** ISO 639-2's "undetermined" and ISO 15924's "uncoded script": <language> and <script> go in pairs. */
export const UNDETERMINED_LANGUAGE = "und";
export const UNCODED_SCRIPT = "Zzzz";

const XLINK_SHOW: ReadonlySet<string> = new Set(["new", "replace", "embed", "other", "none"]);
const XLINK_ACTUATE: ReadonlySet<string> = new Set(["onLoad", "onRequest", "other", "none"]);

/** The xlink attributes of a subrecord that points at a file (ArchivesSpace's file_uri and xlink_* fields). */
export interface LinkFields {
  file_uri?: string;
  file_version_xlink_actuate_attribute?: string;
  file_version_xlink_show_attribute?: string;
  xlink_title_attribute?: string;
  xlink_role_attribute?: string;
  xlink_arcrole_attribute?: string;
  last_verified_date?: string;
}

/** `xlink:*` and @lastDateTimeVerified of such a subrecord; xlink:type only when it links to something. */
export function linkAttributes(fields: LinkFields): Record<string, string | undefined> {
  const href = anyUri(fields.file_uri);
  const show = fields.file_version_xlink_show_attribute;
  const actuate = fields.file_version_xlink_actuate_attribute;
  const role = anyUri(fields.xlink_role_attribute);
  const arcrole = anyUri(fields.xlink_arcrole_attribute);
  const title = text(fields.xlink_title_attribute);
  const any = [href, role, arcrole, title].some((value) => value !== undefined);
  return {
    "xlink:type": any ? "simple" : undefined,
    "xlink:href": href,
    "xlink:role": role,
    "xlink:arcrole": arcrole,
    "xlink:title": title,
    "xlink:show": any && show !== undefined && XLINK_SHOW.has(show) ? show : undefined,
    "xlink:actuate": any && actuate !== undefined && XLINK_ACTUATE.has(actuate) ? actuate : undefined,
    lastDateTimeVerified: dateTimeOf(fields.last_verified_date),
  };
}

/**
 * A stored date or time (`2020-11-24`, `2020-11-24 00:00:00 UTC`, ISO) as cpf.xsd's standard date-time, as
 * ArchivesSpace formats it; undefined when it is neither.
 */
export function dateTimeOf(value: string | undefined): string | undefined {
  if (value === undefined || standardDateTime(value) !== undefined) return value;
  const date = new Date(value.replace(/ UTC$/, "Z").replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? undefined : standardDateTime(date.toISOString().replace(/\.\d{3}Z$/, "Z"));
}

/** maintenance_status -> <maintenanceStatus> (ArchivesSpace's words; its deletedMerged is not in cpf.xsd). */
export function maintenanceStatus(value: string | undefined): string | undefined {
  switch (value) {
    case "new":
    case "derived":
    case "deleted":
      return value;
    case "upgraded":
    case "revised_corrected":
      return "revised";
    case "cancelled_obsolete":
      return "cancelled";
    case "deleted_split":
      return "deletedSplit";
    case "deleted_replaced":
    case "deleted_merged":
      return "deletedReplaced";
    default:
      return undefined;
  }
}

export function publicationStatus(value: string | undefined): string | undefined {
  if (value === "in_process") return "inProcess";
  return value === "approved" ? value : undefined;
}

const EVENT_TYPES: ReadonlySet<string> = new Set(["created", "revised", "deleted", "cancelled", "derived", "updated"]);

export function eventType(value: string | undefined): string | undefined {
  return value !== undefined && EVENT_TYPES.has(value) ? value : undefined;
}

export function agentType(value: string | undefined): "human" | "machine" {
  return value === "machine" ? "machine" : "human";
}

/** An agent relationship's relator as @cpfRelationType (ArchivesSpace's mapping). */
export function cpfRelationType(relator: string | undefined): string {
  switch (relator) {
    case "is_identified_with":
      return "identity";
    case "is_hierarchical_with":
      return "hierarchical";
    case "is_parent_of":
    case "is_superior_of":
      return "hierarchical-parent";
    case "is_child_of":
    case "is_subordinate_to":
      return "hierarchical-child";
    case "is_temporal_with":
      return "temporal";
    case "is_earlier_form_of":
      return "temporal-earlier";
    case "is_later_form_of":
      return "temporal-later";
    case "is_related_with":
      return "family";
    default:
      return "associative";
  }
}

/**
 * A linked agent's role as @resourceRelationType: creator and subject as ArchivesSpace writes them;
 * its `sourceOf` is not in cpf.xsd, so a source is `other`.
 */
export function resourceRelationType(role: string | undefined): "creatorOf" | "subjectOf" | "other" {
  if (role === "creator") return "creatorOf";
  return role === "subject" ? "subjectOf" : "other";
}
