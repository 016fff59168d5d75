// What must exist before anyone can log in (api-contract §2, §8): the hidden global
// repository (id 1), an `administrators` group in it granting every permission, and an
// `admin` user in that group; and ArchivesSpace's default vocabulary (`/vocabularies/1`). Run at every start-up; it only creates what is missing, so a
// second run changes nothing, and an admin password changed since is never reset.
import { GLOBAL_REPOSITORY_ID, PERMISSIONS } from "../auth/permissions.js";
import type { Actor, RecordOperations } from "../records/operations/index.js";
import { duplicateKeyPattern } from "../storage/record-store.js";
import type { CredentialStore } from "./credential-store.js";

export const GLOBAL_REPO_CODE = "_archivesspace";
export const ADMIN_USERNAME = "admin";
export const ADMINISTRATORS_GROUP = "administrators";
export const DEFAULT_ADMIN_PASSWORD = "admin";

const BOOTSTRAP_ACTOR: Actor = { username: ADMIN_USERNAME };

export interface BootstrapOptions {
  /** ADMIN_PASSWORD: the admin's password when the admin is first created. Default `admin`. */
  adminPassword?: string;
}

export interface BootstrapResult {
  /** The admin can log in with the well-known default password: the caller must warn loudly. */
  defaultAdminPasswordInUse: boolean;
  /** What this run created (empty on every run but the first). */
  created: string[];
}

export class BootstrapError extends Error {}

/**
 * The global repository is written directly, not through RecordOperations.create: it must get
 * id 1 and no standard groups (the repository afterCreate hook would add them). The id counter
 * is moved on past 1 so that the first user repository gets id 2.
 */
async function ensureGlobalRepository(operations: RecordOperations): Promise<boolean> {
  const { store, now } = operations.deps;
  const repositories = store.collection("repository");
  const existing = await repositories.findOne({ id: GLOBAL_REPOSITORY_ID });
  if (existing) {
    if (existing.repo_code !== GLOBAL_REPO_CODE) {
      throw new BootstrapError(
        `repository ${GLOBAL_REPOSITORY_ID} is "${String(existing.repo_code)}", but id ${GLOBAL_REPOSITORY_ID} belongs to the hidden global repository: this store was written by a version without accounts`,
      );
    }
    return false;
  }
  // On a fresh store this hands out 1; on any other it only moves the counter on (ids may have gaps).
  await store.nextId("repository");
  const time = now();
  try {
    await repositories.insertOne({
      id: GLOBAL_REPOSITORY_ID,
      repo_code: GLOBAL_REPO_CODE,
      name: "Global repository",
      lock_version: 0,
      created_by: BOOTSTRAP_ACTOR.username,
      last_modified_by: BOOTSTRAP_ACTOR.username,
      create_time: time,
      system_mtime: time,
      user_mtime: time,
    });
  } catch (error) {
    if (duplicateKeyPattern(error)) return false; // another process starting at the same time
    throw error;
  }
  return true;
}

async function ensureAdminUser(operations: RecordOperations): Promise<boolean> {
  if ((await operations.find("user", { username: ADMIN_USERNAME }, 1)).length > 0) return false;
  await operations.create("user", {}, { username: ADMIN_USERNAME, name: "Administrator", is_admin: true }, BOOTSTRAP_ACTOR);
  return true;
}

async function ensureAdministratorsGroup(operations: RecordOperations): Promise<boolean> {
  const existing = await operations.find("group", { repo_id: GLOBAL_REPOSITORY_ID, group_code: ADMINISTRATORS_GROUP }, 1);
  if (existing.length > 0) return false;
  await operations.create(
    "group",
    { repoId: GLOBAL_REPOSITORY_ID },
    {
      group_code: ADMINISTRATORS_GROUP,
      description: "Administrators",
      member_usernames: [ADMIN_USERNAME],
      grants_permissions: [...PERMISSIONS],
    },
    BOOTSTRAP_ACTOR,
  );
  return true;
}

/**
 * ArchivesSpace's default vocabulary, `/vocabularies/1` ("global"): subjects in ArchivesSpace
 * data (and its import formats) name it. Created on a store with no vocabulary at all.
 */
async function ensureGlobalVocabulary(operations: RecordOperations): Promise<boolean> {
  if ((await operations.find("vocabulary", {}, 1)).length > 0) return false;
  await operations.create("vocabulary", {}, { ref_id: "global", name: "global" }, BOOTSTRAP_ACTOR);
  return true;
}

export async function bootstrapAccounts(operations: RecordOperations, credentials: CredentialStore, options: BootstrapOptions = {}): Promise<BootstrapResult> {
  const created: string[] = [];
  if (await ensureGlobalRepository(operations)) created.push("global repository");
  if (await ensureAdminUser(operations)) created.push("admin user");
  if (await credentials.setIfMissing(ADMIN_USERNAME, options.adminPassword || DEFAULT_ADMIN_PASSWORD)) created.push("admin password");
  if (await ensureAdministratorsGroup(operations)) created.push("administrators group");
  if (await ensureGlobalVocabulary(operations)) created.push("global vocabulary");
  return { defaultAdminPasswordInUse: await credentials.verify(ADMIN_USERNAME, DEFAULT_ADMIN_PASSWORD), created };
}
