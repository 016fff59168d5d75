// The `marcxml` format: a MARCXML `collection` of records, or one `record`, streamed one
// record at a time. Bibliographic records become resources with their agents and subjects
// (marc/bibliographic-record.ts), authority records (leader/06 z) agents
// (marc/authority-record.ts); holdings and other kinds are reported and skipped. Records are
// handed on a chunk at a time: the chunk's agents, then its subjects, then its resources.
//
// Importing a file again: agents and subjects are matched and reused (see agent-records.ts and
// subject-records.ts); a resource whose identifier (id_0) the repository already holds means the
// file was imported before, and nothing of it is written ("skip-file").
import type { EnumerationValues } from "../registry/enumerations.js";
import { EnumeratedValues } from "./csv/enumerated-values.js";
import { FileSubjects } from "./csv/subject-records.js";
import { AGENT_TYPES, FileAgents } from "./agent-records.js";
import { authorityRecord } from "./marc/authority-record.js";
import { bibliographicRecord, type MappedRecords, type MarcMapping } from "./marc/bibliographic-record.js";
import { readMarcRecord } from "./marc/marc-record.js";
import { ImportError, type FormatParser, type ImportInput, type ParseContext, type PendingRecord } from "./pending.js";
import type { XmlLimits } from "./xml/xml-limits.js";
import { xmlSubtrees } from "./xml/xml-reader.js";

export interface MarcXmlImportOptions {
  /**
   * The enumerations' current values (the record operations' `deps.enumerations`, ready); default: the schemas' seed
   * values.
   */
  enumerations?: EnumerationValues;
  /** The vocabulary new subjects are filed in (default `/vocabularies/1`). */
  vocabulary?: string;
  /** Records mapped before their records are handed on (default 100). */
  chunkRecords?: number;
  /** Default: the settings' defaults. */
  limits?: XmlLimits;
}

/** Leader/06 values of bibliographic records (MARC 21 Format for Bibliographic Data). */
const BIBLIOGRAPHIC = new Set(["a", "c", "d", "e", "f", "g", "i", "j", "k", "m", "o", "p", "r", "t"]);

export class MarcXmlParser implements FormatParser {
  readonly format = "marcxml" as const;

  constructor(private readonly options: MarcXmlImportOptions = {}) {}

  async *parse(input: ImportInput, context: ParseContext): AsyncGenerator<PendingRecord, void, undefined> {
    const mapping: MarcMapping = {
      values: new EnumeratedValues(this.options.enumerations),
      agents: new FileAgents("marc"),
      subjects: new FileSubjects("marc", this.options.vocabulary ?? "/vocabularies/1"),
      warn: (message, source) => context.warn(message, source),
    };
    const chunkRecords = this.options.chunkRecords ?? 100;
    let chunk: MappedRecords[] = [];
    const flush = function* (): Generator<PendingRecord> {
      const agents = chunk.flatMap((records) => records.agents);
      for (const type of AGENT_TYPES) yield* agents.filter((agent) => agent.type === type);
      for (const records of chunk) yield* records.subjects;
      for (const records of chunk) yield* records.principal;
      chunk = [];
    };

    let index = 0;
    const records = xmlSubtrees(input, {
      roots: ["collection", "record"],
      isRecord: (names) => names.at(-1) === "record" && names.length <= 2,
      limits: this.options.limits,
    });
    for await (const element of records) {
      index += 1;
      const record = readMarcRecord(element);
      const kind = record.leader[6];
      if (record.leader.length < 8 || kind === undefined)
        throw new ImportError(
          "the record has no leader (or a short one): it cannot be told a bibliographic from an authority record",
          record.source,
        );
      if (kind === "z") chunk.push(authorityRecord(record, index, mapping));
      else if (BIBLIOGRAPHIC.has(kind)) chunk.push(bibliographicRecord(record, index, mapping));
      else
        context.warn(
          `leader/06 '${kind}' is neither a bibliographic nor an authority record (holdings, classification or community information): not imported`,
          record.source,
        );
      if (chunk.length >= chunkRecords) yield* flush();
    }
    if (index === 0) throw new ImportError("the file holds no MARC record", { line: 1 });
    yield* flush();
  }
}

/** The parser with the schemas' seed enumerations and the vocabulary /vocabularies/1. */
export const marcXmlParser = new MarcXmlParser();
