// Accounts: users, their passwords and sessions, groups and permissions (docs/api.md §2, §8).
// `openAccounts` gives the user and group types their account rules (hooks the record
// operations run for every write, whoever makes it), runs the start-up bootstrap, and hands back
// the AccessControl the record routes ask and the Ts.ED controller of login, logout and
// current-user, to mount before the record controllers. Users, groups and repositories are
// served by the generic record controller.
import type { Connection } from "mongoose";
import type { SessionStore } from "../auth/session-store.js";
import type { RecordOperations } from "../records/operations/index.js";
import { AccountAccessControl, type PermissionCacheOptions } from "./access-control.js";
import { bootstrapAccounts, type BootstrapResult } from "./bootstrap.js";
import { CredentialStore } from "./credential-store.js";
import { groupAccountHooks } from "./group-hooks.js";
import { LoginThrottle, type LoginThrottleOptions } from "./login-throttle.js";
import { sessionController } from "./session-controller.js";
import { userAccountHooks } from "./user-hooks.js";
import { userGroupHooks } from "./user-group-hooks.js";
import { userRoutesController } from "./user-routes.js";

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
export { normaliseUsername } from "./usernames.js";

/** The record types whose writes change what someone may do: the access cache follows them. */
const GRANTING_TYPES: ReadonlySet<string> = new Set(["user", "group"]);

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
  /** The AccessControl for the record routes; emptied after every committed write to users or groups. */
  accessControl: AccountAccessControl;
  /**
   * Login, logout, current-user and the user routes beyond the five (user-routes.ts), to mount before the record
   * controllers (current-user and complete are not user ids).
   */
  controllers: Array<new () => unknown>;
  /** `defaultAdminPasswordInUse`: log a loud warning. */
  bootstrap: BootstrapResult;
}

export async function openAccounts(options: AccountsOptions): Promise<Accounts> {
  const { operations, sessions } = options;
  const { store, hooks, changes } = operations.deps;
  const credentials = new CredentialStore(options.connection);
  const accessControl = new AccountAccessControl(store, options.permissionCache);
  hooks
    .add("user", userAccountHooks({ store, credentials, sessions, access: accessControl }))
    .add("user", userGroupHooks(operations.deps, accessControl))
    .add("group", groupAccountHooks(store, accessControl));
  const bootstrap = await bootstrapAccounts(operations, credentials, { adminPassword: options.adminPassword });
  // Whatever writes a user or a group (a route, an importer, a hook, start-up), what anyone may
  // do is recomputed once the write has committed.
  changes.subscribe((change) => (GRANTING_TYPES.has(change.type) ? accessControl.invalidate() : undefined));
  const throttle = new LoginThrottle(options.loginThrottle);
  const controllers = [
    sessionController({ operations, credentials, sessions, access: accessControl, throttle }),
    userRoutesController({ operations, access: accessControl, credentials, sessions }),
  ];
  return { accessControl, controllers, bootstrap };
}
