// dt=csv on a repository's search: every result of the search (not only the page asked for, as ArchivesSpace's
// export streams page after page), as CSV, written as it is read, CSV_PAGE_SIZE results at a time, to at most
// CSV_MAX_ROWS. Columns: fields[] when given, else CSV_COLUMNS. A list value is its items joined by "; ". A value
// a spreadsheet would run as a formula (starting =, +, -, @, tab or carriage return) is prefixed with a quote.
import type { Response } from "express";
import type { Actor } from "../auth/actor.js";
import type { JsonValue } from "../registry/index.js";
import type { SearchOperations, SearchRequest } from "./search.js";

export const CSV_COLUMNS = [
  "uri",
  "title",
  "primary_type",
  "identifier",
  "repository",
  "level",
  "publish",
  "suppressed",
  "create_time",
  "user_mtime",
];
export const CSV_PAGE_SIZE = 250;
export const CSV_MAX_ROWS = 100_000;

function cell(value: JsonValue | undefined): string {
  let text =
    value === undefined || value === null
      ? ""
      : Array.isArray(value)
        ? value.map((item) => (typeof item === "object" ? JSON.stringify(item) : String(item))).join("; ")
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function writeSearchCsv(
  res: Response,
  search: SearchOperations,
  request: SearchRequest,
  actor: Actor,
): Promise<void> {
  const columns = request.fields ?? CSV_COLUMNS;
  const first = await search.search({ ...request, page: 1, pageSize: CSV_PAGE_SIZE, facets: [] }, actor);
  res.writeHead(200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": 'attachment; filename="search.csv"',
  });
  res.write(`${columns.map((column) => cell(column)).join(",")}\r\n`);
  let page = first;
  let rows = 0;
  for (let number = 1; ; number++) {
    if (number > 1)
      page = await search.search({ ...request, page: number, pageSize: CSV_PAGE_SIZE, facets: [] }, actor);
    for (const result of page.results) {
      if (rows >= CSV_MAX_ROWS) break;
      rows += 1;
      // Waits for the client to read: a slow reader holds the export, not the server's memory.
      const line = columns.map((column) => cell(Object.hasOwn(result, column) ? result[column] : undefined));
      if (!res.write(`${line.join(",")}\r\n`))
        await new Promise((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
      if (res.destroyed) return;
    }
    if (number >= page.last_page || rows >= CSV_MAX_ROWS) break;
  }
  res.end();
}
