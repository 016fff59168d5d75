import { describe, expect, it } from "@jest/globals";
import { GLOBAL_PERMISSIONS_KEY, GLOBAL_REPOSITORY_ID, PERMISSIONS, hasPermission, permissionMap } from "../../src/auth/permissions.js";
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
      "repository-managers", "repository-archivists", "repository-project-managers",
      "repository-advanced-data-entry", "repository-basic-data-entry", "repository-viewers",
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
    expect(group("main", "repository-managers")).toEqual(expect.arrayContaining(["manage_repository", "delete_archival_record"]));
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
