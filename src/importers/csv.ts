// The `csv` format: ArchivesSpace's CSV import templates, told apart by their header row:
// accessions (aspace_accession_import_template.csv: each row an accession with its agent and
// subject), subjects and locations. A header of labels above the row of field codes is
// allowed. Rows are mapped a chunk at a time and handed on agents first, then subjects, then
// the chunk's accessions, so that records link only to records before them and each type's
// records reach the committer in batches.
//
// Importing the same file again creates nothing twice: an accession matches a stored one with
// the same identifier (id_0..id_3, absent parts absent) in the repository and is reused (its
// row writes nothing; the rest of the file is imported), agents and subjects match as in
// agent-records.ts and subject-records.ts, locations match on every field that places them.
import type { EnumerationValues } from "../registry/enumerations.js";
import { ImportError, type FormatParser, type ImportInput, type ParseContext, type PendingRecord } from "./pending.js";
import { ACCESSION_TEMPLATE_MARKERS, AccessionRows } from "./csv/accession-rows.js";
import { EnumeratedValues } from "./csv/enumerated-values.js";
import { LOCATION_TEMPLATE_MARKERS, LocationRows } from "./csv/location-rows.js";
import { csvRows, type CsvRow } from "./csv/read-rows.js";
import { FileSubjects } from "./csv/subject-records.js";
import { SUBJECT_TEMPLATE_MARKERS, SubjectRows } from "./csv/subject-rows.js";
import { TemplateRow } from "./csv/template-row.js";
import { AGENT_TYPES, FileAgents } from "./agent-records.js";

export interface CsvImportOptions {
  /**
   * The enumerations' current values (the record operations' `deps.enumerations`, ready); default: the schemas' seed
   * values.
   */
  enumerations?: EnumerationValues;
  /** The vocabulary new subjects are filed in (default `/vocabularies/1`, ArchivesSpace's global vocabulary). */
  vocabulary?: string;
  /**
   * Accession rows mapped before their records are handed on (default 1,000, the committer's batch size: each type's
   * records of a chunk reach it as one batch, and every batch costs a few round trips and synced writes).
   */
  chunkRows?: number;
  /**
   * The longest row, in characters (default IMPORT_MAX_XML_TEXT_BYTES's default): csv-parse holds a row whole until it
   * ends.
   */
  maxRecordChars?: number;
}

type Template = "accession" | "subject" | "location";

const TEMPLATES: ReadonlyArray<[Template, readonly string[]]> = [
  ["accession", ACCESSION_TEMPLATE_MARKERS],
  ["subject", SUBJECT_TEMPLATE_MARKERS],
  ["location", LOCATION_TEMPLATE_MARKERS],
];

function templateOf(fields: readonly string[]): Template | undefined {
  const names = new Set(fields.map((field) => field.trim().toLowerCase()));
  return TEMPLATES.find(([, markers]) => markers.every((marker) => names.has(marker)))?.[0];
}

export class CsvParser implements FormatParser {
  readonly format = "csv" as const;

  constructor(private readonly options: CsvImportOptions = {}) {}

  async *parse(input: ImportInput, context: ParseContext): AsyncGenerator<PendingRecord, void, undefined> {
    const rows = csvRows(input, this.options.maxRecordChars);
    const { template, header } = await readHeader(rows);
    const columns = new Map<string, number>();
    header.fields.forEach((field, index) => {
      const name = field.trim().toLowerCase();
      if (name === "") return;
      if (columns.has(name))
        context.warn(`the column ${name} appears twice: only the first is read`, { line: header.line });
      else columns.set(name, index);
    });
    const values = new EnumeratedValues(this.options.enumerations);
    const vocabulary = this.options.vocabulary ?? "/vocabularies/1";
    const rowOf = (row: CsvRow): TemplateRow | undefined => {
      if (row.fields.length !== header.fields.length) {
        throw new ImportError(
          `this row has ${row.fields.length} fields, the header ${header.fields.length}: a comma or quote is missing or one too many`,
          { line: row.line },
        );
      }
      return row.fields.every((field) => field.trim() === "")
        ? undefined
        : new TemplateRow(columns, row, context, values);
    };

    if (template === "subject") {
      const subjects = new SubjectRows(new FileSubjects("csv", vocabulary));
      for await (const row of rows) {
        const read = rowOf(row);
        const pending = read && subjects.map(read);
        if (pending !== undefined) yield pending;
      }
    } else if (template === "location") {
      const locations = new LocationRows();
      for await (const row of rows) {
        const read = rowOf(row);
        const pending = read && locations.map(read);
        if (pending !== undefined) yield pending;
      }
    } else {
      const accessions = new AccessionRows(new FileAgents("csv"), new FileSubjects("csv", vocabulary));
      const chunkRows = this.options.chunkRows ?? 1000;
      let chunk = [] as ReturnType<AccessionRows["map"]>[];
      const flush = function* (): Generator<PendingRecord> {
        const agents = chunk.flatMap((records) => records.agents);
        for (const type of AGENT_TYPES) yield* agents.filter((agent) => agent.type === type);
        for (const records of chunk) yield* records.subjects;
        for (const records of chunk) yield records.accession;
        chunk = [];
      };
      for await (const row of rows) {
        const read = rowOf(row);
        if (read === undefined) continue;
        chunk.push(accessions.map(read));
        if (chunk.length >= chunkRows) yield* flush();
      }
      yield* flush();
    }
  }
}

/** The row of field codes (the first row, or the second under a row of labels) and the template it names. */
async function readHeader(rows: AsyncGenerator<CsvRow>): Promise<{ template: Template; header: CsvRow }> {
  const first = await rows.next();
  if (first.done === true)
    throw new ImportError("the file is empty: expected a header row of ArchivesSpace template columns", { line: 1 });
  const firstTemplate = templateOf(first.value.fields);
  if (firstTemplate !== undefined) return { template: firstTemplate, header: first.value };
  const second = await rows.next();
  const secondTemplate = second.done === true ? undefined : templateOf(second.value.fields);
  if (secondTemplate !== undefined) return { template: secondTemplate, header: second.value as CsvRow };
  throw new ImportError(
    "not one of ArchivesSpace's CSV import templates: the header row names none of the accession template's accession_title and accession_number_1, " +
      "the subject template's term_1 and term_type_1, or the location template's location_building",
    { line: first.value.line },
  );
}

/** The parser with the schemas' seed enumerations and the vocabulary /vocabularies/1. */
export const csvParser = new CsvParser();
