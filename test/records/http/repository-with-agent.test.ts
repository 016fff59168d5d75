// /repositories/with_agent over real HTTP (docs/api.md §16): a repository and the corporate agent
// standing for it, read, created and updated together, each write all or nothing.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startService, type Service } from "../../support/service.js";

let service: Service;
let admin: string;
/** A user holding nothing. */
let nobody: string;

type Json = Record<string, unknown>;

const agent = (name: string): Json => ({
  names: [{ primary_name: name, source: "local", sort_name_auto_generate: true }],
});

/** `token` "": no session. */
async function send(method: string, path: string, body?: unknown, token = admin) {
  return service.send(method, path, { token, body });
}

async function count(type: string): Promise<number> {
  return service.connection.collection(service.ops.deps.store.collection(type).collectionName).countDocuments();
}

beforeAll(async () => {
  service = await startService();
  admin = service.adminToken;
  await send("POST", "/users?password=pw", { username: "plain", name: "Plain" });
  nobody = await service.login("plain", "pw");
});
afterAll(() => service.stop());

describe("POST /repositories/with_agent and GET /repositories/with_agent/:id", () => {
  it("creates the agent and the repository linking it; the read shows both", async () => {
    const created = await send("POST", "/repositories/with_agent", {
      repository: { repo_code: "WA1", name: "With agent" },
      agent_representation: agent("With Agent Archives"),
    });
    expect(created.status).toBe(200);
    const result = created.body as Json;
    expect(result).toMatchObject({ status: "Created", lock_version: 0, uri: `/repositories/${String(result.id)}` });
    const read = await send("GET", `/repositories/with_agent/${String(result.id)}`);
    expect(read.status).toBe(200);
    const doc = read.body as { repository: Json; agent_representation: Json; uri: string; jsonmodel_type: string };
    expect(doc.jsonmodel_type).toBe("repository_with_agent");
    expect(doc.uri).toBe(`/repositories/with_agent/${String(result.id)}`);
    expect(doc.repository).toMatchObject({ repo_code: "WA1", uri: result.uri });
    expect(doc.agent_representation).toMatchObject({ jsonmodel_type: "agent_corporate_entity" });
    expect(doc.repository.agent_representation).toEqual({ ref: doc.agent_representation.uri });
    expect((doc.agent_representation.names as Json[])[0]).toMatchObject({ primary_name: "With Agent Archives" });
  });

  it("without an agent, creates the repository alone", async () => {
    const created = await send("POST", "/repositories/with_agent", { repository: { repo_code: "WA2", name: "Alone" } });
    expect(created.status).toBe(200);
    const read = await send("GET", `/repositories/with_agent/${String((created.body as Json).id)}`);
    expect(read.body).not.toHaveProperty("agent_representation");
  });

  it("a bad repository writes nothing, not even the agent: 400 naming repository/<field>", async () => {
    const [agents, repositories] = [await count("agent_corporate_entity"), await count("repository")];
    const reply = await send("POST", "/repositories/with_agent", {
      repository: { name: "No code" },
      agent_representation: agent("Orphan"),
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: { "repository/repo_code": [expect.any(String)] } });
    expect(await count("agent_corporate_entity")).toBe(agents);
    expect(await count("repository")).toBe(repositories);
  });

  it("a repository code in use is a 400 that moves no id counter (the agent's and the repository's go back)", async () => {
    const taken = await send("POST", "/repositories/with_agent", { repository: { repo_code: "TAKEN", name: "First" } });
    expect(taken.status).toBe(200);
    const counters = () =>
      service.connection
        .collection("arca_counters")
        .find({}, { sort: { _id: 1 } })
        .toArray();
    const before = await counters();
    const reply = await send("POST", "/repositories/with_agent", {
      repository: { repo_code: "TAKEN", name: "Second" },
      agent_representation: agent("Never made"),
    });
    expect([reply.status, reply.body]).toEqual([400, { error: { "repository/repo_code": [expect.any(String)] } }]);
    expect(await counters()).toEqual(before);
    // The plain record route gives its id back too.
    const plain = await send("POST", "/repositories", { repo_code: "TAKEN", name: "Third" });
    expect([plain.status, plain.body]).toEqual([400, { error: { repo_code: [expect.any(String)] } }]);
    expect(await counters()).toEqual(before);
  });

  it("a bad agent is a 400 naming agent_representation/<field>; no repository part is a 400 naming it", async () => {
    const badAgent = await send("POST", "/repositories/with_agent", {
      repository: { repo_code: "WA3", name: "Bad agent" },
      agent_representation: { names: [] },
    });
    expect(badAgent.status).toBe(400);
    expect(Object.keys((badAgent.body as { error: Json }).error)[0]).toMatch(/^agent_representation\/names/);
    const none = await send("POST", "/repositories/with_agent", { agent_representation: agent("x") });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: { repository: ["Property is required but was missing"] } });
  });

  it("403 without create_repository or a session; 404 for a missing repository", async () => {
    const body = { repository: { repo_code: "NOPE", name: "Nope" } };
    expect((await send("POST", "/repositories/with_agent", body, "")).status).toBe(403);
    expect((await send("POST", "/repositories/with_agent", body, nobody)).status).toBe(403);
    expect((await send("GET", "/repositories/with_agent/2", undefined, "")).status).toBe(403);
    expect((await send("GET", "/repositories/with_agent/2", undefined, nobody)).status).toBe(200);
    const missing = await send("GET", "/repositories/with_agent/9999");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "Repository not found" });
    expect((await send("GET", "/repositories/with_agent/1")).status).toBe(404);
  });
});

describe("POST /repositories/with_agent/:id", () => {
  async function made(code: string, withAgent: boolean): Promise<{ id: number; doc: Json }> {
    const created = await send("POST", "/repositories/with_agent", {
      repository: { repo_code: code, name: code },
      ...(withAgent ? { agent_representation: agent(`${code} agent`) } : {}),
    });
    const id = Number((created.body as Json).id);
    return { id, doc: (await send("GET", `/repositories/with_agent/${id}`)).body as Json };
  }

  it("updates the linked agent and the repository together", async () => {
    const { id, doc } = await made("UP1", true);
    const agentRecord = doc.agent_representation as Json;
    const reply = await send("POST", `/repositories/with_agent/${id}`, {
      repository: { ...(doc.repository as Json), name: "Renamed" },
      agent_representation: { ...agentRecord, names: [{ primary_name: "Renamed agent", source: "local" }] },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: "Updated", id, lock_version: 1 });
    const after = (await send("GET", `/repositories/with_agent/${id}`)).body as Json;
    expect((after.repository as Json).name).toBe("Renamed");
    expect((after.agent_representation as Json).uri).toBe(agentRecord.uri);
    expect(((after.agent_representation as Json).names as Json[])[0]).toMatchObject({ primary_name: "Renamed agent" });
  });

  it("creates and links an agent for a repository without one; no agent given unlinks it", async () => {
    const { id, doc } = await made("UP2", false);
    const linked = await send("POST", `/repositories/with_agent/${id}`, {
      repository: doc.repository,
      agent_representation: agent("Brand new"),
    });
    expect(linked.status).toBe(200);
    const after = (await send("GET", `/repositories/with_agent/${id}`)).body as Json;
    expect(after.agent_representation).toMatchObject({ jsonmodel_type: "agent_corporate_entity" });
    const unlinked = await send("POST", `/repositories/with_agent/${id}`, { repository: after.repository });
    expect(unlinked.status).toBe(200);
    const last = (await send("GET", `/repositories/with_agent/${id}`)).body as Json;
    expect(last).not.toHaveProperty("agent_representation");
    expect(last.repository).not.toHaveProperty("agent_representation");
  });

  it("a stale lock_version while making an agent for a repository without one: 409, no agent, no counter moved", async () => {
    const { id, doc } = await made("UP5", false);
    const counters = () =>
      service.connection
        .collection("arca_counters")
        .find({}, { sort: { _id: 1 } })
        .toArray();
    const [before, agents] = [await counters(), await count("agent_corporate_entity")];
    const reply = await send("POST", `/repositories/with_agent/${id}`, {
      repository: { ...(doc.repository as Json), lock_version: 7 },
      agent_representation: agent("Never linked"),
    });
    expect(reply.status).toBe(409);
    expect([await counters(), await count("agent_corporate_entity")]).toEqual([before, agents]);
  });

  it("a stale repository lock_version is a 409 and the agent's change is undone", async () => {
    const { id, doc } = await made("UP3", true);
    const agentRecord = doc.agent_representation as Json;
    const reply = await send("POST", `/repositories/with_agent/${id}`, {
      repository: { ...(doc.repository as Json), lock_version: 7 },
      agent_representation: { ...agentRecord, names: [{ primary_name: "Never", source: "local" }] },
    });
    expect(reply.status).toBe(409);
    const after = (await send("GET", `/repositories/with_agent/${id}`)).body as Json;
    expect(((after.agent_representation as Json).names as Json[])[0]).toMatchObject({ primary_name: "UP3 agent" });
    expect((after.agent_representation as Json).lock_version).toBe(agentRecord.lock_version);
  });

  it("404 for a missing repository; 403 without create_repository", async () => {
    const missing = await send("POST", "/repositories/with_agent/9999", { repository: { lock_version: 0 } });
    expect(missing.status).toBe(404);
    const { doc } = await made("UP4", false);
    const body = { repository: { ...(doc.repository as Json), name: "Not yours" } };
    expect(
      (
        await send(
          "POST",
          `/repositories/with_agent/${String((doc.repository as Json).uri).split("/")[2]}`,
          body,
          nobody,
        )
      ).status,
    ).toBe(403);
  });
});
