// Two Arca nodes on one standalone engine, as a deployment with two replicas runs them: the built
// engine (`npm run db`'s program) on an empty data directory, and two built Arca processes
// started at the same instant against it through MONGODB_URI. Both must come up (start-up is
// idempotent and race-safe); a session and a permission change made on one apply on the other;
// and when one is killed (SIGKILL) in the middle of concurrent creates on both, the other keeps
// serving, every create either node acknowledged is readable through the survivor, and nothing
// is half-written (tree positions stay dense). Needs `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { exited, MAIN, spawnArca, waitForLine } from "../support/process.js";

type Json = Record<string, unknown>;

interface Node {
  name: string;
  base: string;
  child: ChildProcess;
  /** Milliseconds from spawn to its "listening on" line. */
  upAfterMs: number;
}

const ENGINE_CLI = resolve("dist/src/embedded-mongo/cli.js");
const EAD = resolve("../shared/data/ead2002");

let dir: string;
let engine: ChildProcess;
let engineUri: string;
let nodeA: Node;
let nodeB: Node;
let adminToken: string;
const children: ChildProcess[] = [];

async function startNode(name: string): Promise<Node> {
  const arca = await spawnArca(
    { MONGODB_URI: engineUri, DATA_DIR: join(dir, `node-${name}`) },
    { what: `node ${name}` },
  );
  children.push(arca.child);
  return { name, base: arca.url, child: arca.child, upAfterMs: arca.upAfterMs };
}

async function call(
  node: Node,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: Json & Json[] }> {
  const headers: Record<string, string> = {};
  if (options.token) headers["X-ArchivesSpace-Session"] = options.token;
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  if (body !== undefined && typeof options.body !== "string") headers["Content-Type"] = "application/json";
  const response = await fetch(`${node.base}${path}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    body: (response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text) as Json & Json[],
  };
}

async function login(node: Node, username: string, password: string): Promise<string> {
  const reply = await call(node, "POST", `/users/${username}/login?password=${encodeURIComponent(password)}`);
  expect([username, reply.status]).toEqual([username, 200]);
  return reply.body.session as string;
}

beforeAll(async () => {
  if (!existsSync(MAIN) || !existsSync(ENGINE_CLI)) throw new Error("dist/ is missing: run `npm run build` first");
  dir = await mkdtemp(join(tmpdir(), "arca-fault-"));
  engine = spawn(process.execPath, [ENGINE_CLI, "--port", "0", "--dbpath", join(dir, "engine")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(engine);
  const [, port] = await waitForLine(engine, /listening on 127\.0\.0\.1:(\d+)/, "the engine");
  engineUri = `mongodb://127.0.0.1:${port}/?directConnection=true`;
  // The same instant: neither waits for the other.
  [nodeA, nodeB] = await Promise.all([startNode("A"), startNode("B")]);
  process.stdout.write(
    `fault test: nodes up after ${nodeA.upAfterMs} ms (A) and ${nodeB.upAfterMs} ms (B), started together on an empty store\n`,
  );
}, 60_000);

afterAll(async () => {
  for (const child of children.reverse()) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited(child);
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("two nodes on one engine", () => {
  let repo: number;

  it("keeps the engine's data directory to its own user (0700, files 0600)", async () => {
    const engineDir = join(dir, "engine");
    expect(((await stat(engineDir)).mode & 0o777).toString(8)).toBe("700");
    for (const name of await readdir(engineDir))
      expect([name, ((await stat(join(engineDir, name))).mode & 0o777).toString(8)]).toEqual([name, "600"]);
  });

  it("both come up on an empty store, with one admin, one administrators group and one global repository", async () => {
    expect(nodeA.child.exitCode).toBeNull();
    expect(nodeB.child.exitCode).toBeNull();
    adminToken = await login(nodeA, "admin", "admin");
    const users = await call(nodeB, "GET", "/users?page=1", { token: adminToken });
    expect(users.body.results).toEqual([expect.objectContaining({ username: "admin", uri: "/users/1" })]);
    const groups = await call(nodeB, "GET", "/repositories/1/groups", { token: adminToken });
    expect(groups.body).toEqual([
      expect.objectContaining({ group_code: "administrators", uri: "/repositories/1/groups/1" }),
    ]);
    const created = await call(nodeB, "POST", "/repositories", {
      token: adminToken,
      body: { repo_code: "fault", name: "Fault" },
    });
    expect(created).toMatchObject({ status: 200, body: { uri: "/repositories/2" } });
    repo = 2;
  });

  it("takes a session made on A on B, and a logout on B ends it on A", async () => {
    const token = await login(nodeA, "admin", "admin");
    expect(await call(nodeB, "GET", "/users/current-user", { token })).toMatchObject({
      status: 200,
      body: { username: "admin" },
    });
    expect((await call(nodeB, "POST", "/logout", { token })).status).toBe(200);
    // A caches a session for a few seconds; the store says it is gone as soon as A asks it.
    let status = 200;
    for (const deadline = Date.now() + 10_000; status === 200 && Date.now() < deadline;) {
      status = (await call(nodeA, "GET", "/users/current-user", { token })).status;
      if (status === 200) await new Promise((tick) => setTimeout(tick, 100));
    }
    expect(status).toBe(412);
  });

  it("applies a group change made on A to requests on B", async () => {
    expect(
      (
        await call(nodeA, "POST", "/users?password=pw-ann", {
          token: adminToken,
          body: { username: "ann", name: "Ann" },
        })
      ).status,
    ).toBe(200);
    const ann = await login(nodeB, "ann", "pw-ann");
    const path = `/repositories/${repo}/accessions?page=1`;
    expect((await call(nodeB, "GET", path, { token: ann })).status).toBe(403); // and B now caches that answer
    const groups = (await call(nodeA, "GET", `/repositories/${repo}/groups`, { token: adminToken })).body as Json[];
    const viewers = groups.find((group) => group.group_code === "repository-viewers")!;
    const changed = Date.now();
    expect(
      (
        await call(nodeA, "POST", viewers.uri as string, {
          token: adminToken,
          body: { ...viewers, member_usernames: ["ann"] },
        })
      ).status,
    ).toBe(200);
    // Polled: B drops its cached answer at its next look at the store's change signal (about a
    // second), not after the permission cache's 30 s.
    let status = 403;
    while (status === 403 && Date.now() - changed < 20_000) {
      status = (await call(nodeB, "GET", path, { token: ann })).status;
      if (status === 403) await new Promise((tick) => setTimeout(tick, 50));
    }
    const appliedAfter = Date.now() - changed;
    process.stdout.write(`fault test: a group change on A applied on B after ${appliedAfter} ms\n`);
    expect(status).toBe(200);
    expect(appliedAfter).toBeLessThan(15_000); // well inside the 30 s cache: the change signal worked
  });

  it("keeps B serving when A is killed during concurrent creates, with every acknowledged create whole on B", async () => {
    const resource = await call(nodeA, "POST", `/repositories/${repo}/resources`, {
      token: adminToken,
      body: {
        title: "Papers",
        id_0: "FAULT",
        level: "collection",
        finding_aid_language: "eng",
        finding_aid_script: "Latn",
        extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
        dates: [{ label: "creation", date_type: "inclusive", begin: "1900", end: "1950" }],
        lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
      },
    });
    expect(resource.status).toBe(200);
    const resourceUri = resource.body.uri as string;

    const acknowledged: Array<{ node: string; uri: string; title: string }> = [];
    let killedAt: number | undefined;
    let ackedByBAfterKill = 0;
    const failuresOnB: string[] = [];
    let serial = 0;

    // One writer: a loop of creates on one node, each an archival object (appended, inserted at
    // the top, or a child of a node acknowledged earlier) or an accession.
    const writer = async (node: Node, lane: number): Promise<void> => {
      for (;;) {
        if (node === nodeA && killedAt !== undefined) return;
        if (node === nodeB && killedAt !== undefined && ackedByBAfterKill >= 60) return;
        const n = ++serial;
        const title = `${node.name}${lane}-${n}`;
        const mine = acknowledged.filter((entry) => entry.uri.includes("/archival_objects/"));
        const kind = n % 5;
        const [path, body] =
          kind === 4
            ? [`/repositories/${repo}/accessions`, { title, id_0: "FAULT", id_1: title }]
            : [
                `/repositories/${repo}/archival_objects`,
                {
                  title,
                  level: "file",
                  resource: { ref: resourceUri },
                  ...(kind === 1 ? { position: 0 } : {}),
                  ...(kind === 2 && mine.length > 0 ? { parent: { ref: mine[n % mine.length]!.uri } } : {}),
                },
              ];
        let reply: { status: number; body: Json };
        try {
          reply = await call(node, "POST", path, { token: adminToken, body });
        } catch (error) {
          if (node === nodeA) return; // killed: this create was never acknowledged
          failuresOnB.push(`${title}: ${String(error)}`);
          return;
        }
        if (reply.status !== 200) {
          if (node === nodeB) failuresOnB.push(`${title}: ${reply.status} ${JSON.stringify(reply.body)}`);
          continue;
        }
        acknowledged.push({ node: node.name, uri: reply.body.uri as string, title });
        if (node === nodeB && killedAt !== undefined) ackedByBAfterKill += 1;
        if (
          node === nodeA &&
          killedAt === undefined &&
          acknowledged.filter((entry) => entry.node === "A").length >= 40
        ) {
          killedAt = Date.now();
          nodeA.child.kill("SIGKILL");
        }
      }
    };
    // And imports on A, one of them in flight when A dies (what it leaves is the import journal's
    // business at the next start; here only B's serving matters).
    let importsDoneByA = 0;
    const importer = async (): Promise<void> => {
      for (const file of ["at-tracer.xml", "afcu.xml", "wnyu.xml", "ead-dao-test.xml"]) {
        if (killedAt !== undefined) return;
        try {
          await call(nodeA, "POST", `/repositories/${importRepo}/imports?format=ead`, {
            token: adminToken,
            body: readFileSync(join(EAD, file), "utf8"),
          });
          importsDoneByA += 1;
        } catch {
          return;
        }
      }
    };
    const importRepo = (
      await call(nodeA, "POST", "/repositories", { token: adminToken, body: { repo_code: "imports", name: "Imports" } })
    ).body.id as number;
    const lanes = [0, 1, 2, 3];
    await Promise.all([
      importer(),
      ...lanes.map((lane) => writer(nodeA, lane)),
      ...lanes.map((lane) => writer(nodeB, lane)),
    ]);
    await exited(nodeA.child);
    const recoveredAfter = Date.now() - killedAt!;
    const fromA = acknowledged.filter((entry) => entry.node === "A").length;
    process.stdout.write(
      `fault test: A killed after ${fromA} acknowledged creates and ${importsDoneByA} finished imports; B acknowledged ${ackedByBAfterKill} more in ${recoveredAfter} ms after the kill; ${acknowledged.length} acknowledged in all\n`,
    );
    expect(failuresOnB).toEqual([]);
    expect(nodeA.child.signalCode).toBe("SIGKILL");
    expect(nodeB.child.exitCode).toBeNull();
    expect(ackedByBAfterKill).toBeGreaterThanOrEqual(60);

    // Every acknowledged create, whichever node answered it, is readable through B, whole.
    for (const entry of acknowledged) {
      const read = await call(nodeB, "GET", entry.uri, { token: adminToken });
      expect([entry.uri, read.status, read.body.title]).toEqual([entry.uri, 200, entry.title]);
    }
    // Nothing half-written: under each parent (or at the top of the resource) the positions are
    // exactly 0..n-1, including nodes A created but never acknowledged.
    const objects: Json[] = [];
    for (let page = 1; ; page++) {
      const list = await call(nodeB, "GET", `/repositories/${repo}/archival_objects?page=${page}&page_size=250`, {
        token: adminToken,
      });
      expect(list.status).toBe(200);
      objects.push(...(list.body.results as Json[]));
      if (page >= (list.body.last_page as number)) break;
    }
    const siblings = new Map<string, number[]>();
    for (const object of objects) {
      const holder = ((object.parent as Json | undefined)?.ref ?? (object.resource as Json).ref) as string;
      siblings.set(holder, [...(siblings.get(holder) ?? []), object.position as number]);
    }
    for (const [holder, positions] of siblings) {
      expect([holder, positions.sort((a, b) => a - b)]).toEqual([holder, positions.map((_, i) => i)]);
    }
    expect(objects.length).toBeGreaterThanOrEqual(
      acknowledged.filter((entry) => entry.uri.includes("/archival_objects/")).length,
    );
    // And B still logs people in and takes sessions A issued before it died.
    expect(await call(nodeB, "GET", "/users/current-user", { token: adminToken })).toMatchObject({
      status: 200,
      body: { username: "admin" },
    });
    await login(nodeB, "ann", "pw-ann");
    const imported = await call(nodeB, "POST", `/repositories/${importRepo}/imports?format=ead`, {
      token: adminToken,
      body: readFileSync(join(EAD, "ferris.xml"), "utf8"),
    });
    expect(imported.status).toBe(200);
  }, 60_000);
});
