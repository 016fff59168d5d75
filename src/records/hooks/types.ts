// Behaviour a schema cannot express, as small named hooks per record type, each in a small file
// of its own. Generic operations call whatever hooks a type registered; they never test a type
// name.
import type { ClientSession } from "mongodb";
import type { JsonObject } from "../../registry/index.js";
import type { Scope, TrustedActor } from "../types.js";

export interface CreatedRecord {
  type: string;
  id: number;
  scope: Scope;
  record: JsonObject;
  /** On behalf of the create's actor, whose right to create was checked: what the hook writes is not. */
  actor: TrustedActor;
  /** The create's transaction: what the hook writes with it is undone if anything later fails. */
  session: ClientSession;
}

export interface RecordHooks {
  /** After a record is stored, in the same transaction (e.g. a repository creates its standard groups). */
  afterCreate?(created: CreatedRecord): Promise<void>;
  /**
   * Before a record is deleted, inside the delete's transaction (`session`: every write the hook
   * makes is undone with the delete if anything later fails); may throw a 409 ApiError to refuse.
   */
  beforeDelete?(record: {
    type: string;
    id: number;
    scope: Scope;
    record: JsonObject;
    /** On behalf of the delete's actor, whose right to delete was checked. */
    actor: TrustedActor;
    session: ClientSession;
  }): Promise<void>;
}
