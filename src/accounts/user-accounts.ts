// Users as accounts: the user record (through RecordOperations, so validation, ids and audit
// fields are those of any record) kept in step with what lives beside it: the password in
// the credential store and the sessions. Group memberships follow from the user hook
// (src/records/hooks/user.ts), and the permission cache from the change listeners.
// Transport-free, so an admin script can use it as the routes do. Who may do what is the
// controller's business (user-controller.ts).
import type { SessionStore } from "../auth/session-store.js";
import { ApiError, badRequest } from "../errors/api-error.js";
import type { JsonObject } from "../registry/index.js";
import {
  onBehalfOf,
  type Actor,
  type DeleteResult,
  type RecordOperations,
  type WriteResult,
} from "../records/operations/index.js";
import type { CredentialStore } from "./credential-store.js";
import { normaliseUsername } from "./usernames.js";

const USER = "user";

function usernameInUse(username: string): ApiError {
  return badRequest({ username: [`Username '${username}' is already in use`] });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The client's body with its username normalised (anything else is left to the schema). */
function normalisedInput(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  return typeof input.username === "string" ? { ...input, username: normaliseUsername(input.username) } : input;
}

function usernameIn(input: unknown): string | undefined {
  return isPlainObject(input) && typeof input.username === "string" ? input.username : undefined;
}

/** The store's unique index answers a race the up-front check lost, in the contract's words. */
function asUsernameInUse(error: unknown, username: string | undefined): unknown {
  if (
    error instanceof ApiError &&
    error.status === 400 &&
    typeof error.detail === "object" &&
    "username" in error.detail &&
    username
  ) {
    return usernameInUse(username);
  }
  return error;
}

export class UserAccounts {
  constructor(
    private readonly operations: RecordOperations,
    private readonly credentials: CredentialStore,
    private readonly sessions: SessionStore,
  ) {}

  async findByUsername(username: string): Promise<JsonObject | undefined> {
    return (await this.operations.find(USER, { username: normaliseUsername(username) }, 1))[0];
  }

  read(id: number, actor: Actor): Promise<JsonObject> {
    return this.operations.read(USER, {}, id, actor);
  }

  async create(input: unknown, password: string, actor: Actor): Promise<WriteResult> {
    const record = normalisedInput(input);
    const username = usernameIn(record);
    if (username !== undefined && (await this.findByUsername(username))) throw usernameInUse(username);
    let result: WriteResult;
    try {
      result = await this.operations.create(USER, {}, record, actor);
    } catch (error) {
      throw asUsernameInUse(error, username);
    }
    // A new account starts in no group: the user hook (src/records/hooks/user.ts) took the name
    // out of every group in the create's transaction.
    try {
      // The schema requires a string username, so a create that succeeded had one.
      await this.credentials.set(username!, password);
    } catch (error) {
      // A user who can never log in is worse than no user: take the record back out.
      await this.operations.delete(USER, {}, result.id, actor).catch(() => undefined);
      throw error;
    }
    return result;
  }

  /**
   * A full update of the record; with `password`, the password changes too and every other
   * session of the user ends (`keepToken`: the caller's own, when they change their own).
   * Usernames cannot change: credentials, sessions and memberships are keyed by them.
   */
  async update(
    id: number,
    input: unknown,
    password: string | undefined,
    actor: Actor,
    keepToken?: string,
  ): Promise<WriteResult> {
    const existing = await this.read(id, onBehalfOf(actor));
    const username = String(existing.username);
    const record = normalisedInput(input);
    const requested = usernameIn(record);
    if (requested !== undefined && requested !== username)
      throw badRequest({ username: ["A username cannot be changed"] });
    const result = await this.operations.update(USER, {}, id, record, actor);
    if (password !== undefined) {
      await this.credentials.set(username, password);
      await this.sessions.endAllFor(username, keepToken);
    }
    // A full replacement: the stored flag is what the client sent (the schema's default is true).
    if (isPlainObject(record) && record.is_active_user === false) await this.sessions.endAllFor(username);
    return result;
  }

  async delete(id: number, actor: Actor): Promise<DeleteResult> {
    const existing = await this.read(id, onBehalfOf(actor));
    const username = String(existing.username);
    // The user hook takes the name out of every group in the delete's transaction.
    const result = await this.operations.delete(USER, {}, id, actor);
    await this.credentials.remove(username);
    await this.sessions.endAllFor(username);
    return result;
  }
}
