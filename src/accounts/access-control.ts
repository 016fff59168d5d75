// The AccessControl the HTTP layer asks on every protected request: a user's permission map
// is `permissionMap(is_admin, the groups they are a member of)`, and nothing for an unknown
// or inactive user.
//
// Answers are cached per process, because the record routes ask on every request and a miss
// costs two store queries. The cache is emptied by `invalidate()`, which every write to users,
// groups or repositories made through the account routes calls, so a membership change applies
// to existing sessions at once. Another Arca process on the same store empties its cache within
// `checkMs` of such a write (invalidate() raises a change signal in the store, which every process
// reads at most once per `checkMs`). A write that bypasses the routes (a script writing to the
// store) shows after at most `ttlMs`; code in this process that writes users or groups some other
// way must call `invalidate()` itself.
import type { AccessControl } from "../auth/access-control.js";
import { ADMINISTER_SYSTEM, GLOBAL_REPOSITORY_ID, permissionMap, type PermissionMap } from "../auth/permissions.js";
import { ChangeSignal } from "../storage/change-signal.js";
import type { RecordStore } from "../storage/record-store.js";
import { normaliseUsername } from "./usernames.js";

export interface PermissionCacheOptions {
  /** How long an answer may be reused; 0 turns the cache off. Default 30 s. */
  ttlMs?: number;
  /** How often the store is asked whether another process changed permissions. Default 1000 ms. */
  checkMs?: number;
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
  private readonly signal: ChangeSignal;

  constructor(
    private readonly store: RecordStore,
    options: PermissionCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = options.now ?? Date.now;
    this.signal = new ChangeSignal(store.connection, "permissions", { checkMs: options.checkMs, now: this.now });
  }

  async permissionsOf(username: string): Promise<PermissionMap | undefined> {
    const key = normaliseUsername(username);
    if (this.ttlMs > 0 && (await this.signal.changed())) this.forget();
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

  /**
   * Forget every cached answer: call after any write to users, groups or repositories. Resolves
   * once the other processes have been told (the write answers after that), and never rejects:
   * should the store miss the signal, the other processes still see the change after ttlMs.
   */
  async invalidate(): Promise<void> {
    this.forget();
    await this.signal.raise().catch(() => undefined);
  }

  private forget(): void {
    this.generation += 1;
    this.cache.clear();
  }

  /**
   * Which of `usernames` (normalised) are administrators: is_admin, or a member of a global
   * group granting administer_system. Read from the store, never the cache, and whether or not
   * the account is active: an inactive administrator is still one (reactivating and taking it
   * over is what protecting administrators is about).
   */
  async administratorsAmong(usernames: readonly string[]): Promise<Set<string>> {
    const names = [...new Set(usernames.map(normaliseUsername))];
    if (names.length === 0) return new Set();
    const [flagged, grouped] = await Promise.all([
      this.store
        .collection("user")
        .find({ username: { $in: names }, is_admin: true }, { projection: { username: 1 } })
        .toArray(),
      this.store
        .collection("group")
        .find(
          { repo_id: GLOBAL_REPOSITORY_ID, grants_permissions: ADMINISTER_SYSTEM, member_usernames: { $in: names } },
          { projection: { member_usernames: 1 } },
        )
        .toArray(),
    ]);
    const wanted = new Set(names);
    const found = new Set(flagged.map((user) => String(user.username)));
    for (const group of grouped) {
      for (const member of Array.isArray(group.member_usernames) ? (group.member_usernames as unknown[]) : []) {
        if (typeof member === "string" && wanted.has(member)) found.add(member);
      }
    }
    return found;
  }

  async isAdministratorAccount(username: string): Promise<boolean> {
    return (await this.administratorsAmong([username])).size > 0;
  }

  private async compute(username: string): Promise<PermissionMap | undefined> {
    const user = await this.store
      .collection("user")
      .findOne({ username }, { projection: { is_admin: 1, is_active_user: 1 } });
    if (!user || user.is_active_user === false) return undefined;
    const groups = await this.store
      .collection("group")
      .find({ member_usernames: username }, { projection: { repo_id: 1, grants_permissions: 1 } })
      .toArray();
    const memberships = groups.flatMap((group) =>
      group.repo_id === undefined
        ? []
        : [
            {
              repoId: group.repo_id,
              grants: Array.isArray(group.grants_permissions) ? (group.grants_permissions as string[]) : [],
            },
          ],
    );
    return frozen(permissionMap(user.is_admin === true, memberships));
  }
}
