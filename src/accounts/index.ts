// Accounts: users, their passwords and sessions, groups and permissions, and the repositories
// that groups belong to (docs/api.md §2, §8, §9). `openAccounts` runs the start-up bootstrap
// and hands back the AccessControl the record routes ask, and the Ts.ED controllers of the
// account routes, to mount before the record controllers.
import type { Connection } from "mongoose";
import type { SessionStore } from "../auth/session-store.js";
import type { RecordOperations } from "../records/operations/index.js";
import { AccountAccessControl, type PermissionCacheOptions } from "./access-control.js";
import { bootstrapAccounts, type BootstrapResult } from "./bootstrap.js";
import { CredentialStore } from "./credential-store.js";
import { groupController } from "./group-controller.js";
import { LoginThrottle, type LoginThrottleOptions } from "./login-throttle.js";
import { sessionController } from "./session-controller.js";
import { UserAccounts } from "./user-accounts.js";
import { userController } from "./user-controller.js";

export { AccountAccessControl } from "./access-control.js";
export {
  ADMIN_USERNAME,
  BootstrapError,
  DEFAULT_ADMIN_PASSWORD,
  GLOBAL_REPO_CODE,
  type BootstrapResult,
} from "./bootstrap.js";
export { CredentialStore } from "./credential-store.js";
export { DEFAULT_LOGIN_THROTTLE, LoginThrottle, type LoginThrottleOptions } from "./login-throttle.js";
export { UserAccounts } from "./user-accounts.js";
export { normaliseUsername } from "./usernames.js";

/**
 * The record types whose routes are these, not the generic record controller's: a user's
 * password and an administrator's protection, a group's member and grant rules. Repositories
 * are the generic controller's (their rules are their schema's and their hook's).
 */
export const ACCOUNT_RECORD_TYPES: readonly string[] = ["user", "group"];

export interface AccountsOptions {
  connection: Connection;
  operations: RecordOperations;
  sessions: SessionStore;
  /** ADMIN_PASSWORD; unset: `admin`. Used only when the admin user is first created. */
  adminPassword?: string;
  permissionCache?: PermissionCacheOptions;
  /** Login throttling (config auth.loginThrottle); unset: config.ts's defaults. */
  loginThrottle?: Partial<LoginThrottleOptions>;
}

export interface Accounts {
  /** The AccessControl for the record routes; emptied after every committed write to users, groups or repositories. */
  accessControl: AccountAccessControl;
  users: UserAccounts;
  /**
   * Login, logout, current-user, /users and /repositories/:id/groups, in the order they must be
   * mounted (current-user before /users/:id).
   */
  controllers: Array<new () => unknown>;
  /** `defaultAdminPasswordInUse`: log a loud warning. */
  bootstrap: BootstrapResult;
}

export async function openAccounts(options: AccountsOptions): Promise<Accounts> {
  const { operations, sessions } = options;
  const credentials = new CredentialStore(options.connection);
  const bootstrap = await bootstrapAccounts(operations, credentials, { adminPassword: options.adminPassword });
  const accessControl = new AccountAccessControl(operations.deps.store, options.permissionCache);
  // Whatever writes a user, a group or a repository (a route, an importer, a hook, start-up),
  // what anyone may do is recomputed once the write has committed.
  const grantsAccess = new Set(ACCOUNT_RECORD_TYPES);
  operations.deps.changes.subscribe((change) =>
    grantsAccess.has(change.type) ? accessControl.invalidate() : undefined,
  );
  const users = new UserAccounts(operations, credentials, sessions);
  const throttle = new LoginThrottle(options.loginThrottle);
  const controllers = [
    // First: /users/current-user must not be taken for /users/:id.
    sessionController({ users, credentials, sessions, access: accessControl, throttle }),
    userController({ users, operations, access: accessControl }),
    groupController({ operations, access: accessControl }),
  ];
  return { accessControl, users, controllers, bootstrap };
}
