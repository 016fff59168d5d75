// Writes one file's pending records through the record operations, all or nothing. Two passes
// over the stream: the first checks everything (schema, links, enumerations, what already
// exists) and writes nothing; only a clean file gets the second, which writes in batches of
// one type (createMany: one id-counter write, one insert, trees placed in one transaction).
// Should a write still fail (a store error, a concurrent duplicate), what the file created so
// far is deleted again; should the process die while writing, the import journal (journal.ts)
// lets the next sweep delete it. Memory stays flat: each pass streams, keeping only keys and
// uris. Warnings and errors are bounded in count and length (messages.ts).
import type { JsonObject, JsonValue } from "../registry/index.js";
import { dictionary } from "../registry/dictionary.js";
import { linksAt } from "../records/operations/links.js";
import { BatchRecordError, type Actor, type NewRecord, type RecordOperations } from "../records/operations/index.js";
import { ApiError } from "../errors/api-error.js";
import { beginImport, sweepImports, undoBatches, type JournalTicket, type WrittenBatch } from "./journal.js";
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from "./limits.js";
import { findMatches, type MatchFilter } from "./match-lookup.js";
import { boundedMessage, MessageList } from "./messages.js";
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
  /**
   * Called as records are checked and written (pass 1 then 2), for progress bars; `total` (pass 2) is what pass 1
   * counted.
   */
  onProgress?(progress: { pass: "check" | "write"; records: number; total?: number }): void;
  /** The config's import settings (the journal's lease); default their defaults. */
  limits?: ImportLimits;
}

/** The file was imported before (a `skip-file` match): nothing is written. */
class AlreadyImported extends Error {
  constructor(readonly uri: string) {
    super(`already imported as ${uri}`);
  }
}

/** Pass 1 stands in for ids it cannot allocate with ids no record will have for ages. */
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
  /** Pending key -> the uri it stands for (real, existing, or provisional in the check pass). */
  readonly uris = new Map<string, string>();
  // Counts by record type: the types are the parsers', but an aspace-json file names its own.
  readonly created: Record<string, number> = dictionary();
  readonly reused: Record<string, number> = dictionary();
  /** What this pass wrote, in order (for undoing it). */
  readonly written: WrittenBatch[] = [];
  readonly principal: string[] = [];
  private provisional = PROVISIONAL_ID_BASE;
  /** The check pass's uris of records of the file so far (they exist only there). */
  private readonly provisionalUris = new Set<string>();
  private seen = 0;

  /** The records this pass has gone through. */
  get records(): number {
    return this.seen;
  }

  constructor(
    private readonly ops: RecordOperations,
    private readonly options: ImportOptions,
    private readonly writing: boolean,
    /** The records the check pass went through (the writing pass's progress total). */
    private readonly total?: number,
    /** The writing pass's journal entry: each batch is noted in it before it is written. */
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
    // In the check pass, records of earlier batches exist only as provisional uris.
    const present = this.writing ? new Set<string>() : this.provisionalUris;
    try {
      if (this.writing) {
        // Noted before the write, here and in the journal: a batch that fails half-way, or
        // whose process dies half-way, is undone with the rest.
        const batch = { type, first, count: items.length };
        await this.ticket?.noteBatch(batch);
        this.written.push(batch);
        await this.ops.createMany(type, scope, items, this.options.actor, present);
      } else {
        await this.ops.checkMany(type, scope, items, present);
      }
    } catch (error) {
      if (error instanceof BatchRecordError) throw this.recordError(fresh[error.index], error);
      if (error instanceof ApiError && fresh.length === 1) throw this.recordError(fresh[0], error);
      throw error;
    }
    this.created[type] = (this.created[type] ?? 0) + fresh.length;
    // The nodes of trees are only counted; the rest (resources, agents, ...) are listed.
    if (this.ops.deps.registry.get(type).tree === null)
      for (const pending of fresh) this.principal.push(this.uris.get(pending.key) as string);
    this.seen += batch.records.length;
    this.options.onProgress?.({
      pass: this.writing ? "write" : "check",
      records: this.seen,
      ...(this.total !== undefined && { total: this.total }),
    });
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

async function runPass(
  parser: FormatParser,
  input: ImportInput,
  pass: FilePass,
  batchSize: number,
  warnings: MessageList | undefined,
): Promise<void> {
  let batch: Batch | undefined;
  const context = {
    warn: (message: string, source: SourceLocation) => warnings?.add(locate(input.name, source, message)),
  };
  for await (const pending of parser.parse(input, context)) {
    if (batch !== undefined && (batch.type !== pending.type || batch.records.length >= batchSize)) {
      await pass.flush(batch);
      batch = undefined;
    }
    (batch ??= { type: pending.type, records: [] }).records.push(pending);
  }
  if (batch !== undefined) await pass.flush(batch);
}

/** Pass 1: the whole file checked, nothing written. Only its counts outlive it (not its keys and uris). */
async function checkPass(
  ops: RecordOperations,
  parser: FormatParser,
  input: ImportInput,
  options: ImportOptions,
  batchSize: number,
  warnings: MessageList,
): Promise<Pick<ImportSummary, "created" | "reused"> & { records: number }> {
  const check = new FilePass(ops, options, false);
  await runPass(parser, input, check, batchSize, warnings);
  return { created: check.created, reused: check.reused, records: check.records };
}

/** Imports one file: all of it or nothing. Errors about the file are in the summary, never thrown. */
export async function importFile(
  ops: RecordOperations,
  parser: FormatParser,
  input: ImportInput,
  options: ImportOptions,
): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? 1000;
  const limits = options.limits ?? DEFAULT_IMPORT_LIMITS;
  // Both passes see the enumerations as stored (parsers map values against them).
  await ops.deps.enumerations.ready();
  const warnings = new MessageList("warnings");
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
  let checked: Pick<ImportSummary, "created" | "reused"> & { records: number };
  try {
    checked = await checkPass(ops, parser, input, options, batchSize, warnings);
  } catch (error) {
    return fail(error);
  }
  if (options.dryRun === true) return { ...summary(), created: checked.created, reused: checked.reused };

  const ticket = await beginImport(ops, {
    repoId: options.repoId,
    file: input.name,
    format: parser.format,
    username: options.actor.username,
    leaseSeconds: limits.journalLeaseSeconds,
  });
  const write = new FilePass(ops, options, true, checked.records, ticket);
  try {
    await runPass(parser, input, write, batchSize, undefined);
  } catch (error) {
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
  await ticket.close();
  return { ...summary(), created: write.created, reused: write.reused, uris: write.principal };
}
