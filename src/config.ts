// Every environment variable Arca reads, parsed and checked in one place. A bad value stops
// start-up with a message that names the variable; nothing else reads process.env.
import { resolve } from "node:path";
import type { FsyncMode } from "./embedded-mongo/durability/journal.js";

export class ConfigError extends Error {}

export interface StoreConfig {
  /** A real MongoDB (replica set or Atlas for transactions); unset: the embedded engine. */
  mongodbUri?: string;
  /** Database name inside the server. */
  dbName: string;
  /** Where the embedded engine keeps its journal and snapshots. */
  dataDir: string;
  engineFsync: FsyncMode;
  /** How long to wait for the store at start-up before giving up. */
  connectTimeoutMs: number;
}

export interface HttpConfig {
  port: number;
  host: string;
  /** Larger request bodies answer 413. */
  bodyLimitBytes: number;
  /**
   * The largest file the quick import path takes (POST /repositories/:id/imports, answered when imported); a larger
   * one is refused, pointing at jobs_with_files.
   */
  importLimitBytes: number;
}

export interface AuthConfig {
  /** The bootstrap admin's password; `usingDefaultPassword` makes start-up warn loudly. */
  adminPassword: string;
  usingDefaultPassword: boolean;
  /** An expiring session ends after this long without use. */
  sessionIdleSeconds: number;
  /** A non-expiring session (expiring=false) is forced out after this long. */
  sessionMaxAgeSeconds: number;
  /** Headers that carry the session token: X-Service-Session, and X-ArchivesSpace-Session unless disabled. */
  sessionHeaders: string[];
  loginThrottle: LoginThrottleConfig;
}

/** Failed logins, counted per username and per client address (src/accounts). */
export interface LoginThrottleConfig {
  /** Failures allowed before any delay. */
  freeFailures: number;
  /** The longest a key is held back after a failure; the delay doubles per failure up to it. Never a permanent lock. */
  maxDelaySeconds: number;
  /** A key's failures are forgotten after this long without one. */
  forgetAfterSeconds: number;
  /** A refused (429) attempt is answered after this long at most (less when the key frees sooner): a tarpit. */
  refusalDelayMs: number;
  /** Refusals held back at once, at most; past it they are answered at once, so the tarpit cannot hoard sockets. */
  refusalMaxWaiting: number;
}

export interface ImportConfig {
  /** XML elements nested deeper than this refuse the file (400 naming the line). */
  maxXmlDepth: number;
  /** The longest text node, attribute value or name an XML import may hold, in bytes (400 naming the line). */
  maxXmlTextBytes: number;
  /** How long an import journal entry's lease lasts without a heartbeat before another process may undo it. */
  journalLeaseSeconds: number;
  /**
   * The largest ArchivesSpace JSON batch file an import reads (a batch is parsed whole, unlike the streamed XML and CSV
   * formats).
   */
  maxJsonBatchBytes: number;
}

export interface RecordsConfig {
  /** The most refs one response resolves (docs/api.md §6). */
  resolveMaxRefs: number;
  /**
   * The most bytes of resolved records one response carries; past it, like past resolveMaxRefs, `_resolve_truncated`.
   */
  resolveMaxBytes: number;
  /** The most bytes of whole records one response carries (a list page, an id set, a node's children); past it, 400. */
  responseMaxBytes: number;
  /**
   * The most nodes a read of a whole tree answers (the legacy `<root>/tree`, `ordered_records`, a resource's
   * `top_containers`); a larger tree is a 400 pointing at the paged tree routes.
   */
  wholeTreeMaxNodes: number;
  /** The most terms GET /vocabularies/:id/terms answers; past it, a 400 pointing at GET /terms. */
  vocabularyTermsMax: number;
}

export interface BulkConfig {
  /** The most records one container or location bulk call may name or make (docs/api.md §13); past it, 400. */
  maxRecords: number;
}

/** The change feed (GET /changes, /update-feed, /delete-feed). */
export interface FeedConfig {
  /** Changes older than this are removed; a reader asking from before them is answered 410. */
  retentionDays: number;
  /** The longest a read of the feed waits for a change (`wait`, and /update-feed's long poll). */
  maxWaitSeconds: number;
}

/** Background jobs (src/jobs): imports and reports run by workers that claim them from the store. */
export interface JobsConfig {
  /** Workers `npm start` runs beside the service (0: none; run `npm run worker` elsewhere). */
  workers: number;
  /** How long a claimed job stays a worker's without a heartbeat; past it another worker takes it over. */
  leaseSeconds: number;
  /** Runs of a job whose worker died before it ends failed. */
  maxAttempts: number;
  /** How often an idle worker looks for a queued job. */
  pollMs: number;
  /** The largest file a job may upload (jobs_with_files); past it, 413. */
  fileLimitBytes: number;
  /**
   * Records per write batch of a job's import (the command's and the quick path's are 1,000). The store applies a
   * batch's transaction in one go, holding other requests to it meanwhile: smaller batches keep what the service
   * answers during a job closer to what it answers idle, at some cost in the job's speed (BENCHMARKS.md, "Jobs": 25
   * took GET p99 during a job from 8.4x idle at 100 to 3.1x, the job still 8 % faster than the command; 10 gave 2.9x
   * at 61 % of the command's speed).
   */
  batchRecords: number;
}

export interface Config {
  http: HttpConfig;
  jobs: JobsConfig;
  feed: FeedConfig;
  store: StoreConfig;
  auth: AuthConfig;
  records: RecordsConfig;
  imports: ImportConfig;
  bulk: BulkConfig;
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim();
  return value ? value : fallback;
}

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0)
    throw new ConfigError(`${name} must be a positive whole number, got "${raw}"`);
  return Number(raw);
}

function nonNegativeInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got "${raw}"`);
  return raw as T;
}

export function loadConfig(env: Env = process.env): Config {
  const mongodbUri = env.MONGODB_URI?.trim() || undefined;
  if (mongodbUri && !/^mongodb(\+srv)?:\/\//.test(mongodbUri))
    throw new ConfigError("MONGODB_URI must start with mongodb:// or mongodb+srv://");
  const dbName = text(env, "MONGODB_DB", "arca");
  if (/[/\\. "$\0]/.test(dbName)) throw new ConfigError(`MONGODB_DB is not a valid database name: "${dbName}"`);
  const port = positiveInteger(env, "PORT", 8089);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got ${port}`);
  const adminPassword = env.ADMIN_PASSWORD ?? "";
  return {
    feed: {
      retentionDays: positiveInteger(env, "CHANGES_RETENTION_DAYS", 30),
      maxWaitSeconds: positiveInteger(env, "CHANGES_MAX_WAIT_SECONDS", 30),
    },
    auth: {
      adminPassword: adminPassword || "admin",
      usingDefaultPassword: !adminPassword,
      sessionIdleSeconds: positiveInteger(env, "SESSION_IDLE_SECONDS", 3600),
      sessionMaxAgeSeconds: positiveInteger(env, "SESSION_MAX_AGE_SECONDS", 7 * 24 * 3600),
      sessionHeaders: flag(env, "ARCHIVESSPACE_SESSION_HEADER", true)
        ? ["X-Service-Session", "X-ArchivesSpace-Session"]
        : ["X-Service-Session"],
      loginThrottle: {
        freeFailures: positiveInteger(env, "LOGIN_FREE_FAILURES", 5),
        maxDelaySeconds: positiveInteger(env, "LOGIN_MAX_DELAY_SECONDS", 60),
        forgetAfterSeconds: positiveInteger(env, "LOGIN_FORGET_AFTER_SECONDS", 900),
        refusalDelayMs: nonNegativeInteger(env, "LOGIN_REFUSAL_DELAY_MS", 1000),
        refusalMaxWaiting: positiveInteger(env, "LOGIN_REFUSAL_MAX_WAITING", 256),
      },
    },
    imports: {
      maxXmlDepth: positiveInteger(env, "IMPORT_MAX_XML_DEPTH", 256),
      maxXmlTextBytes: positiveInteger(env, "IMPORT_MAX_XML_TEXT_BYTES", 8 * 1024 * 1024),
      journalLeaseSeconds: positiveInteger(env, "IMPORT_JOURNAL_LEASE_SECONDS", 30),
      maxJsonBatchBytes: positiveInteger(env, "IMPORT_MAX_JSON_BATCH_BYTES", 32 * 1024 * 1024),
    },
    records: {
      resolveMaxRefs: positiveInteger(env, "RESOLVE_MAX_REFS", 1000),
      resolveMaxBytes: positiveInteger(env, "RESOLVE_MAX_BYTES", 4 * 1024 * 1024),
      responseMaxBytes: positiveInteger(env, "RESPONSE_MAX_BYTES", 128 * 1024 * 1024),
      wholeTreeMaxNodes: positiveInteger(env, "WHOLE_TREE_MAX_NODES", 20_000),
      vocabularyTermsMax: positiveInteger(env, "VOCABULARY_TERMS_MAX", 10_000),
    },
    jobs: {
      workers: nonNegativeInteger(env, "JOB_WORKERS", 1),
      leaseSeconds: positiveInteger(env, "JOB_LEASE_SECONDS", 30),
      maxAttempts: positiveInteger(env, "JOB_MAX_ATTEMPTS", 2),
      pollMs: positiveInteger(env, "JOB_POLL_MS", 500),
      fileLimitBytes: positiveInteger(env, "JOB_FILE_LIMIT_BYTES", 1024 * 1024 * 1024),
      batchRecords: positiveInteger(env, "JOB_BATCH_RECORDS", 25),
    },
    bulk: { maxRecords: positiveInteger(env, "BULK_MAX_RECORDS", 1000) },
    http: {
      port,
      host: text(env, "HOST", "0.0.0.0"),
      bodyLimitBytes: positiveInteger(env, "BODY_LIMIT_BYTES", 10 * 1024 * 1024),
      importLimitBytes: positiveInteger(env, "IMPORT_LIMIT_BYTES", 100 * 1024 * 1024),
    },
    store: {
      mongodbUri,
      dbName,
      dataDir: resolve(text(env, "DATA_DIR", "./data")),
      engineFsync: oneOf(env, "ENGINE_FSYNC", ["always", "interval"] as const, "always"),
      connectTimeoutMs: positiveInteger(env, "STORE_CONNECT_TIMEOUT_MS", 10_000),
    },
  };
}
