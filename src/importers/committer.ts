// Writes one file's pending records through the record operations, all or nothing, in one
// pass over the stream: records are written in batches of one type as the parser hands them on
// (createMany: one id-counter write, one insert, trees placed in one transaction), each batch
// noted in the import journal (journal.ts) before it is written. The file is never read twice:
// whatever is wrong with it (malformed XML half-way, an invalid record, a broken link, a file
// imported before) is found where the parser reaches it, and what the file had written by then
// is deleted again (FilePass.undo), so nothing of a failed file stays; should the process die
// mid-import, the journal lets the next sweep delete it. A dry run is the same pass checking
// instead of writing (checkMany, with provisional ids), so it writes nothing at all. A parser
// may re-state a record it handed on before (PendingRecord.restates): the stored record is
// replaced, or in a dry run the re-stated one checked. Progress cannot know a record total in
// advance: it reports the records so far and the bytes of the file read (and the file's size
// when the input knows it). Memory stays flat: the pass streams, keeping only keys and uris.
// Warnings and errors are bounded in count and length (messages.ts).
import { pipeline, Transform } from "node:stream";
import type { ClientSession } from "mongodb";
import { linksAt, type JsonObject, type JsonValue } from "../registry/index.js";
import { dictionary } from "../registry/dictionary.js";
import { BatchRecordError, type Actor, type NewRecord, type RecordOperations } from "../records/operations/index.js";
import { ApiError } from "../errors/api-error.js";
import { beginImport, sweepImports, undoBatches, type JournalTicket, type WrittenBatch } from "./journal.js";
import { FidelityTally, type FidelityCounts } from "./fidelity.js";
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from "./limits.js";
import { findMatches, type MatchFilter } from "./match-lookup.js";
import { boundedMessage, MAX_MESSAGES, MessageList } from "./messages.js";
import {
  ImportError,
  type FormatParser,
  type ImportInput,
  type ImportMessage,
  type ImportSummary,
  type PendingRecord,
  type SourceLocation,
} from "./pending.js";

export interface ImportOptions {
  repoId: number;
  actor: Actor;
  /** Check and report, writing nothing. */
  dryRun?: boolean;
  /** Records per write batch (default 1,000). */
  batchSize?: number;
  /** Called after each batch is written (or, dry, checked), for progress bars. */
  onProgress?(progress: ImportProgress): void;
  /**
   * Told of every warning as it is found, the summary's count bound aside (a report file of them all: `npm run
   * import -- --report FILE`).
   */
  onWarning?(warning: ImportMessage): void;
  /** The config's import settings (the journal's lease); default their defaults. */
  limits?: ImportLimits;
  /**
   * The summary says where each record of the file went, as ArchivesSpace's batch import answers (`saved`): for a
   * batch, whose keys are the client's temporary uris. Off for other formats, whose keys are the parser's own.
   */
  saved?: boolean;
  /** Stops the import before its next batch (it is then undone and fails, naming the abort's reason). */
  signal?: AbortSignal;
  /**
   * What the caller records with a written import (a job's completion), in the transaction that ends the import's
   * journal entry: both commit or neither, so a crash between them cannot leave records the caller does not know
   * of, nor a record of an import the journal's sweep undoes. What it throws fails the import, which is undone.
   */
  complete?(session: ClientSession, written: readonly WrittenBatch[]): Promise<void>;
}

/**
 * How far an import is. There is no record total: the file is read once, so the records are counted as they come;
 * the bytes read against the file's size tell how far through it the import is.
 */
export interface ImportProgress {
  /** Records handed on so far and written, reused or (dry) checked. */
  records: number;
  /** Bytes of the file read so far (the parser reads a chunk or so ahead of the records). */
  bytes: number;
  /** The file's length in bytes, when the input says (ImportInput.size). */
  size?: number;
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason);
}

/** The file was imported before (a `skip-file` match): nothing is kept (what came before the match is undone). */
class AlreadyImported extends Error {
  constructor(readonly uri: string) {
    super(`already imported as ${uri}`);
  }
}

/** A dry run stands in for ids it does not allocate with ids no record will have for ages. */
const PROVISIONAL_ID_BASE = 2 ** 50;

function locate(file: string, source: SourceLocation, message: string): ImportMessage {
  return { message, file, ...source };
}

/** The string at a slash path (`parent/ref`, `linked_agents/0/ref`) replaced. */
function replaceAt(record: JsonObject, path: string, value: string): void {
  const parts = path.split("/");
  let holder: JsonValue | undefined = record;
  for (const part of parts.slice(0, -1))
    holder = Array.isArray(holder) ? holder[Number(part)] : (holder as JsonObject | undefined)?.[part];
  const last = parts.at(-1) as string;
  if (Array.isArray(holder)) holder[Number(last)] = value;
  else if (holder && typeof holder === "object") (holder as Record<string, JsonValue>)[last] = value;
}

interface Batch {
  type: string;
  records: PendingRecord[];
}

class FilePass {
  /** Pending key -> the uri it stands for (real, existing, or provisional in a dry run). */
  readonly uris = new Map<string, string>();
  // Counts by record type: the types are the parsers', but an aspace-json file names its own.
  readonly created: Record<string, number> = dictionary();
  readonly reused: Record<string, number> = dictionary();
  /** What this pass wrote, in order (for undoing it). */
  readonly written: WrittenBatch[] = [];
  readonly principal: string[] = [];
  /** What the source held (the parser's census) and what this pass created or reused. */
  readonly fidelity = new FidelityTally();
  private provisional = PROVISIONAL_ID_BASE;
  /** A dry run's uris of records of the file so far (they exist only there). */
  private readonly provisionalUris = new Set<string>();
  /** The lock_version of each record the pass has re-stated (one it created starts at 0). */
  private readonly restated = new Map<string, number>();

  constructor(
    private readonly ops: RecordOperations,
    private readonly options: ImportOptions,
    /** Writes (a real import), or only checks (a dry run). */
    private readonly writing: boolean,
    /** Where a record's warnings go (the summary's): the unknown fields its writing dropped. */
    private readonly warn: (message: string, source: SourceLocation) => void,
    /** A writing pass's journal entry: each batch is noted in it before it is written. */
    private readonly ticket?: JournalTicket,
  ) {}

  private scopeOf(type: string): { repoId?: number } {
    return this.ops.deps.registry.scopeOf(type) === "repository" ? { repoId: this.options.repoId } : {};
  }

  /**
   * The existing records the batch's pending records match, as uris (undefined: none), in the batch's order: looked up
   * together (match-lookup.ts), each with the answer a query of its own would give.
   */
  private async existing(batch: Batch): Promise<Array<string | undefined>> {
    const scope = this.scopeOf(batch.type);
    const filters = batch.records.map((pending): MatchFilter | undefined =>
      pending.match === undefined
        ? undefined
        : { ...pending.match, ...(scope.repoId !== undefined && { repo_id: scope.repoId }) },
    );
    const found = await findMatches(this.ops.deps.store.collection(batch.type), filters);
    return found.map((record) => record && this.ops.deps.registry.uriFor(batch.type, record.id, record.repo_id));
  }

  /** The record with its links to pending records pointed at their uris (in place: a parse hands its records over). */
  private resolved(pending: PendingRecord): JsonObject {
    const record = pending.record;
    for (const refPath of this.ops.deps.registry.refPaths(pending.type)) {
      for (const link of linksAt(record, refPath)) {
        const uri = this.uris.get(link.uri);
        if (uri !== undefined) replaceAt(record, link.path, uri);
        else if (this.ops.deps.registry.parseUri(link.uri) === undefined) {
          throw new ImportError(
            `${link.path} links to ${link.uri}, which is neither a record nor defined earlier in the file`,
            pending.source,
          );
        }
      }
    }
    return record;
  }

  async flush(batch: Batch): Promise<void> {
    const { type } = batch;
    const fresh: PendingRecord[] = [];
    // Looked up before any record of the batch is written, as each one's own query was.
    const matches = await this.existing(batch);
    for (const [i, pending] of batch.records.entries()) {
      if (this.uris.has(pending.key)) throw new ImportError(`the key ${pending.key} is used twice`, pending.source);
      const match = matches[i];
      if (match !== undefined && pending.onMatch === "skip-file") throw new AlreadyImported(match);
      if (match !== undefined) {
        this.uris.set(pending.key, match);
        this.reused[type] = (this.reused[type] ?? 0) + 1;
        this.fidelity.brought(pending.brings);
        continue;
      }
      fresh.push(pending);
    }
    if (fresh.length === 0) return;
    const scope = this.scopeOf(type);
    const first = this.writing ? await this.ops.deps.store.nextIds(type, fresh.length) : this.provisional;
    if (!this.writing) this.provisional += fresh.length;
    // Keys first, so records of the batch may link to each other.
    fresh.forEach((pending, i) => {
      const uri = this.ops.deps.registry.uriFor(type, first + i, scope.repoId);
      this.uris.set(pending.key, uri);
      if (!this.writing) this.provisionalUris.add(uri);
    });
    const items: NewRecord[] = fresh.map((pending, i) => ({ id: first + i, input: this.resolved(pending) }));
    // In a dry run, records of earlier batches exist only as provisional uris.
    const present = this.writing ? new Set<string>() : this.provisionalUris;
    try {
      if (this.writing) {
        if (this.options.signal?.aborted === true)
          throw new ImportError(`stopped: ${abortReason(this.options.signal)}`);
        // Noted before the write, here and in the journal: a batch that fails half-way, or
        // whose process dies half-way, is undone with the rest.
        const batch = { type, first, count: items.length };
        await this.ticket?.noteBatch(batch);
        this.written.push(batch);
        const results = await this.ops.createMany(type, scope, items, this.options.actor, present);
        results.forEach((result, i) => this.relay(fresh[i], result.warnings));
      } else {
        const warnings = await this.ops.checkMany(type, scope, items, present);
        warnings.forEach((each, i) => this.relay(fresh[i], each));
      }
    } catch (error) {
      if (error instanceof BatchRecordError) throw this.recordError(fresh[error.index], error);
      if (error instanceof ApiError && fresh.length === 1) throw this.recordError(fresh[0], error);
      throw error;
    }
    this.created[type] = (this.created[type] ?? 0) + fresh.length;
    for (const pending of fresh) this.fidelity.brought(pending.brings);
    // The nodes of trees are only counted; the rest (resources, agents, ...) are listed.
    if (this.ops.deps.registry.get(type).tree === null)
      for (const pending of fresh) this.principal.push(this.uris.get(pending.key) as string);
  }

  /** Whether this pass created the record (written in one of its batches, or dry, given a provisional uri). */
  private createdHere(uri: string): boolean {
    if (!this.writing) return this.provisionalUris.has(uri);
    const parsed = this.ops.deps.registry.parseUri(uri);
    return (
      parsed !== undefined &&
      this.written.some(
        (batch) => batch.type === parsed.type && parsed.id >= batch.first && parsed.id < batch.first + batch.count,
      )
    );
  }

  /**
   * A record re-stated whole (PendingRecord.restates): the stored one replaced, or in a dry run the new statement
   * checked. Only a record this file created: replacing an existing one could not be undone.
   */
  async restate(pending: PendingRecord): Promise<void> {
    const uri = this.uris.get(pending.key);
    const parsed = uri === undefined ? undefined : this.ops.deps.registry.parseUri(uri);
    if (uri === undefined || parsed === undefined || parsed.type !== pending.type || !this.createdHere(uri))
      throw new ImportError(
        `${pending.type} ${pending.key} re-states a record the file did not create before it`,
        pending.source,
      );
    const scope = this.scopeOf(pending.type);
    const record = this.resolved(pending);
    try {
      if (this.writing) {
        // The lock_version the record has as this file left it: should anyone else have changed it since, the
        // update is refused and the import undone rather than their change overwritten.
        const lockVersion = this.restated.get(pending.key) ?? 0;
        const input = { ...record, lock_version: lockVersion };
        const result = await this.ops.update(pending.type, scope, parsed.id, input, this.options.actor);
        this.restated.set(pending.key, result.lock_version);
        this.relay(pending, result.warnings);
      } else {
        const [warnings = []] = await this.ops.checkMany(
          pending.type,
          scope,
          [{ id: parsed.id, input: record }],
          this.provisionalUris,
        );
        this.relay(pending, warnings);
      }
      this.fidelity.brought(pending.brings);
    } catch (error) {
      if (error instanceof ApiError) throw this.recordError(pending, error);
      throw error;
    }
  }

  /** A record's warnings into the summary, at the record's place in the source. */
  private relay(pending: PendingRecord | undefined, warnings: readonly string[]): void {
    if (pending === undefined) return;
    for (const warning of warnings) this.warn(`${pending.type} ${pending.key}: ${warning}`, pending.source);
  }

  private recordError(pending: PendingRecord | undefined, error: ApiError): ImportError {
    const detail =
      typeof error.detail === "string"
        ? error.detail
        : Object.entries(error.detail)
            .map(([path, messages]) => `${path}: ${messages.join("; ")}`)
            .join(", ");
    return new ImportError(
      `${pending?.type ?? "record"} ${pending?.key ?? ""} is invalid: ${detail}`,
      pending?.source ?? {},
    );
  }

  /** Deletes what this pass wrote, last first (see undoBatches). */
  async undo(): Promise<void> {
    await undoBatches(this.ops, this.options.repoId, this.written, this.options.actor);
  }
}

/** The input, its bytes counted as the parser reads them. */
function counted(input: ImportInput): { input: ImportInput; bytes(): number } {
  let bytes = 0;
  return {
    bytes: () => bytes,
    input: {
      ...input,
      open() {
        // Chunks pass as they are (object mode: a string stays a string); an error or a destroy on either side
        // reaches the other.
        const counter = new Transform({
          objectMode: true,
          transform(chunk: Uint8Array | string, _encoding, done) {
            bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
            done(null, chunk);
          },
        });
        return pipeline(input.open(), counter, () => undefined);
      },
    },
  };
}

/**
 * The one pass over the file: records batched by type as they come, each batch written (or checked) when full. While
 * one batch is written the next is read: the store works on the one while the parser reads the other (they share
 * nothing: a batch's links are resolved when it is written, after the batch before it). Batches are still written
 * one at a time, in order.
 */
async function runPass(
  parser: FormatParser,
  input: ImportInput,
  pass: FilePass,
  options: ImportOptions,
  warn: (message: string, source: SourceLocation) => void,
): Promise<void> {
  const batchSize = options.batchSize ?? 1000;
  const reading = counted(input);
  let records = 0;
  let batch: Batch | undefined;
  /** The batch being written, if any. */
  let writing: Promise<void> = Promise.resolve();
  const context = {
    warn,
    found: (counts: FidelityCounts) => pass.fidelity.found(counts),
  };
  const progress = (handled: number): void => {
    records += handled;
    options.onProgress?.({
      records,
      bytes: reading.bytes(),
      ...(input.size !== undefined && { size: input.size }),
    });
  };
  /** Hands the batch read so far to the pass, once the one before it is written. */
  const send = async (): Promise<void> => {
    if (batch === undefined) return;
    const full = batch;
    batch = undefined;
    await writing;
    writing = pass.flush(full).then(() => progress(full.records.length));
    // Seen at the next await of it (the next batch, the end of the file, a failure).
    writing.catch(() => undefined);
  };
  try {
    for await (const pending of parser.parse(options.onProgress === undefined ? input : reading.input, context)) {
      if (pending.restates === true) {
        // After the records handed on before it: the record it re-states may be in the batch being read.
        await send();
        await writing;
        await pass.restate(pending);
        progress(1);
        continue;
      }
      if (batch !== undefined && (batch.type !== pending.type || batch.records.length >= batchSize)) await send();
      (batch ??= { type: pending.type, records: [] }).records.push(pending);
    }
    await send();
  } catch (error) {
    // No write is left running when the pass ends (an undo must see every batch it began), and a failed write is
    // what is reported: it is about records before the one the parser had reached.
    throw (
      (await writing.then(
        () => undefined,
        (failure: unknown) => failure,
      )) ?? error
    );
  }
  await writing;
}

/** Imports one file: all of it or nothing. Errors about the file are in the summary, never thrown. */
export async function importFile(
  ops: RecordOperations,
  parser: FormatParser,
  input: ImportInput,
  options: ImportOptions,
): Promise<ImportSummary> {
  const limits = options.limits ?? DEFAULT_IMPORT_LIMITS;
  // The pass sees the enumerations as stored (parsers map values against them).
  await ops.deps.enumerations.ready();
  const warnings = new MessageList("warnings", MAX_MESSAGES, options.onWarning);
  const warn = (message: string, source: SourceLocation) => warnings.add(locate(input.name, source, message));
  const summary = (): ImportSummary => ({
    file: boundedMessage({ message: "", file: input.name }).file,
    format: parser.format,
    dryRun: options.dryRun === true,
    outcome: "imported",
    created: {},
    reused: {},
    uris: [],
    warnings: warnings.list(input.name),
    errors: [],
  });
  const fail = (error: unknown): ImportSummary => {
    if (error instanceof AlreadyImported) {
      warnings.add(locate(input.name, {}, `Imported before (${error.uri}); nothing written`));
      return { ...summary(), outcome: "skipped", uris: [error.uri] };
    }
    if (error instanceof ImportError)
      return {
        ...summary(),
        outcome: "failed",
        errors: [boundedMessage(locate(input.name, error.source, error.message))],
      };
    throw error;
  };

  // An earlier import (of this file or any) whose process died is undone first: its records
  // would otherwise make this one "skipped", or collide with it.
  await sweepImports(ops, limits.journalLeaseSeconds);
  if (options.dryRun === true) {
    const check = new FilePass(ops, options, false, warn);
    try {
      await runPass(parser, input, check, options, warn);
    } catch (error) {
      return fail(error);
    }
    return { ...summary(), created: check.created, reused: check.reused, fidelity: check.fidelity.report() };
  }

  const ticket = await beginImport(ops, {
    repoId: options.repoId,
    file: input.name,
    format: parser.format,
    username: options.actor.username,
    leaseSeconds: limits.journalLeaseSeconds,
  });
  const write = new FilePass(ops, options, true, warn, ticket);
  try {
    await runPass(parser, input, write, options, warn);
    const { complete } = options;
    await ticket.close(complete && ((session) => complete(session, write.written)));
  } catch (error) {
    // Whatever stopped the file (a problem in it, a file imported before, the store), what it wrote goes.
    try {
      await write.undo();
    } catch (undoError) {
      // Left to the journal: the lease runs out and a sweep (here or in another process) finishes the undo.
      ticket.abandon();
      throw undoError;
    }
    await ticket.close();
    return fail(
      error instanceof ImportError || error instanceof AlreadyImported
        ? error
        : new ImportError(`writing failed, nothing kept: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  return {
    ...summary(),
    created: write.created,
    reused: write.reused,
    uris: write.principal,
    fidelity: write.fidelity.report(),
    ...(options.saved === true ? { saved: savedMap(ops, write.uris) } : {}),
  };
}

/** `{<key>: [<uri>, <id>]}` for every record of the file, created or reused (keys are the client's: a dictionary). */
function savedMap(ops: RecordOperations, uris: ReadonlyMap<string, string>): Record<string, [string, number]> {
  const saved = dictionary<[string, number]>();
  for (const [key, uri] of uris) {
    const parsed = ops.deps.registry.parseUri(uri);
    if (parsed !== undefined) saved[key] = [uri, parsed.id];
  }
  return saved;
}
