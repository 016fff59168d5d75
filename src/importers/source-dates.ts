// Dates as sources write them, to the two forms the schemas take: a calendar `date`
// (YYYY-MM-DD) and an `archival-date` (YYYY, YYYY-MM or YYYY-MM-DD). Anything that is not
// clearly one date is refused (undefined), never guessed: the caller reports it or keeps it
// as an expression. Shared by the CSV, MARCXML and EAC-CPF parsers.

const pad = (value: number, width: number): string => String(value).padStart(width, "0");

function realDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isoDay(year: number, month: number, day: number): string | undefined {
  return realDay(year, month, day) ? `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` : undefined;
}

/**
 * A calendar day from ArchivesSpace's template form `m/d/Y` (`12/5/2021`), ISO `YYYY-MM-DD`,
 * `YYYY/MM/DD` or compact `YYYYMMDD`. Two-digit years are refused: their century is a guess.
 */
export function calendarDate(text: string): string | undefined {
  const value = text.trim();
  let match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (match) return isoDay(Number(match[3]), Number(match[1]), Number(match[2]));
  match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(value) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (match) return isoDay(Number(match[1]), Number(match[2]), Number(match[3]));
  return undefined;
}

/**
 * An archival date: a year, a year and month, or a day, from ISO forms (`1742`, `1765-04`,
 * `1742-11-12`), compact ones (`189901`, `18990101`) or `m/d/Y`.
 */
export function archivalDate(text: string): string | undefined {
  const value = text.trim();
  if (/^\d{4}$/.test(value)) return value;
  const match = /^(\d{4})-(\d{1,2})$/.exec(value) ?? /^(\d{4})(\d{2})$/.exec(value);
  if (match) {
    const month = Number(match[2]);
    return month >= 1 && month <= 12 ? `${match[1]}-${pad(month, 2)}` : undefined;
  }
  return calendarDate(value);
}

/**
 * The first and last years a free-text date expression names ("1838-1984, undated",
 * "1970 - 1982", "circa 1770"): begin and end as archival dates, for a date whose expression
 * stays as written. None when the text names no four-digit year.
 */
export function yearSpan(expression: string): { begin?: string; end?: string } {
  const years = [...expression.matchAll(/(?<!\d)(\d{4})(?!\d)/g)].map((found) => found[1] as string);
  if (years.length === 0) return {};
  const sorted = [...years].sort();
  const begin = sorted[0] as string;
  const end = sorted.at(-1) as string;
  return begin === end ? { begin } : { begin, end };
}
