// The contract's transport rules (docs/api.md §1, §7) over real HTTP, against the whole
// service: bodies are read for a caller with a session (the admin here), and the hostile
// bodies (C2, H4 and the hygiene items) are refused with bounded cost.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { request as httpRequest } from "node:http";
import { gzipSync } from "node:zlib";
import { ARCA_VERSION, ARCHIVESSPACE_API_VERSION } from "../../src/version.js";
import { startService, type Service } from "../support/service.js";

const LIMIT = 64 * 1024;
let app: Service;
beforeAll(async () => {
  app = await startService({ env: { BODY_LIMIT_BYTES: String(LIMIT) } });
});
afterAll(() => app.stop());

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

async function send(path: string, init: RequestInit & { session?: boolean } = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (init.session !== false) headers.set("X-ArchivesSpace-Session", app.adminToken);
  const response = await fetch(`${app.url}${path}`, { ...init, headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;
const asJson = { "Content-Type": "application/json" };

describe("transport", () => {
  it("GET / describes the service as JSON, uncached", async () => {
    const { status, headers, text } = await send("/");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(headers.get("cache-control")).toBe("private, must-revalidate, max-age=0");
    expect(json(text)).toMatchObject({ name: "Arca", arcaVersion: ARCA_VERSION });
  });

  it("GET /version is plain text", async () => {
    const { status, headers, text } = await send("/version");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^text\/plain/);
    expect(text).toBe(`(v${ARCHIVESSPACE_API_VERSION}) Arca ${ARCA_VERSION}`);
  });

  it.each([
    ["an unknown route", "/no/such/thing", "GET"],
    ["a known path with another method", "/version", "DELETE"],
  ])("%s answers 404 JSON, no stack trace", async (_name, path, method) => {
    const { status, headers, text } = await send(path, { method });
    expect(status).toBe(404);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    const body = json(text);
    expect(Object.keys(body)).toEqual(["error"]);
    expect(typeof body.error).toBe("string");
    expect(text).not.toMatch(/node_modules|at .*\.js:\d+/);
  });

  it.each([
    ["with a JSON Content-Type", asJson],
    ["without a Content-Type", {}],
  ])("malformed JSON %s answers 400 with the parse problem", async (_name, headers) => {
    const { status, text } = await send("/version", { method: "POST", headers, body: '{"title": ' });
    expect(status).toBe(400);
    expect(json(text).error).toMatch(/^Had some trouble parsing your request: /);
  });

  it("a body over the limit answers 413 JSON", async () => {
    const { status, text } = await send("/version", {
      method: "POST",
      headers: asJson,
      body: JSON.stringify({ title: "x".repeat(LIMIT) }),
    });
    expect(status).toBe(413);
    expect(json(text)).toEqual({ error: `Request body too large (over ${LIMIT} bytes)` });
  });

  it("an empty body with a JSON Content-Type is not a parse error", async () => {
    const { status, text } = await send("/version", { method: "POST", headers: asJson, body: "" });
    // No POST /version route exists: the request gets as far as routing.
    expect(status).toBe(404);
    expect(json(text).error).toMatch(/not found/);
  });
});

describe("HEAD", () => {
  it("answers a record's GET status and headers, with no body, and the connection goes on", async () => {
    // A record route (the generic controller) and an account route (a hand-written one).
    for (const path of ["/vocabularies/1", "/users/1"]) {
      const read = await send(path);
      expect([path, read.status]).toEqual([path, 200]);
      const head = await send(path, { method: "HEAD" });
      expect([path, head.status, head.text]).toEqual([path, 200, ""]);
      expect(head.headers.get("content-type")).toBe(read.headers.get("content-type"));
      expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(read.text)));
      expect(head.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const missing = await send("/agents/people/999999", { method: "HEAD" });
    expect([missing.status, missing.text]).toEqual([404, ""]);
    expect((await send("/users/1")).status).toBe(200);
  });
});

describe("security headers", () => {
  it.each([
    ["a JSON answer", "/"],
    ["an error", "/no/such/thing"],
    ["the version text", "/version"],
  ])("%s: nosniff, a restrictive policy, no X-Powered-By, no ETag (no body is hashed)", async (_name, path) => {
    const { headers } = await send(path);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers.get("x-powered-by")).toBeNull();
    expect(headers.get("etag")).toBeNull();
  });

  it("/docs has its own policy: scripts, styles and requests from Arca only, and loads nothing from elsewhere", async () => {
    const { status, headers, text } = await send("/docs", { session: false });
    expect(status).toBe(200);
    expect(headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    // Every script and link is Arca's own; no inline script (the policy would block it).
    const sources = [...text.matchAll(/<(?:script|link)[^>]*(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) expect(source).toMatch(/^\/docs\/assets\/[a-z0-9.-]+$/);
    expect(text).not.toMatch(/<script>|<iframe|@import|url\(/i);
  });
});

describe("no body is read without a session (C2)", () => {
  it("an anonymous POST with a malformed JSON body to a protected route answers 403, not 400", async () => {
    const { status, headers, text } = await send("/repositories", {
      method: "POST",
      session: false,
      headers: asJson,
      body: '{"repo_code": ',
    });
    expect(status).toBe(403);
    expect(json(text)).toEqual({ error: "Access denied" });
    expect(headers.get("connection")).toBe("close");
  });

  it("an anonymous body past the limit to an unknown route answers 404, not 413: it is never read", async () => {
    const { status, headers, text } = await send("/nonexistent", {
      method: "POST",
      session: false,
      headers: asJson,
      body: "[".repeat(4 * LIMIT),
    });
    expect(status).toBe(404);
    expect(json(text).error).toMatch(/not found/);
    expect(headers.get("connection")).toBe("close");
  });

  it.each([
    ["create a record", "/repositories/2/accessions"],
    ["update a record", "/repositories/2/accessions/1"],
    ["create a global record", "/agents/people"],
    ["create a user", "/users"],
    ["update a user", "/users/1"],
    ["create a group", "/repositories/2/groups"],
    ["create an enumeration", "/config/enumerations"],
    ["update an enumeration", "/config/enumerations/1"],
    ["a batch import", "/repositories/2/batch_imports"],
    ["a file import", "/repositories/2/imports?format=ead"],
    ["move a tree node", "/repositories/2/archival_objects/1/parent"],
    ["accept children", "/repositories/2/resources/1/accept_children"],
    ["update a repository", "/repositories/2"],
  ])("anonymous, %s with a broken body: 403 Access denied", async (_name, path) => {
    const { status, text } = await send(path, {
      method: "POST",
      session: false,
      headers: asJson,
      body: '{"broken": [',
    });
    expect(status).toBe(403);
    expect(json(text)).toEqual({ error: "Access denied" });
  });

  it("a multipart body passing the limit in total answers 413 and the service lives on", async () => {
    const form = new FormData();
    for (let i = 0; i < 40; i++) form.append(`field${i}`, "x".repeat(1024 * 1024));
    const { status, headers, text } = await send("/nonexistent", { method: "POST", body: form });
    expect(status).toBe(413);
    expect(json(text)).toEqual({ error: `Request body too large (over ${LIMIT} bytes)` });
    expect(headers.get("connection")).toBe("close");
    expect((await send("/")).status).toBe(200);
  });

  it("the same multipart body without a session is not read at all: 404", async () => {
    const form = new FormData();
    for (let i = 0; i < 40; i++) form.append(`field${i}`, "x".repeat(1024 * 1024));
    const { status } = await send("/nonexistent", { method: "POST", session: false, body: form });
    expect(status).toBe(404);
  });

  it("a form of many small fields answers 413 past the field count", async () => {
    const body = "f=1&".repeat(1001);
    const { status, text } = await send("/version", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(status).toBe(413);
    expect(json(text)).toEqual({ error: "Request body too large: more than 1000 form fields" });
  });

  it("login reads its small form body without a session, and no more than 64 KiB of it", async () => {
    const ok = await send("/users/admin/login", {
      method: "POST",
      session: false,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `password=${encodeURIComponent(app.adminPassword)}`,
    });
    expect(ok.status).toBe(200);
    const big = await send("/users/admin/login", {
      method: "POST",
      session: false,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `password=${"x".repeat(64 * 1024)}`,
    });
    expect(big.status).toBe(413);
    expect(json(big.text)).toEqual({ error: `Request body too large (over ${64 * 1024} bytes)` });
  });
});

describe("compressed bodies are bounded after inflation", () => {
  it("a small gzip inflating past the limit answers 413", async () => {
    const bomb = gzipSync(Buffer.alloc(LIMIT * 64, 0x20));
    expect(bomb.length).toBeLessThan(LIMIT);
    const { status, text } = await send("/version", {
      method: "POST",
      headers: { ...asJson, "Content-Encoding": "gzip" },
      body: bomb,
    });
    expect(status).toBe(413);
    expect(json(text)).toEqual({ error: `Request body too large (over ${LIMIT} bytes)` });
  });

  it("a gzip body within the limit is read as JSON", async () => {
    const { status, text } = await send("/repositories", {
      method: "POST",
      headers: { ...asJson, "Content-Encoding": "gzip" },
      body: gzipSync(JSON.stringify({ repo_code: "GZ", name: "Gzipped" })),
    });
    expect(status).toBe(200);
    expect(json(text).status).toBe("Created");
  });

  it("an unknown Content-Encoding answers 415", async () => {
    const { status, text } = await send("/version", {
      method: "POST",
      headers: { ...asJson, "Content-Encoding": "compress" },
      body: "{}",
    });
    expect(status).toBe(415);
    expect(json(text).error).toMatch(/Unsupported Content-Encoding "compress"/);
  });
});

describe("JSON work limits (H4)", () => {
  it("a body nested deeper than the limit answers 400 naming it", async () => {
    const deep = "[".repeat(100) + "]".repeat(100);
    const { status, text } = await send("/version", { method: "POST", headers: asJson, body: deep });
    expect(status).toBe(400);
    expect(json(text).error).toBe(
      "Had some trouble parsing your request: nesting deeper than 64 levels (the limit of arrays and objects inside one another)",
    );
  });

  it("a body of nothing but `[` is refused for its depth, not parsed (JSON.parse would call it unterminated)", async () => {
    const { status, text } = await send("/version", { method: "POST", headers: asJson, body: "[".repeat(LIMIT - 1) });
    expect(status).toBe(400);
    expect(json(text).error).toMatch(/nesting deeper than 64 levels/);
  });

  it("a gzip body nested too deep is refused at its first chunk, not inflated to the byte limit (413) first", async () => {
    const bomb = gzipSync(Buffer.from("[".repeat(LIMIT * 4)));
    const { status, text } = await send("/repositories", {
      method: "POST",
      headers: { ...asJson, "Content-Encoding": "gzip" },
      body: bomb,
    });
    expect(status).toBe(400);
    expect(json(text).error).toBe(
      "Had some trouble parsing your request: nesting deeper than 64 levels (the limit of arrays and objects inside one another)",
    );
  });

  it("a form body's brackets are not JSON nesting", async () => {
    const { status, text } = await send("/users/admin/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `password=${"[".repeat(100)}`,
    });
    expect(text).not.toMatch(/nesting deeper/);
    expect(status).toBe(403); // a wrong password, read from the form
  });

  it("duplicate keys are refused, naming the field, escapes resolved", async () => {
    const { status, text } = await send("/repositories", {
      method: "POST",
      headers: asJson,
      body: '{"repo_code":"A","name":"x","extents":[{"a":1,"\\u0061":2}]}',
    });
    expect(status).toBe(400);
    expect(json(text)).toEqual({
      error: { "extents/0/a": ["Given more than once in the same object (duplicate key)"] },
    });
  });

  it("NUL in a string is refused, naming the field", async () => {
    const { status, text } = await send("/repositories", {
      method: "POST",
      headers: asJson,
      body: '{"repo_code":"A","name":"bad\\u0000name"}',
    });
    expect(status).toBe(400);
    expect(json(text)).toEqual({ error: { name: ["Must not contain the NUL character (U+0000)"] } });
  });

  it("a lone surrogate is refused, naming the field", async () => {
    const { status, text } = await send("/repositories", {
      method: "POST",
      headers: asJson,
      body: '{"repo_code":"A","name":"x\\ud800y"}',
    });
    expect(status).toBe(400);
    expect(json(text)).toEqual({ error: { name: ["Must be valid Unicode text: holds a lone surrogate"] } });
  });

  it("invalid UTF-8 bytes in a body are refused, naming the field and the byte", async () => {
    const body = Buffer.concat([Buffer.from('{"repo_code":"A","name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const { status, text } = await send("/repositories", { method: "POST", headers: asJson, body });
    expect(status).toBe(400);
    expect(json(text)).toEqual({ error: { name: ["Must be valid UTF-8 text (invalid byte at offset 28)"] } });
  });

  it("a charset other than UTF-8 answers 415", async () => {
    const { status, text } = await send("/repositories", {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=iso-8859-1" },
      body: "{}",
    });
    expect(status).toBe(415);
    expect(json(text).error).toMatch(/Unsupported charset "iso-8859-1"/);
  });
});

describe("text rules for parameters", () => {
  it.each([
    ["invalid UTF-8", "page=1&q=%ff", "q", "Must be valid UTF-8 text"],
    ["a lone surrogate encoded as UTF-8", "page=1&q=%ed%a0%80", "q", "Must be valid UTF-8 text"],
    ["NUL", "page=1&q=a%00b", "q", "Must not contain the NUL character (U+0000)"],
  ])("%s in the query string answers 400 naming the parameter", async (_name, query, parameter, message) => {
    const { status, text } = await send(`/repositories/2/accessions?${query}`);
    expect(status).toBe(400);
    expect(json(text)).toEqual({ error: { [parameter]: [message] } });
  });

  it("a raw byte that is not UTF-8 in the request target is refused too", async () => {
    const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const url = new URL(app.url);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: "GET",
          path: "/repositories?q=caf\xe9",
          headers: { "X-ArchivesSpace-Session": app.adminToken },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.end();
    });
    // node's HTTP parser refuses it before the service sees it (a bare 400); query-check.ts
    // would refuse it as well, naming the parameter, if a lenient parser let it through.
    expect(reply.status).toBe(400);
  });

  it("invalid UTF-8 in a form body answers 400 naming the field", async () => {
    const { status, text } = await send("/users/admin/login", {
      method: "POST",
      session: false,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "password=%ff%fe",
    });
    expect(status).toBe(400);
    expect(json(text)).toEqual({ error: { password: ["Must be valid UTF-8 text"] } });
  });

  it("NUL in a multipart field answers 400 naming the field", async () => {
    const form = new FormData();
    form.set("password", "a\0b");
    const { status, text } = await send("/users/admin/login", { method: "POST", session: false, body: form });
    expect(status).toBe(400);
    expect(json(text)).toEqual({ error: { password: ["Must not contain the NUL character (U+0000)"] } });
  });
});

describe("error bodies are bounded", () => {
  it("a 10 KB parameter value is echoed no longer than 1000 characters, saying how much was left out", async () => {
    const value = "y".repeat(10_000);
    const { status, text } = await send(`/users/admin/login?password=x&expiring=${value}`, {
      method: "POST",
      session: false,
    });
    expect(status).toBe(400);
    const [message] = (json(text).error as Record<string, string[]>).expiring!;
    expect(message!.length).toBeLessThan(1100);
    expect(message).toMatch(/… \(\d+ more characters left out\)$/);
  });
});
