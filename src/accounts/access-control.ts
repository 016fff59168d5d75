// The AccessControl the HTTP layer asks on every protected request: a user's permission map
// is `permissionMap(is_admin, the groups they are a member of)`, and nothing for an unknown
// or inactive user.
//
// Answers are cached per process, because the record routes ask on every request and a miss
// costs two store queries. The cache is emptied by `invalidate()`, which every write to users,
// groups or repositories made through the account routes calls, so a membership change applies
// to existing sessions at once. A write that bypasses those routes (a script writing to the
// store, another Arca process on the same MongoDB) shows after at most `ttlMs`; code in this
// process that writes users or groups some other way must call `invalidate()` itself.
import type { AccessControl } from "../auth/access-control.js";
import { permissionMap, type PermissionMap } from "../auth/permissions.js";
import type { RecordStore } from "../storage/record-store.js";
import { normaliseUsername } from "./usernames.js";

export interface PermissionCacheOptions {
  /** How long an answer may be reused; 0 turns the cache off. Default 30 s. */
  ttlMs?: number;
  /** The cache is emptied when it reaches this many users, so it cannot grow without bound. */
  maxEntries?: number;
  now?: () => number;
}

interface CacheEntry {
  permissions: PermissionMap | undefined;
  expiresAt: number;
}

const DEFAULT_TTL_MS = 30_000;
const DEFAULT_MAX_ENTRIES = 10_000;

function frozen(map: PermissionMap): PermissionMap {
  // Shared between requests: nobody may change a cached answer by editing what they were given.
  for (const codes of Object.values(map)) Object.freeze(codes);
  return Object.freeze(map);
}

export class AccountAccessControl implements AccessControl {
  private readonly cache = new Map<string, CacheEntry>();
  /** Bumped by invalidate(): an answer computed across an invalidation is not cached. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly store: RecordStore,
    options: PermissionCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = options.now ?? Date.now;
  }

  async permissionsOf(username: string): Promise<PermissionMap | undefined> {
    const key = normaliseUsername(username);
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.permissions;
    const generation = this.generation;
    const permissions = await this.compute(key);
    if (this.ttlMs > 0 && generation === this.generation) {
      if (this.cache.size >= this.maxEntries) this.cache.clear();
      this.cache.set(key, { permissions, expiresAt: this.now() + this.ttlMs });
    }
    return permissions;
  }

  /** Forget every cached answer: call after any write to users, groups or repositories. */
  invalidate(): void {
    this.generation += 1;
    this.cache.clear();
  }

  private async compute(username: string): Promise<PermissionMap | undefined> {
    const user = await this.store.collection("user").findOne({ username }, { projection: { is_admin: 1, is_active_user: 1 } });
    if (!user || user.is_active_user === false) return undefined;
    const groups = await this.store
      .collection("group")
      .find({ member_usernames: username }, { projection: { repo_id: 1, grants_permissions: 1 } })
      .toArray();
    const memberships = groups.flatMap((group) =>
      group.repo_id === undefined ? [] : [{ repoId: group.repo_id, grants: Array.isArray(group.grants_permissions) ? (group.grants_permissions as string[]) : [] }],
    );
    return frozen(permissionMap(user.is_admin === true, memberships));
  }
}
