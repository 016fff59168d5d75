// The audit fields every stored record carries (docs/api.md §3), written the same way by every
// write: records' creates and updates, enumerations', and the records a write changes beside
// the one asked for.
import type { Actor } from "../types.js";

export interface CreateStamp {
  created_by: string;
  last_modified_by: string;
  create_time: Date;
  system_mtime: Date;
  user_mtime: Date;
}

export type UpdateStamp = Pick<CreateStamp, "last_modified_by" | "system_mtime" | "user_mtime">;

/** A new record's audit fields. */
export function createStamp(actor: Actor, now: Date): CreateStamp {
  return {
    created_by: actor.username,
    last_modified_by: actor.username,
    create_time: now,
    system_mtime: now,
    user_mtime: now,
  };
}

/** What a client's change to a record moves on. */
export function updateStamp(actor: Actor, now: Date): UpdateStamp {
  return { last_modified_by: actor.username, system_mtime: now, user_mtime: now };
}
