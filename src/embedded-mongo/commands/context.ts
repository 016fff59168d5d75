// What every command handler receives. Handlers are synchronous: the engine runs one
// command at a time, which makes each command atomic with respect to the others.
import type { Document } from "bson";
import type { CursorManager } from "../cursors.js";
import type { Catalog } from "../store/catalog.js";
import type { SessionManager } from "../txn/sessions.js";
import type { CollectionAccess } from "../access.js";

export interface EngineInfo {
  /** host:port this engine answers on, as reported in hello. */
  hostAndPort: string;
  startedAt: Date;
  version: string;
  inMemory: boolean;
  dataDir?: string;
}

/**
 * Progress of a write command across its statements. It outlives one run of the handler:
 * a statement that has to wait for a transaction is retried from where it stopped, and
 * the statements before it are not applied twice.
 */
export interface WriteState {
  /** Index of the next statement to run. */
  next: number;
  n: number;
  nModified: number;
  upserted: Document[];
  writeErrors: Document[];
}

export function newWriteState(): WriteState {
  return { next: 0, n: 0, nModified: 0, upserted: [], writeErrors: [] };
}

export interface CommandContext {
  readonly db: string;
  readonly command: Document;
  /** The length of the wire message the command came in, when it came over the wire: no document in it is longer. */
  readonly messageBytes?: number;
  readonly catalog: Catalog;
  readonly cursors: CursorManager;
  readonly sessions: SessionManager;
  readonly info: EngineInfo;
  readonly connectionId: number;
  readonly inTransaction: boolean;
  readonly writeState: WriteState;
  /** A collection as this command sees it (inside a transaction: with its uncommitted writes). */
  access(collection: string): CollectionAccess;
}

export type CommandHandler = (ctx: CommandContext) => Document;
