// The EAC-CPF export (GET /repositories/:repo_id/archival_contexts/<type>/:id.xml) over HTTP:
// each agent type exported as a document valid against cpf.xsd, read back with a conformant
// XML parser and checked element by element against the agent (control, identity, description,
// relations); the metadata route; who may export; 404s; characters XML cannot carry; and an
// agent linked from more records than one batch holds.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { trusted } from "../../src/auth/actor.js";
import { validateAgainst } from "../support/xsd.js";
import { idOf, startExportService, type ExportService } from "./harness.js";
import { all, at, children, parseXml, textOf, type XmlElement } from "./xml-tree.js";

const EAC_NS = "urn:isbn:1-931666-33-4";
const MARKUP = 'She wrote <emph render="italic">the first compiler</emph> & more <b>.';

let service: ExportService;
let repo: string;
let hidden: string;
const uris: Record<string, string> = {};

const PATHS: Record<string, string> = {
  people: "people",
  families: "families",
  corporate_entities: "corporate_entities",
  software: "softwares",
};

/** The export route of an agent (by its uri) under a repository. */
function exportPath(agent: string, repository = repo): string {
  const [, , kind, id] = agent.split("/");
  return `${repository}/archival_contexts/${PATHS[kind as string]}/${id}.xml`;
}

async function exported(agent: string, token = service.admin): Promise<{ text: string; eac: XmlElement }> {
  const reply = await service.call("GET", exportPath(agent), { token });
  expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "application/xml"]);
  expect(reply.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  return { text: reply.text, eac: parseXml(reply.text) };
}

async function valid(text: string): Promise<void> {
  const verdict = await validateAgainst("cpf.xsd", text);
  expect(verdict.errors).toEqual([]);
  expect(verdict.valid).toBe(true);
}

const texts = (elements: XmlElement[]) => elements.map(textOf);
const paragraph = (content: string) => ({ jsonmodel_type: "note_text", content });
const single = (label: string, standardized: string, extra: Record<string, string> = {}) => ({
  date_label: label,
  date_type_structured: "single",
  structured_date_single: { date_role: "begin", date_standardized: standardized, ...extra },
});

beforeAll(async () => {
  service = await startExportService("eac_export");
  const { create } = service;
  repo = await create("/repositories", { repo_code: "exp", name: "Export Repository", org_code: "EXP", country: "US" });
  hidden = await create("/repositories", { repo_code: "hid", name: "Hidden Repository" });
  const vocabulary = "/vocabularies/1";
  const subject = (term: string, termType: string, source: string) =>
    create("/subjects", { source, vocabulary, terms: [{ term, term_type: termType, vocabulary }] });
  uris.nyc = await subject("New York (N.Y.)", "geographic", "lcsh");
  uris.scientist = await subject("Computer scientists", "occupation", "aat");
  uris.programming = await subject("Programming", "function", "local");
  uris.computing = await subject("Computing", "topical", "lcsh");

  uris.eckert = await create("/agents/corporate_entities", {
    names: [{ primary_name: "Eckert-Mauchly Computer Corporation", subordinate_name_1: "Research", number: "1" }],
  });
  uris.father = await create("/agents/people", {
    names: [{ primary_name: "Murray", rest_of_name: "Walter Fletcher", name_order: "inverted" }],
  });
  uris.hopper = await create("/agents/people", {
    names: [
      {
        primary_name: "Hopper",
        rest_of_name: "Grace",
        fuller_form: "Grace Brewster Murray",
        title: "Rear Admiral",
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
        authorized: false,
        language: "eng",
        script: "Latn",
        parallel_names: [
          { primary_name: "Мюррей", rest_of_name: "Грейс", name_order: "inverted", language: "rus", script: "Cyrl" },
        ],
      },
      { primary_name: "Amazing Grace", name_order: "direct", authorized: true },
    ],
    dates_of_existence: [
      {
        date_label: "existence",
        date_type_structured: "range",
        structured_date_range: {
          begin_date_standardized: "1906-12-09",
          begin_date_expression: "December 9, 1906",
          end_date_standardized: "1992-01-01",
          end_date_expression: "January 1, 1992",
        },
      },
      single("existence", "1906", { date_standardized_type: "not_before" }),
    ],
    notes: [
      {
        jsonmodel_type: "note_bioghist",
        label: "Biography",
        subnotes: [
          { jsonmodel_type: "note_abstract", content: ["Computer scientist & admiral."] },
          paragraph(MARKUP),
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
          { jsonmodel_type: "note_orderedlist", enumeration: "arabic", items: ["COBOL", "FLOW-MATIC"] },
          { jsonmodel_type: "note_definedlist", items: [{ label: "A-0 [1952]", value: "The first compiler" }] },
          {
            jsonmodel_type: "note_citation",
            content: ["Beyer, K. (2009). Grace Hopper and the Invention of the Information Age."],
            xlink: { href: "https://example.org/beyer" },
          },
          { jsonmodel_type: "note_abstract", content: ["A second abstract."] },
          {
            jsonmodel_type: "note_outline",
            levels: [{ items: ["Navy", { items: ["Reserve", "Active duty"] }, "Harvard"] }],
          },
        ],
      },
      { jsonmodel_type: "note_bioghist", publish: false, subnotes: [paragraph("Unpublished biography.")] },
      { jsonmodel_type: "note_general_context", subnotes: [paragraph("Early computing.")] },
    ],
    agent_record_controls: [
      {
        maintenance_status: "revised_corrected",
        publication_status: "approved",
        maintenance_agency: "US-DNLM",
        agency_name: "National Library",
        maintenance_agency_note: "Kept by the library.",
        language: "eng",
        script: "Latn",
        language_note: "Described in English.",
      },
    ],
    agent_record_identifiers: [
      { primary_identifier: true, record_identifier: "n79022305", source: "naf", identifier_type: "loc" },
      { primary_identifier: false, record_identifier: "local-42", source: "local", identifier_type: "local" },
    ],
    agent_identifiers: [{ entity_identifier: "https://viaf.org/viaf/12345", identifier_type: "other_unmapped" }],
    agent_maintenance_histories: [
      {
        maintenance_event_type: "created",
        maintenance_agent_type: "human",
        event_date: "2020-11-24 00:00:00 UTC",
        agent: "Cataloger",
        descriptive_note: "Record created.",
      },
    ],
    agent_conventions_declarations: [
      { name_rule: "rda", citation: "Resource Description and Access", file_uri: "https://www.rdatoolkit.org/" },
    ],
    agent_sources: [
      {
        source_entry: "Wikipedia",
        file_uri: "https://en.wikipedia.org/wiki/Grace_Hopper",
        last_verified_date: "2021-03-04",
      },
    ],
    agent_places: [{ place_role: "place_of_birth", subjects: [{ ref: uris.nyc }], dates: [single("other", "1906")] }],
    agent_occupations: [
      { subjects: [{ ref: uris.scientist }], places: [{ ref: uris.nyc }], notes: [paragraph("Mostly.")] },
    ],
    agent_functions: [{ subjects: [{ ref: uris.programming }] }],
    agent_topics: [{ subjects: [{ ref: uris.computing }] }],
    agent_genders: [{ gender: "not_specified" }],
    used_languages: [{ language: "eng" }],
    agent_resources: [
      {
        linked_agent_role: "creator",
        linked_resource: "Grace Murray Hopper Collection",
        file_uri: "https://sova.si.edu/record/NMAH.AC.0324",
        linked_resource_description: "At the National Museum of American History.",
      },
    ],
    agent_alternate_sets: [{ set_component: "Wikidata Q11641", file_uri: "https://www.wikidata.org/wiki/Q11641" }],
    related_agents: [
      {
        jsonmodel_type: "agent_relationship_associative",
        relator: "is_associative_with",
        ref: uris.eckert,
        description: "Worked there.",
        dates: {
          date_label: "agent_relation",
          date_type_structured: "range",
          structured_date_range: { begin_date_standardized: "1949", end_date_standardized: "1952" },
        },
      },
      { jsonmodel_type: "agent_relationship_parentchild", relator: "is_child_of", ref: uris.father },
    ],
  });
  uris.family = await create("/agents/families", {
    names: [{ family_name: "Murray", prefix: "The", family_type: "Clan", location: "New York", dates: "1800-" }],
    dates_of_existence: [single("existence", "1800")],
    notes: [
      { jsonmodel_type: "note_bioghist", subnotes: [paragraph("A family.")] },
      { jsonmodel_type: "note_structure_or_genealogy", subnotes: [paragraph("Two branches.")] },
    ],
    related_agents: [{ jsonmodel_type: "agent_relationship_family", relator: "is_related_with", ref: uris.father }],
  });
  uris.corporate = await create("/agents/corporate_entities", {
    names: [
      {
        primary_name: "United States",
        subordinate_name_1: "Navy",
        subordinate_name_2: "Bureau of Ordnance",
        number: "2",
        location: "Washington",
        qualifier: "1862-1942",
        authority_id: "n80126142",
        source: "naf",
      },
    ],
    notes: [
      {
        jsonmodel_type: "note_mandate",
        subnotes: [paragraph("By act of Congress."), { jsonmodel_type: "note_citation", content: ["5 Stat. 579"] }],
      },
      { jsonmodel_type: "note_legal_status", subnotes: [paragraph("A federal bureau.")] },
    ],
    related_agents: [
      { jsonmodel_type: "agent_relationship_subordinatesuperior", relator: "is_subordinate_to", ref: uris.eckert },
    ],
  });
  uris.software = await create("/agents/software", {
    names: [{ software_name: "FLOW-MATIC", version: "2", manufacturer: "Remington Rand" }],
    notes: [{ jsonmodel_type: "note_bioghist", subnotes: [paragraph("A programming language.")] }],
  });

  // Records that link to Hopper: a resource (creator), an archival object (subject), a digital object
  // (source), and a resource in a repository the viewer below may not read.
  const resource = (repository: string, title: string, id0: string) =>
    create(`${repository}/resources`, {
      title,
      id_0: id0,
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      dates: [{ label: "creation", date_type: "single", begin: "1950" }],
      extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
      lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
      linked_agents: [{ ref: uris.hopper, role: "creator" }],
    });
  uris.papers = await resource(repo, "Hopper papers", "MS1");
  uris.secret = await resource(hidden, "Hidden papers", "MS2");
  uris.letter = await create(`${repo}/archival_objects`, {
    resource: { ref: uris.papers },
    level: "item",
    dates: [{ label: "creation", date_type: "single", begin: "1952", expression: "1952" }],
    linked_agents: [{ ref: uris.hopper, role: "subject" }],
  });
  uris.scan = await create(`${repo}/digital_objects`, {
    title: "Portrait",
    digital_object_id: "do-1",
    linked_agents: [{ ref: uris.hopper, role: "source" }],
  });
}, 60_000);

afterAll(() => service.stop());

describe("a person with every part an agent has", () => {
  let text: string;
  let eac: XmlElement;

  beforeAll(async () => {
    ({ text, eac } = await exported(uris.hopper as string));
  });

  it("is an EAC-CPF 2010 document, valid against cpf.xsd", async () => {
    expect([eac.name, eac.uri, eac.attributes["xml:lang"]]).toEqual(["eac-cpf", EAC_NS, "eng"]);
    await valid(text);
  });

  it("says in <control> who keeps the record and how", () => {
    const control = at(eac, "control");
    expect(textOf(at(control, "recordId"))).toBe("n79022305");
    expect(all(control, "otherRecordId").map((id) => [id.attributes.localType, textOf(id)])).toEqual([
      ["local", "local-42"],
    ]);
    expect(texts(all(control, "maintenanceStatus|publicationStatus"))).toEqual(["revised", "approved"]);
    expect(texts(children(at(control, "maintenanceAgency")))).toEqual([
      "US-DNLM",
      "National Library",
      "Kept by the library.",
    ]);
    const language = at(control, "languageDeclaration");
    expect([at(language, "language")?.attributes.languageCode, at(language, "script")?.attributes.scriptCode]).toEqual([
      "eng",
      "Latn",
    ]);
    expect(textOf(at(language, "descriptiveNote/p"))).toBe("Described in English.");
    // The declared convention, then the rules a name follows that none declares.
    expect(all(control, "conventionDeclaration").map((d) => texts(children(d)))).toEqual([
      ["rda", "Resource Description and Access"],
      ["dacs", "dacs"],
    ]);
    expect(at(control, "conventionDeclaration/citation")?.attributes["xlink:href"]).toBe("https://www.rdatoolkit.org/");
    const event = at(control, "maintenanceHistory/maintenanceEvent");
    expect(texts(children(event))).toEqual([
      "created",
      "2020-11-24 00:00:00 UTC",
      "human",
      "Cataloger",
      "Record created.",
    ]);
    expect(at(event, "eventDateTime")?.attributes.standardDateTime).toBe("2020-11-24T00:00:00Z");
    const source = at(control, "sources/source");
    expect([source?.attributes["xlink:href"], source?.attributes.lastDateTimeVerified, textOf(source)]).toEqual([
      "https://en.wikipedia.org/wiki/Grace_Hopper",
      "2021-03-04",
      "Wikipedia",
    ]);
  });

  it("names the person in <identity>: parts by field, forms by source, use dates, parallel names", () => {
    const identity = at(eac, "cpfDescription/identity");
    expect(all(identity, "entityId").map((id) => [id.attributes.localType, textOf(id)])).toEqual([
      ["other_unmapped", "https://viaf.org/viaf/12345"],
    ]);
    expect(textOf(at(identity, "entityType"))).toBe("person");
    const [display, parallel, direct] = children(identity).filter((child) => child.name.startsWith("nameEntry"));
    expect(display?.name).toBe("nameEntry");
    expect(all(display, "part").map((part) => [part.attributes.localType, textOf(part)])).toEqual([
      ["surname", "Hopper"],
      ["title", "Rear Admiral"],
      ["forename", "Grace"],
      ["fuller_form", "Grace Brewster Murray"],
      ["dates", "1906-1992"],
    ]);
    expect(all(display, "useDates/dateRange/fromDate|toDate").map((d) => d.attributes.standardDate)).toEqual([
      "1934",
      "1992",
    ]);
    expect(textOf(at(display, "authorizedForm"))).toBe("naf");
    // A name with parallel names: its entry and theirs, the form on the group.
    expect(parallel?.name).toBe("nameEntryParallel");
    const entries = all(parallel, "nameEntry");
    expect(entries.map((entry) => [entry.attributes["xml:lang"], entry.attributes.scriptCode])).toEqual([
      ["eng", "Latn"],
      ["rus", "Cyrl"],
    ]);
    expect(texts(all(entries[1], "part"))).toEqual(["Мюррей", "Грейс"]);
    expect(textOf(at(parallel, "alternativeForm"))).toBe("local");
    // Authorized with neither source nor rules; in direct order.
    expect([direct?.attributes.localType, textOf(at(direct, "part")), textOf(at(direct, "authorizedForm"))]).toEqual([
      "directOrder",
      "Amazing Grace",
      "unspecified",
    ]);
  });

  it("describes the person: dates, languages, places, occupations, functions, topics, gender", () => {
    const description = at(eac, "cpfDescription/description");
    expect(children(description).map((child) => child.name)).toEqual([
      "existDates",
      "languagesUsed",
      "places",
      "occupations",
      "functions",
      "localDescriptions",
      "generalContext",
      "biogHist",
      "biogHist",
    ]);
    // Two dates of existence: a <dateSet>.
    const set = at(description, "existDates/dateSet");
    expect(at(set, "dateRange/fromDate")?.attributes.standardDate).toBe("1906-12-09");
    expect(texts(all(set, "dateRange/fromDate|toDate"))).toEqual(["December 9, 1906", "January 1, 1992"]);
    expect([at(set, "date")?.attributes.notBefore, textOf(at(set, "date"))]).toEqual(["1906", "1906"]);
    // No script given: ISO 15924's "uncoded" (cpf.xsd wants both).
    const used = at(description, "languagesUsed/languageUsed");
    expect([at(used, "language")?.attributes.languageCode, at(used, "script")?.attributes.scriptCode]).toEqual([
      "eng",
      "Zzzz",
    ]);
    const place = at(description, "places/place");
    expect(texts(children(place))).toEqual(["place_of_birth", "New York (N.Y.)", "1906"]);
    expect(at(place, "placeEntry")?.attributes.vocabularySource).toBe("lcsh");
    const occupation = at(description, "occupations/occupation");
    expect(texts(children(occupation))).toEqual(["Computer scientists", "New York (N.Y.)", "Mostly."]);
    expect(textOf(at(description, "functions/function/term"))).toBe("Programming");
    const local = at(description, "localDescriptions");
    expect(local?.attributes.localType).toBe("archivesspace");
    expect(all(local, "localDescription").map((d) => [d.attributes.localType, textOf(at(d, "term"))])).toEqual([
      ["associatedSubject", "Computing"],
      ["gender", "not_specified"],
    ]);
    expect(textOf(at(description, "generalContext/p"))).toBe("Early computing.");
  });

  it("writes the biographies with their subnotes, markup as text, unpublished ones too", () => {
    const [biography, unpublished] = all(eac, "cpfDescription/description/biogHist");
    expect(children(biography).map((child) => child.name)).toEqual([
      "abstract",
      "p",
      "chronList",
      "list",
      "list",
      "citation",
      "p",
      "outline",
    ]);
    // Stored inline markup stays characters: it reads back as the same string.
    expect(at(biography, "p")?.children).toEqual([MARKUP]);
    expect(text).toContain(
      'She wrote &lt;emph render="italic"&gt;the first compiler&lt;/emph&gt; &amp; more &lt;b&gt;.',
    );
    // One <chronItem> per event; an undated item keeps an empty date, an item without events an empty event.
    expect(
      all(biography, "chronList/chronItem").map((item) => [
        textOf(at(item, "date")),
        at(item, "date")?.attributes.standardDate ?? null,
        textOf(at(item, "event")),
      ]),
    ).toEqual([
      ["1906-12-09", "1906-12-09", "Born"],
      ["1943 - 1946", null, "Joined the Navy"],
      ["1943 - 1946", null, "Worked on the Mark I"],
      ["", null, "Undated"],
      ["1992", "1992", ""],
    ]);
    const [ordered, defined] = all(biography, "list");
    expect([ordered?.attributes.localType, texts(all(ordered, "item"))]).toEqual(["ordered", ["COBOL", "FLOW-MATIC"]]);
    expect(all(ordered, "item").map((item) => item.attributes.localType)).toEqual(["arabic", "arabic"]);
    // A label that is no URI as it stands is percent-encoded (@localType is an xs:anyURI).
    expect([defined?.attributes.localType, at(defined, "item")?.attributes.localType]).toEqual([
      "defined",
      "A-0%20%5B1952%5D",
    ]);
    expect(at(biography, "citation")?.attributes["xlink:href"]).toBe("https://example.org/beyer");
    expect(textOf(children(biography)[6])).toBe("A second abstract.");
    // An outline level holds one item, then its levels.
    const levels = all(biography, "outline/level");
    expect(levels.map((level) => [textOf(at(level, "item")), texts(all(level, "level/item"))])).toEqual([
      ["Navy", ["Reserve", "Active duty"]],
      ["Harvard", []],
    ]);
    expect(textOf(at(unpublished, "p"))).toBe("Unpublished biography.");
  });

  it("relates the person to agents and to the records that link to them, in cpf.xsd's order", () => {
    const relations = at(eac, "cpfDescription/relations");
    expect(children(relations).map((child) => child.name)).toEqual([
      "cpfRelation",
      "cpfRelation",
      "resourceRelation",
      "resourceRelation",
      "resourceRelation",
      "resourceRelation",
      "resourceRelation",
    ]);
    const [eckert, father] = all(relations, "cpfRelation");
    expect([
      eckert?.attributes.cpfRelationType,
      eckert?.attributes["xlink:href"],
      textOf(at(eckert, "relationEntry")),
    ]).toEqual(["associative", uris.eckert, "Eckert-Mauchly Computer Corporation. Research (1)"]);
    expect(all(eckert, "dateRange/fromDate|toDate").map((d) => d.attributes.standardDate)).toEqual(["1949", "1952"]);
    expect(textOf(at(eckert, "descriptiveNote/p"))).toBe("Worked there.");
    expect([father?.attributes.cpfRelationType, textOf(at(father, "relationEntry"))]).toEqual([
      "hierarchical-child",
      "Murray, Walter Fletcher",
    ]);
    const resources = all(relations, "resourceRelation");
    expect(
      resources.map((relation) => [
        relation.attributes.resourceRelationType,
        relation.attributes["xlink:href"],
        textOf(at(relation, "relationEntry")),
      ]),
    ).toEqual([
      ["creatorOf", "https://sova.si.edu/record/NMAH.AC.0324", "Grace Murray Hopper Collection"],
      ["creatorOf", uris.papers, "Hopper papers"],
      ["creatorOf", uris.secret, "Hidden papers"],
      ["subjectOf", uris.letter, "1952"],
      // ArchivesSpace's "sourceOf" is not in cpf.xsd.
      ["other", uris.scan, "Portrait"],
    ]);
    expect(textOf(at(resources[0], "descriptiveNote/p"))).toBe("At the National Museum of American History.");
    expect(texts(all(eac, "cpfDescription/alternativeSet/setComponent/componentEntry"))).toEqual(["Wikidata Q11641"]);
  });

  it("lists only the linking records the caller may read", async () => {
    await service.create("/users?password=secret123", { username: "viewer", name: "Viewer" });
    const groups = (await service.call("GET", `${repo}/groups`, { token: service.admin })).body as Array<
      Record<string, unknown>
    >;
    const viewers = groups.find((group) => group.group_code === "repository-viewers") as Record<string, unknown>;
    await service.create(viewers.uri as string, { ...viewers, member_usernames: ["viewer"] });
    const { text: viewed, eac: seen } = await exported(
      uris.hopper as string,
      await service.login("viewer", "secret123"),
    );
    await valid(viewed);
    expect(all(seen, "cpfDescription/relations/resourceRelation").map((r) => r.attributes["xlink:href"])).toEqual([
      "https://sova.si.edu/record/NMAH.AC.0324",
      uris.papers,
      uris.letter,
      uris.scan,
    ]);
  });
});

describe("the other agent types", () => {
  it("a family: its name parts, dates, genealogy before its biography, its family relation", async () => {
    const { text, eac } = await exported(uris.family as string);
    await valid(text);
    const identity = at(eac, "cpfDescription/identity");
    expect(textOf(at(identity, "entityType"))).toBe("family");
    expect(all(identity, "nameEntry/part").map((part) => [part.attributes.localType, textOf(part)])).toEqual([
      ["prefix", "The"],
      ["surname", "Murray"],
      ["location", "New York"],
      ["dates", "1800-"],
      ["family_type", "Clan"],
    ]);
    // Neither authorized nor with a source: no form.
    expect(all(identity, "nameEntry/authorizedForm|alternativeForm")).toEqual([]);
    const description = at(eac, "cpfDescription/description");
    expect(children(description).map((child) => child.name)).toEqual([
      "existDates",
      "structureOrGenealogy",
      "biogHist",
    ]);
    expect(at(description, "existDates/date")?.attributes.standardDate).toBe("1800");
    expect(at(eac, "cpfDescription/relations/cpfRelation")?.attributes.cpfRelationType).toBe("family");
    // No authority id: the record id is the agent's uri, colons for slashes (ArchivesSpace's form).
    expect(textOf(at(eac, "control/recordId"))).toBe(String(uris.family).replace(/\//g, ":"));
  });

  it("a corporate body: its parts (the number as Arca's importer reads it), mandate and legal status", async () => {
    const { text, eac } = await exported(uris.corporate as string);
    await valid(text);
    const identity = at(eac, "cpfDescription/identity");
    expect(textOf(at(identity, "entityType"))).toBe("corporateBody");
    expect(all(identity, "nameEntry/part").map((part) => [part.attributes.localType, textOf(part)])).toEqual([
      ["primary_name", "United States"],
      ["subordinate_name_1", "Navy"],
      ["subordinate_name_2", "Bureau of Ordnance"],
      ["number", "2"],
      ["qualifier", "1862-1942"],
      ["location", "Washington"],
    ]);
    expect(textOf(at(eac, "control/recordId"))).toBe("n80126142");
    const mandate = at(eac, "cpfDescription/description/mandate");
    expect([textOf(at(mandate, "citation")), textOf(at(mandate, "descriptiveNote/p"))]).toEqual([
      "5 Stat. 579",
      "By act of Congress.",
    ]);
    expect(textOf(at(eac, "cpfDescription/description/legalStatus/descriptiveNote/p"))).toBe("A federal bureau.");
    expect(at(eac, "cpfDescription/relations/cpfRelation")?.attributes.cpfRelationType).toBe("hierarchical-child");
  });

  it("a software agent: a corporateBody whose identity says software (EAC-CPF has no software)", async () => {
    const { text, eac } = await exported(uris.software as string);
    await valid(text);
    const identity = at(eac, "cpfDescription/identity");
    expect([identity?.attributes.localType, textOf(at(identity, "entityType"))]).toEqual(["software", "corporateBody"]);
    expect(all(identity, "nameEntry/part").map((part) => [part.attributes.localType, textOf(part)])).toEqual([
      ["software_name", "FLOW-MATIC"],
      ["version", "2"],
      ["manufacturer", "Remington Rand"],
    ]);
    expect(textOf(at(eac, "cpfDescription/description/biogHist/p"))).toBe("A programming language.");
  });
});

describe("the metadata route", () => {
  it("names the file by the display name's authority id and primary name, as ArchivesSpace does", async () => {
    const metadata = (agent: string) =>
      service.call("GET", exportPath(agent).replace(/\.xml$/, ".xml/metadata"), { token: service.admin });
    expect(await metadata(uris.hopper as string)).toMatchObject({
      status: 200,
      body: { filename: "n79022305_Hopper_eac.xml", mimetype: "application/xml" },
    });
    expect((await metadata(uris.corporate as string)).body).toEqual({
      filename: "n80126142_United_States_eac.xml",
      mimetype: "application/xml",
    });
    expect((await metadata(uris.family as string)).body).toMatchObject({ filename: "Murray_eac.xml" });
    expect((await metadata(uris.software as string)).body).toMatchObject({ filename: "FLOW-MATIC_eac.xml" });
    expect(await metadata(`/agents/people/9999`)).toMatchObject({ status: 404 });
  });
});

describe("who may export, and what is not there", () => {
  it("needs a session: 403 without one, 412 with an unknown one", async () => {
    expect(await service.call("GET", exportPath(uris.hopper as string))).toMatchObject({
      status: 403,
      body: { error: "Access denied" },
    });
    expect((await service.call("GET", exportPath(uris.hopper as string), { token: "no-such-session" })).status).toBe(
      412,
    );
  });

  it("answers 404 for a missing agent and for a missing repository in the path", async () => {
    const missing = await service.call("GET", `${repo}/archival_contexts/people/9999.xml`, { token: service.admin });
    expect([missing.status, missing.headers.get("content-type")]).toEqual([404, expect.stringContaining("json")]);
    expect(missing.body).toEqual({ error: expect.stringMatching(/not found$/) });
    expect(
      await service.call("GET", exportPath(uris.hopper as string, "/repositories/999"), { token: service.admin }),
    ).toMatchObject({ status: 404, body: { error: "Repository not found" } });
  });
});

describe("what XML cannot carry", () => {
  it("drops control characters and non-characters, and still writes a valid document", async () => {
    const bad = "\u0001\u0008\u000B\u001F\uFFFE\uFFFF";
    const agent = await service.create("/agents/people", {
      names: [
        {
          primary_name: `Bad${bad}Name`,
          rest_of_name: `<&>"'${bad}`,
          name_order: "inverted",
          authority_id: `id${bad}`,
          source: "naf",
        },
      ],
      notes: [{ jsonmodel_type: "note_bioghist", subnotes: [paragraph(`Text${bad} & <more>`)] }],
      agent_identifiers: [{ entity_identifier: `x${bad}` }],
    });
    const { text, eac } = await exported(agent);
    await valid(text);
    expect(texts(all(eac, "cpfDescription/identity/nameEntry/part"))).toEqual(["BadName", `<&>"'`]);
    expect(textOf(at(eac, "cpfDescription/description/biogHist/p"))).toBe("Text & <more>");
    // The authority id is no name token as stored: the uri stands in as record id, the id as an entityId.
    expect(textOf(at(eac, "control/recordId"))).toBe(agent.replace(/\//g, ":"));
    expect(texts(all(eac, "cpfDescription/identity/entityId"))).toEqual(["x", "id"]);
  });
});

describe("an agent linked from more records than one batch holds", () => {
  it("lists every linking record, in id order, streamed in batches", async () => {
    const agent = await service.create("/agents/corporate_entities", { names: [{ primary_name: "Busy Agency" }] });
    const papers = await service.create(`${repo}/resources`, {
      title: "Busy papers",
      id_0: "MS9",
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      dates: [{ label: "creation", date_type: "single", begin: "1950" }],
      extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
      lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
    });
    const count = 250;
    const created = await service.operations.createMany(
      "archival_object",
      { repoId: idOf(repo) },
      Array.from({ length: count }, (_, i) => ({
        input: {
          resource: { ref: papers },
          title: `Item ${i + 1}`,
          level: "item",
          linked_agents: [{ ref: agent, role: i % 2 === 0 ? "creator" : "subject" }],
        },
      })),
      trusted("test"),
    );
    service.commands.length = 0;
    const { text, eac } = await exported(agent);
    await valid(text);
    const relations = all(eac, "cpfDescription/relations/resourceRelation");
    expect(relations.map((relation) => relation.attributes["xlink:href"])).toEqual(created.map((result) => result.uri));
    expect(relations.slice(0, 2).map((relation) => relation.attributes.resourceRelationType)).toEqual([
      "creatorOf",
      "subjectOf",
    ]);
    // A handful of queries per batch of 200, never one per record.
    const finds = service.commands.filter((command) => command.commandName === "find");
    expect(finds.length).toBeLessThan(20);
  });
});
