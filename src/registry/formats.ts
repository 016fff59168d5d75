// String formats the record schemas use. ajv knows no formats of its own (ajv-formats is not a
// dependency) and strict mode rejects unknown ones, so each is registered here.

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const limit = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
  return limit !== undefined && day <= limit;
}

/** `date`: a full calendar date, YYYY-MM-DD (accession_date, ArchivesSpace "date" type). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match !== null && validDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/**
 * `archival-date`: YYYY, YYYY-MM or YYYY-MM-DD, the year possibly negative: what ArchivesSpace
 * accepts in a date subrecord's begin/end, where archives often know only the year.
 */
export function isArchivalDate(value: string): boolean {
  const match = /^-?(\d{1,4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (match === null) return false;
  const [, year, month, day] = match;
  if (month === undefined) return true;
  if (day === undefined) return Number(month) >= 1 && Number(month) <= 12;
  return validDay(Number(year), Number(month), Number(day));
}

export const recordFormats: Readonly<Record<string, (value: string) => boolean>> = {
  date: isCalendarDate,
  "archival-date": isArchivalDate,
};
