// Sends one fuzzed request and judges what followed: a 5xx, a service that died or stopped
// answering, a prototype of the service process that changed, or a store that changed under a
// 4xx. The store's fingerprint after one request is the baseline of the next (requests run one
// at a time). A death or a pollution is followed by a fresh Arca on the same store.
import http from "node:http";
import { performance } from "node:perf_hooks";
import { changedCollections, type FuzzService } from "./service.js";
import type { FuzzRequest, Identity } from "./requests.js";

export type FailureKind = "5xx" | "death" | "pollution" | "state-change-on-4xx" | "no-answer" | "error-body";

export interface Failure {
  kind: FailureKind;
  /** Two failures with one signature are one defect (the same error message, say, on many routes). */
  signature: string;
  status: number;
  body: string;
  detail: string;
}

export interface Outcome {
  status: number;
  body: string;
  failure?: Failure;
}

const ANSWER_TIMEOUT_MS = 60_000;
/** An error body past this is unbounded in all but name (a 20 MB name echoed into 42 MB of warnings). */
const ERROR_BODY_MAX_BYTES = 256 * 1024;
const BODY_KEEP = 4_000;
export const BOGUS_TOKEN = "f".repeat(64);

interface Credentials {
  username: string;
  password: string;
}

export class FuzzRunner {
  private baseline = new Map<string, string>();
  private readonly tokens = new Map<Identity, string>();
  requests = 0;
  statusCounts = new Map<number, number>();
  /** Where the time goes, ms: the requests themselves, the prototype probe, the store fingerprint. */
  readonly timings = { send: 0, probe: 0, fingerprint: 0 };

  constructor(
    private readonly service: FuzzService,
    private readonly credentials: ReadonlyMap<Identity, Credentials>,
  ) {}

  async init(): Promise<void> {
    for (const identity of this.credentials.keys()) await this.login(identity);
    this.baseline = await this.service.fingerprint();
  }

  private async login(identity: Identity): Promise<string> {
    const { username, password } = this.credentials.get(identity)!;
    const answer = await send(this.service.port, {
      method: "POST",
      target: `/users/${encodeURIComponent(username)}/login?password=${encodeURIComponent(password)}&expiring=false`,
      headers: {},
    });
    if (answer.status !== 200)
      throw new Error(`the fuzz test's user ${username} cannot log in: ${answer.status} ${answer.body}`);
    const token = (JSON.parse(answer.body) as { session: string }).session;
    this.tokens.set(identity, token);
    return token;
  }

  private async tokenFor(request: FuzzRequest): Promise<string | undefined> {
    if (request.identity === "none") return undefined;
    if (request.identity === "bogus") return BOGUS_TOKEN;
    // A logout ends the session it is sent with: give it one of its own.
    if (request.operation === "POST /logout") {
      const { username, password } = this.credentials.get(request.identity)!;
      const answer = await send(this.service.port, {
        method: "POST",
        target: `/users/${encodeURIComponent(username)}/login?password=${encodeURIComponent(password)}`,
        headers: {},
      });
      return answer.status === 200 ? (JSON.parse(answer.body) as { session: string }).session : undefined;
    }
    return this.tokens.get(request.identity);
  }

  async run(request: FuzzRequest): Promise<Outcome> {
    this.requests++;
    const token = await this.tokenFor(request);
    const headers = { ...request.headers, ...(token ? { "X-ArchivesSpace-Session": token } : {}) };
    const mark = this.service.outputMark();
    const t0 = performance.now();
    const answer = await send(this.service.port, {
      method: request.method,
      target: request.target,
      headers,
      body: request.body,
    });
    this.timings.send += performance.now() - t0;
    this.statusCounts.set(answer.status, (this.statusCounts.get(answer.status) ?? 0) + 1);
    const outcome = await this.judge(request, answer, mark);
    // A session ended by the request (a password change, a deactivation): log in again.
    if (answer.status === 412 && token && request.identity !== "bogus" && this.service.alive())
      await this.login(request.identity).catch(() => undefined);
    return outcome;
  }

  private async judge(request: FuzzRequest, answer: Answer, mark: number): Promise<Outcome> {
    const base = { status: answer.status, body: answer.body };
    let t0 = performance.now();
    const changes = await this.service.prototypeChanges();
    this.timings.probe += performance.now() - t0;
    if (!this.service.alive()) {
      const detail = `service died (${this.service.exitReason()}); its last output:\n${this.service.tail()}`;
      await this.recover();
      return {
        ...base,
        failure: {
          kind: "death",
          signature: `death: ${request.operation}`,
          status: answer.status,
          body: answer.body,
          detail,
        },
      };
    }
    if (changes.length > 0) {
      await this.service.restartArca();
      await this.reset();
      return {
        ...base,
        failure: {
          kind: "pollution",
          signature: `pollution: ${changes.sort().join(", ")}`,
          status: answer.status,
          body: answer.body,
          detail: changes.join("\n"),
        },
      };
    }
    if (answer.error) {
      // The connection failed while the service lives: a refusal that closed the socket early
      // (a body over the limit) is allowed; a request that got nothing at all in a minute is not.
      if (answer.error === "timeout")
        return {
          ...base,
          failure: {
            kind: "no-answer",
            signature: `no answer within ${ANSWER_TIMEOUT_MS / 1000} s: ${request.operation}`,
            status: 0,
            body: "",
            detail: "timeout",
          },
        };
    }
    const bodyProblem = errorBodyProblem(answer);
    if (bodyProblem) {
      return {
        ...base,
        failure: {
          kind: "error-body",
          signature: `${answer.status} error body ${bodyProblem}`,
          status: answer.status,
          body: answer.body,
          detail: `content-type ${answer.contentType ?? "(none)"}, ${answer.bytes} bytes`,
        },
      };
    }
    if (answer.status >= 500) {
      const log = this.service.outputSince(mark);
      return {
        ...base,
        failure: {
          kind: "5xx",
          signature: `${answer.status} ${normalise(errorText(answer.body))}${causeOf(log)}`,
          status: answer.status,
          body: answer.body,
          detail: `the service's log of it:\n${log.slice(0, 3_000)}`,
        },
      };
    }
    t0 = performance.now();
    const after = await this.service.fingerprint();
    this.timings.fingerprint += performance.now() - t0;
    const changed = changedCollections(this.baseline, after);
    this.baseline = after;
    if (answer.status >= 400 && answer.status < 500 && changed.length > 0) {
      const names = changed
        .map((c) => c.split(" ")[0])
        .sort()
        .join(", ");
      return {
        ...base,
        failure: {
          kind: "state-change-on-4xx",
          signature: `state change on ${answer.status} ${request.operation}: ${names}`,
          status: answer.status,
          body: answer.body,
          detail: changed.join("\n"),
        },
      };
    }
    return base;
  }

  /** A fresh Arca on the same store after a death; the sessions live in the store and stay valid. */
  private async recover(): Promise<void> {
    if (!this.service.engineAlive()) throw new Error("the engine died: the fuzz run cannot go on");
    await this.service.restartArca();
    await this.reset();
  }

  private async reset(): Promise<void> {
    this.baseline = await this.service.fingerprint();
  }
}

function errorText(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && "error" in parsed)
      return JSON.stringify((parsed as { error: unknown }).error);
  } catch {
    // not JSON: the text itself
  }
  return body;
}

/**
 * The first line of the stack the service logged with a 500 ("TypeError: x is not a function"),
 * so two different defects behind one "Internal error" are two failures.
 */
function causeOf(log: string): string {
  const plain = log.replace(/\u001b\[[0-9;]*m/g, "");
  const match = /"error":\s*"((?:[^"\\]|\\.)*?)(?:\\n|")/.exec(plain) ?? /^(\w*Error\b[^\n]*)$/m.exec(plain);
  return match ? ` <- ${match[1].replace(/\d+/g, "#").slice(0, 160)}` : "";
}

/** The shape of an error message: numbers and quoted values blanked, cut short. */
function normalise(message: string): string {
  return message
    .replace(/\d+/g, "#")
    .replace(/'[^']*'/g, "'…'")
    .slice(0, 160);
}

interface Answer {
  status: number;
  body: string;
  /** The whole body's size (`body` keeps its start). */
  bytes?: number;
  contentType?: string;
  error?: string;
}

/**
 * What is wrong with an error answer's body, if anything: the contract's errors are JSON
 * objects with `error`, and bounded. A 431 comes from node's parser before the service sees the
 * request, and a connection closed early has no body to judge.
 */
function errorBodyProblem(answer: Answer): string | undefined {
  if (answer.status < 400 || answer.status === 431 || answer.error) return undefined;
  if ((answer.bytes ?? 0) > ERROR_BODY_MAX_BYTES) return `over ${ERROR_BODY_MAX_BYTES / 1024} KiB`;
  if (!/^application\/json/.test(answer.contentType ?? ""))
    return `not JSON (${answer.contentType ?? "no content-type"})`;
  if ((answer.bytes ?? 0) > answer.body.length) return undefined; // cut short here: judged by type and size only
  try {
    const parsed: unknown = JSON.parse(answer.body);
    if (typeof parsed === "object" && parsed !== null && "error" in parsed) return undefined;
  } catch {
    return "not parseable JSON";
  }
  return "without an error member";
}

/** One request on its own connection (a hostile request must not poison a shared one). */
export function send(
  port: number,
  request: { method: string; target: string; headers: Record<string, string>; body?: Buffer },
  keepBytes = BODY_KEEP,
): Promise<Answer> {
  return new Promise((done) => {
    let settled = false;
    const finish = (answer: Answer) => {
      if (!settled) {
        settled = true;
        done(answer);
      }
    };
    const headers = { ...request.headers, ...(request.body ? { "content-length": String(request.body.length) } : {}) };
    let req: http.ClientRequest;
    try {
      req = http.request(
        { host: "127.0.0.1", port, method: request.method, path: request.target, headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on("data", (chunk: Buffer) => {
            if (kept < keepBytes) chunks.push(chunk);
            kept += chunk.length;
          });
          res.on("end", () =>
            finish({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString("utf8").slice(0, keepBytes),
              bytes: kept,
              contentType: res.headers["content-type"],
            }),
          );
          res.on("error", (error) => finish({ status: res.statusCode ?? 0, body: "", error: error.message }));
        },
      );
    } catch (error) {
      // The client itself refused the target (a character node will not put on the wire).
      finish({
        status: 0,
        body: "",
        error: `client refused: ${error instanceof Error ? error.message : String(error)}`,
      });
      return;
    }
    req.setTimeout(ANSWER_TIMEOUT_MS, () => {
      finish({ status: 0, body: "", error: "timeout" });
      req.destroy();
    });
    req.on("error", (error) => finish({ status: 0, body: "", error: error.message }));
    req.end(request.body);
  });
}

export { normalise, errorText };
