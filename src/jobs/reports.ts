// The reports a report_job makes, as CSV: each a record type, which of its records (the job's repository's, or every
// one of a global type) and its columns, read from the stored records in id order through one cursor, so a report of
// any size is written in bounded memory. A cell that a spreadsheet would take for a formula is prefixed with a quote
// (OWASP's CSV injection advice): report cells are what users typed.
import type { Writable } from "node:stream";
import { once } from "node:events";
import type { JsonObject, JsonValue, Registry } from "../registry/index.js";
import type { RecordStore } from "../storage/record-store.js";

export interface ReportColumn {
  header: string;
  cell(record: JsonObject): string;
}

export interface ReportDefinition {
  title: string;
  /** The record type reported on. */
  type: string;
  /** Global types are reported whole; a repository's type, for the job's repository. */
  global: boolean;
  /** What the job's owner must hold (in the job's repository) beside create_job. */
  permission: string;
  columns: ReportColumn[];
}

const text = (value: JsonValue | undefined): string =>
  value === undefined || value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);

const field = (name: string, header = name): ReportColumn => ({ header, cell: (record) => text(record[name]) });

const objects = (value: JsonValue | undefined): JsonObject[] =>
  Array.isArray(value)
    ? value.filter((item): item is JsonObject => typeof item === "object" && item !== null && !Array.isArray(item))
    : [];

/** ArchivesSpace's four-part identifier, joined as its interface shows it. */
const identifier: ReportColumn = {
  header: "identifier",
  cell: (record) =>
    ["id_0", "id_1", "id_2", "id_3"]
      .map((part) => text(record[part]))
      .filter((part) => part !== "")
      .join("-"),
};

/** Every extent, `number type (portion)`, separated by "; ". */
const extents: ReportColumn = {
  header: "extents",
  cell: (record) =>
    objects(record.extents)
      .map((extent) =>
        [text(extent.number), text(extent.extent_type), extent.portion ? `(${text(extent.portion)})` : ""]
          .filter(Boolean)
          .join(" "),
      )
      .join("; "),
};

/** Every date, its expression or its begin-end. */
const dates: ReportColumn = {
  header: "dates",
  cell: (record) =>
    objects(record.dates)
      .map((date) => text(date.expression) || [text(date.begin), text(date.end)].filter(Boolean).join("-"))
      .join("; "),
};

const uri = field("uri");

export const REPORTS: ReadonlyMap<string, ReportDefinition> = new Map<string, ReportDefinition>([
  [
    "accession_report",
    {
      title: "Accessions",
      type: "accession",
      global: false,
      permission: "view_repository",
      columns: [
        uri,
        identifier,
        field("title"),
        field("accession_date"),
        field("acquisition_type"),
        field("resource_type"),
        extents,
        dates,
        field("publish"),
      ],
    },
  ],
  [
    "resource_report",
    {
      title: "Resources, with their extents",
      type: "resource",
      global: false,
      permission: "view_repository",
      columns: [uri, identifier, field("title"), field("level"), extents, dates, field("finding_aid_status")],
    },
  ],
  [
    "location_report",
    {
      title: "Locations",
      type: "location",
      global: true,
      permission: "view_repository",
      columns: [
        uri,
        field("title"),
        field("building"),
        field("floor"),
        field("room"),
        field("area"),
        field("barcode"),
        field("classification"),
        field("temporary"),
      ],
    },
  ],
  [
    "user_report",
    {
      title: "Users",
      type: "user",
      global: true,
      permission: "manage_users",
      columns: [
        uri,
        field("username"),
        field("name"),
        field("email"),
        field("department"),
        field("is_admin"),
        field("is_active_user"),
      ],
    },
  ],
]);

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** `value` as a spreadsheet shows it and never runs it: one that would start a formula is prefixed with a quote. */
export function withoutFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function csvCell(value: string): string {
  const safe = withoutFormula(value);
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvRow = (cells: readonly string[]): string => `${cells.map(csvCell).join(",")}\r\n`;

/** Rows per write to `out` (and between checks of `stop`). */
const ROWS_PER_WRITE = 500;

/**
 * Writes the report to `out` and ends it; answers the rows written. `stop` is asked between groups of rows (a
 * cancel); when it answers a reason, the report stops with it thrown.
 */
export async function writeReport(
  store: RecordStore,
  registry: Registry,
  report: ReportDefinition,
  repoId: number,
  out: Writable,
  stop: () => string | undefined,
): Promise<number> {
  // Stored records carry their id; the uri every column set starts with is made from it.
  const scope = registry.get(report.type).scope === "repository" ? repoId : undefined;
  const filter = report.global ? {} : { repo_id: repoId };
  const cursor = store.collection(report.type).find(filter).sort({ id: 1 }).batchSize(ROWS_PER_WRITE);
  let rows = 0;
  let pending = csvRow(report.columns.map((column) => column.header));
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, "drain");
  };
  try {
    for await (const record of cursor) {
      const shown = { ...(record as JsonObject), uri: registry.uriFor(report.type, Number(record.id), scope) };
      pending += csvRow(report.columns.map((column) => column.cell(shown)));
      if (++rows % ROWS_PER_WRITE !== 0) continue;
      await write(pending);
      pending = "";
      const reason = stop();
      if (reason !== undefined) throw new Error(reason);
    }
    await write(pending);
  } finally {
    await cursor.close();
  }
  out.end();
  await once(out, "finish");
  return rows;
}
