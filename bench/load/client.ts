// The load benchmark's HTTP client: one request over a given agent with its latency and status,
// never throwing (a refused or reset connection is an outcome to count), plus a tally of
// outcomes per kind of request.
import http from "node:http";
import { performance } from "node:perf_hooks";

export interface Result {
  status: number;
  ms: number;
  body: string;
  /** A connection error (refused, reset, timed out), when there was no answer. */
  error?: string;
}

export interface Call {
  method: string;
  path: string;
  headers?: http.OutgoingHttpHeaders;
  body?: Buffer | string;
  /** Keep at most this many bytes of the answer (default 64 KiB); the rest is read and dropped. */
  keepBytes?: number;
  timeoutMs?: number;
}

export function request(agent: http.Agent | false, port: number, call: Call): Promise<Result> {
  const t0 = performance.now();
  return new Promise((done) => {
    let settled = false;
    const finish = (status: number, body: string, error?: string) => {
      if (settled) return;
      settled = true;
      done({ status, ms: performance.now() - t0, body, error });
    };
    const body = typeof call.body === "string" ? Buffer.from(call.body) : call.body;
    const headers = { ...(call.headers ?? {}), ...(body ? { "Content-Length": body.length } : {}) };
    const req = http.request(
      { agent, host: "127.0.0.1", port, method: call.method, path: call.path, headers },
      (res) => {
        const keep = call.keepBytes ?? 64 * 1024;
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on("data", (chunk: Buffer) => {
          if (kept < keep) chunks.push(chunk);
          kept += chunk.length;
        });
        res.on("end", () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8")));
        res.on("error", (error) => finish(res.statusCode ?? 0, "", error.message));
      },
    );
    req.setTimeout(call.timeoutMs ?? 120_000, () => {
      finish(0, "", "timeout");
      req.destroy();
    });
    req.on("error", (error) => finish(0, "", error.message));
    req.end(body);
  });
}

/** Counts per kind: statuses, connection errors, 5xx with an example. */
export class Tally {
  readonly kinds = new Map<
    string,
    {
      count: number;
      statuses: Map<number, number>;
      errors: Map<string, number>;
      serverErrors: number;
      example5xx?: string;
      latencies: number[];
    }
  >();

  add(kind: string, result: Result, keepLatency = true): void {
    let entry = this.kinds.get(kind);
    if (!entry) {
      entry = { count: 0, statuses: new Map(), errors: new Map(), serverErrors: 0, latencies: [] };
      this.kinds.set(kind, entry);
    }
    entry.count++;
    if (keepLatency && !result.error) entry.latencies.push(result.ms);
    if (result.error) entry.errors.set(result.error, (entry.errors.get(result.error) ?? 0) + 1);
    else entry.statuses.set(result.status, (entry.statuses.get(result.status) ?? 0) + 1);
    if (result.status >= 500) {
      entry.serverErrors++;
      entry.example5xx ??= `${result.status} ${result.body.slice(0, 300)}`;
    }
  }

  serverErrors(): number {
    return [...this.kinds.values()].reduce((sum, k) => sum + k.serverErrors, 0);
  }

  connectionErrors(): number {
    return [...this.kinds.values()].reduce((sum, k) => sum + [...k.errors.values()].reduce((a, b) => a + b, 0), 0);
  }
}

/** "200: 40, 413: 2" */
export function histogram(map: Map<number | string, number>): string {
  return [...map.entries()]
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
    .map(([key, n]) => `${key}: ${n}`)
    .join(", ");
}
