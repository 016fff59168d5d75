// MARC 21 export of a resource made through the API with a bit of everything: the fields as
// ArchivesSpace's MARC exporter places them, checked against MARC21slim.xsd; unpublished notes
// and agents left out unless include_unpublished_marc; characters XML cannot carry and inline
// markup; the file name of the metadata route; who may export and the 404s. What comes back
// through Arca's MARCXML import is marc21-round-trip.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { JsonObject } from "../../src/registry/index.js";
import { validateAgainst } from "../support/xsd.js";
import { idOf, startExportService, type ExportService } from "./harness.js";
import { children, parseXml, textOf, type XmlElement } from "./xml-tree.js";

const MARC_NS = "http://www.loc.gov/MARC21/slim";
const VOCABULARY = "/vocabularies/1";

let service: ExportService;
let repo: string;
let resource: string;
const uris: Record<string, string> = {};

interface Field {
  tag: string;
  ind: string;
  /** `$code value` items, in order. */
  subfields: string[];
}

/** The record's data fields, as `{tag, ind: "12", subfields: ["$a text", ...]}`. */
function fieldsOf(xml: string): Field[] {
  const root = parseXml(xml);
  expect([root.name, root.uri]).toEqual(["collection", MARC_NS]);
  const [record] = children(root, "record");
  return children(record, "datafield").map((field) => ({
    tag: field.attributes.tag ?? "",
    ind: `${field.attributes.ind1}${field.attributes.ind2}`,
    subfields: children(field, "subfield").map((subfield) => `$${subfield.attributes.code} ${rawText(subfield)}`),
  }));
}

/** An element's text exactly as written (textOf collapses whitespace, which MARC's fixed fields and notes keep). */
const rawText = (element: XmlElement | undefined): string =>
  (element?.children ?? []).filter((child): child is string => typeof child === "string").join("");

const tagged = (fields: Field[], tag: string) => fields.filter((field) => field.tag === tag);
const marcPath = (uri: string, query = "") => `${uri.replace("/resources/", "/resources/marc21/")}.xml${query}`;

async function exported(query = "", uri = resource): Promise<string> {
  const reply = await service.call("GET", marcPath(uri, query), { token: service.admin });
  expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "application/xml"]);
  return reply.text;
}

const term = (text: string, type: string) => ({ term: text, term_type: type, vocabulary: VOCABULARY });
const text = (content: string, extra: JsonObject = {}) => ({
  jsonmodel_type: "note_multipart",
  subnotes: [{ jsonmodel_type: "note_text", content }],
  ...extra,
});

beforeAll(async () => {
  service = await startExportService("marc21_export");
  const { create } = service;
  repo = await create("/repositories", {
    repo_code: "marc",
    name: "Special Collections",
    org_code: "XyZ",
    parent_institution_name: "Example University",
    country: "GB",
  });
  uris.hopper = await create("/agents/people", {
    names: [
      {
        primary_name: "Hopper",
        rest_of_name: "Grace",
        name_order: "inverted",
        fuller_form: "Grace Brewster Murray",
        dates: "1906-1992",
        title: "Rear Admiral",
        authority_id: "n80016986",
        source: "naf",
      },
    ],
  });
  uris.lovelace = await create("/agents/families", { names: [{ family_name: "Lovelace", qualifier: "family" }] });
  uris.navy = await create("/agents/corporate_entities", {
    names: [{ primary_name: "United States", subordinate_name_1: "Navy", source: "local" }],
  });
  uris.congress = await create("/agents/corporate_entities", {
    names: [{ primary_name: "Computing Congress", number: "3rd", dates: "1950", conference_meeting: true }],
  });
  uris.babbage = await create("/agents/people", {
    names: [{ primary_name: "Babbage", rest_of_name: "Charles", name_order: "inverted" }],
  });
  uris.hidden = await create("/agents/people", {
    publish: false,
    names: [{ primary_name: "Secret", rest_of_name: "Agent", name_order: "inverted" }],
  });
  uris.computers = await create("/subjects", {
    source: "lcsh",
    vocabulary: VOCABULARY,
    authority_id: "sh85029552",
    terms: [term("Computers", "topical"), term("History", "temporal"), term("United States", "geographic")],
  });
  uris.letters = await create("/subjects", {
    source: "aat",
    vocabulary: VOCABULARY,
    terms: [term("Letters (correspondence)", "genre_form")],
  });
  uris.programming = await create("/subjects", {
    source: "local",
    vocabulary: VOCABULARY,
    terms: [term("Programming", "function")],
  });
  resource = await create(`${repo}/resources`, {
    title: "Papers of <emph render='italic'>Grace</emph> Hopper & friends",
    id_0: "MSS",
    id_1: "60",
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    finding_aid_description_rules: "dacs",
    ead_location: "https://example.org/findingaids/mss60",
    dates: [
      { label: "creation", date_type: "inclusive", begin: "1940", end: "1990", expression: "1940-1990" },
      { label: "creation", date_type: "bulk", begin: "1944", end: "1960" },
      { label: "publication", date_type: "single", begin: "1952" },
    ],
    extents: [
      {
        portion: "whole",
        number: "2.5",
        extent_type: "linear_feet",
        container_summary: "5 boxes",
        physical_details: "photographs",
        dimensions: "30 cm",
      },
    ],
    lang_materials: [
      { language_and_script: { language: "eng" } },
      { language_and_script: { language: "fre" } },
      { notes: [{ jsonmodel_type: "note_langmaterial", type: "langmaterial", content: ["Mostly English."] }] },
    ],
    linked_agents: [
      { ref: uris.babbage, role: "creator" },
      { ref: uris.hopper, role: "creator", relator: "aut", is_primary: true },
      { ref: uris.lovelace, role: "subject", terms: [term("Correspondence", "genre_form")] },
      { ref: uris.navy, role: "subject", relator: "dnr" },
      { ref: uris.congress, role: "creator" },
      { ref: uris.navy, role: "source" },
      { ref: uris.hidden, role: "creator" },
    ],
    subjects: [{ ref: uris.computers }, { ref: uris.letters }, { ref: uris.programming }],
    notes: [
      { ...text("Arranged by date."), type: "arrangement" },
      { ...text("The papers of a <title>pioneer</title> of computing."), type: "scopecontent" },
      { jsonmodel_type: "note_singlepart", type: "abstract", content: ["A short abstract."] },
      { ...text("Open for research."), type: "accessrestrict" },
      { ...text("Gift of the family."), type: "acqinfo", publish: false },
      { ...text("Seen by staff."), type: "custodhist" },
      { jsonmodel_type: "note_singlepart", type: "physloc", content: ["Vault 3"] },
      { ...text("Part one.\n\nPart two."), type: "odd", label: "Contents" },
      { ...text("Internal only."), type: "odd", publish: false },
      { jsonmodel_type: "note_bibliography", content: ["Works about Hopper."], items: ["Beyer, Grace Hopper (2009)"] },
    ],
  });
}, 60_000);
afterAll(() => service.stop());

describe("a resource as a MARC 21 record", () => {
  let xml: string;
  let fields: Field[];

  beforeAll(async () => {
    xml = await exported();
    fields = fieldsOf(xml);
  });

  it("is valid against MARC21slim.xsd", async () => {
    expect(await validateAgainst("MARC21slim.xsd", xml)).toEqual({ valid: true, errors: [] });
  });

  it("has ArchivesSpace's leader and an 008 with the first date, the repository's country and the language", () => {
    const record = children(parseXml(xml), "record")[0];
    expect(textOf(children(record, "leader")[0])).toBe("00000npcaa2200000 u 4500");
    const [fixed] = children(record, "controlfield");
    expect(fixed?.attributes.tag).toBe("008");
    const value = rawText(fixed);
    expect(value).toHaveLength(40);
    // 06 date type, 07-10 / 11-14 the dates, 15-17 "xxk" (the United Kingdom), 35-37 "mul" (two languages).
    expect([value.slice(6, 7), value.slice(7, 15), value.slice(15, 18), value.slice(35, 38), value.slice(38)]).toEqual([
      "i",
      "19401990",
      "xxk",
      "mul",
      " d",
    ]);
  });

  it("writes cataloguing source, languages, identifier and repository", () => {
    expect(tagged(fields, "040")).toEqual([
      { tag: "040", ind: "  ", subfields: ["$a XyZ", "$b eng", "$c XyZ", "$e dacs"] },
    ]);
    expect(tagged(fields, "041")).toEqual([{ tag: "041", ind: "  ", subfields: ["$a eng", "$a fre"] }]);
    expect(tagged(fields, "099")).toEqual([{ tag: "099", ind: "  ", subfields: ["$a MSS.60"] }]);
    expect(tagged(fields, "852")).toEqual([
      { tag: "852", ind: "  ", subfields: ["$a Example University", "$b Special Collections"] },
    ]);
    expect(tagged(fields, "856")).toEqual([
      {
        tag: "856",
        ind: "42",
        subfields: ["$z Finding aid online:", "$u https://example.org/findingaids/mss60"],
      },
    ]);
  });

  it("writes the title with its dates (markup reduced to text), further dates in 264, extents in 300", () => {
    expect(tagged(fields, "245")).toEqual([
      {
        tag: "245",
        ind: "10",
        subfields: ["$a Papers of Grace Hopper & friends,", "$f 1940-1990", "$g 1944 - 1960"],
      },
    ]);
    expect(tagged(fields, "264")).toEqual([{ tag: "264", ind: " 1", subfields: ["$c 1952"] }]);
    expect(tagged(fields, "300")).toEqual([
      {
        tag: "300",
        ind: "  ",
        subfields: ["$3 5 boxes", "$a 2.5", "$f linear feet", "$b photographs", "$c 30 cm"],
      },
    ]);
  });

  it("names the primary creator in 1xx, subjects in 6xx and the other creators and sources in 7xx", () => {
    expect(fields.filter((field) => /^[167]/.test(field.tag)).map((field) => [field.tag, field.ind])).toEqual([
      ["100", "1 "],
      ["600", "34"],
      ["610", "27"],
      ["650", " 0"],
      ["655", " 7"],
      ["657", " 7"],
      ["700", "1 "],
      ["711", "2 "],
      ["710", "2 "],
    ]);
    expect(tagged(fields, "100")[0]?.subfields).toEqual([
      "$a Hopper, Grace,",
      "$c Rear Admiral",
      "$q (Grace Brewster Murray),",
      "$d 1906-1992",
      "$4 aut",
      "$0 n80016986",
    ]);
    expect(tagged(fields, "600")[0]?.subfields).toEqual(["$a Lovelace", "$g (family)", "$v Correspondence"]);
    expect(tagged(fields, "610")[0]?.subfields).toEqual(["$a United States", "$b Navy", "$4 dnr", "$2 local"]);
    expect(tagged(fields, "650")[0]?.subfields).toEqual([
      "$a Computers",
      "$y History",
      "$z United States",
      "$0 sh85029552",
    ]);
    expect(tagged(fields, "657")[0]?.subfields).toEqual(["$a Programming", "$2 local"]);
    expect(tagged(fields, "700")[0]?.subfields).toEqual(["$a Babbage, Charles,", "$e creator"]);
    expect(tagged(fields, "711")[0]?.subfields).toEqual(["$a Computing Congress", "$d 1950", "$n 3rd", "$j creator"]);
    expect(tagged(fields, "710")[0]?.subfields).toEqual(["$a United States", "$b Navy,", "$e source"]);
  });

  it("writes the published notes in order, each to its field", () => {
    const notes = fields.filter((field) => /^[35]/.test(field.tag) && field.tag !== "300");
    expect(notes).toEqual([
      { tag: "351", ind: "  ", subfields: ["$a Arranged by date."] },
      { tag: "520", ind: "2 ", subfields: ["$a The papers of a pioneer of computing."] },
      { tag: "520", ind: "3 ", subfields: ["$a A short abstract."] },
      { tag: "506", ind: "  ", subfields: ["$a Open for research."] },
      { tag: "561", ind: "1 ", subfields: ["$a Seen by staff."] },
      { tag: "500", ind: "  ", subfields: ["$a Location of resource: Vault 3"] },
      { tag: "505", ind: "  ", subfields: ["$a Part one.\n\nPart two."] },
      { tag: "581", ind: "  ", subfields: ["$a Works about Hopper."] },
      { tag: "581", ind: "  ", subfields: ["$a Beyer, Grace Hopper (2009)"] },
      { tag: "546", ind: "  ", subfields: ["$a Mostly English."] },
    ]);
  });

  it("include_unpublished_marc adds the unpublished notes (541 marked private) and agents", async () => {
    const all = fieldsOf(await exported("?include_unpublished_marc=true"));
    expect(tagged(all, "541")).toEqual([{ tag: "541", ind: "0 ", subfields: ["$a Gift of the family."] }]);
    expect(tagged(all, "500").map((field) => field.subfields)).toContainEqual(["$a Internal only."]);
    expect(tagged(all, "700").map((field) => field.subfields[0])).toEqual([
      "$a Babbage, Charles,",
      "$a Secret, Agent,",
    ]);
    expect(JSON.stringify(fields)).not.toMatch(/Secret|Internal only|Gift of the family/);
  });
});

describe("odd content", () => {
  it("a resource with characters XML cannot carry and markup in its title and notes gives a valid record", async () => {
    const odd = await service.create(`${repo}/resources`, {
      title: "Bad\u0001\u0008 chars\uFFFE\uFFFF & <title render='italic'>markup</title>",
      id_0: "ODD 1",
      level: "item",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      dates: [{ label: "creation", date_type: "single", begin: "1950" }],
      extents: [{ portion: "whole", number: "1", extent_type: "cubic_feet" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
      notes: [
        { ...text("a < b & c > d; <emph>stressed</emph><lb/>next line; <unknown>kept</unknown>"), type: "odd" },
        { ...text("\u0002\u0003"), type: "bioghist" },
      ],
    });
    const xml = await exported("", odd);
    expect(await validateAgainst("MARC21slim.xsd", xml)).toEqual({ valid: true, errors: [] });
    const fields = fieldsOf(xml);
    const record = children(parseXml(xml), "record")[0];
    // An item: leader/07 m; a single date: 008/06 s.
    expect(textOf(children(record, "leader")[0])).toBe("00000npmaa2200000 u 4500");
    expect(rawText(children(record, "controlfield")[0]).slice(6, 15)).toBe("s1950    ");
    expect(tagged(fields, "245")[0]?.subfields).toEqual(["$a Bad chars & markup,", "$f 1950"]);
    // Known inline elements are reduced to their text; an unknown tag is text, escaped, and reads as written.
    expect(tagged(fields, "500")[0]?.subfields).toEqual([
      "$a a < b & c > d; stressed\nnext line; <unknown>kept</unknown>",
    ]);
    expect(xml).toContain("&lt;unknown&gt;kept&lt;/unknown&gt;");
    // A note of nothing but characters XML cannot carry has no text: no field.
    expect(tagged(fields, "545")).toEqual([]);
    expect(tagged(fields, "300")[0]?.subfields).toEqual(["$a 1", "$f cubic feet"]);
  });

  it("safe inline markup is reduced to its text, <lb/> to a line break", async () => {
    const marked = await service.create(`${repo}/resources`, {
      title: "Marked",
      id_0: "ODD 2",
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      dates: [{ label: "creation", date_type: "single", begin: "1950" }],
      extents: [{ portion: "whole", number: "1", extent_type: "cubic_feet" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
      notes: [{ ...text("Some <emph render='bold'>bold</emph> text<lb/>and a <title>Title</title>."), type: "odd" }],
    });
    const fields = fieldsOf(await exported("", marked));
    expect(tagged(fields, "500")[0]?.subfields).toEqual(["$a Some bold text\nand a Title."]);
  });
});

describe("the metadata route, who may export, and what is not there", () => {
  it("names the file after the identifier, as ArchivesSpace does", async () => {
    const reply = await service.call("GET", `${marcPath(resource)}/metadata`, { token: service.admin });
    expect([reply.status, reply.body]).toEqual([200, { filename: "MSS.60_marc21.xml", mimetype: "application/xml" }]);
    const spaced = await service.create(`${repo}/resources`, {
      title: "Spaced",
      id_0: "MC 10",
      id_1: "a",
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_script: "Latn",
      dates: [{ label: "creation", date_type: "single", begin: "1950" }],
      extents: [{ portion: "whole", number: "1", extent_type: "cubic_feet" }],
      lang_materials: [{ language_and_script: { language: "eng" } }],
    });
    const other = await service.call("GET", `${marcPath(spaced).replace(/\.xml$/, ".fmt")}/metadata`, {
      token: service.admin,
    });
    expect(other.body).toEqual({ filename: "MC_10.a_marc21.xml", mimetype: "application/xml" });
  });

  it("needs a session and view_repository in the repository (403 otherwise)", async () => {
    expect(await service.call("GET", marcPath(resource))).toMatchObject({
      status: 403,
      body: { error: "Access denied" },
    });
    await service.create("/users?password=secret123", { username: "outsider", name: "Outsider" });
    const outsider = await service.login("outsider", "secret123");
    for (const path of [marcPath(resource), `${marcPath(resource)}/metadata`])
      expect(await service.call("GET", path, { token: outsider })).toMatchObject({
        status: 403,
        body: { error: "Access denied" },
      });
  });

  it("answers 404 for a missing resource or repository, and for a resource of another repository", async () => {
    const missing = await service.call("GET", `${repo}/resources/marc21/9999.xml`, { token: service.admin });
    expect([missing.status, missing.body, missing.headers.get("content-type")]).toEqual([
      404,
      { error: "Resource not found" },
      expect.stringContaining("application/json"),
    ]);
    expect(
      await service.call("GET", "/repositories/99/resources/marc21/1.xml", { token: service.admin }),
    ).toMatchObject({ status: 404, body: { error: "Repository not found" } });
    expect(
      await service.call("GET", "/repositories/99/resources/marc21/1.xml/metadata", { token: service.admin }),
    ).toMatchObject({ status: 404, body: { error: "Repository not found" } });
    const other = await service.create("/repositories", { repo_code: "other", name: "Other" });
    expect(
      await service.call("GET", `${other}/resources/marc21/${idOf(resource)}.xml`, { token: service.admin }),
    ).toMatchObject({ status: 404, body: { error: "Resource not found" } });
  });

  it("answers 400 for a parameter that is not a boolean", async () => {
    expect(
      await service.call("GET", marcPath(resource, "?include_unpublished_marc=maybe"), { token: service.admin }),
    ).toMatchObject({ status: 400, body: { error: { include_unpublished_marc: [expect.any(String)] } } });
  });
});
