// What the body parsers hand to a route, on a bare express app.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import express from "express";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { bodyParsers } from "../../src/http/body-parsers.js";

let server: Server;
let url: string;
beforeAll(async () => {
  const app = express();
  app.use(...bodyParsers(1024));
  app.post("/echo", (req, res) => {
    res.json({ body: req.body === undefined ? "<none>" : req.body });
  });
  const reportError: express.ErrorRequestHandler = (error: { status?: number; message: string }, _req, res, _next) => {
    res.status(error.status ?? 400).json({ error: error.message });
  };
  app.use(reportError);
  await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", () => resolve())));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function echo(body: string, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers, body });
  return (await response.json() as { body: unknown }).body;
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
    expect(await echo("password=secret&expiring=false", { "Content-Type": "application/x-www-form-urlencoded" })).toEqual({ password: "secret", expiring: "false" });
  });

  it("parses a JSON record sent with a form Content-Type (curl -d) as JSON", async () => {
    expect(await echo('{"title":"Papers","dates":[]}', { "Content-Type": "application/x-www-form-urlencoded" })).toEqual({ title: "Papers", dates: [] });
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
    const body = (await echo('{"__proto__":{"polluted":true}}', { "Content-Type": "application/json" })) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
