// Every committed create, update and delete, of every record type, told to whoever listens:
// the side effects that must follow any write, wherever it comes from (HTTP, an importer, a
// hook, start-up), subscribe here instead of being called by the routes that write. A change
// is told once its transaction has committed (RecordStore.afterCommit), never for a write that
// was rolled back.
import type { ClientSession } from "mongodb";
import type { RecordStore } from "../storage/record-store.js";
import type { Scope } from "./types.js";

export interface RecordChange {
  type: string;
  operation: "create" | "update" | "delete";
  id: number;
  scope: Scope;
}

export type ChangeListener = (change: RecordChange) => void;

export class RecordChanges {
  private readonly listeners: ChangeListener[] = [];

  constructor(private readonly store: RecordStore) {}

  /** Calls `listener` after every committed write. It runs synchronously: keep it cheap, and never throw. */
  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** A write made with `session` (undefined: already committed): told once it commits. */
  written(change: RecordChange, session?: ClientSession): void {
    if (this.listeners.length === 0) return;
    this.store.afterCommit(session, () => {
      for (const listener of this.listeners) listener(change);
    });
  }
}
