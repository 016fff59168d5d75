// MODS, METS and Dublin Core exports of digital objects through the service as it is mounted: a
// rich digital object (agents in every role, subjects of several term types, dates, extents,
// notes with inline markup, file versions, a tree of components two levels deep with their own
// file versions) and a minimal one, each export validated against its standard's schema
// (mods.xsd, mets.xsd, oai_dc.xsd) and read back with a conformant XML parser. Also the metadata
// routes' file names, 404s and 403s, characters XML cannot carry, and a METS of 500 components
// streamed complete and in order.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { trusted } from "../../src/auth/actor.js";
import { validateAgainst, type StandardSchema } from "../support/xsd.js";
import { idOf, startExportService, type ExportService } from "./harness.js";
import { all, at, children, descendants, parseXml, textOf, type XmlElement } from "./xml-tree.js";

const MODS_NS = "http://www.loc.gov/mods/v3";
const METS_NS = "http://www.loc.gov/METS/";
const OAI_DC_NS = "http://www.openarchives.org/OAI/2.0/oai_dc/";
const DC_NS = "http://purl.org/dc/elements/1.1/";

let service: ExportService;
let repo: string;
let rich: string;
let minimal: string;
let hostile: string;
const uris: Record<string, string> = {};

type Format = "mods" | "mets" | "dublin_core";
const SCHEMAS: Record<Format, StandardSchema> = { mods: "mods.xsd", mets: "mets.xsd", dublin_core: "oai_dc.xsd" };

const exportPath = (format: Format, uri: string) =>
  `${uri.replace("/digital_objects/", `/digital_objects/${format}/`)}.xml`;

/** The export, checked as a 200 XML answer valid against its schema, parsed. */
async function exported(format: Format, uri: string): Promise<{ root: XmlElement; text: string }> {
  const reply = await service.call("GET", exportPath(format, uri), { token: service.admin });
  expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "application/xml"]);
  expect(reply.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  const verdict = await validateAgainst(SCHEMAS[format], reply.text);
  expect(verdict.errors).toEqual([]);
  expect(verdict.valid).toBe(true);
  return { root: parseXml(reply.text), text: reply.text };
}

const texts = (elements: XmlElement[]) => elements.map(textOf);

beforeAll(async () => {
  service = await startExportService("digital_object_export");
  const { create } = service;
  const agency = await create("/agents/corporate_entities", {
    names: [{ primary_name: "Digital Archive", sort_name: "Digital Archive" }],
    agent_contacts: [{ name: "Front desk", address_1: "1 Main St", city: "Springfield", post_code: "12345" }],
  });
  repo = await create("/repositories", {
    repo_code: "dig",
    name: "Digital Archive",
    url: "https://archive.example.org",
    agent_representation: { ref: agency },
  });
  const vocabulary = "/vocabularies/1";
  uris.hopper = await create("/agents/people", {
    names: [
      {
        primary_name: "Hopper",
        rest_of_name: "Grace",
        title: "Rear Admiral",
        dates: "1906-1992",
        name_order: "inverted",
        sort_name: "Hopper, Grace, Rear Admiral, 1906-1992",
        source: "naf",
        authority_id: "n 79022305",
      },
    ],
  });
  uris.navy = await create("/agents/corporate_entities", {
    names: [{ primary_name: "United States", subordinate_name_1: "Navy", sort_name: "United States. Navy" }],
  });
  uris.family = await create("/agents/families", {
    names: [{ family_name: "Lovelace", sort_name: "Lovelace family" }],
  });
  uris.software = await create("/agents/software", { names: [{ software_name: "Scanner Pro", version: "2" }] });
  uris.babbage = await create("/agents/people", {
    names: [
      { primary_name: "Babbage", rest_of_name: "Charles", name_order: "inverted", sort_name: "Babbage, Charles" },
    ],
  });
  const term = (text: string, type: string) => ({ term: text, term_type: type, vocabulary });
  uris.computers = await create("/subjects", {
    source: "lcsh",
    vocabulary,
    terms: [term("Computers", "topical"), term("History", "temporal")],
  });
  uris.arlington = await create("/subjects", {
    source: "local",
    vocabulary,
    terms: [term("Arlington (Va.)", "geographic")],
  });
  uris.photos = await create("/subjects", { source: "aat", vocabulary, terms: [term("Photographs", "genre_form")] });
  uris.bible = await create("/subjects", { source: "local", vocabulary, terms: [term("Bible", "uniform_title")] });
  uris.programmers = await create("/subjects", {
    source: "local",
    vocabulary,
    terms: [term("Programmers", "occupation")],
  });

  const note = (type: string, content: string[], extra: Record<string, unknown> = {}) => ({
    jsonmodel_type: "note_digital_object",
    type,
    content,
    ...extra,
  });
  rich = await create(`${repo}/digital_objects`, {
    title: 'Logbook of the <emph render="italic">Mark I</emph> & "friends"',
    digital_object_id: "do 1",
    digital_object_type: "still_image",
    publish: true,
    dates: [
      { label: "creation", date_type: "inclusive", expression: "circa 1944", certainty: "approximate" },
      { label: "digitized", date_type: "single", begin: "2019-05-01" },
      { label: "copyright", date_type: "inclusive", begin: "1944", end: "1946" },
    ],
    extents: [
      { portion: "whole", number: "12", extent_type: "megabytes", physical_details: "colour", dimensions: "A4" },
    ],
    lang_materials: [
      { language_and_script: { language: "eng", script: "Latn" } },
      {
        notes: [
          { jsonmodel_type: "note_langmaterial", type: "langmaterial", content: ["In English and some German."] },
        ],
      },
    ],
    notes: [
      note("summary", ['A <emph render="italic">rare</emph> logbook.', "Second paragraph."], { label: "Summary" }),
      note("accessrestrict", ["Open for research."]),
      note("userestrict", ["Ask before reuse."]),
      note("legalstatus", ["Public record."]),
      note("physdesc", ["Bound volume, scanned."], { publish: true }),
      note("dimensions", ["Secret size."], { publish: false }),
      note("bioghist", ["Kept by the crew."]),
      note("prefercite", ["Logbook, Digital Archive."]),
      note("originalsloc", ["Original in the Navy archive."]),
      note("relatedmaterial", ["See also the photographs."]),
      note("note", ["Unpublished remark."], { publish: false }),
      { jsonmodel_type: "note_bibliography", content: ["Works about it."], items: ["Beyer, Grace Hopper (2009)"] },
    ],
    linked_agents: [
      { role: "creator", relator: "aut", ref: uris.hopper },
      { role: "creator", ref: uris.navy },
      { role: "source", ref: uris.family },
      { role: "creator", ref: uris.software },
      { role: "subject", ref: uris.babbage, terms: [term("Correspondence", "genre_form")] },
    ],
    subjects: [uris.computers, uris.arlington, uris.photos, uris.bible, uris.programmers].map((ref) => ({ ref })),
    rights_statements: [
      { rights_type: "copyright", status: "copyrighted", jurisdiction: "US", start_date: "1944-01-01" },
    ],
    file_versions: [
      {
        file_uri: "https://example.org/logbook/page 1.tif",
        use_statement: "image-master",
        file_format_name: "tiff",
        file_size_bytes: 1024,
        checksum: "abc123",
        checksum_method: "md5",
        caption: "Page one",
        is_representative: true,
      },
      { file_uri: "https://example.org/logbook/thumb.jpg", use_statement: "image-thumbnail", publish: false },
      { file_uri: "https://example.org/logbook/notes.txt" },
    ],
  });
  const component = (body: Record<string, unknown>) => create(`${repo}/digital_object_components`, body);
  uris.c1 = await component({
    digital_object: { ref: rich },
    title: "Volume 1",
    component_id: "v1",
    dates: [{ label: "creation", date_type: "single", begin: "1944" }],
    subjects: [{ ref: uris.computers }],
    linked_agents: [{ role: "creator", ref: uris.hopper }],
    file_versions: [
      { file_uri: "https://example.org/v1/master.tif", use_statement: "image-master" },
      { file_uri: "https://example.org/v1/service.jpg", use_statement: "image-service" },
    ],
  });
  uris.c11 = await component({
    digital_object: { ref: rich },
    parent: { ref: uris.c1 },
    title: "Page 1",
    file_versions: [{ file_uri: "https://example.org/v1/p1.jpg", use_statement: "image-service" }],
  });
  uris.c12 = await component({ digital_object: { ref: rich }, parent: { ref: uris.c1 }, title: "Page 2" });
  uris.c2 = await component({
    digital_object: { ref: rich },
    label: "Audio reel",
    notes: [note("note", ["A <emph>reel</emph>."])],
    file_versions: [{ file_uri: "https://example.org/reel.mp3", use_statement: "audio-clip" }],
  });
  minimal = await create(`${repo}/digital_objects`, { title: "Minimal", digital_object_id: "min-1" });
  const bad = "Bad\u0001\u0008 chars\uFFFE\uFFFF end";
  hostile = await create(`${repo}/digital_objects`, {
    title: bad,
    digital_object_id: "hostile",
    notes: [note("summary", [bad]), note("accessrestrict", [`${bad} <emph>x</emph>`])],
    file_versions: [{ file_uri: `https://example.org/${bad}`, caption: bad }],
    dates: [{ label: "creation", date_type: "single", expression: bad }],
  });
}, 60_000);

afterAll(async () => {
  await service.stop();
});

describe("MODS", () => {
  let mods: XmlElement;
  beforeAll(async () => {
    mods = (await exported("mods", rich)).root;
  });

  it("is a MODS 3.7 record with title (markup dropped), identifier, type, languages and dates", () => {
    expect([mods.name, mods.uri, mods.attributes.version]).toEqual(["mods", MODS_NS, "3.7"]);
    expect(textOf(at(mods, "titleInfo/title"))).toBe('Logbook of the Mark I & "friends"');
    expect(texts(children(mods, "identifier"))).toEqual(["do 1"]);
    expect(texts(children(mods, "typeOfResource"))).toEqual(["still image"]);
    const [language] = children(mods, "language");
    expect(at(language, "languageTerm")?.attributes).toEqual({ type: "code", authority: "iso639-2b" });
    expect([textOf(at(language, "languageTerm")), textOf(at(language, "scriptTerm"))]).toEqual(["eng", "Latn"]);
    expect(all(mods, "note").find((note) => note.attributes.type === "language")).toBeDefined();
    const dates = children(at(mods, "originInfo")).map((date) => [date.name, date.attributes, textOf(date)]);
    expect(dates).toEqual([
      ["dateCreated", { qualifier: "approximate" }, "circa 1944"],
      ["dateCaptured", { encoding: "w3cdtf", keyDate: "yes" }, "2019-05-01"],
      ["copyrightDate", { encoding: "w3cdtf", point: "start" }, "1944"],
      ["copyrightDate", { encoding: "w3cdtf", point: "end" }, "1946"],
    ]);
  });

  it("describes extents, notes by type (unpublished dimensions note left out) and the repository", () => {
    const physical = at(mods, "physicalDescription");
    expect(texts(children(physical, "extent"))).toEqual(["12 megabytes"]);
    expect(children(physical, "note").map((note) => [note.attributes.type, textOf(note)])).toEqual([
      ["physical_description", "colour"],
      ["dimensions", "A4"],
      ["physical_description", "Bound volume, scanned."],
    ]);
    expect(texts(children(mods, "abstract"))).toEqual(["A rare logbook. Second paragraph."]);
    expect(children(mods, "abstract")[0]?.attributes.displayLabel).toBe("Summary");
    expect(children(mods, "accessCondition").map((note) => [note.attributes.type, textOf(note)])).toEqual([
      ["restrictionOnAccess", "Open for research."],
      ["useAndReproduction", "Ask before reuse."],
      ["legalstatus", "Public record."],
    ]);
    const notes = new Map(
      children(mods, "note").map((note) => [note.attributes.type ?? note.attributes.displayLabel, textOf(note)]),
    );
    expect(notes.get("bioghist")).toBe("Kept by the crew.");
    expect(notes.get("note")).toBe("Unpublished remark.");
    expect(notes.get("bibliography")).toBe("Works about it. Beyer, Grace Hopper (2009)");
    expect(notes.get("Digital object made available by")).toBe(
      "Digital Archive, 1 Main St, Springfield, 12345 (https://archive.example.org)",
    );
    expect(textOf(mods)).not.toContain("Secret size");
  });

  it("writes subjects by term type and agents as names with their parts and marcrelator roles", () => {
    const subjects = children(mods, "subject").filter((subject) => children(subject, "name").length === 0);
    expect(
      subjects.map((subject) => [subject.attributes.authority, children(subject)[0]?.name, textOf(subject)]),
    ).toEqual([
      ["lcsh", "topic", "Computers -- History"],
      ["local", "geographic", "Arlington (Va.)"],
      ["aat", "genre", "Photographs"],
      ["local", "titleInfo", "Bible"],
      ["local", "occupation", "Programmers"],
    ]);
    const names = children(mods, "name");
    expect(names.map((name) => name.attributes.type ?? null)).toEqual(["personal", "corporate", "family", null]);
    const [hopper] = names;
    expect(hopper?.attributes).toEqual({ type: "personal", authority: "naf", valueURI: "n%2079022305" });
    expect(children(hopper, "namePart").map((part) => [part.attributes.type ?? null, textOf(part)])).toEqual([
      ["family", "Hopper"],
      ["termsOfAddress", "Rear Admiral"],
      ["given", "Grace"],
      ["date", "1906-1992"],
    ]);
    expect(textOf(at(hopper, "displayForm"))).toBe("Hopper, Grace, Rear Admiral, 1906-1992");
    expect(all(hopper, "role/roleTerm").map((role) => [role.attributes.type, textOf(role)])).toEqual([
      ["text", "creator"],
      ["code", "aut"],
    ]);
    expect(texts(all(names[2], "role/roleTerm"))).toEqual(["source"]);
    const subjectAgent = children(mods, "subject").find((subject) => children(subject, "name").length > 0);
    expect(texts(all(subjectAgent, "name/namePart"))).toEqual(["Babbage", "Charles"]);
    expect(texts(children(subjectAgent, "genre"))).toEqual(["Correspondence"]);
    expect(all(subjectAgent, "name/role")).toEqual([]);
  });

  it("lists each file version's uri in <location>, escaped into a valid URI", () => {
    const urls = all(mods, "location/url");
    expect(urls.map((url) => [textOf(url), url.attributes])).toEqual([
      [
        "https://example.org/logbook/page%201.tif",
        { displayLabel: "Page one", note: "image-master", usage: "primary" },
      ],
      ["https://example.org/logbook/thumb.jpg", { note: "image-thumbnail" }],
      ["https://example.org/logbook/notes.txt", {}],
    ]);
  });

  it("nests the components as relatedItems in tree order, each once", () => {
    const top = children(mods, "relatedItem");
    expect(top.map((item) => [item.attributes.type, textOf(at(item, "titleInfo/title"))])).toEqual([
      ["constituent", "Volume 1"],
      ["constituent", "Audio reel"],
    ]);
    const [volume, reel] = top;
    expect(textOf(at(volume, "identifier"))).toBe("v1");
    expect(texts(all(volume, "relatedItem/titleInfo/title"))).toEqual(["Page 1", "Page 2"]);
    expect(texts(all(volume, "name/displayForm"))).toEqual(["Hopper, Grace, Rear Admiral, 1906-1992"]);
    expect(texts(all(volume, "location/url"))).toEqual([
      "https://example.org/v1/master.tif",
      "https://example.org/v1/service.jpg",
    ]);
    expect(textOf(at(reel, "note"))).toBe("A reel.");
    expect(descendants(mods, "relatedItem")).toHaveLength(4);
  });

  it("exports a minimal digital object (title and id only) as a valid record", async () => {
    const { root } = await exported("mods", minimal);
    expect(children(root).map((child) => child.name)).toEqual(["titleInfo", "identifier", "note"]);
    expect(textOf(at(root, "identifier"))).toBe("min-1");
  });
});

describe("METS", () => {
  let mets: XmlElement;
  beforeAll(async () => {
    mets = (await exported("mets", rich)).root;
  });

  it("has a header naming the repository and a dmdSec wrapping the MODS of the object and of each component", () => {
    expect([mets.name, mets.uri, mets.attributes.OBJID]).toEqual(["mets", METS_NS, "do 1"]);
    const header = at(mets, "metsHdr");
    expect(header?.attributes.CREATEDATE).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(at(header, "agent")?.attributes).toEqual({ ROLE: "CREATOR", TYPE: "ORGANIZATION" });
    expect(texts(all(header, "agent/name|note"))).toEqual([
      "Digital Archive",
      "https://archive.example.org",
      "Produced by Arca",
    ]);
    const sections = children(mets, "dmdSec");
    expect(sections.map((section) => section.attributes.ID)).toEqual([
      `digital_object_${idOf(rich)}`,
      ...[uris.c1, uris.c11, uris.c12, uris.c2].map((uri) => `digital_object_component_${idOf(uri as string)}`),
    ]);
    const records = sections.map((section) => at(section, "mdWrap/xmlData/mods") as XmlElement);
    expect(sections.map((section) => at(section, "mdWrap")?.attributes.MDTYPE)).toEqual(Array(5).fill("MODS"));
    expect(records.map((record) => record.uri)).toEqual(Array(5).fill(MODS_NS));
    expect(records.map((record) => textOf(at(record, "titleInfo/title")))).toEqual([
      'Logbook of the Mark I & "friends"',
      "Volume 1",
      "Page 1",
      "Page 2",
      "Audio reel",
    ]);
    // The same MODS as the MODS export, without relatedItems (the structMap carries the tree).
    expect(records.flatMap((record) => descendants(record, "relatedItem"))).toEqual([]);
    expect(texts(all(records[0], "accessCondition"))).toEqual([
      "Open for research.",
      "Ask before reuse.",
      "Public record.",
    ]);
  });

  it("groups every file version by use statement in the fileSec, with locations and technical attributes", () => {
    const groups = all(mets, "fileSec/fileGrp");
    const listing = groups.map((group) => [
      group.attributes.USE ?? null,
      children(group, "file").map((file) => at(file, "FLocat")?.attributes["xlink:href"]),
    ]);
    expect(listing).toEqual([
      ["image-master", ["https://example.org/logbook/page%201.tif", "https://example.org/v1/master.tif"]],
      ["image-thumbnail", ["https://example.org/logbook/thumb.jpg"]],
      ["audio-clip", ["https://example.org/reel.mp3"]],
      ["image-service", ["https://example.org/v1/service.jpg", "https://example.org/v1/p1.jpg"]],
      [null, ["https://example.org/logbook/notes.txt"]],
    ]);
    const first = at(groups[0], "file");
    expect(first?.attributes).toEqual({
      ID: `digital_object_${idOf(rich)}_file_1`,
      GROUPID: `digital_object_${idOf(rich)}`,
      MIMETYPE: "image/tiff",
      SIZE: "1024",
      CHECKSUM: "abc123",
      CHECKSUMTYPE: "MD5",
    });
    expect(at(first, "FLocat")?.attributes).toMatchObject({ LOCTYPE: "URL", "xlink:title": "Page one" });
  });

  it("nests a structMap div per component, pointing at its dmdSec and its files", () => {
    const [structMap, ...others] = children(mets, "structMap");
    expect([structMap?.attributes.TYPE, others]).toEqual(["logical", []]);
    const root = at(structMap, "div");
    const describe = (div: XmlElement | undefined): unknown => ({
      label: div?.attributes.LABEL,
      order: div?.attributes.ORDER,
      files: children(div, "fptr").length,
      divs: children(div, "div").map(describe),
    });
    expect(describe(root)).toEqual({
      label: 'Logbook of the Mark I & "friends"',
      order: "1",
      files: 3,
      divs: [
        {
          label: "Volume 1",
          order: "2",
          files: 2,
          divs: [
            { label: "Page 1", order: "3", files: 1, divs: [] },
            { label: "Page 2", order: "4", files: 0, divs: [] },
          ],
        },
        { label: "Audio reel", order: "5", files: 1, divs: [] },
      ],
    });
    // Every pointer names a file of the fileSec, every DMDID a dmdSec (the schema's IDREFs checked it too).
    const fileIds = new Set(descendants(mets, "file").map((file) => file.attributes.ID));
    expect(
      descendants(structMap as XmlElement, "fptr").every((fptr) => fileIds.has(fptr.attributes.FILEID ?? "")),
    ).toBe(true);
    expect(root?.attributes.DMDID).toBe(`digital_object_${idOf(rich)}`);
  });

  it("exports a minimal digital object: one dmdSec, no fileSec, one div", async () => {
    const { root } = await exported("mets", minimal);
    expect(children(root).map((child) => child.name)).toEqual(["metsHdr", "dmdSec", "structMap"]);
    expect(children(at(root, "structMap/div"))).toEqual([]);
  });
});

describe("Dublin Core", () => {
  let dc: XmlElement;
  beforeAll(async () => {
    dc = (await exported("dublin_core", rich)).root;
  });

  it("is an oai_dc:dc container of dc elements", () => {
    expect([dc.name, dc.uri]).toEqual(["dc", OAI_DC_NS]);
    expect(children(dc).every((child) => child.uri === DC_NS)).toBe(true);
  });

  it("maps title, agents by role, subjects, notes, dates, type, format, identifiers, languages and rights", () => {
    const values = (name: string) => texts(children(dc, name));
    expect(values("title")).toEqual(['Logbook of the Mark I & "friends"']);
    expect(values("creator")).toEqual([
      "Hopper, Grace, Rear Admiral, 1906-1992",
      "United States. Navy",
      "Scanner Pro 2",
    ]);
    expect(values("contributor")).toEqual(["Lovelace"]);
    expect(values("subject")).toEqual([
      "Computers--History",
      "Arlington (Va.)",
      "Photographs",
      "Bible",
      "Programmers",
      "Babbage, Charles--Correspondence",
    ]);
    expect(values("description")).toEqual([
      "A rare logbook. Second paragraph.",
      "Kept by the crew.",
      "Logbook, Digital Archive.",
      "Digital object made available by Digital Archive (https://archive.example.org)",
    ]);
    expect(values("date")).toEqual(["circa 1944", "2019-05-01", "1944 - 1946"]);
    expect(values("type")).toEqual(["still_image"]);
    expect(values("format")).toEqual(["12 megabytes", "Bound volume, scanned.", "Secret size."]);
    expect(values("identifier")).toEqual(["do 1", rich]);
    expect(values("source")).toEqual(["Original in the Navy archive."]);
    expect(values("relation")).toEqual(["See also the photographs."]);
    expect(values("language")).toEqual(["eng", "Latn", "In English and some German."]);
    expect(values("rights")).toEqual([
      "Open for research.",
      "Ask before reuse.",
      "Public record.",
      "Copyright. Status: copyrighted. Jurisdiction: US. From 1944-01-01",
    ]);
  });

  it("exports a minimal digital object as a valid record", async () => {
    const { root } = await exported("dublin_core", minimal);
    expect(children(root).map((child) => child.name)).toEqual(["title", "description", "identifier", "identifier"]);
  });
});

describe("the metadata routes, errors and hostile text", () => {
  it("name each file after the digital_object_id, whitespace as underscores", async () => {
    const names: Array<[Format, string]> = [
      ["mods", "do_1_mods.xml"],
      ["mets", "do_1_mets.xml"],
      ["dublin_core", "do_1_dc.xml"],
    ];
    for (const [format, filename] of names) {
      const reply = await service.call("GET", `${exportPath(format, rich).replace(/\.xml$/, ".xml/metadata")}`, {
        token: service.admin,
      });
      expect([reply.status, reply.body]).toEqual([200, { filename, mimetype: "application/xml" }]);
    }
  });

  it("answer 404 for a missing digital object or repository, on the file and the metadata routes", async () => {
    for (const format of ["mods", "mets", "dublin_core"] as const) {
      for (const suffix of [".xml", ".xml/metadata"]) {
        const missing = await service.call("GET", `${repo}/digital_objects/${format}/9999${suffix}`, {
          token: service.admin,
        });
        expect([missing.status, missing.body]).toEqual([404, { error: "DigitalObject not found" }]);
        const noRepository = await service.call("GET", `/repositories/99/digital_objects/${format}/1${suffix}`, {
          token: service.admin,
        });
        expect([noRepository.status, noRepository.body]).toEqual([404, { error: "Repository not found" }]);
      }
    }
  });

  it("answer 403 without a session or without view_repository", async () => {
    await service.create("/users?password=secret123", { username: "outsider", name: "Outsider" });
    const outsider = await service.login("outsider", "secret123");
    for (const format of ["mods", "mets", "dublin_core"] as const) {
      for (const token of [undefined, outsider]) {
        const reply = await service.call("GET", exportPath(format, rich), { token });
        expect([reply.status, reply.body]).toEqual([403, { error: "Access denied" }]);
      }
    }
  });

  it("drop the characters XML cannot carry and still give valid documents", async () => {
    for (const format of ["mods", "mets", "dublin_core"] as const) {
      const { root, text } = await exported(format, hostile);
      expect(text).not.toMatch(/[\u0001\u0008\uFFFE\uFFFF]/);
      expect(textOf(descendants(root, "title")[0])).toBe("Bad chars end");
    }
    const { root } = await exported("mods", hostile);
    expect(textOf(at(root, "location/url"))).toBe("https://example.org/Bad%01%08%20chars%EF%BF%BE%EF%BF%BF%20end");
  });
});

describe("a METS of many components", () => {
  const PARENTS = 5;
  const CHILDREN = 99;
  let big: string;
  let expected: string[];

  beforeAll(async () => {
    big = await service.create(`${repo}/digital_objects`, { title: "Big", digital_object_id: "big" });
    const scope = { repoId: idOf(repo) };
    const total = PARENTS + PARENTS * CHILDREN;
    const first = await service.operations.deps.store.nextIds("digital_object_component", total);
    const uri = (index: number) => `${repo}/digital_object_components/${first + index}`;
    const records: Array<{ id: number; input: Record<string, unknown> }> = [];
    expected = [];
    for (let p = 0; p < PARENTS; p += 1) {
      const parent = records.length;
      records.push({ id: first + parent, input: { title: `Part ${p}`, digital_object: { ref: big } } });
      expected.push(`Part ${p}`);
      for (let c = 0; c < CHILDREN; c += 1) {
        const title = `Scan ${p}.${String(c).padStart(3, "0")}`;
        records.push({
          id: first + records.length,
          input: {
            title,
            digital_object: { ref: big },
            parent: { ref: uri(parent) },
            file_versions: [{ file_uri: `https://example.org/big/${p}/${c}.jpg`, use_statement: "image-service" }],
          },
        });
        expected.push(title);
      }
    }
    await service.operations.createMany("digital_object_component", scope, records, trusted("admin"));
  }, 60_000);

  it("streams every component, in order, in each part of the document", async () => {
    service.commands.length = 0;
    const response = await fetch(`${service.base}${exportPath("mets", big)}`, {
      headers: { "X-ArchivesSpace-Session": service.admin },
    });
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    const text = await response.text();
    expect((await validateAgainst("mets.xsd", text)).valid).toBe(true);
    const mets = parseXml(text);
    const sections = children(mets, "dmdSec").slice(1);
    expect(sections.map((section) => textOf(at(section, "mdWrap/xmlData/mods/titleInfo/title")))).toEqual(expected);
    const divs = descendants(at(mets, "structMap/div") as XmlElement, "div");
    expect(divs.map((div) => div.attributes.LABEL)).toEqual(expected);
    expect(divs.map((div) => Number(div.attributes.ORDER))).toEqual(expected.map((_title, index) => index + 2));
    const files = all(mets, "fileSec/fileGrp/file/FLocat").map((location) => location.attributes["xlink:href"]);
    expect(files).toHaveLength(PARENTS * CHILDREN);
    expect(files.slice(0, 2)).toEqual(["https://example.org/big/0/0.jpg", "https://example.org/big/0/1.jpg"]);
    // Batches, never a query per component.
    const finds = service.commands.filter(
      (event) => event.commandName === "find" && event.command.find === "digital_object_components",
    ).length;
    expect(finds).toBeLessThan(40);
  }, 60_000);
});
