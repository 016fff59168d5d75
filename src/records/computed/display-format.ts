// x-computed format: a display string built from a record's fields by a small declarative spec in the schema, so that
// ArchivesSpace's strings ("Personal, 1886–1961", "Box 1: [39002]", "Main, 2 [Shelf: 3]", "Name (code)") come from
// the schema, not from code that knows the type. A part yields a string or nothing; `before`/`after` wrap a part
// only when it yields, so separators appear only between present values, as ArchivesSpace's joins of non-nil
// values do. The parts:
//   {"path": "a/b"}                           the text at a path (numbers as written); `case: "capitalize"` gives
//                                             the first letter upper case and the rest lower (Ruby's capitalize)
//   {"parts": [...], "join": ", "}            the parts that yield, joined; `all: true`: nothing unless every part
//                                             not marked `optional` yields
//   {"first": [...]}                          the first part that yields
//   {"each": "series/*", "part": {...}, "join": "; "}
//                                             the part for each item at the path (the item as its record), joined;
//                                             without `part`, each item's own text
//   {"date": "dates"}                         the first date of a list, as ArchivesSpace labels it: its expression,
//                                             else "begin - end", else begin
//   {"when": {"name_order": "inverted"}, ...} the part only when each path holds that value
// On any part: `before`, `after`; on the outermost: `trim_end` (a character taken off the end once), `trim_start`
// (true: leading white space taken off, as Ruby's lstrip), `max` (length), in that order. Used by x-computed formats
// (shown on reads) and x-derived ones (produced on writes: an agent name's sort_name).
import type { JsonObject, JsonValue } from "../../registry/index.js";
import { isJsonObject } from "../../registry/json.js";
import { valueAt, valuesAt } from "./paths.js";

function text(value: JsonValue | undefined): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  if (typeof value === "number") return String(value);
  return undefined;
}

function split(path: JsonValue | undefined): string[] {
  return typeof path === "string" ? path.split("/") : [];
}

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1).toLowerCase();
}

/** ArchivesSpace's label of a date sub-record: expression, else "begin - end", else begin. */
function dateLabel(date: JsonValue | undefined): string | undefined {
  if (!isJsonObject(date)) return undefined;
  const expression = text(date.expression);
  if (expression !== undefined) return expression;
  const begin = text(date.begin);
  const end = text(date.end);
  return begin !== undefined && end !== undefined ? `${begin} - ${end}` : begin;
}

function holds(record: JsonObject, when: JsonValue | undefined): boolean {
  if (!isJsonObject(when)) return true;
  return Object.entries(when).every(([path, expected]) => valueAt(record, split(path)) === expected);
}

function inner(part: JsonObject, record: JsonObject): string | undefined {
  if (part.path !== undefined) {
    const value = text(valueAt(record, split(part.path)));
    return value !== undefined && part.case === "capitalize" ? capitalize(value) : value;
  }
  if (Array.isArray(part.first)) {
    for (const option of part.first) {
      const found = isJsonObject(option) ? render(option, record) : undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(part.parts)) {
    const found: string[] = [];
    for (const sub of part.parts) {
      if (!isJsonObject(sub)) continue;
      const value = render(sub, record);
      if (value !== undefined) found.push(value);
      else if (part.all === true && sub.optional !== true) return undefined;
    }
    return found.length === 0 ? undefined : found.join(typeof part.join === "string" ? part.join : "");
  }
  if (part.each !== undefined) {
    const each = part.part;
    const found = valuesAt(record, split(part.each)).flatMap((item) => {
      const value = isJsonObject(each) ? (isJsonObject(item) ? render(each, item) : undefined) : text(item);
      return value === undefined ? [] : [value];
    });
    return found.length === 0 ? undefined : found.join(typeof part.join === "string" ? part.join : "");
  }
  if (part.date !== undefined) {
    const dates = valueAt(record, split(part.date));
    return Array.isArray(dates) ? dateLabel(dates[0]) : undefined;
  }
  return undefined;
}

function render(part: JsonObject, record: JsonObject): string | undefined {
  if (!holds(record, part.when)) return undefined;
  const value = inner(part, record);
  if (value === undefined) return undefined;
  return `${text(part.before) ?? ""}${value}${text(part.after) ?? ""}`;
}

/** The display string `format` gives for `record`; undefined when nothing in it yields. */
export function displayString(format: JsonObject, record: JsonObject): string | undefined {
  let value = render(format, record);
  if (value === undefined) return undefined;
  const trim = text(format.trim_end);
  if (trim !== undefined && value.endsWith(trim)) value = value.slice(0, -trim.length);
  if (format.trim_start === true) value = value.trimStart();
  if (typeof format.max === "number") value = value.slice(0, format.max);
  return value === "" ? undefined : value;
}
