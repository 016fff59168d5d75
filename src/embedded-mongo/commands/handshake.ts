// Server identity and status. The engine presents itself as the primary of a one-member
// replica set: that is what makes drivers offer sessions, retryable writes and transactions.
import { ObjectId } from "bson";
import type { CommandHandler } from "./context.js";

export const REPLICA_SET_NAME = "arca";
// MongoDB 7.0's wire version: inside the window every current driver accepts.
const MAX_WIRE_VERSION = 21;
const ELECTION_ID = new ObjectId("7fffffff0000000000000001");

const hello: CommandHandler = (ctx) => {
  const host = ctx.info.hostAndPort;
  return {
    helloOk: true,
    isWritablePrimary: true,
    ismaster: true,
    secondary: false,
    setName: REPLICA_SET_NAME,
    setVersion: 1,
    hosts: [host],
    primary: host,
    me: host,
    electionId: ELECTION_ID,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  };
};

const buildInfo: CommandHandler = (ctx) => ({
  version: ctx.info.version,
  gitVersion: "arca-embedded",
  versionArray: ctx.info.version.split(".").map(Number).concat([0]).slice(0, 4),
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16 * 1024 * 1024,
  storageEngines: ["arca-embedded"],
  ok: 1,
});

const serverStatus: CommandHandler = (ctx) => {
  const memory = process.memoryUsage();
  return {
    host: ctx.info.hostAndPort,
    version: ctx.info.version,
    process: "arca-embedded-mongo",
    pid: process.pid,
    uptime: Math.floor((Date.now() - ctx.info.startedAt.getTime()) / 1000),
    localTime: new Date(),
    mem: { bits: 64, resident: Math.round(memory.rss / 1048576), virtual: 0 },
    metrics: { cursor: { open: { total: ctx.cursors.size } } },
    storageEngine: { name: "arca-embedded", persistent: !ctx.info.inMemory },
    ok: 1,
  };
};

export const handshakeCommands: Record<string, CommandHandler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: () => ({ ok: 1 }),
  buildInfo,
  buildinfo: buildInfo,
  serverStatus,
  hostInfo: () => ({ system: { hostname: "127.0.0.1", numCores: 1 }, os: { type: process.platform }, ok: 1 }),
  whatsmyuri: () => ({ you: "127.0.0.1", ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  getCmdLineOpts: () => ({ argv: [], parsed: {}, ok: 1 }),
  getParameter: () => ({ featureCompatibilityVersion: { version: "7.0" }, ok: 1 }),
  getLog: () => ({ totalLinesWritten: 0, log: [], ok: 1 }),
  // Sessions are created implicitly by the first command that names them.
  endSessions: () => ({ ok: 1 }),
  refreshSessions: () => ({ ok: 1 }),
};
