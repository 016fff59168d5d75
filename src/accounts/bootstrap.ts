// What must exist before anyone can log in (docs/api.md §2, §8): the hidden global
// repository (id 1), an `administrators` group in it granting every permission, and an
// `admin` user in that group; and ArchivesSpace's default vocabulary (`/vocabularies/1`). Run at
// every start-up; it only creates what is missing, so a second run changes nothing, and an admin
// password changed since is never reset. Race-safe: several nodes may start at once on one fresh
// store, and each thing is still created exactly once (unique indexes decide, losers re-read).
import { allPermissions, GLOBAL_REPOSITORY_ID } from "../auth/permissions.js";
import { trusted, type Actor, type RecordOperations, type Scope } from "../records/operations/index.js";
import type { JsonObject } from "../registry/index.js";
import { duplicateKeyPattern, type StoredRecord } from "../storage/record-store.js";
import type { CredentialStore } from "./credential-store.js";

export const GLOBAL_REPO_CODE = "_archivesspace";
export const ADMIN_USERNAME = "admin";
export const ADMINISTRATORS_GROUP = "administrators";
export const DEFAULT_ADMIN_PASSWORD = "admin";

// Start-up makes what every installation starts with, before anyone can log in.
const BOOTSTRAP_ACTOR: Actor = trusted(ADMIN_USERNAME);

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
 * is moved on to at least 1 (never by one per start: two nodes starting at once would otherwise
 * leave it at 2 and the first user repository at 3) so that the first user repository gets id 2.
 */
function checkGlobalRepository(existing: StoredRecord): void {
  if (existing.repo_code !== GLOBAL_REPO_CODE) {
    throw new BootstrapError(
      `repository ${GLOBAL_REPOSITORY_ID} is "${String(existing.repo_code)}", but id ${GLOBAL_REPOSITORY_ID} belongs to the hidden global repository: this store was written by a version without accounts`,
    );
  }
}

async function ensureGlobalRepository(operations: RecordOperations): Promise<boolean> {
  const { store, now } = operations.deps;
  const repositories = store.collection("repository");
  const existing = await repositories.findOne({ id: GLOBAL_REPOSITORY_ID });
  if (existing) {
    checkGlobalRepository(existing);
    return false;
  }
  await store.advanceCounter("repository", GLOBAL_REPOSITORY_ID);
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
    if (!duplicateKeyPattern(error)) throw error;
    // Another node starting at the same time stored it first.
    const winner = await repositories.findOne({ id: GLOBAL_REPOSITORY_ID });
    if (!winner) throw error;
    checkGlobalRepository(winner);
    return false;
  }
  return true;
}

const FIRST_ID = 1;

/**
 * Creates one start-up record unless a record matching `filter` exists. Never check-then-insert
 * alone: two nodes starting at once on one fresh store both find nothing and both create; the
 * type's unique indexes let one insert through, and the other, failing, reads again and finds the
 * winner's. The record is stored with id 1 when that is free (ArchivesSpace's `/users/1`,
 * `/vocabularies/1`) whichever node wins, so uris do not depend on the race, nor are ids used up by it.
 */
async function ensureRecord(
  operations: RecordOperations,
  type: string,
  scope: Scope,
  filter: Record<string, unknown>,
  input: JsonObject,
): Promise<boolean> {
  const { store } = operations.deps;
  // Read before `exists`: a node that finds id 1 taken by the winner then also finds the winner's
  // record, instead of taking a counter id only to lose the insert and leave a gap.
  const firstFree = (await store.collection(type).findOne({ id: FIRST_ID }, { projection: { _id: 1 } })) === null;
  const exists = async (): Promise<boolean> => (await operations.find(type, filter, 1)).length > 0;
  if (await exists()) return false;
  if (firstFree) {
    await store.advanceCounter(type, FIRST_ID);
    try {
      await operations.createMany(type, scope, [{ input, id: FIRST_ID }], BOOTSTRAP_ACTOR);
      return true;
    } catch {
      if (await exists()) return false;
      // Id 1 was taken by some other record meanwhile: an ordinary id then (any other problem
      // fails the same way below).
    }
  }
  try {
    await operations.create(type, scope, input, BOOTSTRAP_ACTOR);
    return true;
  } catch (error) {
    if (await exists()) return false;
    throw error;
  }
}

function ensureAdminUser(operations: RecordOperations): Promise<boolean> {
  return ensureRecord(
    operations,
    "user",
    {},
    { username: ADMIN_USERNAME },
    { username: ADMIN_USERNAME, name: "Administrator", is_admin: true },
  );
}

function ensureAdministratorsGroup(operations: RecordOperations): Promise<boolean> {
  return ensureRecord(
    operations,
    "group",
    { repoId: GLOBAL_REPOSITORY_ID },
    { repo_id: GLOBAL_REPOSITORY_ID, group_code: ADMINISTRATORS_GROUP },
    {
      group_code: ADMINISTRATORS_GROUP,
      description: "Administrators",
      member_usernames: [ADMIN_USERNAME],
      grants_permissions: allPermissions(),
    },
  );
}

/**
 * ArchivesSpace's default vocabulary, `/vocabularies/1` ("global"): subjects in ArchivesSpace
 * data (and its import formats) name it. Created on a store with no vocabulary at all.
 */
function ensureGlobalVocabulary(operations: RecordOperations): Promise<boolean> {
  return ensureRecord(operations, "vocabulary", {}, {}, { ref_id: "global", name: "global" });
}

export async function bootstrapAccounts(
  operations: RecordOperations,
  credentials: CredentialStore,
  options: BootstrapOptions = {},
): Promise<BootstrapResult> {
  const created: string[] = [];
  if (await ensureGlobalRepository(operations)) created.push("global repository");
  if (await ensureAdminUser(operations)) created.push("admin user");
  if (await credentials.setIfMissing(ADMIN_USERNAME, options.adminPassword || DEFAULT_ADMIN_PASSWORD))
    created.push("admin password");
  if (await ensureAdministratorsGroup(operations)) created.push("administrators group");
  if (await ensureGlobalVocabulary(operations)) created.push("global vocabulary");
  return { defaultAdminPasswordInUse: await credentials.verify(ADMIN_USERNAME, DEFAULT_ADMIN_PASSWORD), created };
}
