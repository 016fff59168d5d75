// Who performs an operation, and so what the operation lets them do. Every write, and every read
// or list of records, names one, and the operation itself checks it (operation-access.ts): there
// is no way past the check by forgetting it, only the explicit `trusted`. (Tree views are checked
// at their routes, by the same rule.)
import type { PermissionMap } from "./permissions.js";

/** A logged-in user: the operation checks their permissions against the type's x-permissions. */
export interface UserActor {
  kind: "user";
  username: string;
  permissions: PermissionMap;
  /** The session token the request carried (a user changing their own password keeps it). */
  token?: string;
}

/** Nobody logged in: may only read types marked x-public-read. */
export interface AnonymousActor {
  kind: "anonymous";
  username: "anonymous";
}

/**
 * Code that has settled what may be done before it calls: start-up, an importer its route let
 * in, a hook inside a write that was itself checked, an administrator's script. The operation
 * checks nothing; the name is what created_by and last_modified_by record.
 */
export interface TrustedActor {
  kind: "trusted";
  username: string;
}

export type Actor = UserActor | AnonymousActor | TrustedActor;

export const ANONYMOUS: AnonymousActor = { kind: "anonymous", username: "anonymous" };

export function trusted(username: string): TrustedActor {
  return { kind: "trusted", username };
}

/** The same actor's trust, for writes made on its behalf (a hook's, a cascade's). */
export function onBehalfOf(actor: Actor): TrustedActor {
  return trusted(actor.username);
}
