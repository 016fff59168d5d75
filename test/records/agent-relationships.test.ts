// An agent relationship is one fact seen from both agents (x-reciprocal), as ArchivesSpace shows
// it: written on one side, it reads back on the other with the inverse relator, in the same
// transaction; removed from either side, or with either agent, it is gone from both.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import type { ApiError } from "../../src/errors/api-error.js";
import type { Change } from "../../src/records/changes.js";
import type { JsonObject } from "../../src/registry/index.js";
import { admin, openHarness, type RecordsHarness } from "./harness.js";

let h: RecordsHarness;
const changes: Change[] = [];
beforeAll(async () => {
  h = await openHarness();
  h.ops.deps.changes.subscribe((change) => {
    changes.push(change);
  });
});
afterAll(() => h.close());

const global = {};
let seq = 0;

async function person(extra: JsonObject = {}): Promise<string> {
  const names = [{ primary_name: `Person ${++seq}`, name_order: "inverted" }];
  return (await h.ops.create("agent_person", global, { names, ...extra }, admin)).uri;
}

async function corporate(extra: JsonObject = {}): Promise<string> {
  const names = [{ primary_name: `Body ${++seq}` }];
  return (await h.ops.create("agent_corporate_entity", global, { names, ...extra }, admin)).uri;
}

function idOf(uri: string): number {
  return Number(uri.split("/").pop());
}

function typeOf(uri: string): string {
  return uri.includes("/corporate_entities/") ? "agent_corporate_entity" : "agent_person";
}

function read(uri: string): Promise<JsonObject> {
  return h.ops.read(typeOf(uri), global, idOf(uri), admin);
}

async function update(uri: string, change: (record: JsonObject) => JsonObject): Promise<void> {
  await h.ops.update(typeOf(uri), global, idOf(uri), change(await read(uri)), admin);
}

function related(record: JsonObject): JsonObject[] {
  return record.related_agents as JsonObject[];
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected the operation to fail");
}

const parentOf = (ref: string, extra: JsonObject = {}): JsonObject => ({
  jsonmodel_type: "agent_relationship_parentchild",
  relator: "is_parent_of",
  ref,
  ...extra,
});

it("a relationship written on A reads back on B with the inverse relator, and B moves on one lock_version", async () => {
  const b = await person();
  const before = await read(b);
  changes.length = 0;
  const a = await person({
    related_agents: [
      parentOf(b, {
        description: "Raised by",
        dates: {
          date_label: "existence",
          date_type_structured: "single",
          structured_date_single: { date_role: "begin", date_expression: "1901" },
        },
      }),
    ],
  });
  const seenFromB = related(await read(b));
  expect(seenFromB).toEqual([
    {
      jsonmodel_type: "agent_relationship_parentchild",
      relator: "is_child_of",
      ref: a,
      description: "Raised by",
      dates: {
        jsonmodel_type: "structured_date_label",
        date_label: "existence",
        date_type_structured: "single",
        structured_date_single: {
          jsonmodel_type: "structured_date_single",
          date_role: "begin",
          date_expression: "1901",
          date_standardized_type: "standard",
        },
      },
    },
  ]);
  expect((await read(b)).lock_version).toBe((before.lock_version as number) + 1);
  expect(related(await read(a))).toMatchObject([{ relator: "is_parent_of", ref: b }]);
  // B's change is recorded as an update, beside A's create.
  expect(changes).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ type: "agent_person", operation: "update", id: idOf(b) }),
      expect.objectContaining({ type: "agent_person", operation: "create", id: idOf(a) }),
    ]),
  );
});

it("a symmetric relationship keeps its relator on both sides, and other agent types take theirs", async () => {
  const body = await corporate();
  const a = await person({
    related_agents: [{ jsonmodel_type: "agent_relationship_associative", relator: "is_associative_with", ref: body }],
  });
  expect(related(await read(body))).toEqual([
    { jsonmodel_type: "agent_relationship_associative", relator: "is_associative_with", ref: a },
  ]);
  const superior = await corporate();
  const sub = await corporate({
    related_agents: [
      { jsonmodel_type: "agent_relationship_subordinatesuperior", relator: "is_subordinate_to", ref: superior },
    ],
  });
  expect(related(await read(superior))).toEqual([
    { jsonmodel_type: "agent_relationship_subordinatesuperior", relator: "is_superior_of", ref: sub },
  ]);
});

it("updated from B's side, the change shows on A; removed from B, it is gone from both", async () => {
  const b = await person();
  const a = await person({ related_agents: [parentOf(b)] });
  // B, as read (holding the mirror), changes the relationship's description.
  await update(b, (record) => ({
    ...record,
    related_agents: related(record).map((item) => ({ ...item, description: "Adopted" })),
  }));
  expect(related(await read(a))).toEqual([
    { jsonmodel_type: "agent_relationship_parentchild", relator: "is_parent_of", ref: b, description: "Adopted" },
  ]);
  // Saving A unchanged changes nothing on B (no write: its lock_version stays).
  const bBefore = (await read(b)).lock_version;
  await update(a, (record) => record);
  expect((await read(b)).lock_version).toBe(bBefore);

  await update(b, (record) => ({ ...record, related_agents: [] }));
  expect(related(await read(a))).toEqual([]);
  expect(related(await read(b))).toEqual([]);
});

it("removed from A's side, it is gone from B; other relationships of B stay where they were", async () => {
  const other = await person();
  const b = await person();
  await update(b, (record) => ({ ...record, related_agents: [parentOf(other)] }));
  const a = await person({ related_agents: [parentOf(b)] });
  expect(related(await read(b)).map((item) => item.ref)).toEqual([other, a]);
  await update(a, (record) => ({ ...record, related_agents: [] }));
  expect(related(await read(b))).toEqual([parentOf(other)]);
  expect(related(await read(other))).toEqual([parentOf(b, { relator: "is_child_of" })]);
});

it("deleting an agent removes the relationships to it", async () => {
  const b = await person();
  const c = await person();
  const a = await person({ related_agents: [parentOf(b), parentOf(c)] });
  await h.ops.delete("agent_person", global, idOf(a), admin);
  expect(related(await read(b))).toEqual([]);
  expect(related(await read(c))).toEqual([]);
});

it("a relationship to a missing agent, to one of a type the relationship does not take, or to itself is a 400", async () => {
  const missing = await failure(person({ related_agents: [parentOf("/agents/people/999999")] }));
  expect(missing.status).toBe(400);
  expect(missing.detail).toEqual({
    "related_agents/0/ref": ["Reference to /agents/people/999999 does not exist"],
  });
  // A parent-child relationship is between people only.
  const body = await corporate();
  const wrongType = await failure(person({ related_agents: [parentOf(body)] }));
  expect(wrongType.status).toBe(400);
  expect(Object.keys(wrongType.detail as object)).toEqual(["related_agents/0/ref"]);

  const a = await person();
  const itself = await failure(update(a, (record) => ({ ...record, related_agents: [parentOf(a)] })));
  expect(itself.status).toBe(400);
  expect(itself.detail).toEqual({ "related_agents/0/ref": ["Must not refer to the record itself"] });
  expect(related(await read(a))).toEqual([]);
});

it("a contradicting write from the other side states the pair anew: the last write wins, both sides agree", async () => {
  const b = await person();
  const a = await person({ related_agents: [parentOf(b)] });
  // B read A's mirror (B is child of A) and now says the opposite: B is parent of A.
  await update(b, (record) => ({ ...record, related_agents: [parentOf(a)] }));
  expect(related(await read(b))).toEqual([parentOf(a)]);
  expect(related(await read(a))).toEqual([parentOf(b, { relator: "is_child_of" })]);
});

it("a client holding a copy of B from before A's write gets a 409, not a silent undo", async () => {
  const b = await person();
  const stale = await read(b);
  await person({ related_agents: [parentOf(b)] });
  const refused = await failure(h.ops.update("agent_person", global, idOf(b), { ...stale, related_agents: [] }, admin));
  expect(refused.status).toBe(409);
  expect(related(await read(b))).toHaveLength(1);
});

it("a batch whose agents name each other ends consistent", async () => {
  const ids = await h.ops.deps.store.nextIds("agent_person", 2);
  const [first, second] = [ids, ids + 1].map((id) => `/agents/people/${id}`) as [string, string];
  const names = (n: string) => [{ primary_name: n, name_order: "inverted" }];
  await h.ops.createMany(
    "agent_person",
    global,
    [
      { id: ids, input: { names: names("First"), related_agents: [parentOf(second)] } },
      { id: ids + 1, input: { names: names("Second"), related_agents: [parentOf(first, { relator: "is_child_of" })] } },
    ],
    admin,
  );
  expect(related(await read(first))).toEqual([parentOf(second)]);
  expect(related(await read(second))).toEqual([parentOf(first, { relator: "is_child_of" })]);
});
