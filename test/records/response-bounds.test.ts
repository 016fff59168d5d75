// No route builds an unbounded response. Whole records may be up to a body's size
// each, so a page of 250, an id set or a node's children are bounded in bytes together
// (RESPONSE_MAX_BYTES): past it, a 400 saying what to ask for instead; within it, the same
// request answers. The bound is lowered here rather than filling the store with gigabytes.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { minimalResource } from "../registry/samples.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

type Json = Record<string, unknown>;
const SYSTEM = trusted("system");
const NOTE = "n".repeat(20_000);

let server: RecordServer;
let token: string;
let base: string;
let parentUri: string;
let configured: number;

beforeAll(async () => {
  server = await startRecordServer();
  await server.ops.create("repository", {}, { repo_code: "global", name: "Global" }, SYSTEM); // 1: the hidden one
  const repo = (await server.ops.create("repository", {}, { repo_code: "big", name: "Big" }, SYSTEM)).id;
  token = await server.login("reader", globalGrants(["view_repository"]));
  base = `/repositories/${repo}/accessions`;
  for (let i = 0; i < 10; i++) {
    await server.ops.create(
      "accession",
      { repoId: repo },
      { title: `Big ${i}`, id_0: "BIG", id_1: String(i), content_description: NOTE },
      SYSTEM,
    );
  }
  const resource = (
    await server.ops.create("resource", { repoId: repo }, { ...minimalResource(), title: "Wide", id_0: "WIDE" }, SYSTEM)
  ).uri;
  parentUri = (
    await server.ops.create(
      "archival_object",
      { repoId: repo },
      { title: "Parent", level: "series", resource: { ref: resource } },
      SYSTEM,
    )
  ).uri;
  for (let i = 0; i < 10; i++) {
    await server.ops.create(
      "archival_object",
      { repoId: repo },
      {
        title: `Child ${i}`,
        repository_processing_note: NOTE,
        level: "file",
        resource: { ref: resource },
        parent: { ref: parentUri },
      },
      SYSTEM,
    );
  }
  configured = server.ops.deps.responseMaxBytes;
  // Ten records of ~20 KB: 100 KB lets five through, not ten.
  server.ops.deps.responseMaxBytes = 100_000;
});
afterAll(() => {
  server.ops.deps.responseMaxBytes = configured;
  return server.stop();
});

describe("RESPONSE_MAX_BYTES", () => {
  it("a page whose records pass the bound: 400 naming page_size; a smaller page answers", async () => {
    const reply = await server.send("GET", `${base}?page=1&page_size=10`, { token });
    expect([reply.status, reply.body]).toEqual([
      400,
      {
        error: {
          page_size: [
            "These records are more than 100000 bytes together (RESPONSE_MAX_BYTES); ask for fewer at a time",
          ],
        },
      },
    ]);
    const smaller = await server.send("GET", `${base}?page=1&page_size=4`, { token });
    expect(smaller.status).toBe(200);
    expect((smaller.body as { results: Json[]; total: number }).results).toHaveLength(4);
  });

  it("an id set past the bound: 400 naming id_set", async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `id_set[]=${i + 1}`).join("&");
    const reply = await server.send("GET", `${base}?${ids}`, { token });
    expect([reply.status, Object.keys((reply.body as { error: Json }).error)]).toEqual([400, ["id_set"]]);
    expect((await server.send("GET", `${base}?id_set[]=1&id_set[]=2`, { token })).status).toBe(200);
  });

  it("a node's children past the bound: 400 pointing at the waypoint API", async () => {
    const reply = await server.send("GET", `${parentUri}/children`, { token });
    expect(reply.status).toBe(400);
    expect((reply.body as { error: string }).error).toMatch(
      /^This node's children are more than 100000 bytes together .*tree\/waypoint$/,
    );
    server.ops.deps.responseMaxBytes = 1_000_000;
    try {
      const whole = await server.send("GET", `${parentUri}/children`, { token });
      expect([whole.status, (whole.body as Json[]).length]).toEqual([200, 10]);
    } finally {
      server.ops.deps.responseMaxBytes = 100_000;
    }
  });
});
