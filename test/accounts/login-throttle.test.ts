// Login throttling: per username and per client address, a delay that doubles
// per failure past the free ones, 429 with Retry-After while held, never a permanent lock,
// a bounded table. The clock is injected: no test sleeps.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { LoginThrottle, LoginThrottled } from "../../src/accounts/login-throttle.js";
import { call, startAccountsApp, type AccountsApp } from "./harness.js";

class Clock {
  ms = 1_000_000;
  readonly now = () => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** The seconds admit() asks the caller to wait; 0 when it lets the attempt through. */
function waitOf(throttle: LoginThrottle, username: string, address: string): number {
  try {
    throttle.admit(username, address);
    return 0;
  } catch (error) {
    if (error instanceof LoginThrottled) return error.retryAfterSeconds;
    throw error;
  }
}

function throttleWith(clock: Clock, options: { maxEntries?: number } = {}) {
  const lines: string[] = [];
  const throttle = new LoginThrottle({
    freeFailures: 3,
    maxDelaySeconds: 8,
    forgetAfterSeconds: 600,
    now: clock.now,
    log: (line) => lines.push(line),
    ...options,
  });
  return { throttle, lines };
}

describe("LoginThrottle", () => {
  it("lets the free failures through, then holds a key for 1, 2, 4, 8, 8 seconds", () => {
    const clock = new Clock();
    const { throttle } = throttleWith(clock);
    const waits: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      // Each attempt comes as soon as the key is free again.
      clock.advance(waitOf(throttle, "alice", "10.0.0.1"));
      expect(waitOf(throttle, "alice", "10.0.0.1")).toBe(0);
      throttle.failed("alice", "10.0.0.1");
      waits.push(waitOf(throttle, "alice", "10.0.0.1"));
    }
    expect(waits).toEqual([0, 0, 1, 2, 4, 8, 8]);
  });

  it("a success before the threshold clears the username's count", () => {
    const clock = new Clock();
    const { throttle } = throttleWith(clock);
    throttle.failed("bob", "10.0.0.1");
    throttle.failed("bob", "10.0.0.2");
    throttle.succeeded("bob");
    throttle.failed("bob", "10.0.0.3");
    throttle.failed("bob", "10.0.0.4");
    expect(waitOf(throttle, "bob", "10.0.0.5")).toBe(0);
    // Without the success in between, the same four failures hold the username.
    const other = throttleWith(new Clock()).throttle;
    for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"]) other.failed("bob", address);
    expect(waitOf(other, "bob", "10.0.0.5")).toBeGreaterThan(0);
  });

  it("counts an address's failures across usernames; a success does not clear the address", () => {
    const clock = new Clock();
    const { throttle } = throttleWith(clock);
    throttle.failed("u1", "10.9.9.9");
    throttle.failed("u2", "10.9.9.9");
    throttle.succeeded("mine");
    throttle.failed("u3", "10.9.9.9");
    expect(waitOf(throttle, "someone-new", "10.9.9.9")).toBe(1);
    expect(waitOf(throttle, "someone-new", "10.1.1.1")).toBe(0);
  });

  it("never locks for good: a held key is free after the longest delay, and old failures are forgotten", () => {
    const clock = new Clock();
    const { throttle } = throttleWith(clock);
    for (let failure = 0; failure < 50; failure += 1) {
      clock.advance(waitOf(throttle, "target", "10.0.0.1"));
      throttle.failed("target", "10.0.0.1");
    }
    expect(waitOf(throttle, "target", "10.0.0.1")).toBe(8);
    clock.advance(8);
    expect(waitOf(throttle, "target", "10.0.0.1")).toBe(0);
    // Ten minutes without a failure: the next one starts the count again (no delay).
    clock.advance(600);
    throttle.failed("target", "10.0.0.1");
    expect(waitOf(throttle, "target", "10.0.0.1")).toBe(0);
  });

  it("keeps its table bounded however many usernames and addresses fail", () => {
    const clock = new Clock();
    const { throttle } = throttleWith(clock, { maxEntries: 100 });
    for (let index = 0; index < 5000; index += 1)
      throttle.failed(`user-${index}-${"x".repeat(1000)}`, `10.0.${index >> 8}.${index & 255}`);
    expect(throttle.size).toBe(100);
    // The most recent keys are the ones kept.
    for (let failure = 0; failure < 2; failure += 1) throttle.failed("user-4999-" + "x".repeat(1000), "10.200.0.1");
    expect(waitOf(throttle, "user-4999-" + "x".repeat(1000), "10.201.0.1")).toBe(1);
  });

  it("logs each decision on one line, naming the key and never more than a bounded part of the username", () => {
    const clock = new Clock();
    const { throttle, lines } = throttleWith(clock);
    const long = "y".repeat(5000);
    for (let failure = 0; failure < 3; failure += 1) throttle.failed(long, "10.0.0.7");
    expect(waitOf(throttle, long, "10.0.0.7")).toBe(1);
    expect(lines).toHaveLength(3); // two holds (username, address), one refusal
    for (const line of lines) {
      expect(line).not.toContain("\n");
      expect(line.length).toBeLessThan(400);
    }
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        event: "login_hold",
        key: "username",
        address: "10.0.0.7",
        failures: 3,
        hold_seconds: 1,
      }),
      expect.objectContaining({
        event: "login_hold",
        key: "address",
        address: "10.0.0.7",
        failures: 3,
        hold_seconds: 1,
      }),
      expect.objectContaining({ event: "login_throttled", held: "both", retry_after_seconds: 1 }),
    ]);
  });

  it("logs a flood of refused attempts once per ten seconds per key, with the count in between", () => {
    const clock = new Clock();
    const { throttle, lines } = throttleWith(clock);
    for (let failure = 0; failure < 6; failure += 1) throttle.failed("mallory", "10.0.0.9"); // held 8 s
    lines.length = 0;
    for (let attempt = 0; attempt < 500; attempt += 1)
      expect(waitOf(throttle, "mallory", "10.0.0.9")).toBeGreaterThan(0);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ event: "login_throttled", refused_unlogged: 0 }),
    ]);
    clock.advance(7);
    throttle.failed("mallory", "10.0.0.9"); // held again, from the free key's first failure on
    clock.advance(3);
    lines.length = 0;
    expect(waitOf(throttle, "mallory", "10.0.0.9")).toBeGreaterThan(0);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ event: "login_throttled", refused_unlogged: 499 }),
    ]);
  });
});

describe("LoginThrottle's tarpit", () => {
  /** A throttle whose refusals wait on promises the test releases, the clock moved as they do. */
  function tarpit(refusalDelayMs: number, refusalMaxWaiting: number) {
    const clock = new Clock();
    const waits: Array<{ ms: number; release: () => void }> = [];
    const sleep = (ms: number) => new Promise<void>((release) => waits.push({ ms, release }));
    const throttle = new LoginThrottle({
      freeFailures: 1,
      maxDelaySeconds: 8,
      forgetAfterSeconds: 600,
      now: clock.now,
      log: () => undefined,
      refusalDelayMs,
      refusalMaxWaiting,
      sleep,
    });
    /** A refusal whose keys are free in `seconds`. */
    const refusal = (seconds: number) => new LoginThrottled(seconds, clock.ms + seconds * 1000);
    const release = (index: number) => {
      clock.advance(waits[index].ms / 1000);
      waits[index].release();
    };
    return { throttle, waits, refusal, release };
  }

  it("holds a refusal back for the configured delay, or until the keys free if that is sooner, then gives the wait left", async () => {
    const { throttle, waits, refusal, release } = tarpit(1500, 10);
    const long = throttle.holdBack(refusal(8));
    expect(waits.map((wait) => wait.ms)).toEqual([1500]);
    release(0);
    expect(await long).toBe(7); // 6.5 s left, rounded up
    const short = throttle.holdBack(refusal(1));
    expect(waits.map((wait) => wait.ms)).toEqual([1500, 1000]);
    release(1);
    expect(await short).toBe(1); // never less than 1
  });

  it("answers at once when as many refusals as allowed already wait, and holds again once one has left", async () => {
    const { throttle, waits, refusal, release } = tarpit(1000, 2);
    const held = [throttle.holdBack(refusal(4)), throttle.holdBack(refusal(4))];
    expect(await throttle.holdBack(refusal(4))).toBe(4); // resolved with nothing released
    expect(waits).toHaveLength(2);
    release(0);
    await held[0];
    const again = throttle.holdBack(refusal(4));
    expect(waits).toHaveLength(3);
    release(1);
    release(2);
    await Promise.all([held[1], again]);
  });

  it("holds nothing back when the delay is set to 0", async () => {
    const { throttle, waits, refusal } = tarpit(0, 10);
    expect(await throttle.holdBack(refusal(3))).toBe(3);
    expect(waits).toHaveLength(0);
  });
});

describe("POST /users/:username/login, throttled", () => {
  const clock = new Clock();
  const lines: string[] = [];
  const tarpitWaits: number[] = [];
  let app: AccountsApp;
  beforeAll(async () => {
    // The tarpit's wait is recorded rather than slept: the refusal is still answered after it.
    const sleep = (ms: number) => {
      tarpitWaits.push(ms);
      return Promise.resolve();
    };
    app = await startAccountsApp({
      loginThrottle: {
        freeFailures: 2,
        maxDelaySeconds: 4,
        forgetAfterSeconds: 900,
        now: clock.now,
        log: (line) => lines.push(line),
        refusalDelayMs: 1000,
        sleep,
      },
    });
  });
  afterAll(() => app.close());

  const attempt = (username: string, password: string) =>
    call(app, `/users/${username}/login?password=${password}`, { method: "POST" });

  it("answers 429 with Retry-After once a username is past its free failures, even to the right password", async () => {
    expect(await attempt("admin", "wrong-1")).toMatchObject({ status: 403, body: { error: "Login failed" } });
    expect(await attempt("admin", "wrong-2")).toMatchObject({ status: 403, body: { error: "Login failed" } });
    const held = await attempt("admin", "admin");
    expect(held).toMatchObject({ status: 429, body: { error: "Too many failed logins; try again later" } });
    expect(held.headers.get("retry-after")).toBe("1");
    clock.advance(1);
    expect((await attempt("admin", "admin")).status).toBe(200);
  });

  it("holds each refusal back in the tarpit before answering it, and only refusals", () => {
    expect(tarpitWaits).toEqual([1000]);
  });

  it("holds the client address across usernames, and frees it after the delay", async () => {
    // The address has two failures from the test above (a success clears only the username).
    expect((await attempt("nobody", "guess")).status).toBe(403);
    const held = await attempt("admin", "admin");
    expect(held.status).toBe(429);
    expect(held.headers.get("retry-after")).toBe("2");
    clock.advance(2);
    expect((await attempt("admin", "admin")).status).toBe(200);
  });

  it("answers an unknown username exactly as a known one", async () => {
    clock.advance(900); // everything before is forgotten
    const known = [await attempt("admin", "x"), await attempt("admin", "x"), await attempt("admin", "x")];
    clock.advance(900);
    const unknown = [await attempt("ghost", "x"), await attempt("ghost", "x"), await attempt("ghost", "x")];
    const shape = (replies: typeof known) =>
      replies.map((reply) => [reply.status, reply.text, reply.headers.get("retry-after")]);
    expect(shape(unknown)).toEqual(shape(known));
    expect(shape(known).map(([status]) => status)).toEqual([403, 403, 429]);
  });

  it("logged every decision without a password", () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toMatch(/wrong-|guess|password/);
      expect(JSON.parse(line)).toEqual(
        expect.objectContaining({
          event: expect.stringMatching(/^login_(hold|throttled)$/),
          address: expect.any(String),
        }),
      );
    }
  });
});
