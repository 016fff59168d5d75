// The records the client patterns run on, made over HTTP: fresh ones (each record with nothing but its required
// fields) and fully populated ones (test/fixtures/archivesspace-samples/, every writable property of the type, with
// the records their placeholders name made first: "@type", "@type:key", "@type#field", as
// test/registry/archivesspace-properties.test.ts reads them).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { registry } from "../../../src/registry/index.js";
import type { Reply } from "../../support/service.js";
import { repoRoot } from "../../registry/helpers.js";
import { at, isDict, text, type Dict } from "./python.js";

export const REPO = "/repositories/2";

export type Send = (method: string, path: string, body?: unknown) => Promise<Reply>;

/** The records one run of the patterns reads and writes. */
export interface RecordSet {
  name: "fresh" | "fully populated";
  resource: string;
  /** An archival object at the top of the resource's tree. */
  top: string;
  /** An archival object under `top`. */
  child: string;
  digitalObject: string;
  agent: string;
  subject: string;
  topContainer: string;
  /** An archival object whose one instance is a container instance in `topContainer`. */
  located: string;
  /** A new archival object at the top of the resource, from this set's template, `extra` fields over it. */
  newArchivalObject(extra?: Dict): Promise<string>;
  /** The archival object template's body (fresh: its required fields; populated: the whole sample). */
  archivalObjectTemplate(): Dict;
}

/** Where a type's records are created (repository 2 for repository-scoped types). */
function collectionOf(type: string): string {
  return registry.get(type).collectionPath.replace(":repo_id", "2");
}

/** Creates a record and answers its uri; anything but 200 (or a warning: these bodies are all known) fails. */
export async function create(send: Send, type: string, body: Dict): Promise<string> {
  const reply = await send("POST", collectionOf(type), body);
  const warnings = isDict(reply.body) ? reply.body.warnings : undefined;
  if (reply.status !== 200 || (Array.isArray(warnings) && warnings.length > 0))
    throw new Error(`creating a ${type}: ${reply.status} ${reply.text}`);
  return text(at(reply.body, "uri"));
}

let counter = 0;
/** A value unique within the test run. */
export function unique(prefix: string): string {
  return `${prefix}-${++counter}`;
}

// ---------------------------------------------------------------------------------------------
// Fresh records.

export function freshResource(): Dict {
  return {
    title: "Fresh papers",
    id_0: unique("FRESH"),
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    lang_materials: [{ language_and_script: { language: "eng" } }],
    dates: [{ date_type: "inclusive", label: "creation", expression: "1900-1950" }],
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
  };
}

export async function freshRecords(send: Send): Promise<RecordSet> {
  const resource = await create(send, "resource", freshResource());
  const template = (): Dict => ({ title: unique("Fresh object"), level: "file", resource: { ref: resource } });
  const newArchivalObject = (extra: Dict = {}) => create(send, "archival_object", { ...template(), ...extra });
  const top = await newArchivalObject();
  const topContainer = await create(send, "top_container", { indicator: unique("box") });
  return {
    name: "fresh",
    resource,
    top,
    child: await create(send, "archival_object", { ...template(), level: "item", parent: { ref: top } }),
    digitalObject: await create(send, "digital_object", {
      title: "Fresh scan",
      digital_object_id: unique("fresh-do"),
    }),
    agent: await create(send, "agent_person", { names: [{ primary_name: "Fresh", name_order: "direct" }] }),
    subject: await create(send, "subject", {
      source: "local",
      vocabulary: "/vocabularies/1",
      terms: [{ term: unique("Fresh subject"), term_type: "topical", vocabulary: "/vocabularies/1" }],
    }),
    topContainer,
    located: await newArchivalObject({
      instances: [{ instance_type: "mixed_materials", sub_container: { top_container: { ref: topContainer } } }],
    }),
    newArchivalObject,
    archivalObjectTemplate: template,
  };
}

// ---------------------------------------------------------------------------------------------
// Fully populated records.

const SAMPLES_DIR = join(repoRoot, "test", "fixtures", "archivesspace-samples");

function sample(type: string): Dict {
  const parsed: unknown = JSON.parse(readFileSync(join(SAMPLES_DIR, `${type}.json`), "utf8"));
  if (!isDict(parsed)) throw new Error(`${type}.json is not an object`);
  return parsed;
}

/** The smallest record of each type a sample's placeholder names (placeholders inside are filled in turn). */
const MINIMAL = new Map<string, () => Dict>([
  ["accession", () => ({ id_0: unique("ACC"), title: "Accession" })],
  ["resource", () => freshResource()],
  ["archival_object", () => ({ title: unique("Object"), level: "file", resource: { ref: "@resource" } })],
  ["digital_object", () => ({ title: "Digital object", digital_object_id: unique("min-do") })],
  ["digital_object_component", () => ({ title: "Component", digital_object: { ref: "@digital_object" } })],
  ["classification", () => ({ identifier: unique("CL"), title: "Classification" })],
  [
    "classification_term",
    () => ({ identifier: unique("CT"), title: "Term", classification: { ref: "@classification" } }),
  ],
  ["top_container", () => ({ indicator: unique("min") })],
  ["location", () => ({ building: unique("Building") })],
  [
    "container_profile",
    () => ({
      name: unique("Profile"),
      dimension_units: "inches",
      extent_dimension: "width",
      height: "1",
      width: "1",
      depth: "1",
    }),
  ],
  ["vocabulary", () => ({ name: unique("Vocabulary"), ref_id: unique("vocabulary") })],
  [
    "subject",
    () => ({
      source: "local",
      vocabulary: "@vocabulary",
      terms: [{ term: unique("Subject"), term_type: "topical", vocabulary: "@vocabulary" }],
    }),
  ],
  ["agent_person", () => ({ names: [{ primary_name: unique("Person"), name_order: "direct" }] })],
  ["agent_family", () => ({ names: [{ family_name: unique("Family") }] })],
  ["agent_corporate_entity", () => ({ names: [{ primary_name: unique("Corporation") }] })],
]);

const PLACEHOLDER = /^@([a-z_]+)(?::([A-Za-z0-9_-]+))?(?:#([a-z_]+))?$/;

/** Fills a sample's placeholders, making each named record once per `made`. */
class Placeholders {
  private readonly made = new Map<string, Dict>();

  constructor(private readonly send: Send) {}

  private async record(type: string, key: string): Promise<Dict> {
    const id = `${type}:${key}`;
    const known = this.made.get(id);
    if (known !== undefined) return known;
    const minimal = MINIMAL.get(type);
    if (minimal === undefined) throw new Error(`no minimal ${type} for a placeholder`);
    const uri = await create(this.send, type, (await this.fill(minimal())) as Dict);
    const read = (await this.send("GET", uri)).body as Dict;
    this.made.set(id, { ...read, id: Number(uri.split("/").pop()) });
    return this.made.get(id) as Dict;
  }

  async fill(value: unknown): Promise<unknown> {
    if (typeof value === "string") {
      const match = PLACEHOLDER.exec(value);
      if (match === null || !registry.has(match[1] as string)) return value;
      const record = await this.record(match[1] as string, match[2] ?? "");
      return at(record, match[3] ?? "uri");
    }
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) items.push(await this.fill(item));
      return items;
    }
    if (isDict(value)) {
      const entries: Array<[string, unknown]> = [];
      for (const [key, item] of Object.entries(value)) entries.push([key, await this.fill(item)]);
      return Object.fromEntries(entries);
    }
    return value;
  }

  async sample(type: string): Promise<Dict> {
    return (await this.fill(sample(type))) as Dict;
  }
}

/** Values an administrator adds before the samples can use them: ArchivesSpace starts these lists empty. */
const ADDED_VALUES = new Map([["agent_relationship_specific_relator", ["is_founder_of"]]]);

async function addEnumerationValues(send: Send): Promise<void> {
  for (const [name, values] of ADDED_VALUES) {
    const enumeration = (await send("GET", `/config/enumerations/names/${name}`)).body as Dict;
    const reply = await send("POST", text(at(enumeration, "uri")), {
      ...enumeration,
      values: [...(at(enumeration, "values") as string[]), ...values],
    });
    if (reply.status !== 200) throw new Error(`adding values to ${name}: ${reply.status} ${reply.text}`);
  }
}

export async function populatedRecords(send: Send): Promise<RecordSet> {
  await addEnumerationValues(send);
  const placeholders = new Placeholders(send);
  const resource = await create(send, "resource", await placeholders.sample("resource"));
  // The sample archival object sits under a placeholder parent in a placeholder resource; here it is put at the top
  // of this set's resource, with a ref_id of its own (ref_ids are unique within a resource).
  const { parent: _parent, ...objectSample } = await placeholders.sample("archival_object");
  const template = (): Dict => ({
    ...structuredClone(objectSample),
    ref_id: unique("ref"),
    resource: { ref: resource },
  });
  const newArchivalObject = (extra: Dict = {}) => create(send, "archival_object", { ...template(), ...extra });
  const top = await newArchivalObject();
  const topContainer = await create(send, "top_container", await placeholders.sample("top_container"));
  return {
    name: "fully populated",
    resource,
    top,
    child: await newArchivalObject({ parent: { ref: top } }),
    digitalObject: await create(send, "digital_object", await placeholders.sample("digital_object")),
    agent: await create(send, "agent_person", await placeholders.sample("agent_person")),
    subject: await create(send, "subject", await placeholders.sample("subject")),
    topContainer,
    // get_object_locations reads sub_container on every instance, which a digital object instance lacks (in
    // ArchivesSpace too): this one keeps only a container instance, in the populated top container.
    located: await newArchivalObject({
      instances: [
        {
          jsonmodel_type: "instance",
          instance_type: "mixed_materials",
          sub_container: { jsonmodel_type: "sub_container", top_container: { ref: topContainer }, type_2: "folder" },
        },
      ],
    }),
    newArchivalObject,
    archivalObjectTemplate: template,
  };
}
