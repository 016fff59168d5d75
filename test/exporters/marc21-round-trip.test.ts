// MARC 21 out and back in: each bibliographic record of the shared MARCXML files is imported
// with Arca's MARCXML importer, its resource exported over HTTP, the export checked against
// MARC21slim.xsd, its agents and subjects deleted (so that the second import makes them anew from
// the export, rather than finding the first ones by name), and the export imported into another
// repository. The two resources are then compared field by field: title, identifier, level,
// dates, extents, languages, finding aid fields, notes, agents (every name field, with role,
// relator and terms) and subjects (source, authority id, terms). What MARC changes is stated
// here and asserted: the agents come back grouped as MARC places them (the main creator, then the
// subject entries, then the added entries, each group in its order). A resource made through the
// API with what MARC cannot carry shows each loss.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { trusted } from "../../src/auth/actor.js";
import { importFile } from "../../src/importers/committer.js";
import { MarcXmlParser } from "../../src/importers/marcxml.js";
import type { JsonObject } from "../../src/registry/index.js";
import { validateAgainst } from "../support/xsd.js";
import { idOf, startExportService, type ExportService, withoutBookkeeping } from "./harness.js";

const DATA = "/work/shared/data/marcxml";
const MARC_NS = "http://www.loc.gov/MARC21/slim";

let service: ExportService;
let repoCount = 0;

beforeAll(async () => {
  service = await startExportService("marc21_round_trip");
}, 60_000);
afterAll(() => service.stop());

async function newRepository(): Promise<string> {
  repoCount += 1;
  return service.create("/repositories", {
    repo_code: `marc${repoCount}`,
    name: `MARC round trip ${repoCount}`,
    org_code: "NyNyUA",
    country: "US",
  });
}

/** Imports MARCXML text into a repository with Arca's importer; the resource's uri. */
async function importMarc(repo: string, xml: string, filename: string): Promise<string> {
  const parser = new MarcXmlParser({ enumerations: service.operations.deps.enumerations });
  const input = { name: filename, open: () => Readable.from([Buffer.from(xml, "utf8")]) };
  const summary = await importFile(service.operations, parser, input, {
    repoId: idOf(repo),
    actor: trusted("admin"),
  });
  if (summary.outcome !== "imported")
    throw new Error(`import of ${filename}: ${JSON.stringify({ errors: summary.errors }).slice(0, 2000)}`);
  const resource = summary.uris.find((uri) => uri.includes("/resources/"));
  if (resource === undefined) throw new Error(`import of ${filename} names no resource`);
  return resource;
}

async function exportMarc(resource: string, query = ""): Promise<string> {
  const reply = await service.call("GET", `${resource.replace("/resources/", "/resources/marc21/")}.xml${query}`, {
    token: service.admin,
  });
  expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "application/xml"]);
  return reply.text;
}

const objects = (value: unknown): JsonObject[] => (Array.isArray(value) ? (value as JsonObject[]) : []);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

async function read(uri: string): Promise<JsonObject> {
  const parsed = service.operations.deps.registry.parseUri(uri);
  if (parsed === undefined) throw new Error(`not a uri: ${uri}`);
  return service.operations.read(
    parsed.type,
    parsed.repoId === undefined ? {} : { repoId: parsed.repoId },
    parsed.id,
    trusted("test"),
  );
}

interface Snapshot {
  resource: JsonObject;
  agents: JsonObject[];
  subjects: JsonObject[];
  /** The uris of the agents and subjects the resource links to. */
  linked: string[];
}

/** What the resource says, ids and uris aside: what must survive the trip. */
async function snapshot(uri: string): Promise<Snapshot> {
  const record = await read(uri);
  const agents: JsonObject[] = [];
  for (const link of objects(record.linked_agents)) {
    const agent = await read(String(link.ref));
    agents.push({
      role: link.role ?? null,
      relator: link.relator ?? null,
      terms: withoutBookkeeping(link.terms ?? []),
      type: agent.jsonmodel_type ?? null,
      names: withoutBookkeeping(agent.names),
    });
  }
  const subjects: JsonObject[] = [];
  for (const link of objects(record.subjects)) {
    const subject = await read(String(link.ref));
    subjects.push({
      source: subject.source ?? null,
      authority_id: subject.authority_id ?? null,
      terms: objects(subject.terms).map((term) => `${str(term.term_type)}:${str(term.term)}`),
    });
  }
  const pick = (fields: string[]) => Object.fromEntries(fields.map((field) => [field, record[field] ?? null]));
  return {
    resource: withoutBookkeeping({
      ...pick(["title", "id_0", "id_1", "id_2", "id_3", "level", "other_level", "ead_location"]),
      ...pick([
        "finding_aid_language",
        "finding_aid_script",
        "finding_aid_description_rules",
        "external_ids",
        "dates",
        "extents",
        "lang_materials",
        "notes",
      ]),
    }) as JsonObject,
    agents,
    subjects,
    linked: [...objects(record.linked_agents), ...objects(record.subjects)].map((link) => String(link.ref)),
  };
}

/** Where MARC puts each agent link: the main creator (the first creator), then subject entries, then added entries. */
function inMarcOrder(agents: JsonObject[]): JsonObject[] {
  const main = agents.find((agent) => agent.role === "creator");
  return [
    ...(main === undefined ? [] : [main]),
    ...agents.filter((agent) => agent.role === "subject"),
    ...agents.filter((agent) => agent !== main && agent.role !== "subject"),
  ];
}

/** The shared files holding bibliographic records (leader/06 other than z, authority), each of one record. */
const FILES = readdirSync(DATA)
  .filter((file) => file.endsWith(".xml"))
  .filter((file) => /<leader>.{6}[^z]/.test(readFileSync(`${DATA}/${file}`, "utf8")))
  .sort();

it("covers every bibliographic record of the shared MARCXML files", () => {
  expect(FILES).toEqual(["at-tracer-marc-1.xml", "samuel-morse.xml", "sula-benet.xml"]);
  for (const file of FILES) expect(readFileSync(`${DATA}/${file}`, "utf8").match(/<record>/g)).toHaveLength(1);
});

describe.each(FILES)("%s", (file) => {
  let original: Snapshot;
  let exported: string;
  let again: Snapshot;

  beforeAll(async () => {
    const first = await importMarc(await newRepository(), readFileSync(`${DATA}/${file}`, "utf8"), file);
    original = await snapshot(first);
    exported = await exportMarc(first);
    // The second import must make the agents and subjects from the export, not find the first ones by their names.
    for (const uri of new Set(original.linked))
      expect((await service.call("DELETE", uri, { token: service.admin })).status).toBe(200);
    again = await snapshot(await importMarc(await newRepository(), exported, `${file}.export.xml`));
  }, 60_000);

  it("imports as a resource with agents, subjects and notes", () => {
    expect(original.agents.length).toBeGreaterThan(0);
    expect(original.subjects.length).toBeGreaterThan(0);
    expect(objects(original.resource.notes).length).toBeGreaterThan(0);
  });

  it("exports a MARCXML collection of one record, valid against MARC21slim.xsd", async () => {
    expect(exported.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(exported).toContain(`<collection xmlns="${MARC_NS}"`);
    expect(exported.match(/<record>/g)).toHaveLength(1);
    expect(await validateAgainst("MARC21slim.xsd", exported)).toEqual({ valid: true, errors: [] });
  });

  it("imports again as the same resource: every field, notes, languages and dates included", () => {
    expect(again.resource).toEqual(original.resource);
  });

  it("gives the same subjects, in order, made anew from the export", () => {
    expect(again.subjects).toEqual(original.subjects);
    expect(again.linked.some((uri) => original.linked.includes(uri))).toBe(false);
  });

  it("gives the same agents, every name field, role, relator and terms; grouped as MARC places them", () => {
    expect(again.agents).toEqual(inMarcOrder(original.agents));
  });
});

describe("what MARC cannot carry", () => {
  let original: Snapshot;
  let again: Snapshot;

  beforeAll(async () => {
    const repo = await newRepository();
    const { create } = service;
    const vocabulary = "/vocabularies/1";
    const term = (text: string, type: string) => ({ term: text, term_type: type, vocabulary });
    const queen = await create("/agents/people", {
      names: [{ primary_name: "Elizabeth", rest_of_name: "II", name_order: "direct", source: "local" }],
    });
    const doctor = await create("/agents/people", {
      names: [
        {
          primary_name: "Who",
          rest_of_name: "Doctor",
          name_order: "inverted",
          prefix: "Dr.",
          suffix: "Jr.",
          title: "Sir",
        },
      ],
    });
    const emacs = await create("/agents/software", { names: [{ software_name: "Emacs" }] });
    const giver = await create("/agents/families", { names: [{ family_name: "Giver" }] });
    const culture = await create("/subjects", {
      source: "local",
      vocabulary,
      terms: [term("Tudor", "cultural_context")],
    });
    const titled = await create("/subjects", {
      source: "local",
      vocabulary,
      terms: [term("Poetry", "topical"), term("Beowulf", "uniform_title")],
    });
    const multipart = (type: string, content: string, extra: JsonObject = {}) => ({
      jsonmodel_type: "note_multipart",
      type,
      subnotes: [{ jsonmodel_type: "note_text", content }],
      ...extra,
    });
    const uri = await create(`${repo}/resources`, {
      title: "Lossy papers",
      id_0: "A",
      id_1: "B",
      id_2: "C",
      level: "fonds",
      finding_aid_language: "eng",
      finding_aid_script: "Zyyy",
      dates: [
        { label: "creation", date_type: "inclusive", begin: "1941-05-01", end: "1942-02-03" },
        { label: "existence", date_type: "single", begin: "1900" },
      ],
      extents: [{ portion: "part", number: "3", extent_type: "volumes" }],
      lang_materials: [{ language_and_script: { language: "lat", script: "Latn" } }],
      linked_agents: [
        { ref: queen, role: "creator" },
        { ref: doctor, role: "subject" },
        { ref: emacs, role: "subject" },
        { ref: giver, role: "creator", relator: "dnr" },
      ],
      subjects: [{ ref: culture }, { ref: titled }],
      notes: [
        multipart("fileplan", "By file."),
        multipart("legalstatus", "Public records."),
        multipart("appraisal", "Kept whole."),
        multipart("odd", "Staff remark.", { label: "Staff note" }),
        {
          jsonmodel_type: "note_multipart",
          type: "scopecontent",
          subnotes: [
            { jsonmodel_type: "note_text", content: "Letters." },
            { jsonmodel_type: "note_orderedlist", enumeration: "arabic", items: ["one", "two"] },
          ],
        },
        { jsonmodel_type: "note_bibliography", content: ["Sources."], items: ["A book."] },
        { jsonmodel_type: "note_index", content: ["Names."], items: [] },
      ],
    });
    original = await snapshot(uri);
    const exported = await exportMarc(uri);
    expect(await validateAgainst("MARC21slim.xsd", exported)).toEqual({ valid: true, errors: [] });
    for (const linked of new Set(original.linked))
      expect((await service.call("DELETE", linked, { token: service.admin })).status).toBe(200);
    again = await snapshot(await importMarc(await newRepository(), exported, "lossy.xml"));
  }, 60_000);

  it("keeps the title, finding aid fields and the extent's number and type", () => {
    expect(again.resource).toMatchObject({
      title: "Lossy papers",
      finding_aid_language: "eng",
      finding_aid_script: "Zyyy",
      extents: [{ number: "3", extent_type: "volumes" }],
    });
  });

  it("loses the identifier's parts, a level other than collection or item, and an extent's portion", () => {
    expect(original.resource).toMatchObject({ id_0: "A", id_1: "B", id_2: "C", level: "fonds" });
    expect(again.resource).toMatchObject({ id_0: "A.B.C", id_1: null, id_2: null, level: "collection" });
    expect(objects(again.resource.extents).map((extent) => extent.portion)).toEqual(["whole"]);
  });

  it("reads dates back from their text (years), and has no field for a date labelled other than publication or copyright", () => {
    const dates = (snap: Snapshot) =>
      objects(snap.resource.dates).map((date) =>
        [date.label, date.date_type, date.begin, date.end, date.expression].map((value) => value ?? null),
      );
    expect(dates(original)).toEqual([
      ["creation", "inclusive", "1941-05-01", "1942-02-03", null],
      ["existence", "single", "1900", null, null],
    ]);
    expect(dates(again)).toEqual([["creation", "inclusive", "1941", "1942", "1941-05-01 - 1942-02-03"]]);
  });

  it("has no place for a language's script", () => {
    const languages = (snap: Snapshot) =>
      objects(snap.resource.lang_materials).map((material) => material.language_and_script);
    expect(languages(original)).toEqual([expect.objectContaining({ language: "lat", script: "Latn" })]);
    expect(languages(again)).toEqual([{ jsonmodel_type: "language_and_script", language: "lat" }]);
  });

  it("maps the notes MARC shares a field for to one type, drops labels, lists and index notes", () => {
    const notes = objects(again.resource.notes).map((note) => [
      note.type,
      note.label ?? null,
      objects(note.subnotes).map((subnote) => subnote.content),
    ]);
    expect(notes).toEqual([
      ["arrangement", null, ["By file."]],
      ["userestrict", null, ["Public records."]],
      ["processinfo", null, ["Kept whole."]],
      ["odd", null, ["Staff remark."]],
      ["scopecontent", null, ["Letters."]],
      ["relatedmaterial", null, ["Sources."]],
      ["relatedmaterial", null, ["A book."]],
    ]);
  });

  it("joins a direct name's parts and a person's prefix, title and suffix; a donor creator reads back as a source", () => {
    const names = again.agents.map((agent) => [agent.role, agent.relator, agent.type, objects(agent.names)[0]]);
    expect(names).toEqual([
      [
        "creator",
        null,
        "agent_person",
        expect.objectContaining({ primary_name: "Elizabeth II", name_order: "direct" }),
      ],
      [
        "subject",
        null,
        "agent_person",
        expect.objectContaining({ primary_name: "Who", rest_of_name: "Doctor", title: "Dr., Sir, Jr." }),
      ],
      ["source", "dnr", "agent_family", expect.objectContaining({ family_name: "Giver" })],
    ]);
    expect(objects(again.agents[0]?.names)[0]).not.toHaveProperty("rest_of_name");
  });

  it("makes a software subject agent an uncontrolled topical subject; cultural context reads as geographic", () => {
    expect(original.subjects.map((subject) => subject.terms)).toEqual([
      ["cultural_context:Tudor"],
      ["topical:Poetry", "uniform_title:Beowulf"],
    ]);
    // The software agent's 653 comes first: subject entries for agents precede the subjects.
    expect(again.subjects.map((subject) => subject.terms)).toEqual([
      ["topical:Emacs"],
      ["geographic:Tudor"],
      ["topical:Poetry Beowulf"],
    ]);
  });
});
