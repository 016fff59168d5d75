// What the body parsers hand to a route, on a bare express app: one whose callers all have a
// session, and one whose callers have none.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import express from "express";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { bodyParsers } from "../../src/http/body-parsers.js";

const LIMIT = 256 * 1024;

async function listen(authenticated: boolean): Promise<{ server: Server; base: string }> {
  const app = express();
  app.use(...bodyParsers({ limitBytes: LIMIT, authenticated: () => authenticated }));
  const echo: express.RequestHandler = (req, res) => {
    res.json({ body: req.body === undefined ? "<none>" : req.body });
  };
  app.post("/echo", echo);
  app.post("/users/:username/login", echo);
  const reportError: express.ErrorRequestHandler = (
    error: { status?: number; message: string; detail?: unknown },
    _req,
    res,
    _next,
  ) => {
    res.status(error.status ?? 400).json({ error: error.detail ?? error.message });
  };
  app.use(reportError);
  let server!: Server;
  await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", () => resolve())));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let known: { server: Server; base: string };
let anonymous: { server: Server; base: string };
let url: string;
beforeAll(async () => {
  known = await listen(true);
  anonymous = await listen(false);
  url = `${known.base}/echo`;
});
afterAll(async () => {
  for (const { server } of [known, anonymous]) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function echo(body: string, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers, body });
  return ((await response.json()) as { body: unknown }).body;
}

describe("bodyParsers", () => {
  it("parses JSON sent with no Content-Type (as agentarchives sends it)", async () => {
    // fetch labels a string body text/plain; a JSON body is still parsed as JSON.
    expect(await echo('{"title":"Papers"}')).toEqual({ title: "Papers" });
  });

  it("parses JSON sent as application/json", async () => {
    expect(await echo('{"a":[1,2]}', { "Content-Type": "application/json" })).toEqual({ a: [1, 2] });
  });

  it("treats an empty JSON body as no body", async () => {
    expect(await echo("", { "Content-Type": "application/json" })).toBe("<none>");
  });

  it("parses form bodies for scalar parameters", async () => {
    expect(
      await echo("password=secret&expiring=false", { "Content-Type": "application/x-www-form-urlencoded" }),
    ).toEqual({ password: "secret", expiring: "false" });
  });

  it("parses a JSON record sent with a form Content-Type (curl -d) as JSON", async () => {
    expect(
      await echo('{"title":"Papers","dates":[]}', { "Content-Type": "application/x-www-form-urlencoded" }),
    ).toEqual({ title: "Papers", dates: [] });
  });

  it("parses multipart form fields", async () => {
    const form = new FormData();
    form.set("password", "secret");
    form.set("expiring", "False");
    const response = await fetch(url, { method: "POST", body: form });
    expect(((await response.json()) as { body: unknown }).body).toEqual({ password: "secret", expiring: "False" });
  });

  it("refuses a file in a multipart body", async () => {
    const form = new FormData();
    form.set("upload", new Blob(["data"]), "file.txt");
    const response = await fetch(url, { method: "POST", body: form });
    expect(response.status).toBe(400);
  });

  it("keeps __proto__ as a plain key, never a prototype", async () => {
    const body = (await echo('{"__proto__":{"polluted":true}}', { "Content-Type": "application/json" })) as Record<
      string,
      unknown
    >;
    expect(Object.keys(body)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a multipart form of more than 1000 fields with 413", async () => {
    const form = new FormData();
    for (let i = 0; i < 1001; i++) form.append("f", "1");
    const response = await fetch(url, { method: "POST", body: form });
    expect(response.status).toBe(413);
  });

  it("names the multipart field holding bytes that are not UTF-8", async () => {
    // Written by hand: FormData would label a byte part a file.
    const boundary = "arca-boundary";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\ncaf`),
      Buffer.from([0xe9]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { title: [expect.stringMatching(/^Must be valid UTF-8 text \(invalid byte at offset \d+\)$/)] },
    });
  });
});

describe("bodyParsers, multipart parts without a name", () => {
  it("answers 400, not 500", async () => {
    const boundary = "arca-boundary";
    const body = `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--${boundary}--\r\n`;
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Had some trouble parsing your request: a form field without a name",
    });
  });
});

describe("bodyParsers without a session", () => {
  it("reads no body: a malformed one reaches the route as no body, with the connection closed after", async () => {
    const response = await fetch(`${anonymous.base}/echo`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"broken": [',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({ body: "<none>" });
  });

  it("reads the login route's form body", async () => {
    const response = await fetch(`${anonymous.base}/users/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "password=secret",
    });
    expect(await response.json()).toEqual({ body: { password: "secret" } });
  });

  it("reads at most 64 KiB of it", async () => {
    const response = await fetch(`${anonymous.base}/Users/admin/LOGIN/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password: "x".repeat(64 * 1024) }),
    });
    expect(response.status).toBe(413);
  });
});
