// The server a conformance test talks to: a real MongoDB when MONGODB_URI is set (so the
// differences between the engine and MongoDB show up wherever a real server exists),
// otherwise an in-memory embedded engine started in this process.
import { MongoClient, type Db } from "mongodb";
import { randomBytes } from "node:crypto";
import { startEngine } from "../../src/embedded-mongo/index.js";

export interface Target {
  uri: string;
  client: MongoClient;
  /** A database private to the calling test file, dropped by stop(). */
  db: Db;
  embedded: boolean;
  stop(): Promise<void>;
}

export async function openTarget(): Promise<Target> {
  const external = process.env.MONGODB_URI;
  const engine = external ? undefined : await startEngine({ port: 0, inMemory: true, ttlIntervalMs: 1000 });
  const uri = external ?? engine!.uri;
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`conformance_${randomBytes(4).toString("hex")}`);
  return {
    uri,
    client,
    db,
    embedded: !external,
    async stop() {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
      await engine?.close();
    },
  };
}
