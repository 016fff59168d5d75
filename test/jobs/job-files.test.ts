// A job's files in the store: written without waiting for the journal chunk by chunk, and durable once the write that
// hands the upload to its job is acknowledged (the journal keeps writes in order), through a kill of the engine.
import { afterAll, describe, expect, it } from "@jest/globals";
import type { CommandStartedEvent } from "mongodb";
import mongoose from "mongoose";
import { Readable } from "node:stream";
import { spawnEngine, type EngineProcess } from "../../src/embedded-mongo/launcher.js";
import { JOB_FILES_BUCKET, JobFiles } from "../../src/jobs/job-files.js";
import { freshDir, removeDir, stopQuietly } from "../embedded-mongo/durability-integration/helpers.js";

const engines: EngineProcess[] = [];
const connections: mongoose.Connection[] = [];
let dir: string | undefined;

afterAll(async () => {
  for (const connection of connections) await connection.close().catch(() => undefined);
  for (const engine of engines) await stopQuietly(engine);
  await removeDir(dir);
});

async function connect(engine: EngineProcess): Promise<mongoose.Connection> {
  const connection = await mongoose
    .createConnection(engine.uri, { dbName: "files", monitorCommands: true, retryWrites: false })
    .asPromise();
  connections.push(connection);
  return connection;
}

describe("job files", () => {
  it("are written without a journal wait per chunk, and are whole after their job's adoption and a kill", async () => {
    dir = await freshDir("job-files");
    const first = await spawnEngine({ dataDir: dir, port: 0, fsync: "always" });
    engines.push(first);
    const connection = await connect(first);
    const chunkConcerns: unknown[] = [];
    connection.getClient().on("commandStarted", (event: CommandStartedEvent) => {
      if (event.commandName === "insert" && event.command.insert === `${JOB_FILES_BUCKET}.chunks`)
        chunkConcerns.push(event.command.writeConcern);
    });
    const files = new JobFiles(connection);
    await files.init();
    const content = Buffer.alloc(2.5 * 1024 * 1024, "abc");
    const saved = await files.save("upload-token", "input", "big.xml", Readable.from([content]));
    expect(chunkConcerns).toEqual([{ j: false }, { j: false }, { j: false }]);
    await files.adopt("upload-token", 7);
    await first.kill();

    const second = await spawnEngine({ dataDir: dir, port: 0, fsync: "always" });
    engines.push(second);
    const reopened = new JobFiles(await connect(second));
    const found = await reopened.open(7, saved.id, "input");
    expect(found?.file).toEqual({
      id: saved.id,
      name: "big.xml",
      length: content.length,
      contentType: expect.any(String),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of found!.read()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  }, 30_000);
});
