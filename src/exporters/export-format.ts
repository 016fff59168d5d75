// What an export format is to the export routes (export-controller.ts): a name a schema's
// x-exports refers to, what its files are called and typed as, the boolean parameters it reads,
// and how it reads a record and writes it to a stream. Formats know their record types' fields
// (through the generated types); which types are exported in which formats, and at which path,
// is the schemas' say.
import type { Actor, RecordOperations, Scope } from "../records/operations/index.js";
import type { JsonObject, RecordType } from "../registry/index.js";
import type { XmlSink } from "./xml-writer.js";

/** A boolean query parameter a format reads (default false). */
export interface ExportParameter {
  readonly name: string;
  readonly description: string;
}

export interface ExportRequest {
  /** The exported record's type (one whose x-exports names the format). */
  readonly type: RecordType;
  /** Where the record is read: `{repoId}` for a repository's record, `{}` for a global one. */
  readonly scope: Scope;
  /** The repository in the route's path (a global record's export names it as its holder). */
  readonly repoId: number;
  /** That repository, read by the route (it must exist): whoever may read the record may name it. */
  readonly repository: JsonObject;
  readonly id: number;
  /** The format's parameters given as true. */
  readonly options: ReadonlySet<string>;
  readonly actor: Actor;
}

/** A record found and ready to be written: what can fail with a 404 or 400 has been checked. */
export interface PreparedExport {
  readonly record: JsonObject;
  /** Writes the whole file to `sink`. @throws SinkClosedError when the sink goes away first. */
  writeTo(sink: XmlSink): Promise<void>;
}

export interface ExportFormat {
  /** The name x-exports uses: `ead`, `marc21`, ... */
  readonly name: string;
  /** The file's extension in the route (`:id.xml`) and in its file name. */
  readonly extension: "xml" | "tsv";
  /** The Content-Type of the file and the `mimetype` of its metadata. */
  readonly mediaType: string;
  /** The file name's ending before the extension, as ArchivesSpace names it (`<identifier>_marc21.xml`). */
  readonly fileSuffix: string;
  /** The route's summary and description in /openapi.json. */
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly ExportParameter[];
  /** Reads the record and what it needs: 404s and refused parameters (400) before any byte is written. */
  prepare(operations: RecordOperations, request: ExportRequest): Promise<PreparedExport>;
}
