// The engine's Unix domain socket listener: same engine, same data, reachable by path.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { engineSocketUri, startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";

describe("Unix domain socket listener", () => {
  const dir = mkdtempSync(join(tmpdir(), "arca-uds-"));
  const socketPath = join(dir, "engine.sock");
  let engine: RunningEngine;

  beforeAll(async () => {
    // A socket file left behind by a killed engine must not stop the next one.
    writeFileSync(socketPath, "stale");
    engine = await startEngine({ inMemory: true, port: 0, socketPath });
  });
  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the same data over the socket and over TCP", async () => {
    expect(engine.socketUri).toBe(engineSocketUri(socketPath));
    const viaSocket = await MongoClient.connect(engine.socketUri!);
    const viaTcp = await MongoClient.connect(engine.uri);
    try {
      await viaSocket.db("u").collection<{ _id: number; via: string }>("c").insertOne({ _id: 1, via: "socket" });
      expect(await viaTcp.db("u").collection<{ _id: number; via: string }>("c").findOne({ _id: 1 })).toEqual({
        _id: 1,
        via: "socket",
      });
      await viaTcp.db("u").collection<{ _id: number; via: string }>("c").createIndex({ via: 1 }, { unique: true });
      const duplicate = viaSocket
        .db("u")
        .collection<{ _id: number; via: string }>("c")
        .insertOne({ _id: 2, via: "socket" });
      await expect(duplicate).rejects.toMatchObject({ code: 11000 });
    } finally {
      await viaSocket.close();
      await viaTcp.close();
    }
  });
});
