// Every property of ArchivesSpace's own schemas is a property of Arca's record types, accepted, stored and returned
// (issue 13). The property lists are data recorded from ArchivesSpace's common/schemas/*.rb, one file per schema, in
// test/fixtures/archivesspace-schemas/<jsonmodel_type>.json:
//   { "source": "...", "properties": {name: ArchivesSpace's type}, "readonly": [names],
//     "not_modelled"?: {name: why}, "writable_in_arca"?: {name: why} }
// `readonly` holds what ArchivesSpace marks readonly or computes and ignores on input; `writable_in_arca` the few of
// those Arca takes on write, each with its reason. A top-level schema matches the record type of its name, a
// subrecord the schema node whose jsonmodel_type is that constant.
//
// test/fixtures/archivesspace-samples/<record type>.json are records giving a value to every writable property of
// their type and of the subrecords in them. A string "@<type>" (or "@<type>:<key>", for a second record of the same
// type) anywhere in a sample stands for the uri of a record of that type, created first from MINIMAL below, once per
// distinct string; "@<type>#<field>" (or "@<type>:<key>#<field>") for a field of that record ("#id": its id). Every
// file in both folders is read: adding a file adds its checks.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/registry/json.js";
import { registry } from "../../src/registry/index.js";
import { addEnumerationValues, admin, openHarness, type RecordsHarness } from "../records/harness.js";
import { readJsonObject, repoRoot } from "./helpers.js";

const SCHEMAS_DIR = join(repoRoot, "test", "fixtures", "archivesspace-schemas");
const SAMPLES_DIR = join(repoRoot, "test", "fixtures", "archivesspace-samples");

/** Properties the server keeps for every record and subrecord, whatever ArchivesSpace's schema says of them. */
const SERVER_MAINTAINED = new Set(["uri", "jsonmodel_type", "lock_version", "_resolved"]);

interface SchemaFixture {
  name: string;
  properties: string[];
  readonly: Set<string>;
  notModelled: Set<string>;
  writableInArca: Set<string>;
}

function names(value: JsonValue | undefined): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return isJsonObject(value) ? Object.keys(value) : [];
}

function jsonFiles(dir: string): Array<{ name: string; body: JsonObject }> {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({ name: file.slice(0, -".json".length), body: readJsonObject(join(dir, file)) }));
}

const fixtures: SchemaFixture[] = jsonFiles(SCHEMAS_DIR).map(({ name, body }) => ({
  name,
  properties: names(body.properties),
  readonly: new Set(names(body.readonly)),
  notModelled: new Set(names(body.not_modelled)),
  writableInArca: new Set(names(body.writable_in_arca)),
}));
const samples = jsonFiles(SAMPLES_DIR);

/** What a client may write of a fixture's schema. */
function writable(fixture: SchemaFixture): string[] {
  return fixture.properties.filter(
    (name) =>
      !SERVER_MAINTAINED.has(name) &&
      !fixture.notModelled.has(name) &&
      (!fixture.readonly.has(name) || fixture.writableInArca.has(name)),
  );
}

// ---------------------------------------------------------------------------------------------
// Arca's schema nodes, from the bundled schemas the service runs on.

function resolveDef(root: JsonObject, node: JsonObject): JsonObject {
  const ref = node.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return node;
  const defs = root.$defs;
  const target = isJsonObject(defs) ? defs[ref.slice("#/$defs/".length)] : undefined;
  return isJsonObject(target) ? target : node;
}

function constOf(node: JsonObject): string | undefined {
  const properties = node.properties;
  const type = isJsonObject(properties) ? properties.jsonmodel_type : undefined;
  return isJsonObject(type) && typeof type.const === "string" ? type.const : undefined;
}

/**
 * Every subrecord schema (a node whose jsonmodel_type is a constant) of every record type, by that constant, and the
 * ones a client can write: those reached from a top-level schema without passing a readOnly node.
 */
function subrecordNodes(): { nodes: Map<string, JsonObject>; writable: Set<string> } {
  const nodes = new Map<string, JsonObject>();
  const reachable = new Set<string>();
  for (const type of registry.types) {
    const root = type.schema;
    // A node is walked once where it can be written and once where it is only read (read-only below).
    const seen = { visible: new Set<JsonObject>(), hidden: new Set<JsonObject>() };
    const visit = (raw: JsonObject, readOnly: boolean): void => {
      const node = resolveDef(root, raw);
      const hidden = readOnly || raw.readOnly === true || node.readOnly === true;
      if (seen.visible.has(node) || (hidden && seen.hidden.has(node))) return;
      (hidden ? seen.hidden : seen.visible).add(node);
      const name = constOf(node);
      if (name !== undefined && node !== root) {
        if (!nodes.has(name)) nodes.set(name, node);
        if (!hidden) reachable.add(name);
      }
      const children: JsonValue[] = [
        ...Object.values(isJsonObject(node.properties) ? node.properties : {}),
        node.items ?? null,
        ...["oneOf", "anyOf", "allOf"].flatMap((key) => {
          const value = node[key];
          return Array.isArray(value) ? value : [];
        }),
      ];
      for (const child of children) if (isJsonObject(child)) visit(child, hidden);
    };
    visit(root, false);
  }
  return { nodes, writable: reachable };
}

const subrecords = subrecordNodes();

/** The Arca schema node a fixture describes, or undefined. */
function arcaNode(name: string): JsonObject | undefined {
  return registry.has(name) ? registry.get(name).schema : subrecords.nodes.get(name);
}

function arcaProperty(node: JsonObject, name: string): JsonObject | undefined {
  const properties = node.properties;
  const property = isJsonObject(properties) ? properties[name] : undefined;
  return isJsonObject(property) ? property : undefined;
}

describe("every property of ArchivesSpace's schemas is one of Arca's", () => {
  it("reads the recorded schemas and samples", () => {
    expect(fixtures.length).toBeGreaterThan(0);
    expect(samples.length).toBeGreaterThan(0);
  });

  it.each(fixtures.map((fixture) => [fixture.name, fixture] as const))("%s", (name, fixture) => {
    const node = arcaNode(name);
    const modelled = fixture.properties.filter((property) => !fixture.notModelled.has(property));
    if (modelled.length > 0) expect([name, node === undefined ? "no Arca schema" : "found"]).toEqual([name, "found"]);
    const problems: string[] = [];
    for (const property of fixture.properties) {
      const arca = node === undefined ? undefined : arcaProperty(node, property);
      const readOnly = arca?.readOnly === true;
      if (fixture.notModelled.has(property)) {
        if (arca !== undefined) problems.push(`${name}.${property}: listed as not modelled, but Arca has it`);
      } else if (arca === undefined) problems.push(`${name}.${property}: missing`);
      else if (fixture.readonly.has(property) && !fixture.writableInArca.has(property) && !readOnly)
        problems.push(`${name}.${property}: read-only in ArchivesSpace, writable here`);
      else if (writable(fixture).includes(property) && readOnly)
        problems.push(`${name}.${property}: writable in ArchivesSpace, readOnly here`);
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Coverage: what the samples write, by jsonmodel_type. A sample is its file's type; inside it, an object that names
// its jsonmodel_type is that subrecord (the create checks the name against the schema at that place).

function written(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const note = (type: string, object: JsonObject): void => {
    let keys = found.get(type);
    if (keys === undefined) found.set(type, (keys = new Set()));
    for (const key of Object.keys(object)) keys.add(key);
  };
  const walk = (value: JsonValue): void => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (isJsonObject(value)) {
      if (typeof value.jsonmodel_type === "string") note(value.jsonmodel_type, value);
      for (const item of Object.values(value)) walk(item);
    }
  };
  for (const { name, body } of samples) {
    note(name, body);
    for (const item of Object.values(body)) walk(item);
  }
  return found;
}

describe("the samples write every writable property", () => {
  const writtenKeys = written();
  it.each(fixtures.map((fixture) => [fixture.name, fixture] as const))("%s", (name, fixture) => {
    // A subrecord only ever held read-only (an ark_name), or one Arca keeps otherwise (the assessment attribute
    // definitions document), has no writable place: nothing to sample, and no sample may write it.
    if (!registry.has(name) && !subrecords.writable.has(name)) {
      expect([name, writtenKeys.has(name)]).toEqual([name, false]);
      return;
    }
    const keys = writtenKeys.get(name) ?? new Set<string>();
    expect(
      writable(fixture)
        .filter((property) => !keys.has(property))
        .map((p) => `${name}.${p}`),
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Each sample, created through the record operations over the real store, reads back as written.

/** The smallest valid record of each type, for the samples' placeholders; `n` makes unique values unique. */
const MINIMAL = new Map<string, (n: number, key: string) => JsonObject>(
  Object.entries({
    repository: (n) => ({ repo_code: `R${n}`, name: `Repository ${n}` }),
    accession: (n) => ({ id_0: `MIN${n}`, title: `Accession ${n}` }),
    resource: (n) => ({
      title: `Resource ${n}`,
      id_0: `MIN${n}`,
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      lang_materials: [{ language_and_script: { language: "eng" } }],
      dates: [{ date_type: "inclusive", label: "creation", expression: "1900" }],
      extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    }),
    archival_object: (n) => ({ title: `Object ${n}`, level: "file", resource: { ref: "@resource" } }),
    digital_object: (n) => ({ title: `Digital object ${n}`, digital_object_id: `min-${n}` }),
    digital_object_component: (n) => ({ title: `Component ${n}`, digital_object: { ref: "@digital_object" } }),
    classification: (n) => ({ identifier: `MIN${n}`, title: `Classification ${n}` }),
    classification_term: (n) => ({
      identifier: `MIN${n}`,
      title: `Term ${n}`,
      classification: { ref: "@classification" },
    }),
    event: () => ({
      event_type: "accession",
      timestamp: "2024-01-01",
      linked_agents: [{ ref: "@agent_person", role: "implementer" }],
      linked_records: [{ ref: "@accession", role: "source" }],
    }),
    top_container: (n) => ({ indicator: `${n}` }),
    location: (n) => ({ building: `Building ${n}` }),
    location_profile: (n) => ({ name: `Location profile ${n}` }),
    container_profile: (n) => ({
      name: `Container profile ${n}`,
      dimension_units: "inches",
      extent_dimension: "width",
      height: "1",
      width: "1",
      depth: "1",
    }),
    user: (n) => ({ username: `user${n}`, name: `User ${n}` }),
    group: (n) => ({ group_code: `group-${n}` }),
    vocabulary: (n) => ({ name: `Vocabulary ${n}`, ref_id: `vocabulary-${n}` }),
    subject: (n) => ({
      source: "local",
      vocabulary: "@vocabulary",
      terms: [{ term: `Subject ${n}`, term_type: "topical", vocabulary: "@vocabulary" }],
    }),
    agent_person: (n) => ({ names: [{ primary_name: `Person ${n}`, name_order: "direct" }] }),
    agent_family: (n) => ({ names: [{ family_name: `Family ${n}` }] }),
    agent_corporate_entity: (n) => ({ names: [{ primary_name: `Corporation ${n}` }] }),
    agent_software: (n) => ({ names: [{ software_name: `Software ${n}` }] }),
    assessment: () => ({
      records: [{ ref: "@accession" }],
      surveyed_by: [{ ref: "@agent_person" }],
      survey_begin: "2024-01-01",
    }),
    assessment_attribute_definition: (n: number, key: string) => ({ label: `Definition ${n} ${key}`, type: "rating" }),
  }),
);

const PLACEHOLDER = /^@([a-z_]+)(?::([A-Za-z0-9_-]+))?(?:#([a-z_]+))?$/;

let h: RecordsHarness;
let repoId: number;

/** Values an administrator adds before the samples can use them: ArchivesSpace starts these lists empty. */
const ADDED_VALUES = new Map([["agent_relationship_specific_relator", ["is_founder_of"]]]);

beforeAll(async () => {
  h = await openHarness();
  repoId = (await h.ops.create("repository", {}, { repo_code: "props", name: "Properties" }, admin)).id;
  for (const [name, values] of ADDED_VALUES) await addEnumerationValues(h, name, values);
});
afterAll(() => h.close());

function scopeOf(type: string): { repoId?: number } {
  return registry.scopeOf(type) === "repository" ? { repoId } : {};
}

/** The write parameters a type requires on create (a user's password), each given a value. */
function parametersOf(type: string): ReadonlyMap<string, string> {
  const required = registry.get(type).writeParameters.filter((parameter) => parameter.create === "required");
  return new Map(required.map((parameter) => [parameter.name, "Sample-password-1234"]));
}

const made = new Map<string, JsonObject>();
let counter = 0;

/** The record a placeholder names ("@type" or "@type:key"), created the first time it is asked for. */
async function recordFor(type: string, key: string): Promise<JsonObject> {
  const id = `${type}:${key}`;
  const known = made.get(id);
  if (known !== undefined) return known;
  const minimal = MINIMAL.get(type);
  if (minimal === undefined) throw new Error(`no minimal ${type} for a sample's placeholder`);
  const body = (await resolved(minimal(++counter, key))) as JsonObject;
  const result = await h.ops.create(type, scopeOf(type), body, admin, { parameters: parametersOf(type) });
  const record = await h.ops.read(type, scopeOf(type), result.id, admin);
  made.set(id, { ...record, id: result.id });
  return made.get(id) as JsonObject;
}

/** `value` with every placeholder replaced by what it names. */
async function resolved(value: JsonValue): Promise<JsonValue> {
  if (typeof value === "string") {
    const match = PLACEHOLDER.exec(value);
    if (match === null || !registry.has(match[1] as string)) return value;
    const record = await recordFor(match[1] as string, match[2] ?? "");
    const field = match[3] ?? "uri";
    const found = record[field];
    if (found === undefined) throw new Error(`${value}: the record has no ${field}`);
    return found;
  }
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    for (const item of value) items.push(await resolved(item));
    return items;
  }
  if (isJsonObject(value)) {
    const entries: Array<[string, JsonValue]> = [];
    for (const [key, item] of Object.entries(value)) entries.push([key, await resolved(item)]);
    return Object.fromEntries(entries);
  }
  return value;
}

/**
 * Where `read` differs from what was written, as "path: wrote x, read y" lines: every written property must be read
 * back equal (lists item by item); what the server adds (defaults, jsonmodel_type, computed fields) is not compared.
 */
function differences(wrote: JsonValue, read: JsonValue | undefined, path: string): string[] {
  if (Array.isArray(wrote)) {
    if (!Array.isArray(read) || read.length !== wrote.length)
      return [`${path}: wrote ${JSON.stringify(wrote)}, read ${JSON.stringify(read)}`];
    return wrote.flatMap((item, index) => differences(item, read[index], `${path}/${index}`));
  }
  if (isJsonObject(wrote)) {
    if (!isJsonObject(read)) return [`${path}: wrote an object, read ${JSON.stringify(read)}`];
    return Object.entries(wrote).flatMap(([key, item]) =>
      SERVER_MAINTAINED.has(key) && key !== "jsonmodel_type" ? [] : differences(item, read[key], `${path}/${key}`),
    );
  }
  return wrote === read ? [] : [`${path}: wrote ${JSON.stringify(wrote)}, read ${JSON.stringify(read)}`];
}

describe("each sample is stored and returned whole", () => {
  it.each(samples.map(({ name, body }) => [name, body] as const))("%s", async (type, body) => {
    const input = (await resolved(body)) as JsonObject;
    const result = await h.ops.create(type, scopeOf(type), input, admin, { parameters: parametersOf(type) });
    expect([type, result.warnings]).toEqual([type, []]);
    const read = await h.ops.read(type, scopeOf(type), result.id, admin);
    expect(differences(input, read, type)).toEqual([]);
  });
});
