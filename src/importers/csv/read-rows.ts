// A CSV file as rows, streamed, each with the line it starts on. Parsing is csv-parse's
// (RFC 4180: quoted fields with commas, doubled quotes and line breaks, CRLF or LF); the bytes
// must be UTF-8 (a byte order mark is dropped), decoded fatally: a spreadsheet saved in
// another encoding is an error naming the line, never text with replacement characters.
import { pipeline } from "node:stream";
import { CsvError, parse, type Options } from "csv-parse";
import { DEFAULT_IMPORT_LIMITS } from "../limits.js";
import { ImportError, type ImportInput } from "../pending.js";

export interface CsvRow {
  /** The line the row starts on, from 1. */
  line: number;
  fields: string[];
}

/** A line break as a row's raw text holds it (csv-parse hands CRLF rows on without the LF). */
const LINE_BREAK = /\r\n|\r|\n/g;

function explain(error: CsvError, line: number): ImportError {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return new ImportError("a quoted field is never closed (a quote is missing in this row or a later one)", {
        line,
      });
    case "INVALID_OPENING_QUOTE":
      return new ImportError(
        'a quote inside a field that does not start with one: quote the whole field and double the quotes inside it ("a ""b"" c")',
        { line },
      );
    case "CSV_MAX_RECORD_SIZE":
      return new ImportError(
        `a row is longer than ${error.message.match(/\d+/)?.[0] ?? "the most"} characters, the most an import reads (IMPORT_MAX_XML_TEXT_BYTES)`,
        { line },
      );
    case "CSV_INVALID_CLOSING_QUOTE":
      return new ImportError(
        "text follows a closing quote in the same field: double the quotes inside a quoted field",
        { line },
      );
    default:
      return new ImportError(`not readable as CSV: ${error.message.replace(/\s*(?:at|on) line \d+.*$/, "")}`, { line });
  }
}

/** How many leading bytes are UTF-8 (a character cut off at the end counts as valid). */
function validUtf8Prefix(bytes: Uint8Array): number {
  let valid = 0;
  let invalid = bytes.length;
  while (invalid - valid > 1) {
    const middle = (valid + invalid) >> 1;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      valid = middle;
    } catch {
      invalid = middle;
    }
  }
  return valid;
}

const countLineFeeds = (bytes: Uint8Array): number => bytes.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);

/** The file's rows in order; blank lines are skipped. Throws ImportError with the line for what is not CSV. */
export async function* csvRows(
  input: ImportInput,
  maxRecordChars = DEFAULT_IMPORT_LIMITS.maxXmlTextBytes,
): AsyncGenerator<CsvRow, void, undefined> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  /** Lines decoded so far, for an encoding error's place. */
  let decodedLines = 1;
  async function* text(source: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
    for await (const chunk of source) {
      let piece: string;
      try {
        piece = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      } catch {
        const bytes = chunk as Buffer;
        const line = decodedLines + countLineFeeds(bytes.subarray(0, validUtf8Prefix(bytes)));
        throw new ImportError("this line is not valid UTF-8: save the spreadsheet as CSV UTF-8", { line });
      }
      decodedLines += piece.split("\n").length - 1;
      yield piece;
    }
    try {
      const rest = decoder.decode();
      if (rest !== "") yield rest;
    } catch {
      throw new ImportError("the file ends inside a UTF-8 character: it is truncated or not UTF-8", {
        line: decodedLines,
      });
    }
  }

  const source = input.open();
  /** The line the next row starts on, blank lines before it not counted yet. */
  let next = 1;
  // Lines are counted as csv-parse hands each row on, in step with the parsing: rows parsed
  // before an error in the same chunk are counted even though they are never read.
  const lineOf = ({ record, raw }: { record: string[]; raw: string }): CsvRow => {
    const blankBefore = /^(?:\r\n|\r|\n)*/.exec(raw)?.[0].match(LINE_BREAK)?.length ?? 0;
    const line = next + blankBefore;
    next += raw.match(LINE_BREAK)?.length ?? 0;
    return { line, fields: record };
  };
  const parser = parse({
    raw: true,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    // A row is held whole until it ends: one without an end (an unclosed quote, a file of one
    // line) must not grow without bound.
    max_record_size: maxRecordChars,
    // With `raw`, csv-parse passes {record, raw}, which its typings do not model.
    on_record: lineOf as unknown as Options["on_record"],
  });
  let failure: unknown;
  pipeline(source, text, parser, (error) => {
    if (error) failure = error;
  });
  try {
    yield* parser as AsyncIterable<CsvRow>;
  } catch (error) {
    const cause = failure ?? error;
    if (cause instanceof ImportError) throw cause;
    if (cause instanceof CsvError) throw explain(cause, next);
    throw cause;
  } finally {
    parser.destroy();
    source.destroy();
  }
  if (failure instanceof ImportError) throw failure;
}
