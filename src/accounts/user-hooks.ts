// The user as an account: what the user type needs beyond its schema, run by the record
// operations for every write and read of a user, whoever makes it (the generic routes, start-up,
// a script). Registered on the user type by openAccounts, after the membership rule of
// src/records/hooks/user.ts.
// - Administrators: only an administrator (by what they hold, not the stored flag) may create,
//   change, deactivate, delete or reset the password of an administrator, or make one; a
//   manage_users holder could otherwise take one over and become one.
// - Usernames are normalised (trimmed, lower case), unique, and cannot change: credentials,
//   sessions and memberships are keyed by them. The `admin` user cannot be deleted: start-up
//   would bring it back with the default password.
// - The password (the `password` write parameter) is kept in the credential store, in the
//   user write's transaction; a new one ends the user's other sessions, as does a deactivation
//   or a delete, once the write has committed.
// - A read of an active user carries `permissions`, as the login answer does.
import type { SessionStore } from "../auth/session-store.js";
import { isAdministrator } from "../auth/caller.js";
import { accessDenied, badRequest, conflict } from "../errors/api-error.js";
import { textParameter, type RecordHooks } from "../records/hooks/index.js";
import type { Actor } from "../records/operations/index.js";
import type { JsonObject } from "../registry/index.js";
import type { RecordStore } from "../storage/record-store.js";
import type { AccountAccessControl } from "./access-control.js";
import { ADMIN_USERNAME } from "./bootstrap.js";
import type { CredentialStore } from "./credential-store.js";
import { normaliseUsername } from "./usernames.js";

export const PASSWORD_PARAMETER = "password";

export interface UserHookDeps {
  store: RecordStore;
  credentials: CredentialStore;
  sessions: SessionStore;
  access: AccountAccessControl;
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

const asksForAdmin = (input: unknown): boolean => isPlainObject(input) && input.is_admin === true;

/** The caller's own session, kept when they change their own password. */
const tokenOf = (actor: Actor): string | undefined => (actor.kind === "user" ? actor.token : undefined);

export function userAccountHooks({ store, credentials, sessions, access }: UserHookDeps): RecordHooks {
  const isAdministratorAccount = async (user: JsonObject | undefined): Promise<boolean> =>
    user !== undefined && (user.is_admin === true || (await access.isAdministratorAccount(String(user.username))));
  const endSessions = (session: Parameters<RecordStore["afterCommit"]>[0], username: string, keep?: string) =>
    store.afterCommit(session, async () => {
      await sessions.endAllFor(username, keep);
    });

  return {
    async beforeWrite({ operation, actor, existing, input }) {
      if (!isAdministrator(actor) && (asksForAdmin(input) || (await isAdministratorAccount(existing))))
        throw accessDenied();
      if (operation === "delete") {
        if (existing?.username === ADMIN_USERNAME) throw conflict("The admin user cannot be deleted");
        return undefined;
      }
      const record = normalisedInput(input);
      // Not an unknown field to drop with a warning (docs/api.md): a user created without the password its creator
      // meant to set would be a silent lock-out, or an account open to whoever guesses the next default.
      if (isPlainObject(record) && Object.hasOwn(record, "password"))
        throw badRequest({ password: ["A password goes in the password parameter, never in the user record"] });
      const username = usernameIn(record);
      if (operation === "update" && username !== undefined && username !== existing?.username)
        throw badRequest({ username: ["A username cannot be changed"] });
      if (operation === "create" && username !== undefined) {
        const taken = await store.collection("user").findOne({ username }, { projection: { _id: 1 } });
        if (taken) throw badRequest({ username: [`Username '${username}' is already in use`] });
      }
      return record;
    },

    async afterCreate({ record, parameters, session }) {
      const password = textParameter(parameters, PASSWORD_PARAMETER);
      // The schema requires a string username.
      if (password !== undefined) await credentials.set(String(record.username), password, session);
    },

    async afterUpdate({ record, previous, parameters, caller, session }) {
      const username = String(previous?.username ?? record.username);
      const password = textParameter(parameters, PASSWORD_PARAMETER);
      if (password !== undefined) {
        await credentials.set(username, password, session);
        await endSessions(session, username, tokenOf(caller));
      }
      // A full replacement: the stored flag is what the client sent (the schema's default is true).
      if (record.is_active_user === false) await endSessions(session, username);
    },

    async beforeDelete({ record, session }) {
      const username = String(record.username);
      await credentials.remove(username, session);
      await endSessions(session, username);
    },

    async afterRead(record) {
      const permissions = await access.permissionsOf(String(record.username));
      return permissions ? { ...record, permissions } : record;
    },
  };
}
