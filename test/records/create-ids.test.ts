// A create takes its ids while its repository and links are read, once its records pass their own checks; a create
// refused after that (no such repository, a link to nothing, a field the caller may not fill) gives them back, so a
// refused create moves no counter, and one refused by its own checks never takes any.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ApiError } from "../../src/errors/api-error.js";
import { trusted } from "../../src/auth/actor.js";
import { startRecordServer, type RecordServer } from "../support/service.js";

let server: RecordServer;
let repo: number;
const actor = trusted("test");

beforeAll(async () => {
  server = await startRecordServer({ monitorCommands: true });
  repo = (await server.ops.create("repository", {}, { repo_code: "ids", name: "Ids" }, actor)).id;
});
afterAll(() => server.stop());

const accession = (id1: string, extra: Record<string, unknown> = {}) => ({
  id_0: "IDS",
  id_1: id1,
  title: "Papers",
  accession_date: "2024-01-01",
  ...extra,
});

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
  throw new Error("the create was not refused");
}

/** The counter writes (id allocations and their returns) sent while `work` ran. */
async function counterWrites(work: () => Promise<unknown>): Promise<number> {
  const log = server.commands;
  if (log === undefined) throw new Error("the server was started without command monitoring");
  log.clear();
  await work();
  return log.started.filter(
    (event) => event.commandName !== "find" && event.command[event.commandName] === "arca_counters",
  ).length;
}

describe("a create's ids", () => {
  it("go back when the repository or a link refuses the create: the next create takes the next id", async () => {
    const before = await server.ops.create("accession", { repoId: repo }, accession("1"), actor);
    expect(await status(server.ops.create("accession", { repoId: 999 }, accession("2"), actor))).toBe(404);
    const missingAgent = { linked_agents: [{ ref: "/agents/people/999999", role: "creator" }] };
    expect(await status(server.ops.create("accession", { repoId: repo }, accession("3", missingAgent), actor))).toBe(
      400,
    );
    const after = await server.ops.create("accession", { repoId: repo }, accession("4"), actor);
    expect(after.id).toBe(before.id + 1);
  });

  it("are not taken by a create its own checks refuse", async () => {
    const writes = await counterWrites(async () => {
      expect(await status(server.ops.create("accession", { repoId: repo }, { title: 42 }, actor))).toBe(400);
    });
    expect(writes).toBe(0);
  });

  it("are taken once and given back once when a link refuses the create", async () => {
    const missingAgent = { linked_agents: [{ ref: "/agents/people/999998", role: "creator" }] };
    const writes = await counterWrites(async () => {
      expect(await status(server.ops.create("accession", { repoId: repo }, accession("5", missingAgent), actor))).toBe(
        400,
      );
    });
    expect(writes).toBe(2);
  });

  it("still answer a missing repository before the record's own problems", async () => {
    expect(await status(server.ops.create("accession", { repoId: 998 }, { title: 42 }, actor))).toBe(404);
  });
});
