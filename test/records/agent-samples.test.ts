// The agent and subject samples (test/fixtures/archivesspace-samples/) are accepted, stored and
// returned whole through the operations, and together they give a value to every writable property
// ArchivesSpace's schemas declare for the agent and subject records and their sub-records
// (test/fixtures/archivesspace-schemas/): the proof that those properties are modelled.
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { fileURLToPath } from "node:url";
import type { UserActor } from "../../src/auth/actor.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/registry/json.js";
import { admin, openHarness, type RecordsHarness } from "./harness.js";

const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
const SAMPLE_TYPES = ["agent_person", "agent_family", "agent_corporate_entity", "agent_software", "subject"];

interface SchemaFixture {
  source: string;
  properties: Record<string, string>;
  readonly: string[];
  not_modelled?: Record<string, string>;
}

function readJson(path: string): JsonValue {
  return JSON.parse(readFileSync(path, "utf8")) as JsonValue;
}

function sample(type: string): JsonObject {
  const value = readJson(`${fixtures}archivesspace-samples/${type}.json`);
  if (!isJsonObject(value)) throw new Error(`${type}: a sample is an object`);
  return value;
}

// The schema fixtures this branch wrote: the agents', their sub-records' and the subject's.
const SCHEMA_FIXTURES = new Map<string, SchemaFixture>(
  readdirSync(`${fixtures}archivesspace-schemas`)
    .filter((file) => file.endsWith(".json"))
    .map((file) => [file.replace(/\.json$/, ""), readJson(`${fixtures}archivesspace-schemas/${file}`) as never]),
);

// Properties no sample can give: the server assigns a record's uri; ArchivesSpace starts the specific relator
// list empty (an administrator adds its values), so no value is valid in a fresh store.
const UNWRITABLE = new Map([
  ["uri", "assigned by the server"],
  ["specific_relator", "its enumeration starts empty in ArchivesSpace"],
]);

/** `value` with each "@<record type>" placeholder (a `ref`, or a bare uri such as a subject's vocabulary) replaced. */
function substituted(value: JsonValue, uris: ReadonlyMap<string, string>): JsonValue {
  if (Array.isArray(value)) return value.map((item) => substituted(item, uris));
  if (isJsonObject(value)) {
    const copy: Record<string, JsonValue> = {};
    for (const [key, inner] of Object.entries(value)) copy[key] = substituted(inner, uris);
    return copy;
  }
  if (typeof value === "string" && value.startsWith("@")) {
    const uri = uris.get(value.slice(1));
    if (uri === undefined) throw new Error(`no target for ${value}`);
    return uri;
  }
  return value;
}

/** The properties given anywhere in the samples, by jsonmodel_type (a sample's top level by its type). */
function propertiesGiven(): Map<string, Set<string>> {
  const given = new Map<string, Set<string>>();
  const walk = (value: JsonValue, type: string | undefined): void => {
    if (Array.isArray(value)) for (const item of value) walk(item, undefined);
    if (!isJsonObject(value)) return;
    const own = typeof value.jsonmodel_type === "string" ? value.jsonmodel_type : type;
    if (own !== undefined) {
      const set = given.get(own) ?? new Set<string>();
      for (const key of Object.keys(value)) if (key !== "jsonmodel_type") set.add(key);
      given.set(own, set);
    }
    for (const inner of Object.values(value)) walk(inner, undefined);
  };
  for (const type of SAMPLE_TYPES) walk(sample(type), type);
  return given;
}

let h: RecordsHarness;
const targets = new Map<string, string>();
beforeAll(async () => {
  h = await openHarness();
  const create = async (type: string, input: JsonObject) =>
    targets.set(type, (await h.ops.create(type, {}, input, admin)).uri);
  await create("vocabulary", { name: "Sample vocabulary", ref_id: "samples" });
  const vocabulary = targets.get("vocabulary") as string;
  await create("subject", {
    source: "local",
    vocabulary,
    terms: [{ term: "Target", term_type: "topical", vocabulary }],
  });
  await create("agent_person", { names: [{ primary_name: "Target person", name_order: "inverted" }] });
  await create("agent_family", { names: [{ family_name: "Target family" }] });
  await create("agent_corporate_entity", { names: [{ primary_name: "Target body" }] });
});
afterAll(() => h.close());

describe.each(SAMPLE_TYPES)("the %s sample", (type) => {
  it("is created with no warnings and every written property reads back equal", async () => {
    const input = substituted(sample(type), targets) as JsonObject;
    const result = await h.ops.create(type, {}, input, admin);
    expect(result.warnings).toEqual([]);
    const read = await h.ops.read(type, {}, result.id, admin);
    expect(read).toMatchObject(input);
  });

  it("names only properties ArchivesSpace's schema declares, and gives every writable one", () => {
    const fixture = SCHEMA_FIXTURES.get(type) as SchemaFixture;
    const written = Object.keys(sample(type));
    expect(written.filter((name) => !Object.hasOwn(fixture.properties, name))).toEqual([]);
    const writable = Object.keys(fixture.properties).filter(
      (name) => !fixture.readonly.includes(name) && !Object.hasOwn(fixture.not_modelled ?? {}, name),
    );
    expect(writable.filter((name) => !written.includes(name) && !UNWRITABLE.has(name))).toEqual([]);
  });
});

it("together the samples give a value to every writable property of every schema fixture of this branch", () => {
  const given = propertiesGiven();
  const missing: string[] = [];
  for (const [type, fixture] of SCHEMA_FIXTURES) {
    for (const name of Object.keys(fixture.properties)) {
      if (fixture.readonly.includes(name) || Object.hasOwn(fixture.not_modelled ?? {}, name)) continue;
      if (UNWRITABLE.has(name) || given.get(type)?.has(name) === true) continue;
      missing.push(`${type}.${name}`);
    }
  }
  expect(missing).toEqual([]);
});

it("every fixture property of the sampled types is one of the Arca schema's, read-only where ArchivesSpace's is", () => {
  for (const type of SAMPLE_TYPES) {
    const fixture = SCHEMA_FIXTURES.get(type) as SchemaFixture;
    const properties = h.ops.deps.registry.get(type).schema.properties as Record<string, JsonObject>;
    for (const name of Object.keys(fixture.properties)) {
      if (Object.hasOwn(fixture.not_modelled ?? {}, name)) {
        expect([type, name, Object.hasOwn(properties, name)]).toEqual([type, name, false]);
        continue;
      }
      expect([type, name, Object.hasOwn(properties, name)]).toEqual([type, name, true]);
      if (fixture.readonly.includes(name)) expect([type, name, properties[name]?.readOnly]).toEqual([type, name, true]);
    }
  }
});

it("an agent's contacts are read only by holders of view_agent_contact_record", async () => {
  const input = substituted(sample("agent_person"), targets) as JsonObject;
  const { id } = await h.ops.create("agent_person", {}, input, admin);
  const user = (codes: string[]): UserActor => ({
    kind: "user",
    username: "reader",
    permissions: { "/repositories/2": codes },
  });
  const plain = await h.ops.read("agent_person", {}, id, user([]));
  expect(plain.agent_contacts ?? []).toEqual([]);
  expect(plain.names).toEqual(input.names);
  const allowed = await h.ops.read("agent_person", {}, id, user(["view_agent_contact_record"]));
  expect(allowed.agent_contacts).toEqual(input.agent_contacts);
});
