// One data row of an ArchivesSpace CSV template, its cells read as the schemas want them:
// trimmed text (an empty cell is no value), yes/no flags, enumerated values, dates. What cannot
// be read is said where it is (line and column name): a warning when the value can be left out,
// an ImportError when the row cannot stand without it. The row remembers which columns were
// read, so the cells no mapping took are reported rather than dropped unsaid.
import { ImportError, type ParseContext, type SourceLocation } from "../pending.js";
import { archivalDate, calendarDate } from "../source-dates.js";
import type { EnumeratedValues } from "./enumerated-values.js";
import type { CsvRow } from "./read-rows.js";

const YES = new Set(["1", "true", "yes", "y", "t"]);
const NO = new Set(["0", "false", "no", "n", "f"]);

export class TemplateRow {
  private readonly read = new Set<string>();

  constructor(
    private readonly columns: ReadonlyMap<string, number>,
    private readonly row: CsvRow,
    private readonly context: ParseContext,
    private readonly values: EnumeratedValues,
  ) {}

  get line(): number {
    return this.row.line;
  }

  get source(): SourceLocation {
    return { line: this.row.line };
  }

  warn(message: string): void {
    this.context.warn(message, this.source);
  }

  fail(message: string): never {
    throw new ImportError(message, this.source);
  }

  /** The cell's text, trimmed; undefined when the cell is empty or the file has no such column. */
  text(column: string): string | undefined {
    this.read.add(column);
    const index = this.columns.get(column);
    const value = index === undefined ? undefined : this.row.fields[index]?.trim();
    return value === undefined || value === "" ? undefined : value;
  }

  /** Whether any of these columns has a value (without counting them as read). */
  anyFilled(columns: readonly string[]): boolean {
    return columns.some((column) => {
      const index = this.columns.get(column);
      return index !== undefined && (this.row.fields[index]?.trim() ?? "") !== "";
    });
  }

  /** A yes/no cell (1/0, true/false, yes/no); anything else is left out with a warning. */
  flag(column: string): boolean | undefined {
    const value = this.text(column);
    if (value === undefined) return undefined;
    const lower = value.toLowerCase();
    if (YES.has(lower)) return true;
    if (NO.has(lower)) return false;
    this.warn(`${column}: '${value}' is not a yes/no value (1 or 0, true or false, yes or no); left out`);
    return undefined;
  }

  /** A cell holding a value of the enumeration; one that is not in it is left out with a warning. */
  enumerated(column: string, enumeration: string, synonyms?: ReadonlyMap<string, string>): string | undefined {
    const value = this.text(column);
    if (value === undefined) return undefined;
    const matched = this.values.match(enumeration, synonyms?.get(value.toLowerCase()) ?? value);
    if (matched === undefined)
      this.warn(
        `${column}: '${value}' is not a value of ${enumeration} (${this.values.describe(enumeration)}); left out`,
      );
    return matched;
  }

  /** A calendar date cell (m/d/Y as in ArchivesSpace's template, or YYYY-MM-DD); anything else fails the row. */
  calendarDate(column: string): string | undefined {
    const value = this.text(column);
    if (value === undefined) return undefined;
    return calendarDate(value) ?? this.fail(`${column}: '${value}' is not a date (m/d/Y as 12/5/2021, or YYYY-MM-DD)`);
  }

  /** An archival date cell (YYYY, YYYY-MM, YYYY-MM-DD, or m/d/Y); anything else fails the row. */
  archivalDate(column: string): string | undefined {
    const value = this.text(column);
    if (value === undefined) return undefined;
    return archivalDate(value) ?? this.fail(`${column}: '${value}' is not a date (YYYY, YYYY-MM, YYYY-MM-DD or m/d/Y)`);
  }

  /** Columns with a value that nothing read, in file order. */
  unread(): string[] {
    const left: string[] = [];
    for (const [column, index] of this.columns) {
      if (!this.read.has(column) && (this.row.fields[index]?.trim() ?? "") !== "") left.push(column);
    }
    return left;
  }
}
