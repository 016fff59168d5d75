// EAC-CPF dates (existDates, useDates: date, dateRange, dateSet) as the structured dates agents
// hold (structured_date_label). A date given as a standard date (`standardDate`, or text that is
// one) is standardized; other text is kept as the expression; `notBefore`/`notAfter` become the
// standardized type.
import type { StructuredDateLabel, StructuredDateRange, StructuredDateSingle } from "../../../generated/types/index.js";
import { archivalDate } from "../source-dates.js";
import { childElement, childElements, textOf } from "../xml/xml-element.js";
import type { XmlElement } from "../xml/xml-reader.js";

type DatePoint = { expression?: string; standardized?: string; standardizedType?: string };

/** One written date: its text, and its standard form from the attributes or the text. */
function point(element: XmlElement | undefined): DatePoint | undefined {
  if (element === undefined) return undefined;
  const text = textOf(element)
    .replace(/[>.,;]+$/, "")
    .trim();
  const attributes = element.attributes;
  const declared = attributes.standardDate ?? attributes.notBefore ?? attributes.notAfter;
  const standardized = archivalDate(declared ?? "") ?? archivalDate(text);
  const result: DatePoint = {};
  if (standardized !== undefined) result.standardized = standardized;
  if (text !== "" && text !== standardized) result.expression = text;
  if (attributes.standardDate === undefined && attributes.notBefore !== undefined)
    result.standardizedType = "not_before";
  if (attributes.standardDate === undefined && attributes.notAfter !== undefined) result.standardizedType = "not_after";
  return result.expression === undefined && result.standardized === undefined ? undefined : result;
}

function single(role: "begin" | "end", at: DatePoint): StructuredDateSingle {
  const date: StructuredDateSingle = { date_role: role };
  if (at.expression !== undefined) date.date_expression = at.expression;
  if (at.standardized !== undefined) date.date_standardized = at.standardized;
  if (at.standardizedType !== undefined) date.date_standardized_type = at.standardizedType;
  return date;
}

function rangeEnd(prefix: "begin" | "end", at: DatePoint | undefined): StructuredDateRange {
  if (at === undefined) return {};
  const date: StructuredDateRange = {};
  if (at.expression !== undefined) date[`${prefix}_date_expression`] = at.expression;
  if (at.standardized !== undefined) date[`${prefix}_date_standardized`] = at.standardized;
  if (at.standardizedType !== undefined) date[`${prefix}_date_standardized_type`] = at.standardizedType;
  return date;
}

/** The dates of a dates element (existDates, useDates) with this label. */
export function structuredDates(holder: XmlElement, label: string): StructuredDateLabel[] {
  const dates: StructuredDateLabel[] = [];
  const sets = childElements(holder, "dateSet");
  for (const element of [
    ...childElements(holder, "date", "dateRange"),
    ...sets.flatMap((set) => childElements(set, "date", "dateRange")),
  ]) {
    if (element.name === "date") {
      const at = point(element);
      if (at !== undefined)
        dates.push({ date_label: label, date_type_structured: "single", structured_date_single: single("begin", at) });
      continue;
    }
    const from = point(childElement(element, "fromDate"));
    const to = point(childElement(element, "toDate"));
    if (from === undefined && to === undefined) continue;
    if (from === undefined)
      dates.push({
        date_label: label,
        date_type_structured: "single",
        structured_date_single: single("end", to as DatePoint),
      });
    else
      dates.push({
        date_label: label,
        date_type_structured: "range",
        structured_date_range: { ...rangeEnd("begin", from), ...rangeEnd("end", to) },
      });
  }
  return dates;
}

/** A date or date range as one line of text, for a chronology's event date. */
export function dateText(element: XmlElement): string {
  const date = childElement(element, "date");
  if (date !== undefined) return textOf(date);
  const range = childElement(element, "dateRange");
  if (range === undefined) return "";
  const ends = ["fromDate", "toDate"]
    .map((name) => childElement(range, name))
    .map((end) => (end === undefined ? "" : textOf(end).replace(/>$/, "")));
  return ends.filter((end) => end !== "").join(" - ");
}
