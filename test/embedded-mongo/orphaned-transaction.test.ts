// A client killed in the middle of a transaction (one of several service nodes on one engine,
// SIGKILLed) must not hold the documents its transaction wrote until the transaction lifetime
// ends: its connection closing aborts the transaction, and other clients write at once. The
// engine runs with a 10-minute lifetime, so without that the test would time out.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { MongoClient } from "mongodb";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";

let engine: RunningEngine;
let client: MongoClient;
beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0, transactionLifetimeMs: 10 * 60_000 });
  client = await MongoClient.connect(engine.uri);
});
afterAll(async () => {
  await client.close();
  await engine.close();
});

const mongodbUrl = pathToFileURL(resolve("node_modules/mongodb/lib/index.js")).href;

/** A process that opens a transaction writing `locks/{_id: key}`, says so, and waits to be killed. */
const HOLDER = `
import { MongoClient } from ${JSON.stringify(mongodbUrl)};
const client = await MongoClient.connect(process.argv[1]);
const session = client.startSession();
session.startTransaction();
await client.db("orphans").collection("locks").updateOne({ _id: process.argv[2] }, { $inc: { writes: 1 } }, { session });
process.stdout.write("holding\\n");
setInterval(() => undefined, 1000);
`;

async function killedHoldingATransaction(key: string): Promise<void> {
  const holder = spawn(process.execPath, ["--input-type=module", "-e", HOLDER, engine.uri, key], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((ready, fail) => {
    holder.stdout!.on("data", () => ready());
    holder.once("exit", (code) => fail(new Error(`the holder exited (${code}) before holding`)));
  });
  holder.kill("SIGKILL");
  await new Promise((done) => holder.once("exit", done));
}

describe("a transaction whose client died", () => {
  it("is aborted when its connection closes: its write is gone and others write the document at once", async () => {
    const locks = client.db("orphans").collection<{ _id: string; writes: number }>("locks");
    await locks.insertOne({ _id: "tree", writes: 0 });
    await killedHoldingATransaction("tree");
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await locks.updateOne({ _id: "tree" }, { $inc: { writes: 1 } }, { session });
      });
    } finally {
      await session.endSession();
    }
    await locks.updateOne({ _id: "tree" }, { $inc: { writes: 1 } }); // and outside a transaction
    expect(await locks.findOne({ _id: "tree" })).toEqual({ _id: "tree", writes: 2 });
  }, 30_000);

  it("leaves a live client's open transaction alone when another client's connection closes", async () => {
    const locks = client.db("orphans").collection<{ _id: string; writes: number }>("locks");
    await locks.insertOne({ _id: "live", writes: 0 });
    const session = client.startSession();
    try {
      session.startTransaction();
      await locks.updateOne({ _id: "live" }, { $inc: { writes: 1 } }, { session });
      const passer = await MongoClient.connect(engine.uri);
      await passer.db("orphans").command({ ping: 1 });
      await passer.close(true);
      await killedHoldingATransaction("elsewhere");
      await locks.updateOne({ _id: "live" }, { $inc: { writes: 1 } }, { session });
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await locks.findOne({ _id: "live" })).toEqual({ _id: "live", writes: 2 });
  }, 30_000);
});
