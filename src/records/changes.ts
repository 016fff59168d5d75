// Every committed create, update and delete, of every record type (bulk deletes included), told
// to whoever listens:
// the side effects that must follow any write, wherever it comes from (HTTP, an importer, a
// hook, start-up), subscribe here instead of being called by the routes that write. A change
// is told once its transaction has committed (RecordStore.afterCommit), never for a write that
// was rolled back, and the write answers only once every listener has finished: what a client
// does next already sees the side effects (a permission change applies to its next request).
import type { ClientSession } from "mongodb";
import type { RecordStore } from "../storage/record-store.js";
import type { Scope } from "./types.js";

/** One record created, updated or deleted. */
export interface RecordChange {
  type: string;
  operation: "create" | "update" | "delete";
  id: number;
  scope: Scope;
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

export class RecordChanges {
  private readonly listeners: ChangeListener[] = [];

  constructor(private readonly store: RecordStore) {}

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
    if (this.listeners.length === 0) return;
    await this.store.afterCommit(session, async () => {
      for (const listener of this.listeners) {
        try {
          await listener(change);
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          process.stderr.write(`${JSON.stringify({ event: "change_listener_failed", change, error: detail })}\n`);
        }
      }
    });
  }
}
