// EAD export through the service as it is mounted: a resource with a few levels of
// archival objects, agents as creator, source and subject, subjects, top containers and a
// digital object, all made through the API, exported as EAD 2002 and EAD3 and read back with
// a conformant XML parser. Also the permissions and 404s, the optional parameters, and a
// streamed export of 2,000 components (complete, in order, in a bounded number of queries).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { get as httpGet } from "node:http";
import { idOf, startExportService, type ExportService } from "./harness.js";
import { all, at, children, descendants, parseXml, textOf, type XmlElement } from "./xml-tree.js";
import { trusted } from "../../src/auth/actor.js";

const EAD2002_NS = "urn:isbn:1-931666-22-9";
const EAD3_NS = "http://ead3.archivists.org/schema/";
const TITLE = `Papers of Grace Hopper & "friends" <1940-1990>`;

let service: ExportService;
let repo: string;
let resource: string;
const uris: Record<string, string> = {};

const exportPath = (query = "", resourceUri = resource) =>
  `${resourceUri.replace("/resources/", "/resource_descriptions/")}.xml${query}`;

async function exported(query = "", resourceUri = resource): Promise<XmlElement> {
  const reply = await service.call("GET", exportPath(query, resourceUri), { token: service.admin });
  expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "application/xml"]);
  expect(reply.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  return parseXml(reply.text);
}

/** The component elements directly under `element` (`c` or `c01`..). */
const components = (element: XmlElement | undefined) =>
  children(element).filter((child) => /^c(\d\d)?$/.test(child.name));
const titleOf = (component: XmlElement) => textOf(at(component, "did/unittitle"));

beforeAll(async () => {
  service = await startExportService("ead_export");
  const { create } = service;
  repo = await create("/repositories", { repo_code: "exp", name: "Export Repository", org_code: "EXP", country: "US" });
  const vocabulary = "/vocabularies/1"; // ArchivesSpace's default vocabulary, made at start-up
  uris.hopper = await create("/agents/people", {
    names: [
      {
        primary_name: "Hopper",
        rest_of_name: "Grace",
        name_order: "inverted",
        sort_name: "Hopper, Grace",
        source: "local",
        authority_id: "n123",
      },
    ],
  });
  uris.navy = await create("/agents/corporate_entities", {
    names: [{ primary_name: "Navy & Co <Research>", sort_name: "Navy & Co <Research>" }],
  });
  uris.lovelace = await create("/agents/families", { names: [{ family_name: "Lovelace family" }] });
  const term = (text: string, type: string) => ({ term: text, term_type: type, vocabulary });
  uris.computers = await create("/subjects", {
    source: "lcsh",
    vocabulary,
    authority_id: "sh85029552",
    terms: [term("Computers", "topical"), term("History", "temporal")],
  });
  uris.arlington = await create("/subjects", {
    source: "local",
    vocabulary,
    terms: [term("Arlington (Va.)", "geographic")],
  });
  uris.photos = await create("/subjects", { source: "aat", vocabulary, terms: [term("Photographs", "genre_form")] });
  uris.box1 = await create(`${repo}/top_containers`, { type: "box", indicator: "1", barcode: "3900001" });
  uris.box2 = await create(`${repo}/top_containers`, { type: "box", indicator: "2" });
  uris.scan = await create(`${repo}/digital_objects`, {
    title: "Logbook scan",
    digital_object_id: "do-1",
    digital_object_type: "still_image",
    dates: [{ label: "creation", date_type: "single", begin: "1941" }],
    file_versions: [
      {
        file_uri: "https://example.org/logbook.jpg",
        use_statement: "image-service",
        xlink_actuate_attribute: "onRequest",
        xlink_show_attribute: "new",
      },
    ],
  });

  const paragraph = (content: string) => ({ jsonmodel_type: "note_text", content });
  resource = await create(`${repo}/resources`, {
    title: TITLE,
    id_0: "MS",
    id_1: "001",
    level: "collection",
    ead_id: "us-exp-ms001",
    ead_location: "https://example.org/ead/ms001",
    finding_aid_title: "Guide to the Grace Hopper Papers",
    finding_aid_author: "A. Processor",
    finding_aid_date: "2024",
    finding_aid_status: "completed",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    finding_aid_description_rules: "dacs",
    revision_statements: [{ date: "2025-01-01", description: "Revised" }],
    dates: [
      { label: "creation", date_type: "inclusive", begin: "1940", end: "1990", expression: "1940-1990" },
      { label: "creation", date_type: "bulk", begin: "1950", end: "1970" },
    ],
    extents: [{ portion: "whole", number: "5.5", extent_type: "linear_feet", container_summary: "11 boxes" }],
    lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
    notes: [
      {
        jsonmodel_type: "note_singlepart",
        type: "abstract",
        persistent_id: "abs1",
        content: ["Naval officer & computer scientist."],
      },
      {
        jsonmodel_type: "note_multipart",
        type: "scopecontent",
        label: "Scope and Contents",
        subnotes: [
          paragraph("First paragraph.\n\nSecond paragraph."),
          {
            jsonmodel_type: "note_chronology",
            title: "Chronology",
            items: [
              { event_date: "1944", events: ["Joined Harvard"] },
              { event_date: "1952", events: ["Compiler", "A-0"] },
            ],
          },
          {
            jsonmodel_type: "note_orderedlist",
            title: "Series",
            enumeration: "loweralpha",
            items: ["Correspondence", "Notebooks"],
          },
          { jsonmodel_type: "note_definedlist", title: "Terms", items: [{ label: "COBOL", value: "A language" }] },
        ],
      },
      { jsonmodel_type: "note_multipart", type: "bioghist", subnotes: [paragraph("Born 1906.")] },
      {
        jsonmodel_type: "note_multipart",
        type: "accessrestrict",
        publish: false,
        subnotes: [paragraph("Internal only.")],
      },
      { jsonmodel_type: "note_multipart", type: "legalstatus", subnotes: [paragraph("Public records.")] },
      {
        jsonmodel_type: "note_bibliography",
        label: "Works",
        content: ["Selected works."],
        items: ["Hopper, G. (1952). The education of a computer."],
      },
      {
        jsonmodel_type: "note_index",
        content: ["Index of names."],
        items: [{ type: "person", value: "Aiken, Howard" }],
      },
    ],
    linked_agents: [
      { ref: uris.hopper, role: "creator", relator: "cre" },
      { ref: uris.lovelace, role: "source" },
      { ref: uris.navy, role: "subject", relator: "dnr", terms: [term("Correspondence", "genre_form")] },
    ],
    subjects: [{ ref: uris.computers }, { ref: uris.arlington }, { ref: uris.photos }],
    instances: [{ instance_type: "mixed_materials", sub_container: { top_container: { ref: uris.box1 } } }],
  });

  const component = (body: Record<string, unknown>) =>
    create(`${repo}/archival_objects`, { resource: { ref: resource }, ...body });
  uris.ser1 = await component({ title: "Series 1: Correspondence", level: "series", ref_id: "ser1" });
  uris.ser2 = await component({
    title: "Series 2: Notebooks",
    level: "series",
    ref_id: "ser2",
    instances: [{ instance_type: "text", sub_container: { top_container: { ref: uris.box2 } } }],
  });
  uris.f1 = await component({
    title: "Letters, 1941",
    level: "file",
    ref_id: "f1",
    parent: { ref: uris.ser1 },
    dates: [{ label: "creation", date_type: "single", begin: "1941" }],
    subjects: [{ ref: uris.arlington }],
    linked_agents: [{ ref: uris.navy, role: "creator" }],
    instances: [
      {
        instance_type: "mixed_materials",
        sub_container: { top_container: { ref: uris.box1 }, type_2: "folder", indicator_2: "3" },
      },
      { instance_type: "digital_object", digital_object: { ref: uris.scan } },
    ],
  });
  // Inline EAD markup, as importers keep it in titles: written back as elements.
  uris.f2 = await component({
    title: 'Letters, <emph render="italic">1942</emph>',
    level: "file",
    parent: { ref: uris.ser1 },
  });
  uris.f3 = await component({
    title: "Private letters",
    level: "file",
    ref_id: "f3",
    publish: false,
    parent: { ref: uris.ser1 },
  });
  uris.f3a = await component({
    title: "Under the private letters",
    level: "item",
    ref_id: "f3a",
    parent: { ref: uris.f3 },
  });
  uris.i1 = await component({
    title: "Letter to the Navy",
    level: "item",
    ref_id: "i1",
    parent: { ref: uris.f1 },
    extents: [{ portion: "part", number: "2", extent_type: "leaves" }],
  });
  uris.env = await component({
    title: "Envelope",
    level: "otherlevel",
    other_level: "piece",
    ref_id: "env",
    parent: { ref: uris.i1 },
  });
  // A sub container level with an indicator and no type (EAD3 files have such levels).
  uris.f4 = await component({
    title: "Notebook 1",
    level: "file",
    ref_id: "f4",
    component_id: "NB-1",
    parent: { ref: uris.ser2 },
    instances: [{ instance_type: "text", sub_container: { top_container: { ref: uris.box2 }, indicator_2: "7" } }],
  });
}, 60_000);

afterAll(() => service.stop());

describe("EAD 2002", () => {
  let ead: XmlElement;
  let archdesc: XmlElement | undefined;
  beforeAll(async () => {
    ead = await exported();
    archdesc = at(ead, "archdesc");
  });

  it("is an EAD 2002 document with the finding aid's header", () => {
    expect([ead.name, ead.uri]).toEqual(["ead", EAD2002_NS]);
    const header = at(ead, "eadheader");
    expect(header?.attributes.findaidstatus).toBe("completed");
    const eadid = at(header, "eadid");
    expect([textOf(eadid), eadid?.attributes]).toEqual([
      "us-exp-ms001",
      { countrycode: "US", mainagencycode: "US-EXP", url: "https://example.org/ead/ms001" },
    ]);
    // The finding aid title as it is (no <num> added: an imported one holds its own).
    expect(textOf(at(header, "filedesc/titlestmt/titleproper"))).toBe("Guide to the Grace Hopper Papers");
    expect(textOf(at(header, "filedesc/titlestmt/author"))).toBe("A. Processor");
    expect(textOf(at(header, "filedesc/publicationstmt/publisher"))).toBe("Export Repository");
    expect(textOf(at(header, "filedesc/publicationstmt/date"))).toBe("2024");
    expect(at(header, "profiledesc/langusage/language")?.attributes).toEqual({ langcode: "eng", scriptcode: "Latn" });
    expect(textOf(at(header, "profiledesc/descrules"))).toBe("dacs");
    expect(textOf(at(header, "revisiondesc/change/item"))).toBe("Revised");
  });

  it("describes the resource at <archdesc>: title (escaped and read back whole), identifier, dates, extents, languages", () => {
    expect(archdesc?.attributes.level).toBe("collection");
    const did = at(archdesc, "did");
    expect(textOf(at(did, "unittitle"))).toBe(TITLE);
    expect(textOf(at(did, "unitid"))).toBe("MS.001");
    expect(textOf(at(did, "repository/corpname"))).toBe("Export Repository");
    expect(all(did, "unitdate").map((date) => [textOf(date), date.attributes])).toEqual([
      ["1940-1990", { normal: "1940/1990", type: "inclusive", datechar: "creation" }],
      ["1950-1970", { normal: "1950/1970", type: "bulk", datechar: "creation" }],
    ]);
    const physdesc = at(did, "physdesc");
    expect(physdesc?.attributes.altrender).toBe("whole");
    expect(all(physdesc, "extent").map((extent) => [extent.attributes.altrender, textOf(extent)])).toEqual([
      ["materialtype spaceoccupied", "5.5 linear feet"],
      ["carrier", "11 boxes"],
    ]);
    expect(at(did, "langmaterial/language")?.attributes).toEqual({ langcode: "eng", scriptcode: "Latn" });
    expect(at(did, "abstract")?.attributes.id).toBe("abs1");
    expect(textOf(at(did, "abstract"))).toBe("Naval officer & computer scientist.");
  });

  it("names creators and sources in <origination>, with role, source and authority number", () => {
    const originations = all(archdesc, "did/origination");
    expect(originations.map((origination) => origination.attributes.label)).toEqual(["Creator", "source"]);
    const hopper = at(originations[0], "persname");
    expect([textOf(hopper), hopper?.attributes]).toEqual([
      "Hopper, Grace",
      { role: "cre", source: "local", authfilenumber: "n123" },
    ]);
    expect(textOf(at(originations[1], "famname"))).toBe("Lovelace family");
  });

  it("writes notes by type: paragraphs, chronology, lists, bibliography, index, legal status; unpublished notes left out", () => {
    const scope = at(archdesc, "scopecontent");
    expect(textOf(at(scope, "head"))).toBe("Scope and Contents");
    expect(all(scope, "p").map(textOf)).toEqual(["First paragraph.", "Second paragraph."]);
    const chronlist = at(scope, "chronlist");
    expect(textOf(at(chronlist, "head"))).toBe("Chronology");
    expect(
      all(chronlist, "chronitem").map((item) => [textOf(at(item, "date")), descendants(item, "event").map(textOf)]),
    ).toEqual([
      ["1944", ["Joined Harvard"]],
      ["1952", ["Compiler", "A-0"]],
    ]);
    const [ordered, defined] = all(scope, "list");
    expect([ordered?.attributes, all(ordered, "item").map(textOf)]).toEqual([
      { type: "ordered", numeration: "loweralpha" },
      ["Correspondence", "Notebooks"],
    ]);
    expect([
      defined?.attributes.type,
      textOf(at(defined, "defitem/label")),
      textOf(at(defined, "defitem/item")),
    ]).toEqual(["deflist", "COBOL", "A language"]);
    expect(textOf(at(archdesc, "bioghist/p"))).toBe("Born 1906.");
    // The unpublished accessrestrict is left out; the legal status sits in an <accessrestrict>.
    const restrictions = all(archdesc, "accessrestrict");
    expect(restrictions.map((element) => textOf(at(element, "legalstatus")))).toEqual(["Public records."]);
    const bibliography = at(archdesc, "bibliography");
    expect([
      textOf(at(bibliography, "head")),
      textOf(at(bibliography, "p")),
      textOf(at(bibliography, "bibref")),
    ]).toEqual(["Works", "Selected works.", "Hopper, G. (1952). The education of a computer."]);
    expect(textOf(at(archdesc, "index/indexentry/persname"))).toBe("Aiken, Howard");
  });

  it("lists subjects by term type and subject agents with their relator in <controlaccess>", () => {
    const access = at(archdesc, "controlaccess");
    expect(children(access).map((element) => [element.name, textOf(element), element.attributes])).toEqual([
      ["subject", "Computers -- History", { source: "lcsh", authfilenumber: "sh85029552" }],
      ["geogname", "Arlington (Va.)", { source: "local" }],
      ["genreform", "Photographs", { source: "aat" }],
      ["corpname", "Navy & Co <Research> -- Correspondence", { role: "dnr" }],
    ]);
  });

  it("writes the resource's container with its instance type and barcode", () => {
    const [container] = all(archdesc, "did/container");
    expect([container?.attributes.type, container?.attributes.label, textOf(container)]).toEqual([
      "box",
      "mixed_materials [3900001]",
      "1",
    ]);
  });

  it("nests the components in <dsc> in tree order, with level and id; unpublished ones (and their subtrees) left out", () => {
    const top = components(at(archdesc, "dsc"));
    expect(top.map(titleOf)).toEqual(["Series 1: Correspondence", "Series 2: Notebooks"]);
    expect(top.map((c) => [c.name, c.attributes.level, c.attributes.id])).toEqual([
      ["c", "series", "ser1"],
      ["c", "series", "ser2"],
    ]);
    const files = components(top[0]);
    expect(files.map(titleOf)).toEqual(["Letters, 1941", "Letters, 1942"]);
    const [item] = components(files[0]);
    expect([titleOf(item as XmlElement), item?.attributes.level]).toEqual(["Letter to the Navy", "item"]);
    const [envelope] = components(item);
    expect(envelope?.attributes).toEqual({ level: "otherlevel", otherlevel: "piece", id: "env" });
    expect(descendants(ead, "c")).toHaveLength(7);
    expect(descendants(ead, "unittitle").map(textOf)).not.toContain("Private letters");
    expect(at(files[1], "did/unittitle/emph")?.attributes).toEqual({ render: "italic" });
    // A generated ref_id is a valid XML ID as it is, or prefixed aspace_ (it may start with a digit).
    expect(files[1]?.attributes.id).toMatch(/^(aspace_)?[0-9a-f]{32}$/);
  });

  it("describes components: dates, extents, identifiers, origination, subjects, nested containers", () => {
    const [ser1, ser2] = components(at(archdesc, "dsc"));
    const [f1] = components(ser1);
    const [container, folder] = all(f1, "did/container");
    expect([
      container?.attributes.type,
      textOf(container),
      folder?.attributes.type,
      folder?.attributes.parent,
      textOf(folder),
    ]).toEqual(["box", "1", "folder", container?.attributes.id, "3"]);
    expect(container?.attributes.id).toMatch(/^aspace_/);
    expect(at(f1, "did/unitdate")?.attributes).toEqual({ normal: "1941/1941", datechar: "creation" });
    expect(textOf(at(f1, "did/origination/corpname"))).toBe("Navy & Co <Research>");
    expect(textOf(at(f1, "controlaccess/geogname"))).toBe("Arlington (Va.)");
    expect(at(f1, "did/dao")).toBeUndefined(); // daos only when asked for, as in ArchivesSpace
    const [item] = components(f1);
    expect([at(item, "did/physdesc")?.attributes.altrender, textOf(at(item, "did/physdesc/extent"))]).toEqual([
      "part",
      "2 leaves",
    ]);
    const [notebook] = components(ser2);
    expect(textOf(at(notebook, "did/unitid"))).toBe("NB-1");
    const [notebookBox, untyped] = all(notebook, "did/container");
    expect([textOf(untyped), untyped?.attributes.parent, untyped?.attributes.type]).toEqual([
      "7",
      notebookBox?.attributes.id,
      undefined,
    ]);
    expect(at(ser2, "did/container")?.attributes).toMatchObject({ type: "box", label: "text" });
  });
});

describe("EAD3", () => {
  let ead: XmlElement;
  let archdesc: XmlElement | undefined;
  beforeAll(async () => {
    ead = await exported("?ead3=true&include_daos=true");
    archdesc = at(ead, "archdesc");
  });

  it("is an EAD3 document with <control> and <recordid>", () => {
    expect([ead.name, ead.uri]).toEqual(["ead", EAD3_NS]);
    const control = at(ead, "control");
    expect(textOf(at(control, "recordid"))).toBe("us-exp-ms001");
    expect(textOf(at(control, "filedesc/titlestmt/titleproper"))).toBe("Guide to the Grace Hopper Papers");
    expect(at(control, "maintenancestatus")?.attributes.value).toBe("derived");
    expect(textOf(at(control, "maintenanceagency/agencycode"))).toBe("US-EXP");
    expect(at(control, "languagedeclaration/language")?.attributes.langcode).toBe("eng");
    expect(textOf(at(control, "localcontrol/term"))).toBe("completed");
  });

  it("uses unitdatestructured, physdescstructured, container @localtype and <part>s", () => {
    const did = at(archdesc, "did");
    expect(textOf(at(did, "unittitle"))).toBe(TITLE);
    const [inclusive, bulk] = all(did, "unitdatestructured");
    expect(inclusive?.attributes).toMatchObject({ unitdatetype: "inclusive", datechar: "creation" });
    expect(at(inclusive, "daterange/fromdate")?.attributes.standarddate).toBe("1940");
    expect(at(inclusive, "daterange/todate")?.attributes.standarddate).toBe("1990");
    expect(bulk?.attributes.unitdatetype).toBe("bulk");
    const extent = at(did, "physdescstructured");
    expect([extent?.attributes, textOf(at(extent, "quantity")), textOf(at(extent, "unittype"))]).toEqual([
      { coverage: "whole", physdescstructuredtype: "spaceoccupied" },
      "5.5",
      "linear feet",
    ]);
    expect(textOf(at(did, "physdesc"))).toBe("11 boxes");
    expect(at(did, "container")?.attributes).toMatchObject({
      localtype: "box",
      label: "mixed_materials",
      containerid: "3900001",
    });
    expect(at(did, "langmaterial/languageset/language")?.attributes.langcode).toBe("eng");
    const creator = at(did, "origination/persname");
    expect([creator?.attributes.relator, textOf(at(creator, "part"))]).toEqual(["cre", "Hopper, Grace"]);
    const subject = at(archdesc, "controlaccess/subject");
    expect(all(subject, "part").map((part) => [part.attributes.localtype, textOf(part)])).toEqual([
      ["topical", "Computers"],
      ["temporal", "History"],
    ]);
    expect(at(archdesc, "controlaccess/corpname")?.attributes.relator).toBe("dnr");
    expect(at(archdesc, "scopecontent/list")?.attributes).toEqual({ listtype: "ordered", numeration: "lower-alpha" });
    expect(textOf(at(archdesc, "scopecontent/chronlist/chronitem/datesingle"))).toBe("1944");
    expect(textOf(at(archdesc, "legalstatus/p"))).toBe("Public records.");
  });

  it("writes components as <c> with nested containers and <dao> with @daotype and @href", () => {
    const [ser1] = components(at(archdesc, "dsc"));
    const [f1] = components(ser1);
    expect(f1?.name).toBe("c");
    const [box, folder] = all(f1, "did/container");
    expect([box?.attributes.localtype, folder?.attributes.localtype, folder?.attributes.parent]).toEqual([
      "box",
      "folder",
      box?.attributes.id,
    ]);
    const dao = at(f1, "did/dao");
    expect(dao?.attributes).toMatchObject({
      daotype: "otherdaotype",
      otherdaotype: "still_image",
      href: "https://example.org/logbook.jpg",
      linktitle: "Logbook scan",
      localtype: "image-service",
    });
    expect(textOf(at(dao, "descriptivenote/p"))).toBe("Logbook scan: 1941");
    expect(at(at(components(f1)[0], "did"), "unitdatestructured")).toBeUndefined();
    // A single date: no @unitdatetype (EAD3 has only bulk and inclusive), its <datesingle> says it.
    expect(at(f1, "did/unitdatestructured")?.attributes).toEqual({ datechar: "creation" });
    expect(at(f1, "did/unitdatestructured/datesingle")?.attributes.standarddate).toBe("1941");
  });
});

describe("the optional parameters", () => {
  it("numbered_cs writes <c01>..<c04> by depth", async () => {
    const ead = await exported("?numbered_cs=true");
    const [ser1] = children(at(ead, "archdesc/dsc"), "c01");
    const envelope = at(ser1, "c02/c03/c04");
    expect(titleOf(envelope as XmlElement)).toBe("Envelope");
    expect(descendants(ead, "c")).toHaveLength(0);
  });

  it("include_daos writes the digital object as <dao> (EAD 2002: xlink attributes)", async () => {
    const ead = await exported("?include_daos=true");
    const [ser1] = components(at(ead, "archdesc/dsc"));
    const dao = at(components(ser1)[0], "did/dao");
    expect(dao?.attributes).toMatchObject({
      "xlink:type": "simple",
      "xlink:href": "https://example.org/logbook.jpg",
      "xlink:title": "Logbook scan",
      "xlink:role": "image-service",
    });
    expect(textOf(at(dao, "daodesc/p"))).toBe("Logbook scan: 1941");
  });

  it("include_unpublished adds unpublished components, their subtrees and notes, marked internal", async () => {
    const ead = await exported("?include_unpublished=True");
    const [ser1] = components(at(ead, "archdesc/dsc"));
    const hidden = components(ser1)[2];
    expect([titleOf(hidden as XmlElement), hidden?.attributes.audience, components(hidden).map(titleOf)]).toEqual([
      "Private letters",
      "internal",
      ["Under the private letters"],
    ]);
    expect(all(at(ead, "archdesc"), "accessrestrict").map((element) => element.attributes.audience)).toContain(
      "internal",
    );
  });

  it('include_uris adds each record\'s uri as <unitid type="aspace_uri">', async () => {
    const ead = await exported("?include_uris=true");
    expect(
      all(at(ead, "archdesc"), "did/unitid").map((unitid) => [unitid.attributes.type, textOf(unitid)]),
    ).toContainEqual(["aspace_uri", resource]);
  });

  it("print_pdf=true and a bad boolean answer 400 naming the parameter", async () => {
    expect(await service.call("GET", exportPath("?print_pdf=true"), { token: service.admin })).toMatchObject({
      status: 400,
      body: { error: { print_pdf: [expect.any(String)] } },
    });
    expect(await service.call("GET", exportPath("?ead3=maybe"), { token: service.admin })).toMatchObject({
      status: 400,
      body: { error: { ead3: [expect.any(String)] } },
    });
  });
});

describe("who may export, and what is not there", () => {
  it("needs a session (403) and view_repository in that repository (403 otherwise)", async () => {
    expect(await service.call("GET", exportPath())).toMatchObject({ status: 403, body: { error: "Access denied" } });
    await service.create("/users?password=secret123", { username: "outsider", name: "Outsider" });
    await service.create("/users?password=secret123", { username: "viewer", name: "Viewer" });
    const groups = (await service.call("GET", `${repo}/groups`, { token: service.admin })).body as Array<
      Record<string, unknown>
    >;
    const viewers = groups.find((group) => group.group_code === "repository-viewers") as Record<string, unknown>;
    expect(
      (
        await service.call("POST", viewers.uri as string, {
          token: service.admin,
          body: { ...viewers, member_usernames: ["viewer"] },
        })
      ).status,
    ).toBe(200);
    const outsider = await service.login("outsider", "secret123");
    const viewer = await service.login("viewer", "secret123");
    expect(await service.call("GET", exportPath(), { token: outsider })).toMatchObject({
      status: 403,
      body: { error: "Access denied" },
    });
    const reply = await service.call("GET", exportPath(), { token: viewer });
    expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "application/xml"]);
  });

  it("answers the contract's 404s for a missing resource or repository, or an id no record could have", async () => {
    const missing = await service.call("GET", `${repo}/resource_descriptions/9999.xml`, { token: service.admin });
    expect([missing.status, missing.body, missing.headers.get("content-type")]).toEqual([
      404,
      { error: "Resource not found" },
      expect.stringContaining("application/json"),
    ]);
    expect(
      await service.call("GET", "/repositories/99/resource_descriptions/1.xml", { token: service.admin }),
    ).toMatchObject({ status: 404, body: { error: "Repository not found" } });
    const other = await service.create("/repositories", { repo_code: "other", name: "Other" });
    expect(
      await service.call("GET", `${other}/resource_descriptions/${idOf(resource)}.xml`, { token: service.admin }),
    ).toMatchObject({ status: 404, body: { error: "Resource not found" } });
    // As the record routes answer a path id that is no whole number.
    expect(await service.call("GET", `${repo}/resource_descriptions/abc.xml`, { token: service.admin })).toMatchObject({
      status: 404,
      body: { error: "Resource not found" },
    });
  });

  it("names the file in the metadata route as ArchivesSpace does (identifier parts joined by dots, blanks as _)", async () => {
    const id = idOf(resource);
    const reply = await service.call("GET", `${repo}/resource_descriptions/${id}.xml/metadata`, {
      token: service.admin,
    });
    const { id_0, id_1 } = (await service.call("GET", resource, { token: service.admin })).body as Record<
      string,
      string
    >;
    expect([reply.status, reply.body]).toEqual([
      200,
      {
        filename: `${[id_0, id_1].filter(Boolean).join(".").replace(/\s+/g, "_")}_ead.xml`,
        mimetype: "application/xml",
      },
    ]);
    const spaced = await service.create(`${repo}/resources`, {
      title: "Spaced",
      id_0: "MSS 1",
      id_1: "b",
      level: "collection",
      dates: [{ date_type: "single", label: "creation", expression: "1900" }],
      extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
    });
    expect(
      (
        await service.call("GET", `${repo}/resource_descriptions/${idOf(spaced)}.any/metadata`, {
          token: service.admin,
        })
      ).body,
    ).toEqual({ filename: "MSS_1.b_ead.xml", mimetype: "application/xml" });
    expect(
      await service.call("GET", `${repo}/resource_descriptions/9999.xml/metadata`, { token: service.admin }),
    ).toMatchObject({ status: 404, body: { error: "Resource not found" } });
    expect(await service.call("GET", `${repo}/resource_descriptions/${id}.xml/metadata`)).toMatchObject({
      status: 403,
    });
  });
});

describe("the OpenAPI document", () => {
  it("describes the route, its parameters and its XML answer", async () => {
    const document = (await service.call("GET", "/openapi.json")).body as {
      paths: Record<
        string,
        {
          get?: {
            parameters?: Array<{ name: string }>;
            responses: Record<string, { content?: Record<string, unknown> }>;
          };
        }
      >;
    };
    const operation = document.paths["/repositories/{repo_id}/resource_descriptions/{id}.xml"]?.get;
    expect(Object.keys(operation?.responses["200"]?.content ?? {})).toEqual(["application/xml"]);
    expect(operation?.parameters?.map((parameter) => parameter.name)).toEqual([
      "ead3",
      "include_unpublished",
      "include_daos",
      "include_uris",
      "numbered_cs",
      "print_pdf",
    ]);
    expect(Object.keys(operation?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "400", "403", "404", "412", "500"]),
    );
  });
});

describe("a large tree, streamed", () => {
  const COMPONENTS = 2_000;
  let big: string;
  let expected: string[];

  beforeAll(async () => {
    big = await service.create(`${repo}/resources`, {
      title: "Big",
      id_0: "BIG",
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
      dates: [{ label: "creation", date_type: "single", begin: "2000" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
    });
    // 5 series; the first holds 1,500 files (several batches of one parent), the others 100 each,
    // and the last series' first file holds 95 items: 5 + 1,500 + 400 + 95 = 2,000.
    const scope = { repoId: idOf(repo) };
    const actor = trusted("admin");
    const first = await service.operations.deps.store.nextIds("archival_object", COMPONENTS);
    const uri = (index: number) => `${repo}/archival_objects/${first + index}`;
    const records: Array<{ id: number; input: Record<string, unknown> }> = [];
    expected = [];
    const add = (title: string, level: string, parent?: number) => {
      const index = records.length;
      records.push({
        id: first + index,
        input: {
          title,
          level,
          resource: { ref: big },
          ...(parent === undefined ? {} : { parent: { ref: uri(parent) } }),
        },
      });
      return index;
    };
    const series = [0, 1, 2, 3, 4].map((s) => add(`Series ${s}`, "series"));
    const files: number[][] = series.map(() => []);
    series.forEach((parent, s) => {
      for (let f = 0; f < (s === 0 ? 1500 : 100); f += 1)
        files[s]?.push(add(`File ${s}.${String(f).padStart(4, "0")}`, "file", parent));
    });
    const holder = files[4]?.[0] as number;
    for (let i = 0; i < 95; i += 1) add(`Item ${String(i).padStart(3, "0")}`, "item", holder);
    // Document order: each series, then its files, the first file of series 4 followed by its items.
    for (const [s] of series.entries()) {
      expected.push(`Series ${s}`);
      for (const file of files[s] ?? []) {
        expected.push(String(records[file]?.input.title));
        if (file === holder) for (let i = 0; i < 95; i += 1) expected.push(`Item ${String(i).padStart(3, "0")}`);
      }
    }
    for (let start = 0; start < records.length; start += 500)
      await service.operations.createMany("archival_object", scope, records.slice(start, start + 500), actor);
  }, 120_000);

  it("exports every component, in order, chunked, in a bounded number of store queries", async () => {
    service.commands.length = 0;
    const response = await fetch(`${service.base}${exportPath("?numbered_cs=true", big)}`, {
      headers: { "X-ArchivesSpace-Session": service.admin },
    });
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    const text = await response.text();
    const ead = parseXml(text);
    const titles = descendants(ead, "unittitle").map(textOf);
    expect(titles[0]).toBe("Big");
    // No finding aid title: the resource's title and identifier, as ArchivesSpace writes them.
    expect(textOf(at(ead, "eadheader/filedesc/titlestmt/titleproper/num"))).toBe("BIG");
    expect(textOf(at(ead, "eadheader/filedesc/titlestmt/titleproper"))).toBe("Big BIG");
    expect(titles.slice(1)).toEqual(expected);
    expect(titles).toHaveLength(COMPONENTS + 1);
    const c02 = [...text.matchAll(/<c02[ >]/g)].length;
    const c03 = [...text.matchAll(/<c03[ >]/g)].length;
    expect([c02, c03]).toEqual([1_900, 95]);
    // Children in batches of 200 (one find per batch, one "which have children" aggregate per
    // batch), never a query per component.
    const finds = service.commands.filter(
      (event) => event.commandName === "find" && event.command.find === "archival_objects",
    ).length;
    const aggregates = service.commands.filter((event) => event.commandName === "aggregate").length;
    expect(finds).toBeLessThan(30);
    expect(aggregates).toBeLessThan(30);
  }, 60_000);

  it("stops cleanly when the client goes away mid-stream, and keeps serving", async () => {
    // A raw request, dropped after the first chunk of the body.
    const firstChunk = await new Promise<number>((resolve, reject) => {
      const request = httpGet(
        `${service.base}${exportPath("", big)}`,
        { headers: { "X-ArchivesSpace-Session": service.admin } },
        (response) => {
          response.once("data", (chunk: Buffer) => {
            request.destroy();
            resolve(chunk.length);
          });
        },
      );
      request.on("error", (error) => (request.destroyed ? undefined : reject(error)));
    });
    expect(firstChunk).toBeGreaterThan(0);
    const again = await service.call("GET", exportPath(), { token: service.admin });
    expect(again.status).toBe(200);
    parseXml(again.text);
  });
});
