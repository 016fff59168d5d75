#!/usr/bin/env node
// `npm run db -- --port 27017 --dbpath ./data [--socket <path>]`: the engine on its own, for
// mongosh, Compass or a child process of the service. Prints one line
// `listening on 127.0.0.1:<port>` (plus ` and <socket path>`) when ready; SIGTERM/SIGINT
// flush the journal and release the data directory's lock.
import { parseArgs } from "node:util";
import { startEngine } from "./index.js";

function fail(message: string): never {
  process.stderr.write(`arca-embedded-mongo: ${message}\n`);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "27017" },
    dbpath: { type: "string", default: process.env.DATA_DIR ?? "./data" },
    "in-memory": { type: "boolean", default: false },
    fsync: { type: "string", default: "always" },
    "fsync-interval-ms": { type: "string", default: "100" },
    "ttl-interval-ms": { type: "string", default: "60000" },
    socket: { type: "string" },
    "exit-with-parent": { type: "boolean", default: false },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be an integer from 0 to 65535, got ${values.port}`);
if (values.fsync !== "always" && values.fsync !== "interval")
  fail(`--fsync must be 'always' or 'interval', got ${values.fsync}`);

try {
  const running = await startEngine({
    port,
    inMemory: values["in-memory"],
    dataDir: values.dbpath,
    fsync: values.fsync,
    fsyncIntervalMs: Number(values["fsync-interval-ms"]),
    ttlIntervalMs: Number(values["ttl-interval-ms"]),
    socketPath: values.socket,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`listening on 127.0.0.1:${running.port}${values.socket ? ` and ${values.socket}` : ""}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (error: unknown) => fail(String(error)),
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // Started by a parent process (launcher.ts): when it dies, however it dies, its end of our
  // stdin closes. An orphan would keep holding the data directory's lock.
  if (values["exit-with-parent"]) {
    process.stdin.on("close", stop);
    process.stdin.on("end", stop);
    process.stdin.resume();
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
