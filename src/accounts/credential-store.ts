// Passwords live apart from the user record (docs/api.md §8), in `user_credentials`, keyed
// by the normalised username, as scrypt hashes: a user record, however it is read or listed,
// can never carry a password or its hash.
import type { ClientSession } from "mongodb";
import type { Collection, Connection } from "mongoose";
import { hashPassword, verifyPassword } from "../auth/passwords.js";
import { duplicateKeyPattern } from "../storage/record-store.js";
import { normaliseUsername } from "./usernames.js";

interface CredentialRecord {
  _id: string;
  password_hash: string;
}

export const CREDENTIALS_COLLECTION = "user_credentials";

export class CredentialStore {
  private readonly collection: Collection<CredentialRecord>;
  /** A hash of nothing anyone knows, verified against when a user has no credentials, so that a
   *  failed login takes as long for an unknown user as for a wrong password (no user probing). */
  private decoy: Promise<string> | undefined;

  constructor(connection: Connection) {
    this.collection = connection.collection<CredentialRecord>(CREDENTIALS_COLLECTION);
  }

  /** `session`: inside that transaction (the user write that sets it). */
  async set(username: string, password: string, session?: ClientSession): Promise<void> {
    const password_hash = await hashPassword(password);
    await this.collection.updateOne(
      { _id: normaliseUsername(username) },
      { $set: { password_hash } },
      { upsert: true, session },
    );
  }

  /** Sets the password only when the user has none yet (start-up must not reset a changed one). */
  async setIfMissing(username: string, password: string): Promise<boolean> {
    const _id = normaliseUsername(username);
    if (await this.collection.findOne({ _id }, { projection: { _id: 1 } })) return false;
    try {
      await this.collection.insertOne({ _id, password_hash: await hashPassword(password) });
      return true;
    } catch (error) {
      if (duplicateKeyPattern(error)) return false; // another process got there first
      throw error;
    }
  }

  async verify(username: string, password: string): Promise<boolean> {
    const stored = await this.collection.findOne({ _id: normaliseUsername(username) });
    if (!stored) {
      await verifyPassword(password, await this.decoyHash());
      return false;
    }
    return verifyPassword(password, stored.password_hash);
  }

  async remove(username: string, session?: ClientSession): Promise<void> {
    await this.collection.deleteOne({ _id: normaliseUsername(username) }, { session });
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= hashPassword(`decoy-${Math.random()}-${Date.now()}`);
    return this.decoy;
  }
}
