// The way out and back in for agents: an agent exported as EAC-CPF and the file imported with
// Arca's own EAC-CPF importer gives back the same agent: its type, every name with its parts,
// order, source, authorization and use dates, the display name's authority id, the dates of
// existence and the biographical notes. Each export is valid against cpf.xsd. On the real
// EAC-CPF files of the shared data (imported first, so the agent is what the importer makes),
// and on agents created over the API of each of the four types, where what the importer has no
// field for (or reads differently) is listed and asserted one by one.
//
// The importer reuses a stored agent with the same sort name and authority id rather than
// create a second one, so each agent is deleted after its export and before the export is
// imported.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { trusted } from "../../src/auth/actor.js";
import { importFile } from "../../src/importers/committer.js";
import { EacParser } from "../../src/importers/eac.js";
import type { ImportSummary } from "../../src/importers/pending.js";
import type { JsonObject, JsonValue } from "../../src/registry/index.js";
import { validateAgainst } from "../support/xsd.js";
import { idOf, startExportService, type ExportService, withoutBookkeeping } from "./harness.js";
import { all, at, parseXml, textOf } from "./xml-tree.js";

const DATA = "/work/shared/data/eac-cpf";
let service: ExportService;
let repo: string;
let parser: EacParser;

beforeAll(async () => {
  service = await startExportService("eac_round_trip");
  await service.operations.deps.enumerations.ready();
  parser = new EacParser({ enumerations: service.operations.deps.enumerations });
  repo = await service.create("/repositories", { repo_code: "eac", name: "EAC round trip" });
}, 60_000);
afterAll(() => service.stop());

/** The route segment of each agent type. */
const PATHS: Record<string, string> = {
  agent_person: "people",
  agent_family: "families",
  agent_corporate_entity: "corporate_entities",
  agent_software: "softwares",
};

async function importEac(xml: string, name: string): Promise<{ uri: string; summary: ImportSummary }> {
  const input = { name, open: () => Readable.from([Buffer.from(xml, "utf8")]) };
  const summary = await importFile(service.operations, parser, input, { repoId: idOf(repo), actor: trusted("admin") });
  if (summary.outcome !== "imported" || summary.uris.length !== 1)
    throw new Error(`import of ${name}: ${JSON.stringify(summary).slice(0, 2000)}`);
  return { uri: summary.uris[0] as string, summary };
}

async function read(uri: string): Promise<JsonObject> {
  const reply = await service.call("GET", uri, { token: service.admin });
  expect(reply.status).toBe(200);
  return reply.body as JsonObject;
}

async function exportAgent(agent: JsonObject): Promise<string> {
  const path = `${repo}/archival_contexts/${PATHS[agent.jsonmodel_type as string]}/${idOf(agent.uri as string)}.xml`;
  const reply = await service.call("GET", path, { token: service.admin });
  expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "application/xml"]);
  const verdict = await validateAgainst("cpf.xsd", reply.text);
  expect(verdict.errors).toEqual([]);
  expect(verdict.valid).toBe(true);
  return reply.text;
}

/** Exports the agent, deletes it, imports the export: the agent read back, and the import's warnings. */
async function roundTrip(
  uri: string,
): Promise<{ before: JsonObject; after: JsonObject; xml: string; warnings: string[] }> {
  const before = await read(uri);
  const xml = await exportAgent(before);
  expect((await service.call("DELETE", uri, { token: service.admin })).status).toBe(200);
  const { uri: again, summary } = await importEac(xml, "export.xml");
  return { before, after: await read(again), xml, warnings: summary.warnings.map((warning) => warning.message) };
}

/** What the importer gives an agent: what must survive the trip. */
function essence(agent: JsonObject): JsonObject {
  return {
    jsonmodel_type: agent.jsonmodel_type ?? null,
    names: withoutBookkeeping(agent.names),
    dates_of_existence: withoutBookkeeping(agent.dates_of_existence ?? []),
    notes: withoutBookkeeping(agent.notes ?? []),
  };
}

describe.each(["yale_cadell.xml", "feynman-richard-phillips-1918-1988-cr.xml"])("%s", (file) => {
  let trip: Awaited<ReturnType<typeof roundTrip>>;

  beforeAll(async () => {
    const { uri } = await importEac(readFileSync(`${DATA}/${file}`, "utf8"), file);
    trip = await roundTrip(uri);
  }, 60_000);

  it("imports as a person with names, dates and biographical notes", () => {
    expect(trip.before.jsonmodel_type).toBe("agent_person");
    expect((trip.before.names as JsonObject[]).length).toBeGreaterThan(3);
    expect(trip.before.dates_of_existence).toHaveLength(1);
    expect((trip.before.notes as JsonObject[]).length).toBeGreaterThan(0);
  });

  it("exported and imported again, gives the same agent: names, authority id, dates, notes", () => {
    expect(essence(trip.after)).toEqual(essence(trip.before));
    expect((trip.after.names as JsonObject[])[0]?.authority_id).toBe(
      (trip.before.names as JsonObject[])[0]?.authority_id,
    );
  });
});

const paragraph = (content: string) => ({ jsonmodel_type: "note_text", content });
const single = (role: string, standardized: string, extra: Record<string, string> = {}) => ({
  date_label: "existence",
  date_type_structured: "single",
  structured_date_single: { date_role: role, date_standardized: standardized, ...extra },
});

/** The object without those fields. */
function omit(value: JsonValue | undefined, ...fields: string[]): JsonObject {
  return Object.fromEntries(Object.entries(value as JsonObject).filter(([field]) => !fields.includes(field)));
}

const namesOf = (agent: JsonObject) => (essence(agent).names as JsonObject[]) ?? [];

describe("agents created over the API", () => {
  it("a person: parts, forms, use dates, biographies come back; what the importer has no field for is lost", async () => {
    const colleague = await service.create("/agents/corporate_entities", {
      names: [{ primary_name: "Remington Rand" }],
    });
    const uri = await service.create("/agents/people", {
      names: [
        {
          primary_name: "Hopper",
          rest_of_name: "Grace",
          fuller_form: "Grace Brewster Murray",
          title: "Rear Admiral",
          prefix: "Dr.",
          suffix: "Jr",
          number: "III",
          qualifier: "computer scientist",
          dates: "1906-1992",
          name_order: "inverted",
          source: "naf",
          rules: "dacs",
          authority_id: "n79022305",
          authorized: true,
          is_display_name: true,
          use_dates: [
            {
              date_label: "usage",
              date_type_structured: "range",
              structured_date_range: { begin_date_standardized: "1934", end_date_standardized: "1992" },
            },
          ],
        },
        {
          primary_name: "Murray",
          rest_of_name: "Grace Brewster",
          name_order: "inverted",
          source: "local",
          authority_id: "local-7",
          language: "eng",
          script: "Latn",
          use_dates: [{ ...single("begin", "1906"), date_label: "usage" }],
          parallel_names: [
            { primary_name: "Мюррей", rest_of_name: "Грейс", name_order: "inverted", source: "local", language: "rus" },
          ],
        },
        { primary_name: "Amazing Grace", name_order: "direct", authorized: true },
      ],
      dates_of_existence: [
        {
          date_label: "existence",
          date_type_structured: "range",
          date_certainty: "approximate",
          structured_date_range: {
            begin_date_standardized: "1906-12-09",
            begin_date_expression: "December 9, 1906",
            end_date_standardized: "1992-01-01",
          },
        },
        single("begin", "1906", { date_standardized_type: "not_before" }),
        single("end", "1992-01", { date_expression: "January 1992" }),
      ],
      notes: [
        {
          jsonmodel_type: "note_bioghist",
          label: "Biography",
          subnotes: [
            { jsonmodel_type: "note_abstract", content: ["Computer scientist & admiral."] },
            paragraph('She wrote <emph render="italic">the first compiler</emph> & more.'),
            paragraph("First paragraph.\n\nSecond   paragraph."),
            {
              jsonmodel_type: "note_chronology",
              title: "Life events",
              items: [
                { event_date: "1906-12-09", events: ["Born"] },
                { event_date: "1943 - 1946", events: ["Joined the Navy", "Worked on the Mark I"] },
                { events: ["Undated"] },
                { event_date: "1992", events: [] },
              ],
            },
            {
              jsonmodel_type: "note_orderedlist",
              title: "Languages",
              enumeration: "arabic",
              items: ["COBOL", "FLOW-MATIC"],
            },
            { jsonmodel_type: "note_definedlist", items: [{ label: "A-0", value: "The first compiler" }] },
            { jsonmodel_type: "note_citation", content: ["Beyer 2009."], xlink: { href: "https://example.org/beyer" } },
            { jsonmodel_type: "note_outline", levels: [{ items: ["Navy", { items: ["Reserve"] }, "Harvard"] }] },
          ],
        },
        { jsonmodel_type: "note_general_context", subnotes: [paragraph("Early computing.")] },
        { jsonmodel_type: "note_bioghist", publish: false, subnotes: [paragraph("Unpublished.")] },
      ],
      related_agents: [
        { jsonmodel_type: "agent_relationship_associative", relator: "is_associative_with", ref: colleague },
      ],
    });
    const { before, after, xml, warnings } = await roundTrip(uri);
    expect(parseXml(xml).name).toBe("eac-cpf");
    const [hopper, murray, amazing] = namesOf(before);
    const parallel = (murray?.parallel_names as JsonObject[])[0] as JsonObject;
    const [range, notBefore, end] = essence(before).dates_of_existence as JsonObject[];
    expect(essence(after)).toEqual({
      jsonmodel_type: "agent_person",
      // Authorized names first (the importer's order).
      names: [
        // Lost: the name's rules (the importer has no field for them; they are in <conventionDeclaration>).
        omit(hopper, "rules"),
        // Authorized without a source: still authorized (<authorizedForm>unspecified</authorizedForm>).
        amazing,
        // Lost: a name with parallel names is read for its parts only (its form and use dates sit on the
        // <nameEntryParallel>, which the importer does not read); the authority id of a name other than the
        // display name, and every name's language and script, have no place in EAC-CPF's name that it reads.
        { ...omit(murray, "source", "authority_id", "language", "script"), use_dates: [], parallel_names: [] },
        // Lost: a parallel name comes back as a name of its own, unauthorized, with its parts only.
        {
          ...omit(parallel, "source", "language", "jsonmodel_type"),
          jsonmodel_type: "name_person",
          authorized: false,
          is_display_name: false,
          require_record: true,
          parallel_names: [],
        },
      ],
      // Lost: a date's certainty (ArchivesSpace's exporter writes none either).
      dates_of_existence: [omit(range, "date_certainty"), notBefore, end],
      notes: [
        {
          // Lost: the note's label; every subnote comes back as the importer reads EAC-CPF's blocks: an abstract
          // and a citation as text, a defined list as an ordered list of its values (labels lost), an ordered
          // list without its title and enumeration, an outline as the text of its items; a chronology without
          // its title, one item per event; text with its whitespace normalised (paragraph breaks become spaces).
          jsonmodel_type: "note_bioghist",
          subnotes: [
            paragraph("Computer scientist & admiral."),
            paragraph('She wrote <emph render="italic">the first compiler</emph> & more.'),
            paragraph("First paragraph. Second paragraph."),
            {
              jsonmodel_type: "note_chronology",
              items: [
                { event_date: "1906-12-09", events: ["Born"] },
                { event_date: "1943 - 1946", events: ["Joined the Navy"] },
                { event_date: "1943 - 1946", events: ["Worked on the Mark I"] },
                { events: ["Undated"] },
                { event_date: "1992", events: [] },
              ],
            },
            { jsonmodel_type: "note_orderedlist", enumeration: "null", items: ["COBOL", "FLOW-MATIC"] },
            { jsonmodel_type: "note_orderedlist", enumeration: "null", items: ["The first compiler"] },
            paragraph("Beyer 2009."),
            paragraph("Navy Reserve Harvard"),
          ],
        },
        // Lost: the general context note (the importer reads biographies only) and the publish flag.
        { jsonmodel_type: "note_bioghist", subnotes: [paragraph("Unpublished.")] },
      ],
    });
    // Lost: the related agent (the importer warns of each <cpfRelation>).
    expect(after.related_agents).toEqual([]);
    expect(warnings).toEqual([
      expect.stringContaining("cpfRelation to 'Remington Rand' (associative) not imported"),
      expect.stringMatching(
        /authorizedForm 'unspecified'.*nameEntry xml:lang and scriptCode.*description\/generalContext/,
      ),
    ]);
  });

  it("a family comes back whole", async () => {
    const uri = await service.create("/agents/families", {
      names: [
        {
          family_name: "Murray",
          prefix: "The",
          family_type: "Clan",
          location: "New York",
          qualifier: "of Scotland",
          dates: "1800-",
          authority_id: "fam-1",
          source: "local",
          authorized: true,
          is_display_name: true,
        },
      ],
      dates_of_existence: [single("begin", "1800")],
      notes: [{ jsonmodel_type: "note_bioghist", subnotes: [paragraph("A family & its branches.")] }],
    });
    const { before, after } = await roundTrip(uri);
    expect(essence(after)).toEqual(essence(before));
  });

  it("a corporate entity comes back but for its jurisdiction flag; an authority id that is a URI is lost", async () => {
    const uri = await service.create("/agents/corporate_entities", {
      names: [
        {
          primary_name: "United States",
          subordinate_name_1: "Navy",
          subordinate_name_2: "Bureau of Ordnance",
          number: "2",
          location: "Washington",
          qualifier: "1862-1942",
          dates: "1862-1942",
          authority_id: "http://id.loc.gov/authorities/names/n80126142",
          source: "naf",
          authorized: true,
          is_display_name: true,
          conference_meeting: false,
          jurisdiction: true,
        },
      ],
      dates_of_existence: [
        {
          date_label: "existence",
          date_type_structured: "range",
          structured_date_range: { begin_date_expression: "1862", end_date_expression: "1942" },
        },
      ],
      notes: [{ jsonmodel_type: "note_bioghist", subnotes: [paragraph("A bureau.")] }],
    });
    const { before, after, xml } = await roundTrip(uri);
    const [name] = namesOf(before);
    // The authority id is no XML name token: the record id is the agent's uri, which reads back as the authority id.
    const recordId = uri.replace(/\//g, ":");
    expect(textOf(at(parseXml(xml), "control/recordId"))).toBe(recordId);
    expect(all(parseXml(xml), "cpfDescription/identity/entityId").map(textOf)).toEqual([
      "http://id.loc.gov/authorities/names/n80126142",
    ]);
    const [existence] = essence(before).dates_of_existence as JsonObject[];
    expect(essence(after)).toEqual({
      ...essence(before),
      // Lost: the jurisdiction flag (it reads back as its default, false).
      names: [{ ...name, jurisdiction: false, authority_id: recordId }],
      // A date written as a standard date with no standardized form reads back standardized (its text is one).
      dates_of_existence: [
        {
          ...existence,
          structured_date_range: {
            jsonmodel_type: "structured_date_range",
            begin_date_standardized: "1862",
            begin_date_standardized_type: "standard",
            end_date_standardized: "1942",
            end_date_standardized_type: "standard",
          },
        },
      ],
    });
  });

  it("a software agent comes back as a corporate entity named by its parts (EAC-CPF has no software)", async () => {
    const uri = await service.create("/agents/software", {
      names: [
        {
          software_name: "FLOW-MATIC",
          version: "2",
          manufacturer: "Remington Rand",
          authority_id: "sw-1",
          source: "local",
          authorized: true,
          is_display_name: true,
        },
      ],
      notes: [{ jsonmodel_type: "note_bioghist", subnotes: [paragraph("A programming language.")] }],
    });
    const { before, after } = await roundTrip(uri);
    expect(essence(after)).toEqual({
      jsonmodel_type: "agent_corporate_entity",
      names: [
        {
          jsonmodel_type: "name_corporate_entity",
          primary_name: "FLOW-MATIC 2 Remington Rand",
          sort_name: "FLOW-MATIC 2 Remington Rand",
          sort_name_auto_generate: true,
          authority_id: "sw-1",
          source: "local",
          authorized: true,
          is_display_name: true,
          require_record: true,
          conference_meeting: false,
          jurisdiction: false,
          use_dates: [],
          parallel_names: [],
        },
      ],
      dates_of_existence: [],
      notes: essence(before).notes,
    });
  });
});
