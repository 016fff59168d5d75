// Every committed create, update and delete, of every record type (bulk deletes included), told
// to whoever listens:
// the side effects that must follow any write, wherever it comes from (HTTP, an importer, a
// hook, start-up), subscribe here instead of being called by the routes that write. A change
// is told once its transaction has committed (RecordStore.afterCommit), never for a write that
// was rolled back, and the write answers only once every listener has finished: what a client
// does next already sees the side effects (a permission change applies to its next request).
import type { ClientSession } from "mongodb";
import type { RecordStore, StoredRecord } from "../storage/record-store.js";
import type { Scope } from "./types.js";

/** One record created, updated or deleted. */
export interface RecordChange {
  type: string;
  operation: "create" | "update" | "delete";
  id: number;
  scope: Scope;
  /**
   * The record exactly as this write stored it, where the writer holds it whole (a create, a replacement): spares
   * what is written with the change (the search entry) a read of it inside the transaction.
   */
  record?: StoredRecord;
}

/**
 * Records of one type deleted together, without each being read: every one in `scope` (a
 * repository's delete) or those of an id range, `first` to before `end` (an import undone).
 * Some ids of a range may never have been written; a listener treats them as gone.
 */
export interface RecordsDeleted {
  type: string;
  operation: "delete";
  ids: "all" | { first: number; end: number };
  scope: Scope;
}

export type Change = RecordChange | RecordsDeleted;

export type ChangeListener = (change: Change) => void | Promise<void>;

/**
 * A side effect written with the change itself (the search index): given the changes of one write and the session
 * of the transaction making it (undefined: a write already committed on its own).
 */
export interface ChangeWriter {
  /** Whether changes to records of this type need it: their writes then run in a transaction. */
  covers(type: string): boolean;
  write(changes: readonly Change[], session: ClientSession | undefined): Promise<void>;
}

export class RecordChanges {
  private readonly listeners: ChangeListener[] = [];
  private readonly writers: ChangeWriter[] = [];

  constructor(private readonly store: RecordStore) {}

  /**
   * Writes `writer`'s side effect in every write's own transaction: it commits with the change or not at all, so
   * what it writes never disagrees with the records. What it throws fails the write.
   */
  writeWith(writer: ChangeWriter): void {
    this.writers.push(writer);
  }

  /** Whether a write of records of `type` has side effects written with it, and so needs a transaction. */
  writtenWithin(type: string): boolean {
    return this.writers.some((writer) => writer.covers(type));
  }

  /**
   * Calls `listener` after every committed write, and waits for it: keep it cheap. What it throws
   * is logged and goes no further: the write is committed, and a client told it failed would retry
   * it.
   */
  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /**
   * A write made with `session` (undefined: already committed): told once it commits. Resolves
   * when the listeners are done, or at once inside a transaction (which waits for them itself).
   */
  async written(change: Change, session?: ClientSession): Promise<void> {
    await this.writtenAll([change], session);
  }

  /** Several changes of one write (a batch of creates): their side effects are written together. */
  async writtenAll(changes: readonly Change[], session?: ClientSession): Promise<void> {
    for (const writer of this.writers) {
      const covered = changes.filter((change) => writer.covers(change.type));
      if (covered.length > 0) await writer.write(covered, session);
    }
    for (const change of changes) await this.tell(change, session);
  }

  private async tell(change: Change, session: ClientSession | undefined): Promise<void> {
    if (this.listeners.length === 0) return;
    const told = withoutRecord(change);
    await this.store.afterCommit(session, async () => {
      for (const listener of this.listeners) {
        try {
          await listener(told);
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          process.stderr.write(`${JSON.stringify({ event: "change_listener_failed", change: told, error: detail })}\n`);
        }
      }
    });
  }
}

/** Listeners hear what changed, not the record as written (they read what was committed if they need it). */
function withoutRecord(change: Change): Change {
  if (!("record" in change) || change.record === undefined) return change;
  const { record: _written, ...told } = change;
  return told;
}
