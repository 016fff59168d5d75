// GET /permissions (ArchivesSpace's backend permission.rb): the permission codes a group may grant,
// by level, each as ArchivesSpace's `permission` record shows it. The codes and levels are the
// registry's (ArchivesSpace's, and those record types declare with x-permission-codes); the
// description is worded from the code, since Arca keeps no other text for them.
import { permissionLevel, allPermissions, type PermissionLevel } from "../auth/permissions.js";

export const PERMISSION_LEVELS = ["repository", "global", "all"] as const;
export type PermissionLevelQuery = (typeof PERMISSION_LEVELS)[number];

export interface PermissionEntry {
  jsonmodel_type: "permission";
  permission_code: string;
  description: string;
  level: PermissionLevel;
}

export function isPermissionLevelQuery(value: string): value is PermissionLevelQuery {
  return (PERMISSION_LEVELS as readonly string[]).includes(value);
}

/** `update_accession_record` -> `Update accession record`. */
function describeCode(code: string): string {
  const words = code.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The codes of `level` (every code for `all`), in the registry's order. */
export function permissionList(level: PermissionLevelQuery): PermissionEntry[] {
  return allPermissions().flatMap((code): PermissionEntry[] => {
    const its = permissionLevel(code);
    if (its === undefined || (level !== "all" && its !== level)) return [];
    return [{ jsonmodel_type: "permission", permission_code: code, description: describeCode(code), level: its }];
  });
}
