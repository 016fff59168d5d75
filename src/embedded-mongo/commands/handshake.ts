// Server identity and status. The engine presents itself as the primary of a one-member
// replica set: that is what makes drivers offer sessions, retryable writes and transactions.
import { ObjectId, type Document } from "bson";
import { arch, cpus, hostname, platform, release, totalmem, type } from "node:os";
import { CommandError, ErrorCodes } from "../errors.js";
import { isGenericField } from "./params.js";
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

const hostInfo: CommandHandler = () => ({
  system: {
    currentTime: new Date(),
    hostname: hostname(),
    cpuArch: arch(),
    numCores: cpus().length,
    memSizeMB: Math.round(totalmem() / 1048576),
  },
  os: { type: type(), name: platform(), version: release() },
  extra: {},
  ok: 1,
});

const getCmdLineOpts: CommandHandler = (ctx) => ({
  argv: process.argv,
  parsed: {
    net: { bindIp: "127.0.0.1", port: Number(ctx.info.hostAndPort.split(":")[1]) },
    storage: ctx.info.inMemory ? { engine: "inMemory" } : { dbPath: ctx.info.dataDir },
  },
  ok: 1,
});

// The only server parameter the engine has; drivers and shells ask for it.
const PARAMETERS: ReadonlyMap<string, Document> = new Map(
  Object.entries<Document>({ featureCompatibilityVersion: { version: "7.0" } }),
);

const getParameter: CommandHandler = (ctx) => {
  const all = ctx.command.getParameter === "*";
  const reply: Document = {};
  for (const name of Object.keys(ctx.command)) {
    if (name === "getParameter" || isGenericField(name)) continue;
    const value = PARAMETERS.get(name);
    if (value === undefined) throw new CommandError(ErrorCodes.InvalidOptions, `no option found to get: ${name}`);
    reply[name] = value;
  }
  if (!all && Object.keys(reply).length === 0)
    throw new CommandError(ErrorCodes.InvalidOptions, "no option found to get");
  return { ...reply, ...(all && Object.fromEntries(PARAMETERS)), ok: 1 };
};

// The engine keeps no in-memory log (it writes to stderr); startupWarnings is truthfully empty.
const getLog: CommandHandler = (ctx) => {
  const which = ctx.command.getLog;
  if (which === "*") return { names: ["startupWarnings"], ok: 1 };
  if (which === "startupWarnings") return { totalLinesWritten: 0, log: [], ok: 1 };
  throw new CommandError(ErrorCodes.InvalidOptions, `No log named '${String(which)}'`);
};

export const handshakeCommands: Record<string, CommandHandler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: () => ({ ok: 1 }),
  buildInfo,
  buildinfo: buildInfo,
  serverStatus,
  hostInfo,
  // No authentication: nobody is ever logged in.
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  getCmdLineOpts,
  getParameter,
  getLog,
  // Sessions are created implicitly by the first command that names them.
  endSessions: (ctx) => {
    ctx.sessions.end(ctx.command.endSessions);
    return { ok: 1 };
  },
  refreshSessions: (ctx) => {
    ctx.sessions.refresh(ctx.command.refreshSessions);
    return { ok: 1 };
  },
};
