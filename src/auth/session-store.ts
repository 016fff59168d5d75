// Sessions, stored in MongoDB by the SHA-256 of their token (a leaked database does not
// leak usable tokens). Expiring sessions slide: each use pushes the expiry forward, written
// at most once a minute so that reading a record does not turn into a write per request.
// Non-expiring sessions are forced out after a fixed maximum age.
import { createHash, randomBytes } from "node:crypto";
import type { Connection, Model } from "mongoose";
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
  | { status: "active"; username: string; expiring: boolean }
  | { status: "gone" }
  | { status: "expired" };

/** How long an ended session is remembered, to answer SESSION_EXPIRED rather than SESSION_GONE. */
const REMEMBER_EXPIRED_MS = 24 * 3600 * 1000;
const TOUCH_INTERVAL_MS = 60 * 1000;

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

  constructor(
    connection: Connection,
    private readonly policy: SessionPolicy,
    private readonly now: () => number = Date.now,
  ) {
    this.model = connection.models.Session ?? connection.model<SessionRecord>("Session", sessionSchema);
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
    const record = await this.model.findById(id).lean();
    if (!record) return { status: "gone" };
    const now = this.now();
    if (now >= record.expires_at.getTime()) return { status: "expired" };
    if (record.expiring && now - record.last_used_at.getTime() >= TOUCH_INTERVAL_MS) {
      const expires = this.expiryFrom(true, record.created_at.getTime(), now);
      await this.model.updateOne({ _id: id }, { $set: { last_used_at: new Date(now), expires_at: new Date(expires), purge_at: new Date(expires + REMEMBER_EXPIRED_MS) } });
    }
    return { status: "active", username: record.username, expiring: record.expiring };
  }

  /** Logout: true when a live session ended. */
  async end(token: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: hashToken(token), expires_at: { $gt: new Date(this.now()) } });
    return result.deletedCount === 1;
  }

  /**
   * Ends every session of a user (deactivation, deletion, password change), except the one
   * whose token is `keepToken`: a user changing their own password stays logged in there.
   */
  async endAllFor(username: string, keepToken?: string): Promise<number> {
    const filter = keepToken === undefined ? { username } : { username, _id: { $ne: hashToken(keepToken) } };
    return (await this.model.deleteMany(filter)).deletedCount;
  }
}
