// A field named like a built-in of Object.prototype (`constructor`, `toString`, `__proto__`, ...)
// is a field like any other, never a 500 and never a trace on Object.prototype. The names that
// reach an object's prototype (__proto__, constructor, prototype) are refused: 400 naming them,
// no record id used up. The others are unknown fields: dropped and named in the warnings
// (docs/api.md), as ArchivesSpace drops unknown fields, the record stored without them.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../../src/auth/permissions.js";
import { rawRequest } from "./raw-request.js";
import { globalGrants, SESSION_HEADER, startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

const BUILT_IN_NAMES = [
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "__proto__",
  "__defineGetter__",
  "prototype",
];

let server: RecordServer;
let token: string;
let base: string;

beforeAll(async () => {
  server = await startRecordServer();
  const repoId = (await server.ops.create("repository", {}, { repo_code: "keys", name: "Keys" }, trusted("system"))).id;
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
  base = `/repositories/${repoId}/accessions`;
});
afterAll(() => server.stop());

let seq = 0;
/** An accession as JSON text, with `extra` spliced in verbatim (so `__proto__` is an own key, as a client sends it). */
function accessionText(extra: string): string {
  seq += 1;
  return `{"title":"Keys ${seq}","id_0":"KEYS","id_1":"${seq}",${extra}}`;
}

async function createdId(): Promise<number> {
  const reply = await rawRequest(
    `${server.url}${base}`,
    "POST",
    { [SESSION_HEADER]: token, "Content-Type": "application/json" },
    accessionText(`"content_description":"plain ${seq}"`),
  );
  expect(reply.status).toBe(200);
  return (reply.body as { id: number }).id;
}

/** The names that would reach a prototype: refused. The rest are unknown fields, dropped with a warning. */
const REFUSED = new Set(["__proto__", "constructor", "prototype"]);
const dropped = (path: string) => `${path}: not a field of this record type; dropped, not stored`;

describe.each(BUILT_IN_NAMES)("a field named %s", (name) => {
  it("at the top of a create: refused (400 naming it, no id used up) or dropped and named in the warnings", async () => {
    const before = await createdId();
    const reply = await rawRequest(
      `${server.url}${base}`,
      "POST",
      { [SESSION_HEADER]: token, "Content-Type": "application/json" },
      accessionText(`"${name}":{"x":1}`),
    );
    if (REFUSED.has(name)) {
      expect(reply.status).toBe(400);
      expect(Object.keys((reply.body as { error: object }).error)).toEqual([name]);
      expect(await createdId()).toBe(before + 1);
      return;
    }
    expect([reply.status, (reply.body as { warnings: string[] }).warnings]).toEqual([200, [dropped(name)]]);
    const stored = (await server.send("GET", `${base}/${(reply.body as { id: number }).id}`, { token })).body as object;
    expect(Object.hasOwn(stored, name)).toBe(false);
  });

  it("inside a subrecord: refused naming its path, or dropped and named", async () => {
    const reply = await rawRequest(
      `${server.url}${base}`,
      "POST",
      { [SESSION_HEADER]: token, "Content-Type": "application/json" },
      accessionText(`"extents":[{"portion":"whole","number":"1","extent_type":"cassettes","${name}":"x"}]`),
    );
    if (REFUSED.has(name)) {
      expect(reply.status).toBe(400);
      expect(Object.keys((reply.body as { error: object }).error)).toEqual([`extents/0/${name}`]);
    } else {
      expect([reply.status, (reply.body as { warnings: string[] }).warnings]).toEqual([
        200,
        [dropped(`extents/0/${name}`)],
      ]);
    }
  });

  it("in an update: refused, leaving the record as it was, or dropped", async () => {
    const id = await createdId();
    const stored = (await server.send("GET", `${base}/${id}`, { token })).body as Record<string, unknown>;
    const body = JSON.stringify({ ...stored, title: "changed" }).replace(/^\{/, `{"${name}":"x",`);
    const reply = await rawRequest(
      `${server.url}${base}/${id}`,
      "POST",
      { [SESSION_HEADER]: token, "Content-Type": "application/json" },
      body,
    );
    const after = (await server.send("GET", `${base}/${id}`, { token })).body as Record<string, unknown>;
    if (REFUSED.has(name)) {
      expect(reply.status).toBe(400);
      expect(Object.keys((reply.body as { error: object }).error)).toEqual([name]);
      expect(after).toMatchObject({ title: stored.title, lock_version: stored.lock_version });
    } else {
      expect([reply.status, (reply.body as { warnings: string[] }).warnings]).toEqual([200, [dropped(name)]]);
      expect([after.title, Object.hasOwn(after, name)]).toEqual(["changed", false]);
    }
  });
});

it("leaves Object.prototype as it was", () => {
  expect(Object.getOwnPropertyNames(Object.prototype).filter((key) => ["x", "title"].includes(key))).toEqual([]);
  expect(({} as Record<string, unknown>).x).toBeUndefined();
});
