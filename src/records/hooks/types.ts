// Behaviour a schema cannot express, as small named hooks per record type, each in a small file
// of its own (or, for the account types, in accounts/). Generic operations call whatever hooks a
// type registered (hook-table.ts); they never test a type name. A type may have several sets of
// hooks (the user's group membership rule here, its password and administrator rules in
// accounts/): they run in the order they were added.
import type { ClientSession } from "mongodb";
import type { JsonObject } from "../../registry/index.js";
import type { Actor, Scope, TrustedActor } from "../types.js";

/**
 * The values of a type's write parameters (x-write-parameters) a request gave: keys are the
 * declared names only, never a client's; a list (`"array": true`) has every value given.
 */
export type WriteParameters = ReadonlyMap<string, WriteParameterValue>;
export type WriteParameterValue = string | readonly string[];

/** A text parameter's value; undefined when absent or given as a list. */
export function textParameter(parameters: WriteParameters, name: string): string | undefined {
  const value = parameters.get(name);
  return typeof value === "string" ? value : undefined;
}

/** A list parameter's values; undefined when absent (a text value counts as a list of one). */
export function listParameter(parameters: WriteParameters, name: string): readonly string[] | undefined {
  const value = parameters.get(name);
  return typeof value === "string" ? [value] : value;
}

/** A create, update or delete about to be made, once its actor may make it (x-permissions). */
export interface PendingWrite {
  type: string;
  operation: "create" | "update" | "delete";
  scope: Scope;
  /** Who asked, as checked: a hook refuses what the type's own rules forbid them (403). */
  actor: Actor;
  /** The record as stored now (update, delete). */
  existing?: JsonObject;
  /** The client's record (create, update), before validation. */
  input: unknown;
  parameters: WriteParameters;
}

/** A record just written, inside the write's transaction. */
export interface WrittenRecord {
  type: string;
  id: number;
  scope: Scope;
  /** The record as stored (create: its fields; update: the replacement). */
  record: JsonObject;
  /** The record before (update). */
  previous?: JsonObject;
  /** On behalf of the write's actor, whose right to write was checked: what the hook writes is not. */
  actor: TrustedActor;
  /** The actor as it asked (its session token, say). */
  caller: Actor;
  parameters: WriteParameters;
  /** The write's transaction: what the hook writes with it is undone if anything later fails. */
  session: ClientSession;
}

/** A record about to be deleted, inside the delete's transaction. */
export interface DeletingRecord {
  type: string;
  id: number;
  scope: Scope;
  record: JsonObject;
  /** On behalf of the delete's actor, whose right to delete was checked. */
  actor: TrustedActor;
  session: ClientSession;
}

export interface RecordHooks {
  /**
   * Before validation, outside any transaction: the type's own rules of who may do what (throw a
   * 403 ApiError), and the input to validate instead of the client's (normalised); undefined
   * keeps it. Runs for every create, update and delete, whoever calls.
   */
  beforeWrite?(write: PendingWrite): Promise<unknown>;
  /** After a record is stored, in the same transaction (e.g. a repository creates its standard groups). */
  afterCreate?(created: WrittenRecord): Promise<void>;
  /** After a record is replaced, in the same transaction. */
  afterUpdate?(updated: WrittenRecord): Promise<void>;
  /**
   * Before a record is deleted, inside the delete's transaction (`session`: every write the hook
   * makes is undone with the delete if anything later fails); may throw a 409 ApiError to refuse.
   */
  beforeDelete?(deleting: DeletingRecord): Promise<void>;
  /** What a read answers, from the record as shaped (e.g. a user with the permissions they hold now). */
  afterRead?(record: JsonObject, actor: Actor): Promise<JsonObject>;
}
