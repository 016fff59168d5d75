// A field named like a built-in of Object.prototype (`constructor`, `toString`,
// `__proto__`, ...) is a field like any other: a create or update naming one answers 400 naming
// it, never 500, uses up no record id, and leaves no trace on Object.prototype.
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

describe.each(BUILT_IN_NAMES)("a field named %s", (name) => {
  it("at the top of a create answers 400 naming it, and uses up no id", async () => {
    const before = await createdId();
    const reply = await rawRequest(
      `${server.url}${base}`,
      "POST",
      { [SESSION_HEADER]: token, "Content-Type": "application/json" },
      accessionText(`"${name}":{"x":1}`),
    );
    expect(reply.status).toBe(400);
    expect(Object.keys((reply.body as { error: object }).error)).toEqual([name]);
    expect(await createdId()).toBe(before + 1);
  });

  it("inside a subrecord answers 400 naming its path", async () => {
    const reply = await rawRequest(
      `${server.url}${base}`,
      "POST",
      { [SESSION_HEADER]: token, "Content-Type": "application/json" },
      accessionText(`"extents":[{"portion":"whole","number":"1","extent_type":"cassettes","${name}":"x"}]`),
    );
    expect(reply.status).toBe(400);
    expect(Object.keys((reply.body as { error: object }).error)).toEqual([`extents/0/${name}`]);
  });

  it("in an update answers 400 and leaves the record as it was", async () => {
    const id = await createdId();
    const stored = (await server.send("GET", `${base}/${id}`, { token })).body as Record<string, unknown>;
    const body = JSON.stringify({ ...stored, title: "changed" }).replace(/^\{/, `{"${name}":"x",`);
    const reply = await rawRequest(
      `${server.url}${base}/${id}`,
      "POST",
      { [SESSION_HEADER]: token, "Content-Type": "application/json" },
      body,
    );
    expect(reply.status).toBe(400);
    expect(Object.keys((reply.body as { error: object }).error)).toEqual([name]);
    expect(
      (await server.send("GET", `${base}/${id}`, { token })).body as { title: string; lock_version: number },
    ).toMatchObject({ title: stored.title, lock_version: stored.lock_version });
  });
});

it("leaves Object.prototype as it was", () => {
  expect(Object.getOwnPropertyNames(Object.prototype).filter((key) => ["x", "title"].includes(key))).toEqual([]);
  expect(({} as Record<string, unknown>).x).toBeUndefined();
});
