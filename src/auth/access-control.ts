// What the HTTP layer asks about a caller: their permission map (login response, route guards).
import type { PermissionMap } from "./permissions.js";

export interface AccessControl {
  /** The permissions of an active user; undefined when the user does not exist or is inactive. */
  permissionsOf(username: string): Promise<PermissionMap | undefined>;
}
