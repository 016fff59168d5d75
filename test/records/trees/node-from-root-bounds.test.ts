// tree/node_from_root answers a path per node asked for, as long as the node is deep:
// §3 (no route builds an unbounded response). At most MAX_ID_SET node ids, and the paths'
// bytes are counted as they are built: past the bound, a 400 naming node_ids.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { MAX_ID_SET } from "../../../src/records/operations/index.js";
import { minimalResource } from "../../registry/samples.js";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

type Json = Record<string, unknown>;
const SYSTEM = trusted("system");
const DEPTH = 30;

let server: RecordServer;
let token: string;
let repo: number;
let resource: string;
let chain: number[]; // ids, root-most first: each the child of the one before
const idOf = (uri: string) => Number(uri.split("/").pop());

beforeAll(async () => {
  server = await startRecordServer();
  // Repository 1 is the hidden global one, which takes no records.
  await server.ops.create("repository", {}, { repo_code: "global", name: "Global" }, SYSTEM);
  repo = (await server.ops.create("repository", {}, { repo_code: "deep", name: "Deep" }, SYSTEM)).id;
  token = await server.login("reader", globalGrants(["view_repository"]));
  resource = (
    await server.ops.create("resource", { repoId: repo }, { ...minimalResource(), title: "Deep", id_0: "DEEP" }, SYSTEM)
  ).uri;
  chain = [];
  for (let i = 0; i < DEPTH; i++) {
    const parent = chain.at(-1);
    const body: Json = {
      title: `Level ${i} ${"x".repeat(1000)}`,
      level: "file",
      resource: { ref: resource },
      ...(parent !== undefined && { parent: { ref: `/repositories/${repo}/archival_objects/${parent}` } }),
    };
    chain.push(idOf((await server.ops.create("archival_object", { repoId: repo }, body, SYSTEM)).uri));
  }
});
afterAll(() => server.stop());

const ask = (ids: readonly number[]) =>
  server.send("GET", `${resource}/tree/node_from_root?${ids.map((id) => `node_ids[]=${id}`).join("&")}`, { token });

describe("tree/node_from_root bounds", () => {
  it("the deepest node's path has every ancestor", async () => {
    const reply = await ask([chain.at(-1)!]);
    expect(reply.status).toBe(200);
    expect(((reply.body as Json)[String(chain.at(-1))] as Json[]).length).toBe(DEPTH);
  });

  it(`more than ${MAX_ID_SET} node ids: 400 naming node_ids`, async () => {
    const ids = Array.from({ length: MAX_ID_SET + 1 }, (_, i) => chain[i % DEPTH]!);
    const reply = await ask(ids);
    expect([reply.status, reply.body]).toEqual([
      400,
      { error: { node_ids: [`At most ${MAX_ID_SET} ids, not ${MAX_ID_SET + 1}`] } },
    ]);
    expect((await ask(ids.slice(0, MAX_ID_SET))).status).toBe(200);
  });

  it("paths past the byte bound: 400 naming node_ids; within it, the same nodes answer", async () => {
    const deep = chain.slice(-5);
    const within = await ask(deep);
    expect(within.status).toBe(200);
    // Five paths of 26-30 entries with ~2 KB of titles each: some 300 KB. Lower the bound below that.
    const configured = server.ops.deps.responseMaxBytes;
    server.ops.deps.responseMaxBytes = 100_000;
    try {
      const reply = await ask(deep);
      expect([reply.status, reply.body]).toEqual([
        400,
        {
          error: {
            node_ids: [
              "The paths to these nodes would take more than 100000 bytes (RESPONSE_MAX_BYTES); ask for fewer nodes at a time",
            ],
          },
        },
      ]);
      expect((await ask(chain.slice(0, 3))).status).toBe(200);
    } finally {
      server.ops.deps.responseMaxBytes = configured;
    }
    expect(Buffer.byteLength(within.text)).toBeGreaterThan(100_000);
  });
});
