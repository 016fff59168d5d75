import { describe, expect, it } from "@jest/globals";
import {
  GLOBAL_PERMISSIONS_KEY,
  GLOBAL_REPOSITORY_ID,
  PERMISSIONS,
  hasPermission,
  hasPermissionAnywhere,
  permissionLevel,
  permissionMap,
} from "../../src/auth/permissions.js";
import { standardGroups } from "../../src/repositories/standard-groups.js";

const group = (repo: string, code: string) => {
  const found = standardGroups(repo).find((g) => g.group_code === code);
  if (!found) throw new Error(`no group ${code}`);
  return found.grants_permissions;
};

describe("permissionMap and hasPermission", () => {
  it("gives an admin every permission everywhere", () => {
    const map = permissionMap(true, []);
    expect(map[GLOBAL_PERMISSIONS_KEY]).toEqual([...PERMISSIONS].sort());
    expect(hasPermission(map, "delete_archival_record", 7)).toBe(true);
    expect(hasPermission(map, "create_repository")).toBe(true);
  });

  it("limits a repository group's grants to that repository", () => {
    const map = permissionMap(false, [{ repoId: 2, grants: group("main", "repository-archivists") }]);
    expect(Object.keys(map)).toEqual(["/repositories/2"]);
    expect(hasPermission(map, "update_accession_record", 2)).toBe(true);
    expect(hasPermission(map, "update_accession_record", 3)).toBe(false);
    expect(hasPermission(map, "update_accession_record")).toBe(false);
    expect(hasPermission(map, "delete_archival_record", 2)).toBe(false);
  });

  it("applies a global group's grants in every repository", () => {
    const map = permissionMap(false, [{ repoId: GLOBAL_REPOSITORY_ID, grants: ["view_repository"] }]);
    expect(hasPermission(map, "view_repository", 2)).toBe(true);
    expect(hasPermission(map, "view_repository", 99)).toBe(true);
    expect(hasPermission(map, "update_resource_record", 2)).toBe(false);
  });

  it("merges several groups without duplicates", () => {
    const map = permissionMap(false, [
      { repoId: 2, grants: ["view_repository"] },
      { repoId: 2, grants: ["view_repository", "update_resource_record"] },
    ]);
    expect(map["/repositories/2"]).toEqual(["update_resource_record", "view_repository"]);
  });
});

describe("standardGroups", () => {
  it("are the six ArchivesSpace groups, each granting only known permissions, without repeats", () => {
    const groups = standardGroups("main");
    expect(groups.map((g) => g.group_code)).toEqual([
      "repository-managers",
      "repository-archivists",
      "repository-project-managers",
      "repository-advanced-data-entry",
      "repository-basic-data-entry",
      "repository-viewers",
    ]);
    for (const g of groups) {
      expect(new Set(g.grants_permissions).size).toBe(g.grants_permissions.length);
      for (const code of g.grants_permissions) expect(PERMISSIONS).toContain(code);
    }
  });

  it("let viewers only view, archivists edit but not delete, managers manage", () => {
    expect(group("main", "repository-viewers")).toEqual(["view_repository"]);
    expect(group("main", "repository-archivists")).toContain("update_accession_record");
    expect(group("main", "repository-archivists")).not.toContain("delete_archival_record");
    expect(group("main", "repository-managers")).toEqual(
      expect.arrayContaining(["manage_repository", "delete_archival_record"]),
    );
    expect(standardGroups("xyz")[0].description).toBe("Managers of the xyz repository");
  });
});

describe("hasPermissionAnywhere", () => {
  it("counts a grant held in any repository or globally, and nothing else", async () => {
    const { hasPermissionAnywhere } = await import("../../src/auth/permissions.js");
    const archivist = permissionMap(false, [{ repoId: 3, grants: group("main", "repository-archivists") }]);
    expect(hasPermissionAnywhere(archivist, "update_agent_record")).toBe(true);
    expect(hasPermissionAnywhere(archivist, "create_repository")).toBe(false);
    const viewer = permissionMap(false, [{ repoId: 3, grants: group("main", "repository-viewers") }]);
    expect(hasPermissionAnywhere(viewer, "update_agent_record")).toBe(false);
  });
});

describe("permission levels (ArchivesSpace's)", () => {
  it("global: the system codes, and deleting or merging what every repository shares; repository: the rest", () => {
    expect(PERMISSIONS.filter((code) => permissionLevel(code) === "global").sort()).toEqual([
      "administer_system",
      "become_user",
      "create_repository",
      "delete_agent_record",
      "delete_repository",
      "delete_subject_record",
      "delete_vocabulary_record",
      "index_system",
      "manage_users",
      "mediate_edits",
      "merge_agent_record",
      "merge_subject_record",
      "view_all_records",
    ]);
    expect(PERMISSIONS.every((code) => permissionLevel(code) !== undefined)).toBe(true);
    expect(permissionLevel("constructor")).toBeUndefined();
    expect(permissionLevel("__proto__")).toBeUndefined();
  });

  it("the standard repository groups grant only repository-level codes", () => {
    for (const { grants_permissions } of standardGroups("main")) {
      expect(grants_permissions.filter((code) => permissionLevel(code) !== "repository")).toEqual([]);
    }
  });

  it("a repository group's global-level codes grant nothing; a global group's grant everywhere", () => {
    const map = permissionMap(false, [
      { repoId: 2, grants: ["view_repository", "delete_agent_record", "administer_system", "manage_users"] },
      { repoId: 3, grants: ["delete_subject_record"] },
    ]);
    expect(map).toEqual({ "/repositories/2": ["view_repository"] });
    expect(hasPermissionAnywhere(map, "delete_agent_record")).toBe(false);
    expect(hasPermission(map, "administer_system", 2)).toBe(false);
    const global = permissionMap(false, [{ repoId: GLOBAL_REPOSITORY_ID, grants: ["delete_agent_record"] }]);
    expect(hasPermissionAnywhere(global, "delete_agent_record")).toBe(true);
    expect(hasPermission(global, "delete_agent_record")).toBe(true);
  });

  it("a global-level code in a hand-made map counts only under the global key", () => {
    const map = { "/repositories/2": ["manage_users", "update_agent_record"] };
    expect(hasPermission(map, "manage_users", 2)).toBe(false);
    expect(hasPermissionAnywhere(map, "manage_users")).toBe(false);
    expect(hasPermissionAnywhere(map, "update_agent_record")).toBe(true);
  });
});
