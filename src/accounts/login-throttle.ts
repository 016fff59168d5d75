// Login throttling: failed logins are counted per username and per client
// address. Up to `freeFailures` failures cost nothing; from then on each failure holds the key
// back for a delay that doubles per failure (1 s, 2 s, 4 s, ...) up to `maxDelaySeconds`, and
// an attempt while a key is held is answered 429 with Retry-After, without a password check.
// There is no permanent lock: a held key is free again once its delay has passed, and its
// failures are forgotten `forgetAfterSeconds` after the last one. A success clears the
// username's count (not the address's: one good account must not launder an address that is
// guessing at others).
//
// The table lives in this process only: behind several Arca processes each counts on its own,
// so an attacker spread over N processes gets N times the attempts. It is bounded: past
// `maxEntries` keys the least recently failed one is dropped. Keys are digests, so a flood of
// long usernames costs a fixed amount per entry.
//
// A refusal is a tarpit: it is answered only after `refusalDelayMs` (or sooner, when the key
// frees sooner). A client that retries as soon as it is answered, as a flood does, then gets
// about one answer a second per connection instead of hundreds, and the time is a timer's, not
// the CPU's. At most `refusalMaxWaiting` refusals wait at once; past that they are answered at
// once, so an attacker with many connections cannot make the tarpit hold sockets without end.
//
// The client address is express's req.ip with "trust proxy" off (the default, kept): the peer
// of the TCP connection, never a header a client can set. Behind a reverse proxy every client
// then shares the proxy's address, and only the per-username throttle tells them apart.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { loadConfig, type LoginThrottleConfig } from "../config.js";
import { ApiError } from "../errors/api-error.js";

export interface LoginThrottleOptions extends LoginThrottleConfig {
  /** Keys (usernames and addresses) remembered at most; the least recently failed go first. */
  maxEntries?: number;
  now?: () => number;
  /** Where a throttle decision is written, one line each (never a password). */
  log?: (line: string) => void;
  /** How a refusal waits (tests record it). */
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * The defaults of config.ts (LOGIN_FREE_FAILURES, LOGIN_MAX_DELAY_SECONDS, LOGIN_FORGET_AFTER_SECONDS), read from
 * there.
 */
export const DEFAULT_LOGIN_THROTTLE: LoginThrottleConfig = loadConfig({}).auth.loginThrottle;
const DEFAULT_MAX_ENTRIES = 100_000;
/** How much of a username a log line shows. */
const LOGGED_NAME_CHARS = 64;

interface Entry {
  failures: number;
  lastFailureAt: number;
  heldUntil: number;
  /** When a refusal on this key was last logged, and how many have been refused since without a line. */
  refusalLoggedAt: number;
  refusedUnlogged: number;
}

/**
 * Refusals of one held key are logged at most this often, with a count of the ones between: a
 * flood of attempts (hundreds a second) must not become a flood of log lines.
 */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

type KeyKind = "username" | "address";

/** The answer to an attempt on a held key. */
export class LoginThrottled extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    /** When both keys are free again (the throttle's clock, ms). */
    readonly freeAt: number,
  ) {
    super(429, "Too many failed logins; try again later");
  }
}

function digest(kind: KeyKind, value: string): string {
  return `${kind[0]}:${createHash("sha256").update(value).digest("base64")}`;
}

function defaultLog(line: string): void {
  process.stderr.write(`${line}\n`);
}

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();
  private readonly config: Required<LoginThrottleOptions>;

  constructor(options: Partial<LoginThrottleOptions> = {}) {
    this.config = {
      freeFailures: options.freeFailures ?? DEFAULT_LOGIN_THROTTLE.freeFailures,
      maxDelaySeconds: options.maxDelaySeconds ?? DEFAULT_LOGIN_THROTTLE.maxDelaySeconds,
      forgetAfterSeconds: options.forgetAfterSeconds ?? DEFAULT_LOGIN_THROTTLE.forgetAfterSeconds,
      maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      now: options.now ?? Date.now,
      log: options.log ?? defaultLog,
      refusalDelayMs: options.refusalDelayMs ?? DEFAULT_LOGIN_THROTTLE.refusalDelayMs,
      refusalMaxWaiting: options.refusalMaxWaiting ?? DEFAULT_LOGIN_THROTTLE.refusalMaxWaiting,
      sleep: options.sleep ?? sleep,
    };
  }

  /** Refusals waiting in the tarpit now. */
  private waiting = 0;

  /** How many keys are remembered (tests: the table stays bounded). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Before the password is checked: refuses an attempt whose username or address is held.
   * @throws LoginThrottled (429) with the seconds until both keys are free
   */
  admit(username: string, address: string): void {
    const now = this.config.now();
    const byName = this.heldEntry(digest("username", username), now);
    const byAddress = this.heldEntry(digest("address", address), now);
    const held = byName ?? byAddress;
    if (held === undefined) return;
    const wait = Math.max(byName?.heldUntil ?? 0, byAddress?.heldUntil ?? 0) - now;
    const retryAfterSeconds = Math.max(1, Math.ceil(wait / 1000));
    if (now - held.refusalLoggedAt >= REFUSAL_LOG_INTERVAL_MS) {
      this.write({
        event: "login_throttled",
        username,
        address,
        held: byName ? (byAddress ? "both" : "username") : "address",
        retry_after_seconds: retryAfterSeconds,
        refused_unlogged: held.refusedUnlogged,
      });
      held.refusalLoggedAt = now;
      held.refusedUnlogged = 0;
    } else {
      held.refusedUnlogged++;
    }
    throw new LoginThrottled(retryAfterSeconds, now + wait);
  }

  /**
   * Waits before a refusal is answered (the tarpit above); at once when too many already wait.
   * @returns the seconds still to wait once it is answered (its Retry-After)
   */
  async holdBack(refusal: LoginThrottled): Promise<number> {
    const ms = Math.min(this.config.refusalDelayMs, refusal.freeAt - this.config.now());
    if (ms > 0 && this.waiting < this.config.refusalMaxWaiting) {
      this.waiting++;
      try {
        await this.config.sleep(ms);
      } finally {
        this.waiting--;
      }
    }
    return Math.max(1, Math.ceil((refusal.freeAt - this.config.now()) / 1000));
  }

  /** A failed login: counts against both keys, and holds each that is past its free failures. */
  failed(username: string, address: string): void {
    const now = this.config.now();
    for (const [kind, value] of [
      ["username", username],
      ["address", address],
    ] as const) {
      const entry = this.countFailure(digest(kind, value), now);
      if (entry.heldUntil > now) {
        this.write({
          event: "login_hold",
          key: kind,
          username,
          address,
          failures: entry.failures,
          hold_seconds: Math.round((entry.heldUntil - now) / 1000),
        });
      }
    }
  }

  /** A successful login clears the username's failures. */
  succeeded(username: string): void {
    this.entries.delete(digest("username", username));
  }

  /** The key's entry while it is held. */
  private heldEntry(key: string, now: number): Entry | undefined {
    const entry = this.live(key, now);
    return entry !== undefined && entry.heldUntil > now ? entry : undefined;
  }

  /** The key's entry, unless its failures are old enough to forget. */
  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (now - entry.lastFailureAt >= this.config.forgetAfterSeconds * 1000) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private countFailure(key: string, now: number): Entry {
    const previous = this.live(key, now);
    const failures = (previous?.failures ?? 0) + 1;
    const { freeFailures, maxDelaySeconds } = this.config;
    // The failure that uses up the free ones holds for 1 s, each after it twice as long.
    const delaySeconds =
      failures < freeFailures ? 0 : Math.min(maxDelaySeconds, 2 ** Math.min(failures - freeFailures, 30));
    const entry: Entry = {
      failures,
      lastFailureAt: now,
      heldUntil: now + delaySeconds * 1000,
      refusalLoggedAt: previous?.refusalLoggedAt ?? -Infinity,
      refusedUnlogged: previous?.refusedUnlogged ?? 0,
    };
    // Re-inserted at the end: the Map's order is then least recently failed first.
    this.entries.delete(key);
    while (this.entries.size >= this.config.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    return entry;
  }

  private write(fields: { username: string } & Record<string, unknown>): void {
    const username =
      fields.username.length > LOGGED_NAME_CHARS
        ? `${fields.username.slice(0, LOGGED_NAME_CHARS)}...`
        : fields.username;
    this.config.log(JSON.stringify({ ...fields, username }));
  }
}
