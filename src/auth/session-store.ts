// Sessions, stored in MongoDB by the SHA-256 of their token (a leaked database does not
// leak usable tokens). Expiring sessions slide: each use pushes the expiry forward, written
// at most once a minute so that reading a record does not turn into a write per request.
// Non-expiring sessions are forced out after a fixed maximum age.
//
// Every request checks its session, so active sessions are remembered in this process for
// a few seconds (the check then costs no round trip to the store). Logout, and ending a
// user's sessions, forget them here at once; a logout through another process sharing the
// database takes effect here within that time.
import { createHash, randomBytes } from "node:crypto";
import type { Collection as MongoCollection, Connection, Model } from "mongoose";
import { Schema } from "mongoose";

export interface SessionPolicy {
  /** Idle time after which an expiring session ends. */
  idleSeconds: number;
  /** Age after which a non-expiring session ends. */
  maxAgeSeconds: number;
}

export interface SessionRecord {
  _id: string; // sha256(token), hex
  username: string;
  expiring: boolean;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  /** When the record itself goes (TTL index): a while after expiry, so a late request still hears "expired". */
  purge_at: Date;
}

export type SessionLookup =
  { status: "active"; username: string; expiring: boolean } | { status: "gone" } | { status: "expired" };

/** How long an ended session is remembered, to answer SESSION_EXPIRED rather than SESSION_GONE. */
const REMEMBER_EXPIRED_MS = 24 * 3600 * 1000;
const TOUCH_INTERVAL_MS = 60 * 1000;
/** How long a looked-up session is trusted without asking the store again. */
export const SESSION_CACHE_MS = 5000;
const SESSION_CACHE_MAX = 10_000;

interface CachedSession {
  username: string;
  expiring: boolean;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  cachedAt: number;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const sessionSchema = new Schema<SessionRecord>(
  {
    _id: { type: String, required: true },
    username: { type: String, required: true, index: true },
    expiring: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
    last_used_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    purge_at: { type: Date, required: true, index: { expireAfterSeconds: 0 } },
  },
  { versionKey: false, collection: "sessions" },
);

export class SessionStore {
  private readonly model: Model<SessionRecord>;
  /** The same collection without mongoose in the way: the lookup is on every request. */
  private readonly raw: MongoCollection<SessionRecord>;
  /** Active sessions by token hash, remembered for SESSION_CACHE_MS. */
  private readonly cache = new Map<string, CachedSession>();

  constructor(
    connection: Connection,
    private readonly policy: SessionPolicy,
    private readonly now: () => number = Date.now,
  ) {
    this.model = connection.models.Session ?? connection.model<SessionRecord>("Session", sessionSchema);
    this.raw = connection.collection<SessionRecord>(this.model.collection.collectionName);
  }

  /** Creates the indexes (the TTL one purges old sessions). */
  async init(): Promise<void> {
    await this.model.init();
  }

  private expiryFrom(expiring: boolean, created: number, used: number): number {
    return expiring ? used + this.policy.idleSeconds * 1000 : created + this.policy.maxAgeSeconds * 1000;
  }

  /** A new session for `username`; the token is returned once and stored only hashed. */
  async create(username: string, expiring: boolean): Promise<{ token: string; expiresInSeconds: number }> {
    const token = randomBytes(32).toString("hex");
    const now = this.now();
    const expires = this.expiryFrom(expiring, now, now);
    await this.model.create({
      _id: hashToken(token),
      username,
      expiring,
      created_at: new Date(now),
      last_used_at: new Date(now),
      expires_at: new Date(expires),
      purge_at: new Date(expires + REMEMBER_EXPIRED_MS),
    });
    return { token, expiresInSeconds: Math.round((expires - now) / 1000) };
  }

  async lookup(token: string): Promise<SessionLookup> {
    const id = hashToken(token);
    const now = this.now();
    let session = this.cache.get(id);
    if (!session || now - session.cachedAt >= SESSION_CACHE_MS) {
      const record = await this.raw.findOne({ _id: id });
      if (!record) {
        this.cache.delete(id);
        return { status: "gone" };
      }
      session = {
        username: record.username,
        expiring: record.expiring,
        createdAt: record.created_at.getTime(),
        lastUsedAt: record.last_used_at.getTime(),
        expiresAt: record.expires_at.getTime(),
        cachedAt: now,
      };
      this.remember(id, session);
    }
    if (now >= session.expiresAt) {
      this.cache.delete(id);
      return { status: "expired" };
    }
    if (session.expiring && now - session.lastUsedAt >= TOUCH_INTERVAL_MS) {
      const expires = this.expiryFrom(true, session.createdAt, now);
      session.lastUsedAt = now;
      session.expiresAt = expires;
      await this.model.updateOne(
        { _id: id },
        {
          $set: {
            last_used_at: new Date(now),
            expires_at: new Date(expires),
            purge_at: new Date(expires + REMEMBER_EXPIRED_MS),
          },
        },
      );
    }
    return { status: "active", username: session.username, expiring: session.expiring };
  }

  private remember(id: string, session: CachedSession): void {
    this.cache.delete(id);
    if (this.cache.size >= SESSION_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(id, session);
  }

  /** Logout: true when a live session ended. */
  async end(token: string): Promise<boolean> {
    this.cache.delete(hashToken(token));
    const result = await this.model.deleteOne({ _id: hashToken(token), expires_at: { $gt: new Date(this.now()) } });
    return result.deletedCount === 1;
  }

  /**
   * Ends every session of a user (deactivation, deletion, password change), except the one
   * whose token is `keepToken`: a user changing their own password stays logged in there.
   */
  async endAllFor(username: string, keepToken?: string): Promise<number> {
    const keep = keepToken === undefined ? undefined : hashToken(keepToken);
    for (const [id, session] of this.cache) if (session.username === username && id !== keep) this.cache.delete(id);
    const filter = keepToken === undefined ? { username } : { username, _id: { $ne: hashToken(keepToken) } };
    return (await this.model.deleteMany(filter)).deletedCount;
  }
}
