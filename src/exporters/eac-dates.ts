// Agents' structured dates (dates of existence, a name's use dates, a relationship's or an
// occupation's dates) as EAC-CPF's date group: one <date> or <dateRange>, or a <dateSet> of them
// when there are several (cpf.xsd allows one date element where ArchivesSpace writes one per
// date). A date's text is its expression, else its standardized form, which also goes in
// @standardDate (@notBefore/@notAfter by its standardized type) when it is a date the schema takes;
// the label is the element's @localType, as ArchivesSpace writes it. A single date whose role is
// "end" is a <dateRange> with only a <toDate>, so that it reads back as the end it is.
import type { StructuredDateLabel } from "../../generated/types/index.js";
import { anyUri, standardDate, text } from "./eac-terms.js";
import type { Attributes, XmlWriter } from "./xml-writer.js";

interface DatePoint {
  expression?: string;
  standardized?: string;
  standardizedType?: string;
}

function pointAttributes(point: DatePoint): Attributes {
  const standardized = standardDate(point.standardized);
  if (standardized === undefined) return {};
  switch (point.standardizedType) {
    case "not_before":
      return { notBefore: standardized };
    case "not_after":
      return { notAfter: standardized };
    default:
      return { standardDate: standardized };
  }
}

function pointText(point: DatePoint): string | undefined {
  return text(point.expression) ?? text(point.standardized);
}

function writePoint(xml: XmlWriter, name: string, point: DatePoint, attributes: Attributes = {}): void {
  const value = pointText(point);
  if (value !== undefined) xml.element(name, { ...attributes, ...pointAttributes(point) }, value);
}

/** The two ends of a date, either of them possibly missing. */
function ends(date: StructuredDateLabel): { from?: DatePoint; to?: DatePoint; single: boolean } {
  const single = date.structured_date_single;
  if (date.date_type_structured === "single" && single !== undefined) {
    const point = {
      expression: single.date_expression,
      standardized: single.date_standardized,
      standardizedType: single.date_standardized_type,
    };
    return single.date_role === "end" ? { to: point, single: false } : { from: point, single: true };
  }
  const range = date.structured_date_range ?? {};
  return {
    from: {
      expression: range.begin_date_expression,
      standardized: range.begin_date_standardized,
      standardizedType: range.begin_date_standardized_type,
    },
    to: {
      expression: range.end_date_expression,
      standardized: range.end_date_standardized,
      standardizedType: range.end_date_standardized_type,
    },
    single: false,
  };
}

/** Whether the date has anything to write (an expression or a standardized date on some end). */
function written(date: StructuredDateLabel): boolean {
  const { from, to } = ends(date);
  return [from, to].some((point) => point !== undefined && pointText(point) !== undefined);
}

function writeDate(xml: XmlWriter, date: StructuredDateLabel): void {
  const { from, to, single } = ends(date);
  const localType = anyUri(date.date_label);
  if (single && from !== undefined) {
    writePoint(xml, "date", from, { localType });
    return;
  }
  xml.open("dateRange", { localType });
  if (from !== undefined) writePoint(xml, "fromDate", from);
  if (to !== undefined) writePoint(xml, "toDate", to);
  xml.close("dateRange");
}

/** cpf.xsd's date group: nothing, one date, or a <dateSet> of several. */
export function writeDates(xml: XmlWriter, dates: readonly StructuredDateLabel[] | undefined): void {
  const shown = (dates ?? []).filter(written);
  if (shown.length === 1) writeDate(xml, shown[0] as StructuredDateLabel);
  else if (shown.length > 1) {
    xml.open("dateSet");
    for (const date of shown) writeDate(xml, date);
    xml.close("dateSet");
  }
}

/** `<name>` (existDates, useDates) holding the dates, only when there is one to write. */
export function writeDatesElement(
  xml: XmlWriter,
  name: string,
  dates: readonly StructuredDateLabel[] | undefined,
): void {
  if (!(dates ?? []).some(written)) return;
  xml.open(name);
  writeDates(xml, dates);
  xml.close(name);
}

/** A chronology item's date as written (free text): @standardDate only when it is a standard date. */
export function writeEventDate(xml: XmlWriter, value: string | undefined): void {
  const date = text(value);
  xml.element("date", { standardDate: standardDate(date?.trim()) }, date ?? "");
}
