// Derived fields (x-derived in record-types/README.md): every agent name's sort_name is produced on each create and
// update as ArchivesSpace 2.7.1 produces it (the examples of its rules per name type), unless the name's
// sort_name_auto_generate is false and a sort_name is sent; it is stored, so `names.sort_name` lookups find it, and
// the agent's title (a copy of its display name's sort_name) shows it.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";

type Json = Record<string, unknown>;
let server: RecordServer;
let token: string;

beforeAll(async () => {
  server = await startRecordServer();
  token = await server.login("admin", globalGrants([...PERMISSIONS]));
});
afterAll(() => server.stop());

async function post(path: string, body: Json): Promise<{ uri: string; stale?: boolean }> {
  const reply = await server.send("POST", path, { token, body });
  expect([reply.status, reply.body]).toEqual([200, expect.objectContaining({ warnings: [] })]);
  return reply.body as { uri: string; stale?: boolean };
}
async function get(uri: string): Promise<Json> {
  const reply = await server.send("GET", uri, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}
const namesOf = (record: Json) => record.names as Json[];
/** The sort names an agent of `path` with these names is stored with, as read back. */
async function sortNames(path: string, names: Json[]): Promise<unknown[]> {
  return namesOf(await get((await post(path, { names })).uri)).map((name) => name.sort_name);
}
const person = (fields: Json): Json => ({ source: "local", name_order: "inverted", ...fields });

describe("an agent name's sort_name, per name type (ArchivesSpace 2.7.1's examples)", () => {
  it("a person: inverted or direct order, then prefix, suffix, title, number, (fuller form), dates, (qualifier)", async () => {
    expect(
      await sortNames("/agents/people", [
        person({
          primary_name: "Smith",
          rest_of_name: "John",
          suffix: "Jr.",
          title: "Dr.",
          fuller_form: "John Q.",
          dates: "1900-1980",
          qualifier: "Boston",
        }),
        person({ primary_name: "Smith", rest_of_name: "John", number: "III", name_order: "direct" }),
        // Direct without a rest of name: no leading space (ArchivesSpace strips it).
        person({ primary_name: "Smith", name_order: "direct", prefix: "Mr." }),
        person({ primary_name: "  Smith", rest_of_name: "Ann", dates: "1901" }),
      ]),
    ).toEqual([
      "Smith, John, Jr., Dr. (John Q.), 1900-1980 (Boston)",
      "John Smith, III",
      "Smith, Mr.",
      "Smith, Ann, 1901",
    ]);
  });

  it("a corporate entity: primary. subordinate 1. subordinate 2 (number : dates) (qualifier)", async () => {
    const corporate = (fields: Json): Json => ({ source: "local", primary_name: "Yale University", ...fields });
    expect(
      await sortNames("/agents/corporate_entities", [
        corporate({
          subordinate_name_1: "Library",
          subordinate_name_2: "Manuscripts and Archives",
          number: "2",
          dates: "1990",
        }),
        corporate({ dates: "1990" }),
        corporate({ number: "3", qualifier: "New Haven" }),
      ]),
    ).toEqual([
      "Yale University. Library. Manuscripts and Archives (2 : 1990)",
      "Yale University (1990)",
      "Yale University (3) (New Haven)",
    ]);
  });

  it("a family: family name, prefix, dates (qualifier)", async () => {
    expect(
      await sortNames("/agents/families", [
        { source: "local", family_name: "Adams", prefix: "House of", dates: "1700-1900", qualifier: "Mass." },
        { source: "local", family_name: "Adams" },
      ]),
    ).toEqual(["Adams, House of, 1700-1900 (Mass.)", "Adams"]);
  });

  it("software: manufacturer software name version (qualifier)", async () => {
    expect(
      await sortNames("/agents/software", [
        { source: "local", manufacturer: "Microsoft", software_name: "Word", version: "2.0" },
        { source: "local", software_name: "Word" },
        { source: "local", software_name: "Word", qualifier: "editor" },
      ]),
    ).toEqual(["Microsoft Word 2.0", "Word", "Word (editor)"]);
  });

  it("cut to 255 characters; parallel names get their name type's rule", async () => {
    const [long] = await sortNames("/agents/people", [person({ primary_name: "A".repeat(250), dates: "1900-1980" })]);
    expect(long).toBe(`${"A".repeat(250)}, 190`);
    const agent = await post("/agents/corporate_entities", {
      names: [
        {
          source: "local",
          primary_name: "Université de Montréal",
          parallel_names: [{ primary_name: "University of Montreal", subordinate_name_1: "Library", dates: "1878" }],
        },
      ],
    });
    const [name] = namesOf(await get(agent.uri));
    expect(name?.parallel_names).toEqual([
      expect.objectContaining({ sort_name: "University of Montreal. Library (1878)", sort_name_auto_generate: true }),
    ]);
  });
});

describe("sort_name_auto_generate", () => {
  it("true (the default): a sent sort_name is replaced by the produced one, and the answer says stale", async () => {
    const created = await post("/agents/people", { names: [person({ primary_name: "Hollis", sort_name: "Zed" })] });
    expect(created.stale).toBe(true);
    expect(namesOf(await get(created.uri))[0]).toMatchObject({ sort_name: "Hollis", sort_name_auto_generate: true });
  });

  it("false: the sent sort_name is kept; with none sent, one is produced anyway", async () => {
    expect(
      await sortNames("/agents/people", [
        person({ primary_name: "Hollis", sort_name: "Mrs Hollis", sort_name_auto_generate: false }),
        person({ primary_name: "Hollis", rest_of_name: "M.", sort_name_auto_generate: false }),
      ]),
    ).toEqual(["Mrs Hollis", "Hollis, M."]);
  });

  it("an update produces it again from the new fields, unless the flag is false and one is sent", async () => {
    const { uri } = await post("/agents/people", {
      names: [
        person({ primary_name: "Hollis", authorized: true }),
        person({ primary_name: "Kept", sort_name: "Kept by hand", sort_name_auto_generate: false }),
      ],
    });
    const before = await get(uri);
    expect(before.title).toBe("Hollis");
    const [first, second] = namesOf(before);
    const reply = await server.send("POST", uri, {
      token,
      body: {
        ...before,
        names: [
          // Its old sort_name sent back with new fields: produced again.
          { ...first, rest_of_name: "Margaret", dates: "1850-1931" },
          { ...second, rest_of_name: "Changed" },
        ],
      },
    });
    expect(reply.status).toBe(200);
    const after = await get(uri);
    expect(namesOf(after).map((name) => name.sort_name)).toEqual(["Hollis, Margaret, 1850-1931", "Kept by hand"]);
    // The agent's title copies its display name's sort_name (the authorized one here).
    expect(after.title).toBe("Hollis, Margaret, 1850-1931");
    expect(after.display_name).toMatchObject({ sort_name: "Hollis, Margaret, 1850-1931" });
  });
});

describe("stored, so lookups by names.sort_name find it", () => {
  it("the produced value is in the stored record and its index answers it", async () => {
    const { uri } = await post("/agents/families", {
      names: [{ source: "local", family_name: "Derived", prefix: "House of", dates: "1700-1900" }],
    });
    const agents = server.ops.deps.store.collection("agent_family");
    const found = await agents.find({ "names.sort_name": "Derived, House of, 1700-1900" }).toArray();
    expect(found.map((record) => `/agents/families/${String(record.id)}`)).toEqual([uri]);
    // A name sent without a sort name was not stored without one.
    expect(await agents.countDocuments({ "names.sort_name": { $exists: false } })).toBe(0);
  });
});
