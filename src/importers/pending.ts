// What a format parser hands the import: records not yet written, in dependency order, that
// link to each other by temporary keys, each with the place in the source it came from. The
// parsers know formats and nothing of storage; the committer (committer.ts) maps keys to real
// uris, reuses records that already exist, and writes through the record operations.
import type { Readable } from "node:stream";
import type { JsonObject } from "../registry/index.js";
import type { FidelityCounts, FidelityReport } from "./fidelity.js";

export const IMPORT_FORMATS = ["ead", "ead3", "marcxml", "eac", "csv", "aspace-json"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Where something is in a source file: a line (and column) for text formats, a path for structured ones. */
export interface SourceLocation {
  line?: number;
  column?: number;
  /** e.g. `/ead/archdesc/dsc/c01[3]/did/unittitle`, or `[4].dates[0]` in a JSON batch. */
  path?: string;
}

export interface PendingRecord {
  /**
   * How other pending records of the same file link to this one: a link (`{ref}` or a plain uri
   * field, as the schema declares) whose value is this key is rewritten to the record's real uri.
   * Unique within a file. ArchivesSpace JSON batches use their temporary uris
   * (`/agents/people/import_5`); other parsers use anything that is not a real uri
   * (`import:agent_person:3`).
   */
  key: string;
  /** The record type (jsonmodel_type), e.g. `archival_object`. */
  type: string;
  /** The record as its schema wants it, links to pending records holding their keys. */
  record: JsonObject;
  source: SourceLocation;
  /**
   * A record that may already exist: stored-field equality, within the repository for
   * repository-scoped types (e.g. `{"names.sort_name": "Smith, Ada"}`, `{ead_id: "x"}`).
   * `null` asks for the field to be absent (`{id_0: "2021", id_1: "1", id_2: null, id_3: null}`:
   * exactly that identifier). Absent: always created.
   */
  match?: Record<string, string | number | boolean | null>;
  /**
   * What finding a match means. `reuse`: link to the existing record and create none (agents,
   * subjects, top containers). `skip-file`: the file was imported before (its resource exists):
   * write nothing for the whole file and say so.
   */
  onMatch?: "reuse" | "skip-file";
  /**
   * What the record brings into the archive once created or reused, for the fidelity report (fidelity.ts): a
   * component with its notes, dates and extents, an agent, a top container. Absent: nothing counted.
   */
  brings?: FidelityCounts;
  /**
   * This record re-states, whole, one handed on earlier under the same key (which this file created): the stored
   * record is replaced by it (a dry run checks it instead). For a format whose description of a record may go on
   * after records that link to it were handed on (EAD 2002 allows <archdesc> description after its <dsc>): the
   * record goes out as soon as it can be linked to, and again once complete, so the file is read once. `match` and
   * `onMatch` are the first statement's and are not read here.
   */
  restates?: true;
}

/** A message about the source, where it is. */
export interface ImportMessage {
  message: string;
  file: string;
  line?: number;
  column?: number;
  path?: string;
}

/** A problem that stops a file's import: malformed input, an invalid record, a broken link. */
export class ImportError extends Error {
  constructor(
    message: string,
    readonly source: SourceLocation = {},
  ) {
    super(message);
  }
}

/** One source file. An import opens it once and reads it through once. */
export interface ImportInput {
  /** A name for messages, e.g. the file name. */
  name: string;
  open(): Readable;
  /** Its length in bytes, when known: progress reports it beside the bytes read. */
  size?: number;
}

/** What a parser may tell the import besides records. */
export interface ParseContext {
  warn(message: string, source: SourceLocation): void;
  /** A parser that takes a census of its source tells what it found, for the fidelity report (fidelity.ts). */
  found?(counts: FidelityCounts): void;
}

/**
 * A format: parse() streams a file's records in dependency order (a record only links to
 * records yielded before it, or to real uris). It throws ImportError (with a location) for what
 * is wrong with the file; anything it cannot map but can go on without is a warning, never a
 * silent drop.
 */
export interface FormatParser {
  readonly format: ImportFormat;
  parse(input: ImportInput, context: ParseContext): AsyncIterable<PendingRecord>;
}

/** What an import did (or, dry, would do) with one file. */
export interface ImportSummary {
  file: string;
  format: ImportFormat;
  dryRun: boolean;
  /** `imported`; `skipped` (imported before: nothing kept); `failed` (nothing kept: what was written is undone). */
  outcome: "imported" | "skipped" | "failed";
  /** Records created per type (for a dry run: that would be created). */
  created: Record<string, number>;
  /** Existing records linked instead of created, per type. */
  reused: Record<string, number>;
  /** The uris of the file's principal records (its resources, or every record of a batch when few). */
  uris: string[];
  warnings: ImportMessage[];
  errors: ImportMessage[];
  /**
   * Per category of description, what the source held and what was created or reused (formats that take a census
   * of their source: EAD and EAD3). Absent for a failed or skipped file.
   */
  fidelity?: FidelityReport;
  /**
   * A batch import's answer in ArchivesSpace's shape: each record's temporary uri (or `import:[i]` for a record
   * without one) -> `[real uri, id]`, created or reused. Only on a batch import that was written (not a dry run, not
   * `skip_results=true`).
   */
  saved?: Record<string, [string, number]>;
}
