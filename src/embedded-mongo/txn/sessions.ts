// Logical sessions as the driver uses them: the transaction a session has open (driven by
// the `txnNumber`, `startTransaction` and `autocommit` fields of each command), and the
// reply of its last retryable write so that a retried write is not applied twice.
import { Binary, type Document } from "bson";
import { CommandError, ErrorCodes } from "../errors.js";
import type { Catalog } from "../store/catalog.js";
import { WriteBlocked } from "../access.js";
import { TRANSIENT, Transaction } from "./transaction.js";

const IDLE_TIMEOUT_MS = 30 * 60 * 1000;

interface SessionState {
  txn?: Transaction;
  /** The connection the open transaction's latest command came over. */
  txnConnection?: number;
  lastUsed: number;
  retryable?: { txnNumber: number; reply: Document };
}

function noSuchTransaction(txnNumber: number): CommandError {
  return new CommandError(
    ErrorCodes.NoSuchTransaction,
    `Transaction with { txnNumber: ${txnNumber} } has been aborted.`,
    {},
    [TRANSIENT],
  );
}

function sessionKey(lsid: unknown): string | undefined {
  const id = (lsid as Document | undefined)?.id;
  if (id instanceof Binary) return Buffer.from(id.buffer).toString("hex");
  return undefined;
}

function txnNumberOf(command: Document): number | undefined {
  const value = command.txnNumber;
  if (value === undefined) return undefined;
  return typeof value === "number" ? value : Number(value);
}

export class SessionManager {
  private readonly sessions = new Map<string, SessionState>();
  private readonly writers = new Map<string, Transaction>();

  constructor(
    private readonly catalog: Catalog,
    /** How long a transaction may stay open before it is aborted (transactionLifetimeLimitSeconds). */
    private readonly lifetimeMs: number,
  ) {}

  private session(command: Document): SessionState | undefined {
    const key = sessionKey(command.lsid);
    if (!key) return undefined;
    let state = this.sessions.get(key);
    if (!state) this.sessions.set(key, (state = { lastUsed: Date.now() }));
    state.lastUsed = Date.now();
    return state;
  }

  /** The open transaction a command belongs to (starting it if asked), or undefined outside transactions. */
  transactionFor(command: Document, connectionId?: number): Transaction | undefined {
    if (command.autocommit !== false) return undefined;
    const state = this.session(command);
    if (state) state.txnConnection = connectionId;
    const txnNumber = txnNumberOf(command);
    if (!state || txnNumber === undefined)
      throw new CommandError(ErrorCodes.InvalidOptions, "a transaction needs lsid and txnNumber");
    const current = state.txn;
    if (command.startTransaction === true) {
      if (current && txnNumber < current.txnNumber)
        throw new CommandError(
          ErrorCodes.TransactionTooOld,
          `txnNumber ${txnNumber} is less than last txnNumber ${current.txnNumber} seen in session`,
        );
      if (current && txnNumber === current.txnNumber)
        throw new CommandError(ErrorCodes.IllegalOperation, `Transaction ${txnNumber} has already been started`);
      if (current?.state === "active") current.abort();
      state.txn = new Transaction(txnNumber, this.catalog.openSnapshot(), this.catalog, this.writers);
      return state.txn;
    }
    if (!current || current.txnNumber !== txnNumber) throw noSuchTransaction(txnNumber);
    return current;
  }

  commit(command: Document): Document {
    const txn = this.existing(command);
    if (txn.state === "committed") return { ok: 1 }; // a retried commit
    if (txn.state === "aborted") throw noSuchTransaction(txn.txnNumber);
    txn.commit();
    return { ok: 1 };
  }

  abort(command: Document): Document {
    const txn = this.existing(command);
    if (txn.state === "committed")
      throw new CommandError(ErrorCodes.IllegalOperation, "Cannot abort a committed transaction");
    if (txn.state === "aborted") throw noSuchTransaction(txn.txnNumber);
    txn.abort();
    return { ok: 1 };
  }

  private existing(command: Document): Transaction {
    const state = this.session(command);
    const txnNumber = txnNumberOf(command);
    if (!state || txnNumber === undefined || !state.txn || state.txn.txnNumber !== txnNumber)
      throw noSuchTransaction(txnNumber ?? -1);
    return state.txn;
  }

  /** The write gate for non-transactional writes: blocked while an open transaction holds the record. */
  gate(ns: string, rid: number): void {
    const holder = this.writers.get(`${ns}#${rid}`);
    if (holder?.state === "active")
      throw new WriteBlocked(holder.finished, holder.startedAt + this.lifetimeMs, () => holder.abort());
  }

  /** The stored reply when this retryable write (lsid + txnNumber) already ran. */
  retriedWrite(command: Document): Document | undefined {
    const txnNumber = txnNumberOf(command);
    if (txnNumber === undefined || command.autocommit === false) return undefined;
    const state = this.session(command);
    return state?.retryable?.txnNumber === txnNumber ? state.retryable.reply : undefined;
  }

  rememberWrite(command: Document, reply: Document): void {
    const txnNumber = txnNumberOf(command);
    if (txnNumber === undefined || command.autocommit === false) return;
    const state = this.session(command);
    if (state) state.retryable = { txnNumber, reply };
  }

  /** refreshSessions: the listed sessions count as used now. */
  refresh(ids: unknown): void {
    if (!Array.isArray(ids)) return;
    for (const lsid of ids) {
      const state = this.sessions.get(sessionKey(lsid) ?? "");
      if (state) state.lastUsed = Date.now();
    }
  }

  end(ids: unknown): void {
    if (!Array.isArray(ids)) return;
    for (const lsid of ids) {
      const key = sessionKey(lsid);
      if (!key) continue;
      this.sessions.get(key)?.txn?.abort();
      this.sessions.delete(key);
    }
  }

  /**
   * A client connection closed: open transactions whose latest command came over it are aborted.
   * A client that died (SIGKILL, a crashed node of several on one store) would otherwise hold
   * every document its transaction wrote until the lifetime limit, stalling other clients' writes
   * to them. (MongoDB waits for transactionLifetimeLimitSeconds.) A live client never loses one
   * this way in practice: drivers close a connection only when they stop using the server, and a
   * transaction cut short answers NoSuchTransaction with the TransientTransactionError label, which
   * drivers retry.
   */
  connectionClosed(connectionId: number): void {
    for (const state of this.sessions.values()) {
      if (state.txn?.state === "active" && state.txnConnection === connectionId) state.txn.abort();
    }
  }

  /** Sessions idle past the logical session timeout go, and their open transactions abort. */
  sweep(now = Date.now()): void {
    for (const [key, state] of this.sessions) {
      if (state.txn?.state === "active" && now - state.txn.startedAt > this.lifetimeMs) state.txn.abort();
      if (now - state.lastUsed <= IDLE_TIMEOUT_MS) continue;
      if (state.txn?.state === "active") state.txn.abort();
      this.sessions.delete(key);
    }
  }
}
