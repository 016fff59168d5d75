// <unitdate> and EAD3 <unitdatestructured> as ArchivesSpace date subrecords, normalised to
// begin/end where the file allows: from @normal (`1900/1950`), EAD3's @standarddate, or the
// text itself when it is a plain year, range, month-day-year, decade or "circa" date. The text
// is always kept as the expression; a date that cannot be normalised is kept as an expression
// only (ArchivesSpace's own rule), never dropped.
import { lookupTable } from "../../registry/dictionary.js";
import type { XmlElement } from "../xml/xml-reader.js";
import type { ArchivalDate } from "../../../generated/types/index.js";
import { put } from "../record-draft.js";
import { at, type EadContext } from "./context.js";
import { attribute, childrenNamed, plain } from "./text.js";

export interface DateRange {
  begin?: string;
  end?: string;
  certainty?: string;
  bulk?: boolean;
}

const MONTHS: Readonly<Record<string, number>> = lookupTable({
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
});

const pad = (n: number): string => String(n).padStart(2, "0");

function validDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** An ISO 8601 date (`1960`, `1960-05`, `1960-05-01`, `19600501`, a date-time) as YYYY[-MM[-DD]], or undefined. */
export function normalDate(value: string): string | undefined {
  const match = /^(\d{4})(?:-?(\d{2})(?:-?(\d{2}))?)?(?:T.*)?$/.exec(value.trim());
  if (match === null) return undefined;
  const [, year, month, day] = match;
  if (month === undefined) return year;
  if (Number(month) < 1 || Number(month) > 12) return undefined;
  if (day === undefined) return `${year}-${month}`;
  return validDay(Number(year), Number(month), Number(day)) ? `${year}-${month}-${day}` : undefined;
}

/** @normal: one date or two separated by `/`. */
export function parseNormal(value: string): DateRange | undefined {
  const parts = value.split("/");
  if (parts.length > 2) return undefined;
  const begin = normalDate(parts[0]);
  if (begin === undefined) return undefined;
  if (parts.length === 1) return { begin };
  const end = normalDate(parts[1]);
  return end === undefined ? undefined : { begin, end };
}

const MONTH_NAME =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
// "Nov. 29, 1949", "November 1949", "1949 Nov. 29", "1949 November", "1949-11-29", "1949".
const DATE_PART = new RegExp(
  `^(?:${MONTH_NAME}\\.?\\s+(?:(\\d{1,2})(?:st|nd|rd|th)?,?\\s+)?(\\d{4})|(\\d{4})\\s+${MONTH_NAME}\\.?(?:\\s+(\\d{1,2}))?|(\\d{4}(?:-\\d{2}(?:-\\d{2})?)?))$`,
  "i",
);

function datePart(text: string): string | undefined {
  const match = DATE_PART.exec(text.trim());
  if (match === null) return undefined;
  const [, monthA, dayA, yearA, yearB, monthB, dayB, iso] = match;
  if (iso !== undefined) return normalDate(iso);
  const year = Number(yearA ?? yearB);
  const month =
    MONTHS[(monthA ?? monthB).toLowerCase().replace(/\.$/, "")] ?? MONTHS[(monthA ?? monthB).toLowerCase().slice(0, 3)];
  const dayText = dayA ?? dayB;
  if (month === undefined) return undefined;
  if (dayText === undefined) return `${year}-${pad(month)}`;
  const day = Number(dayText);
  return validDay(year, month, day) ? `${year}-${pad(month)}-${pad(day)}` : undefined;
}

/** The begin and end a date's text states, when it is one of the forms people write plainly. */
export function parseExpression(expression: string): DateRange | undefined {
  let text = expression
    .trim()
    .replace(/[.;,]$/, "")
    .trim();
  const result: DateRange = {};
  const bulk = /^bulk,?\s*/i.exec(text);
  if (bulk !== null) {
    result.bulk = true;
    text = text.slice(bulk[0].length);
  }
  const circa = /^(?:circa|ca\.?|c\.|approximately|approx\.)\s*/i.exec(text);
  if (circa !== null) {
    result.certainty = "approximate";
    text = text.slice(circa[0].length);
  }
  const decade = /^(\d{3})0s$/.exec(text);
  if (decade !== null) return { ...result, begin: `${decade[1]}0`, end: `${decade[1]}9` };
  const single = datePart(text);
  if (single !== undefined) return { ...result, begin: single };
  const range = /^(.+?)\s*(?:-|–|—|\/|\bto\b|\bthrough\b)\s*(.+)$/i.exec(text);
  if (range === null) return undefined;
  const part = (text: string, edge: "begin" | "end"): string | undefined => {
    const bare = text.replace(/^(?:circa|ca\.?|c\.)\s*/i, "");
    const decadeOf = /^(\d{3})0s$/.exec(bare);
    return decadeOf === null ? datePart(bare) : `${decadeOf[1]}${edge === "begin" ? "0" : "9"}`;
  };
  const begin = part(range[1], "begin");
  const end = part(range[2], "end");
  if (begin === undefined || end === undefined || end < begin.slice(0, end.length)) return undefined;
  return { ...result, begin, end };
}

/** EAD's date type words as date_type values. */
function dateTypeOf(
  ctx: EadContext,
  raw: string | undefined,
  element: XmlElement,
): "bulk" | "inclusive" | "single" | undefined {
  if (raw === undefined) return undefined;
  const value = raw.toLowerCase();
  if (value === "bulk" || value === "inclusive" || value === "single") return value;
  ctx.warnOnce(
    `date type ${raw}`,
    `date type '${raw}' is not bulk, inclusive or single: the date is taken as inclusive`,
    at(element),
  );
  return "inclusive";
}

/** The date label from @datechar; creation when there is none or it is not in the list. */
function labelOf(ctx: EadContext, element: XmlElement): string {
  const label = attribute(element, "datechar");
  return (
    (label === undefined
      ? undefined
      : ctx.pick("date_label", label, "date label (@datechar)", at(element), { fallback: "creation" })) ?? "creation"
  );
}

/**
 * Certainties finding aids write (EAD3's @certainty is free text) for the date_certainty values
 * they mean: "circa 1905" is an approximate date.
 */
const CERTAINTY_SYNONYMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    circa: "approximate",
    ca: "approximate",
    "ca.": "approximate",
    "c.": "approximate",
    about: "approximate",
    approx: "approximate",
    "approx.": "approximate",
    approximately: "approximate",
    estimated: "approximate",
    probable: "inferred",
    probably: "inferred",
    supplied: "inferred",
    uncertain: "questionable",
    doubtful: "questionable",
    "?": "questionable",
  }),
);

/** The attributes every date element shares besides its label: certainty, era, calendar. */
function common(ctx: EadContext, element: XmlElement, date: ArchivalDate): void {
  const where = at(element);
  const certainty = attribute(element, "certainty");
  if (certainty !== undefined)
    put(
      date,
      "certainty",
      ctx.pick("date_certainty", certainty, "date certainty", where, { synonyms: CERTAINTY_SYNONYMS }),
    );
  const era = attribute(element, "era");
  if (era !== undefined) put(date, "era", ctx.pick("date_era", era, "date era", where));
  const calendar = attribute(element, "calendar");
  if (calendar !== undefined) put(date, "calendar", ctx.pick("date_calendar", calendar, "date calendar", where));
}

function assemble(
  ctx: EadContext,
  element: XmlElement,
  declaredType: string | undefined,
  range: DateRange | undefined,
  expression: string | undefined,
): ArchivalDate | undefined {
  if (range?.begin === undefined && expression === undefined) return undefined;
  let type = dateTypeOf(ctx, declaredType, element) ?? (range?.bulk ? "bulk" : undefined);
  // No type given: a date that states one point ("1905", or text such as "June 30" that reads as no range) is single.
  if (type === undefined)
    type =
      (range?.end === undefined || range.end === range.begin) && !/[-–/]|\bto\b/.test(expression ?? "")
        ? "single"
        : "inclusive";
  if (type === "single" && range?.end !== undefined && range.end !== range.begin) type = "inclusive";
  const date: ArchivalDate = { jsonmodel_type: "date", date_type: type, label: labelOf(ctx, element) };
  common(ctx, element, date);
  if (range?.certainty !== undefined && date.certainty === undefined) date.certainty = range.certainty;
  put(date, "expression", expression);
  put(date, "begin", range?.begin);
  if (type !== "single") put(date, "end", range?.end);
  return date;
}

/** One <unitdate>. */
export function unitdate(ctx: EadContext, element: XmlElement): ArchivalDate | undefined {
  const expression = plain(element) || undefined;
  const normal = attribute(element, "normal");
  let range: DateRange | undefined;
  if (normal !== undefined) {
    range = parseNormal(normal);
    if (range === undefined) {
      ctx.warn(
        `unitdate @normal '${normal}' is not an ISO 8601 date or range: the date is kept as its text`,
        at(element),
      );
      return assemble(
        ctx,
        element,
        element.attributes.type ?? element.attributes.unitdatetype,
        undefined,
        expression ?? normal,
      );
    }
    if (range.end !== undefined && range.end < range.begin!) {
      ctx.warn(`unitdate @normal '${normal}' ends before it begins: the date is kept as its text`, at(element));
      return assemble(
        ctx,
        element,
        element.attributes.type ?? element.attributes.unitdatetype,
        undefined,
        expression ?? normal,
      );
    }
    if (expression !== undefined) {
      range.bulk = /^bulk\b/i.test(expression);
      if (/^(?:bulk,?\s*)?(?:circa|ca\.|c\.)\s/i.test(expression)) range.certainty = "approximate";
    }
  } else if (expression !== undefined) {
    range = parseExpression(expression);
  }
  return assemble(ctx, element, element.attributes.type ?? element.attributes.unitdatetype, range, expression);
}

/**
 * A <fromdate>, <todate> or <datesingle>: its @standarddate, else its @notbefore/@notafter (the
 * bound nearer the side it stands for: a <fromdate> begins not before, a <todate> ends not after),
 * else its text. `bounded`: the value is a bound, not the date itself.
 */
function structuredValue(
  element: XmlElement | undefined,
  side: "begin" | "end",
): { value?: string; text?: string; bounded?: boolean } {
  if (element === undefined) return {};
  const text = plain(element) || undefined;
  const standard = normalDate(attribute(element, "standarddate") ?? "");
  if (standard !== undefined) return { value: standard, text };
  const [near, far] = side === "begin" ? ["notbefore", "notafter"] : ["notafter", "notbefore"];
  const bound = normalDate(attribute(element, near) ?? "") ?? normalDate(attribute(element, far) ?? "");
  if (bound !== undefined) return { value: bound, text, bounded: true };
  return {
    value: normalDate(text ?? "") ?? (text === undefined ? undefined : parseExpression(text)?.begin),
    text: text ?? attribute(element, "standarddate"),
  };
}

/** The written text of a structured date's parts, when it says more than their values do. */
function writtenText(parts: Array<{ value?: string; text?: string }>): string | undefined {
  const says = parts.some((part) => part.text !== undefined && part.text !== part.value);
  return says
    ? parts
        .map((part) => part.text ?? part.value)
        .filter(Boolean)
        .join("-")
    : undefined;
}

/** EAD3 <unitdatestructured>: one date per <datesingle> or <daterange> (a <dateset> holds several). */
export function unitdatestructured(ctx: EadContext, element: XmlElement): ArchivalDate[] {
  const dates: ArchivalDate[] = [];
  const type = element.attributes.unitdatetype;
  const expression = attribute(element, "altrender");
  const parts = childrenNamed(element, "datesingle", "daterange", "dateset").flatMap((part) =>
    part.name === "dateset" ? childrenNamed(part, "datesingle", "daterange") : [part],
  );
  for (const part of parts) {
    let range: DateRange;
    let text: string | undefined;
    if (part.name === "datesingle") {
      const single = structuredValue(part, "begin");
      // Known only between bounds (<datesingle notbefore="1900" notafter="1910">): that span, approximate.
      const latest = single.bounded ? normalDate(attribute(part, "notafter") ?? "") : undefined;
      range = { begin: single.value, ...(latest !== undefined && latest !== single.value && { end: latest }) };
      if (single.bounded) range.certainty = "approximate";
      text = writtenText([single]);
    } else {
      const from = structuredValue(childrenNamed(part, "fromdate")[0], "begin");
      const to = structuredValue(childrenNamed(part, "todate")[0], "end");
      range = { begin: from.value ?? to.value, end: to.value };
      if (from.bounded || to.bounded) range.certainty = "approximate";
      text = writtenText([from, to]);
    }
    const date = assemble(
      ctx,
      element,
      type ?? (part.name === "datesingle" ? "single" : "inclusive"),
      range,
      parts.length === 1 ? (expression ?? text) : text,
    );
    if (date !== undefined) dates.push(date);
  }
  return dates;
}

/**
 * A <did>'s dates: its <unitdate>s (also those inside <unittitle>) and <unitdatestructured>s. A
 * plain <unitdate> beside a structured one stating the same dates (NCSU's files have both) is
 * one date: the structured one, with the text as its expression.
 */
export function datesOf(ctx: EadContext, elements: readonly XmlElement[]): ArchivalDate[] {
  const plainDates: ArchivalDate[] = [];
  /** The plain dates read from their text only (no @normal): those a structured date may stand beside. */
  const fromText = new Set<ArchivalDate>();
  const structured: ArchivalDate[] = [];
  for (const element of elements) {
    if (element.name === "unitdate") {
      const date = unitdate(ctx, element);
      if (date === undefined) continue;
      plainDates.push(date);
      if (attribute(element, "normal") === undefined) fromText.add(date);
    } else if (element.name === "unitdatestructured") structured.push(...unitdatestructured(ctx, element));
  }
  if (structured.length === 0) return plainDates;
  const sameKind = (a: ArchivalDate, b: ArchivalDate): boolean => (a.date_type === "bulk") === (b.date_type === "bulk");
  // Structured dates by what they state, each list in document order: a twin is found by one
  // lookup, not a pass over all of them (a unit may hold thousands of dates).
  const stating = (date: ArchivalDate): string =>
    JSON.stringify([date.begin ?? null, date.end ?? date.begin ?? null, date.date_type === "bulk"]);
  const unpaired = new Map<string, ArchivalDate[]>();
  const twinned = new Set<ArchivalDate>();
  for (const date of structured) {
    const same = unpaired.get(stating(date));
    if (same === undefined) unpaired.set(stating(date), [date]);
    else same.push(date);
  }
  const kept: ArchivalDate[] = [];
  for (const date of plainDates) {
    const twin = date.begin === undefined ? undefined : unpaired.get(stating(date))?.shift();
    // The structured date's own written text ("materials may slightly pre-date 0950") says more than the plain one.
    if (twin !== undefined) {
      twinned.add(twin);
      if (twin.expression === undefined) put(twin, "expression", date.expression);
    } else kept.push(date);
  }
  // A text beside a structured date that says it differently ("1950s-1980s" and 1950/1987):
  // when such texts and structured dates pair up one to one, in order, each pair is one date.
  const texts = kept.filter((date) => fromText.has(date));
  const bare = structured.filter((date) => date.expression === undefined && !twinned.has(date));
  if (texts.length > 0 && texts.length === bare.length && texts.every((date, i) => sameKind(date, bare[i]))) {
    texts.forEach((date, i) => put(bare[i], "expression", date.expression));
    const paired = new Set(texts);
    return [...kept.filter((date) => !paired.has(date)), ...structured];
  }
  return [...kept, ...structured];
}
