// The engine: one catalog, its cursors and sessions, and the durability behind them. It
// runs one command at a time (handlers are synchronous), then journals the mutations the
// command made as one record and only then answers, so an acknowledged write survives a
// crash. Background duties (TTL expiry, cursor and session timeouts, compaction) go
// through the same path.
import { Timestamp, type Document } from "bson";
import { CommittedAccess, WriteBlocked, type CollectionAccess, type WriteGate } from "./access.js";
import { aggregate } from "./commands/aggregate.js";
import { newWriteState, type CommandContext, type CommandHandler, type EngineInfo } from "./commands/context.js";
import { crudCommands } from "./commands/crud.js";
import { ddlCommands } from "./commands/ddl.js";
import { handshakeCommands } from "./commands/handshake.js";
import { commandName } from "./commands/params.js";
import { CursorManager } from "./cursors.js";
import { DataDirectory, type RecoveryStats } from "./durability/data-directory.js";
import type { FsyncMode } from "./durability/journal.js";
import { CommandError, ErrorCodes } from "./errors.js";
import { FailPoint } from "./fail-point.js";
import { decodeMutations, encodeMutations } from "./mutation-codec.js";
import { Catalog, type Mutation } from "./store/catalog.js";
import { DEFAULT_TRANSACTION_LIFETIME_MS, type Transaction } from "./txn/transaction.js";
import { SessionManager } from "./txn/sessions.js";

export interface EngineOptions {
  /** Keep everything in memory (tests). Otherwise `dataDir` is required. */
  inMemory?: boolean;
  dataDir?: string;
  fsync?: FsyncMode;
  fsyncIntervalMs?: number;
  /** How often TTL indexes are swept (MongoDB: 60 s). */
  ttlIntervalMs?: number;
  /** How long a transaction may stay open (MongoDB's transactionLifetimeLimitSeconds: 60 s). */
  transactionLifetimeMs?: number;
  /**
   * Journal size that triggers a compaction into a fresh snapshot (default 64 MiB), or the size of the last snapshot
   * when that is larger.
   */
  compactAfterBytes?: number;
  /** Accept test-only commands (the `failCommand` fail point), as MongoDB's enableTestCommands. */
  testCommands?: boolean;
  log?: (line: string) => void;
}

function* encodeEach(mutations: Iterable<Mutation>): Generator<Uint8Array> {
  for (const mutation of mutations) yield encodeMutations([mutation]);
}

/** The MongoDB release whose behaviour the engine follows; buildInfo reports it so drivers pick matching features. */
export const ENGINE_VERSION = "7.0.0";

const WRITE_COMMANDS = new Set(["insert", "update", "delete", "findAndModify"]);
const TRANSACTION_COMMANDS = new Set([
  "find",
  "getMore",
  "killCursors",
  "insert",
  "update",
  "delete",
  "findAndModify",
  "aggregate",
  "distinct",
  "count",
]);

/** Whether the command's write concern says `j: false`: acknowledged when applied, not when journalled. */
function unjournaled(command: Document): boolean {
  const concern: unknown = command.writeConcern;
  return typeof concern === "object" && concern !== null && (concern as { j?: unknown }).j === false;
}

const handlers: Record<string, CommandHandler> = { ...handshakeCommands, ...crudCommands, ...ddlCommands, aggregate };

export class Engine {
  readonly catalog = new Catalog();
  readonly cursors = new CursorManager();
  readonly sessions: SessionManager;
  private timers: NodeJS.Timeout[] = [];
  private compacting: Promise<void> | undefined;
  /** Set when a journal write failed: the engine then refuses every command (fail-stop). */
  private failure: Error | undefined;
  /** Test commands only (EngineOptions.testCommands). */
  private readonly failPoint: FailPoint | undefined;
  recovery: RecoveryStats | undefined;
  private readonly gate: WriteGate = (ns, rid) => this.sessions.gate(ns, rid);

  private constructor(
    private readonly options: EngineOptions,
    private readonly dataDir: DataDirectory | undefined,
    readonly info: EngineInfo,
  ) {
    this.sessions = new SessionManager(this.catalog, options.transactionLifetimeMs ?? DEFAULT_TRANSACTION_LIFETIME_MS);
    this.failPoint = options.testCommands ? new FailPoint() : undefined;
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const info: EngineInfo = {
      hostAndPort: "127.0.0.1:0",
      startedAt: new Date(),
      version: ENGINE_VERSION,
      inMemory: !!options.inMemory,
      dataDir: options.dataDir,
    };
    let dataDir: DataDirectory | undefined;
    if (!options.inMemory) {
      if (!options.dataDir) throw new Error("the embedded engine needs a data directory unless it runs in memory");
      dataDir = await DataDirectory.open(options.dataDir, {
        fsync: options.fsync ?? "always",
        fsyncIntervalMs: options.fsyncIntervalMs,
      });
    }
    const engine = new Engine(options, dataDir, info);
    if (dataDir) {
      const replay = (payload: Uint8Array) => {
        for (const mutation of decodeMutations(payload)) engine.catalog.replay(mutation);
      };
      engine.recovery = await dataDir.recover(replay, replay);
    }
    engine.startTimers();
    return engine;
  }

  private startTimers(): void {
    const every = (ms: number, task: () => void) => {
      const timer = setInterval(task, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.ttlIntervalMs ?? 60_000, () => void this.runInternal(() => this.expireTtl()));
    every(60_000, () => {
      this.cursors.sweep();
      this.sessions.sweep();
    });
  }

  /**
   * A client connection closed after its last command: its open transactions end (see SessionManager.connectionClosed).
   */
  connectionClosed(connectionId: number): void {
    this.sessions.connectionClosed(connectionId);
  }

  /**
   * Executes one command and answers with its reply (errors become `ok: 0` replies). `messageBytes`: the length of
   * the wire message it came in, when it did.
   */
  async execute(command: Document, db: string, connectionId: number, messageBytes?: number): Promise<Document> {
    const name = commandName(command);
    let reply: Document;
    let txn: Transaction | undefined;
    try {
      if (this.failure)
        throw new CommandError(
          ErrorCodes.InternalError,
          `the engine stopped accepting commands after a journal failure: ${this.failure.message}`,
        );
      const retried = WRITE_COMMANDS.has(name) ? this.sessions.retriedWrite(command) : undefined;
      if (retried) return retried;
      this.failPoint?.check(name);
      if (name === "configureFailPoint" && this.failPoint) reply = this.failPoint.configure(command);
      else if (name === "commitTransaction") reply = this.sessions.commit(command);
      else if (name === "abortTransaction") reply = this.sessions.abort(command);
      else {
        txn = this.sessions.transactionFor(command, connectionId);
        if (txn && !TRANSACTION_COMMANDS.has(name))
          throw new CommandError(
            ErrorCodes.OperationNotSupportedInTransaction,
            `Cannot run '${name}' in a multi-document transaction.`,
          );
        const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
        if (!handler) throw new CommandError(ErrorCodes.CommandNotFound, `no such command: '${name}'`);
        reply = await this.run(handler, this.context(command, db, connectionId, txn, messageBytes));
      }
    } catch (error) {
      if (txn?.state === "active") txn.abort();
      reply = this.errorReply(error);
    }
    // Reads make no mutations: skip the journal's async hop on their path.
    if (this.catalog.hasPending) {
      const durable = this.journal();
      // `j: false` asks for the answer once the write is applied, as MongoDB gives it: the write is queued on the
      // journal all the same, in order, so any later write that waits is durable only with it (a failure is kept
      // in this.failure and refuses what follows).
      if (unjournaled(command)) durable.catch(() => undefined);
      else await durable;
    }
    if (WRITE_COMMANDS.has(name) && reply.ok === 1) this.sessions.rememberWrite(command, reply);
    // operationTime serves causally consistent sessions. $clusterTime is left out, as a
    // standalone server does: with one node there is nothing to gossip, and drivers parse it
    // on every reply.
    reply.operationTime = new Timestamp({ t: Math.floor(Date.now() / 1000), i: this.catalog.seq % 0xffffffff || 1 });
    return reply;
  }

  /** Runs a handler; a write that must wait for a transaction waits, then resumes where it stopped. */
  private async run(handler: CommandHandler, ctx: CommandContext): Promise<Document> {
    for (;;) {
      try {
        return handler(ctx);
      } catch (error) {
        if (!(error instanceof WriteBlocked)) throw error;
        await error.wait();
      }
    }
  }

  private context(
    command: Document,
    db: string,
    connectionId: number,
    txn: Transaction | undefined,
    messageBytes: number | undefined,
  ): CommandContext {
    const catalog = this.catalog;
    return {
      db,
      command,
      ...(messageBytes !== undefined && { messageBytes }),
      catalog,
      cursors: this.cursors,
      sessions: this.sessions,
      info: this.info,
      connectionId,
      inTransaction: !!txn,
      writeState: newWriteState(),
      access: (collection: string): CollectionAccess =>
        txn ? txn.access(db, collection) : new CommittedAccess(catalog, db, collection, this.gate),
    };
  }

  private errorReply(error: unknown): Document {
    if (error instanceof CommandError) return error.toReply();
    const message = error instanceof Error ? error.message : String(error);
    this.options.log?.(`internal error: ${error instanceof Error ? error.stack : message}`);
    return new CommandError(ErrorCodes.InternalError, message).toReply();
  }

  /** Journals the mutations made since the last call; resolves when they are durable. */
  private async journal(): Promise<void> {
    const mutations = this.catalog.takePending();
    if (mutations.length === 0 || !this.dataDir) return;
    try {
      await this.dataDir.append(encodeMutations(mutations));
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.options.log?.(`journal write failed, refusing further commands: ${this.failure.message}`);
      throw this.failure;
    }
    this.maybeCompact();
  }

  private maybeCompact(): void {
    if (!this.dataDir || this.compacting) return;
    // A compaction writes the whole state again: at a fixed threshold a large store would rewrite all of it for every
    // few writes (a 1 GiB store, every 64 MiB of journal), its encoding sharing the one thread with every command (each
    // 56 MB upload into a store already holding a few of them took twice as long). Once the journal has grown by as
    // much as the last snapshot holds, writes pay at most twice over and a replay reads at most twice the data.
    const threshold = Math.max(this.options.compactAfterBytes ?? 64 * 1024 * 1024, this.dataDir.snapshotBytes);
    if (this.dataDir.journalBytes < threshold) return;
    this.compacting = this.compact().finally(() => (this.compacting = undefined));
  }

  /** Writes a snapshot of the current state and starts a fresh journal. */
  async compact(): Promise<void> {
    if (!this.dataDir) return;
    // capture() runs in the tick of the journal switch: the state is captured there, and
    // only the encoding is deferred.
    await this.dataDir.compact(() => encodeEach(this.catalog.snapshot()));
  }

  /** Work the engine does by itself, journaled like a command. */
  private async runInternal(work: () => void): Promise<void> {
    if (this.failure) return;
    try {
      work();
      await this.journal();
    } catch (error) {
      this.options.log?.(`background task failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Deletes documents whose TTL-indexed date (the earliest, for arrays) is past. */
  private expireTtl(): void {
    const now = Date.now();
    for (const [db, collections] of this.catalog.databases) {
      for (const collection of collections.values()) {
        for (const index of collection.indexes.values()) {
          const ttl = index.spec.expireAfterSeconds;
          if (ttl === undefined) continue;
          const cutoff = new Date(now - ttl * 1000);
          const access = new CommittedAccess(this.catalog, db, collection.name, this.gate);
          for (const { rid } of access.find({
            filter: { [index.fields[0]]: { $lte: cutoff } },
            sort: [],
            skip: 0,
            limit: 0,
          })) {
            try {
              access.prepareWrite([rid]);
              access.remove(rid);
            } catch (error) {
              // Held by an open transaction: the next sweep gets it.
              if (!(error instanceof WriteBlocked)) throw error;
            }
          }
        }
      }
    }
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.compacting;
    await this.dataDir?.close();
  }
}
