// The MARCXML importer on the files of ../shared/data/marcxml/: bibliographic records become
// resources with their agents (and roles) and subjects, authority records agents. Each file
// imports through importFile into a real server and the API then serves the files' values.
// Importing again creates nothing; a dry run writes nothing; a bad record or malformed XML
// writes nothing and says where.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createReadStream } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { PERMISSIONS } from "../../src/auth/permissions.js";
import { importFile, type ImportOptions } from "../../src/importers/committer.js";
import { MarcXmlParser } from "../../src/importers/marcxml.js";
import type { ImportInput, ImportSummary } from "../../src/importers/pending.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const DATA = join(HERE, "..", "..", "..", "shared", "data", "marcxml");
const FIXTURES = join(HERE, "fixtures");
const actor = trusted("importer");

/** Records as the API serves them, read loosely: the assertions check their shape. */
type Json = Record<string, any>;

let server: RecordServer;
let repo: number;
let token: string;
let parser: MarcXmlParser;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "marc", name: "MARC imports" }, actor)).id;
  const vocabulary = await server.ops.create("vocabulary", {}, { name: "global", ref_id: "global" }, actor);
  token = await server.login("reader", globalGrants([...PERMISSIONS]));
  await server.ops.deps.enumerations.ready();
  parser = new MarcXmlParser({ enumerations: server.ops.deps.enumerations, vocabulary: vocabulary.uri });
});
afterAll(() => server.stop());

const fileInput = (path: string): ImportInput => ({ name: basename(path), open: () => createReadStream(path) });
const textInput = (name: string, text: string): ImportInput => ({
  name,
  open: () => Readable.from([Buffer.from(text)]),
});
const run = (input: ImportInput, options: Partial<ImportOptions> = {}): Promise<ImportSummary> =>
  importFile(server.ops, parser, input, { repoId: repo, actor, ...options });
const count = (type: string, filter: Record<string, unknown> = {}): Promise<number> =>
  server.ops.deps.store.collection(type).countDocuments(filter);

async function get(path: string): Promise<Json> {
  const reply = await server.send("GET", path, { token });
  expect(reply.status).toBe(200);
  return reply.body as Json;
}

/** The resource a summary created, with its linked agents and subjects resolved. */
async function importedResource(summary: ImportSummary): Promise<Json> {
  expect(summary.errors).toEqual([]);
  const [uri] = summary.uris.filter((candidate) => candidate.includes("/resources/"));
  return get(`${uri as string}?resolve[]=linked_agents&resolve[]=subjects`);
}

const agentLinks = (resource: Json): Array<[string, string, string | undefined]> =>
  resource.linked_agents.map((link: Json) => [link._resolved.names[0].sort_name, link.role, link.relator]);
const subjectTerms = (resource: Json): Array<Array<[string, string]>> =>
  resource.subjects.map((link: Json) => link._resolved.terms.map((term: Json) => [term.term, term.term_type]));
const noteOf = (resource: Json, type: string): string[] =>
  resource.notes
    .filter((note: Json) => note.type === type)
    .map((note: Json) => (note.content ?? note.subnotes.map((subnote: Json) => subnote.content)).join("\n"));

describe("samuel-morse.xml: a bibliographic record", () => {
  let summary: ImportSummary;
  let resource: Json;

  beforeAll(async () => {
    summary = await run(fileInput(join(DATA, "samuel-morse.xml")));
    resource = await importedResource(summary);
  });

  it("imports a resource with its agents and subjects", () => {
    expect(summary).toMatchObject({
      outcome: "imported",
      errors: [],
      created: { agent_person: 6, agent_corporate_entity: 6, subject: 8, resource: 1 },
    });
  });

  it("keeps title, identifier, dates, extent and languages", () => {
    expect(resource).toMatchObject({
      title: "Samuel F.B. Morse Papers",
      id_0: "MC 10",
      level: "collection",
      finding_aid_language: "eng",
      finding_aid_description_rules: "dacs",
      ead_location: "http://dlib.nyu.edu/findingaids/html/archives/morse.html",
    });
    expect(resource.dates).toEqual([
      expect.objectContaining({
        label: "creation",
        date_type: "inclusive",
        expression: "1838-1984, undated",
        begin: "1838",
        end: "1984",
      }),
    ]);
    expect(resource.extents).toEqual([
      expect.objectContaining({ portion: "whole", number: "0.5", extent_type: "linear_feet" }),
    ]);
    expect(resource.lang_materials).toEqual([
      expect.objectContaining({ language_and_script: expect.objectContaining({ language: "eng" }) }),
    ]);
  });

  it("keeps the notes, each as its type", () => {
    expect(noteOf(resource, "arrangement")).toEqual(["The collection is arranged at the folder level by subject."]);
    expect(noteOf(resource, "physloc")).toEqual(["New York University Archives"]);
    expect(noteOf(resource, "separatedmaterial")[0]).toMatch(
      /^NYU's Fales Library contains 24 letters written by Morse between 1822 and 1870/,
    );
    expect(noteOf(resource, "accessrestrict")).toEqual(["Open for research without restrictions."]);
    expect(noteOf(resource, "scopecontent")[0]).toMatch(
      /^The Samuel F.B. Morse Collection contains inventories of letters[^]*\n\nThe collection comprises one document box/,
    );
    expect(noteOf(resource, "scopecontent")[0]).toMatch(
      /October 23, 1982; a folder listing of the Morse Collection; and a bibliography of works on Morse in the New York University Archives\.$/,
    );
    expect(noteOf(resource, "prefercite")[0]).toMatch(
      /^Published citations should take the following form: Identification of item, date \(if known\), Samuel F.B. Morse Papers; MC 10/,
    );
    expect(noteOf(resource, "bioghist")[0]).toMatch(
      /^Samuel F.B. Morse was born in Charlestown, Mass., April 27, 1791\./,
    );
    expect(noteOf(resource, "otherfindaid")).toEqual([
      "Finding Aid Available Online: http://dlib.nyu.edu/findingaids/html/archives/morse.html",
    ]);
  });

  it("links the 100 as creator and the 600/610 names as subjects, with relators", async () => {
    expect(agentLinks(resource)).toEqual([
      ["Still, Bayrd", "creator", undefined],
      ["Jones, Theodore Francis, 1885-", "subject", undefined],
      ["Morse, Edward L.", "subject", undefined],
      ["Morse, Herbert C.", "subject", undefined],
      ["Morse, Samuel Finley Breese, 1791-1872", "subject", "asn"],
      ["Nally, Edward Julian, 1859-1953", "subject", undefined],
      ["Morse Society", "subject", undefined],
      ["National Academy of Design (U.S.)", "subject", undefined],
      ["New York University. Dept. of Fine Arts. Sculpture and Painting", "subject", undefined],
      ["New York University. Faculty. 19th century", "subject", undefined],
      ["NewYork University. School of Design", "subject", undefined],
      ["University of the City of New York", "subject", undefined],
    ]);
    const morse = resource.linked_agents[4]._resolved;
    expect(morse.names[0]).toMatchObject({
      primary_name: "Morse",
      rest_of_name: "Samuel Finley Breese",
      name_order: "inverted",
      dates: "1791-1872",
      source: "naf",
    });
    const jones = resource.linked_agents[1]._resolved;
    expect(jones.names[0]).toMatchObject({
      primary_name: "Jones",
      rest_of_name: "Theodore Francis",
      dates: "1885-",
      source: "local",
    });
    const faculty = resource.linked_agents[9]._resolved;
    expect(faculty).toMatchObject({
      agent_type: "agent_corporate_entity",
      names: [
        expect.objectContaining({
          primary_name: "New York University",
          subordinate_name_1: "Faculty",
          subordinate_name_2: "19th century",
        }),
      ],
    });
  });

  it("makes subjects from 650 and 655, with their subdivisions as terms", async () => {
    expect(subjectTerms(resource)).toEqual([
      [
        ["Art", "topical"],
        ["Study and teaching", "topical"],
      ],
      [
        ["Education", "topical"],
        ["Study and Teaching", "topical"],
        ["United States", "geographic"],
      ],
      [["Inventions", "topical"]],
      [["Photography", "topical"]],
      [["Biographies", "genre_form"]],
      [["Clippings (information artifacts)", "genre_form"]],
      [["Memorabilia", "genre_form"]],
      [["photoprints", "genre_form"]],
    ]);
    expect(resource.subjects.map((link: Json) => link._resolved.source)).toEqual([
      "lcsh",
      "lcsh",
      "lcsh",
      "lcsh",
      "aat",
      "aat",
      "aat",
      "aat",
    ]);
  });

  it("says what it could not place, on the record", () => {
    expect(summary.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: "samuel-morse.xml",
          line: 3,
          path: "/collection/record",
          message: "not imported, a resource has no field for them: 040 $a $c, 852 $a $b",
        }),
      ]),
    );
  });

  it("imports again as a file imported before: nothing written", async () => {
    const agents = await count("agent_person");
    const again = await run(fileInput(join(DATA, "samuel-morse.xml")));
    expect(again).toMatchObject({ outcome: "skipped", created: {}, uris: [resource.uri] });
    expect(again.warnings.at(-1)?.message).toBe(`Imported before (${resource.uri as string}); nothing written`);
    expect(await count("resource", { repo_id: repo, id_0: "MC 10" })).toBe(1);
    expect(await count("agent_person")).toBe(agents);
  });
});

describe("sula-benet.xml", () => {
  it("a dry run reports the records and writes nothing", async () => {
    const before = await Promise.all(["resource", "agent_person", "subject"].map((type) => count(type)));
    const summary = await run(fileInput(join(DATA, "sula-benet.xml")), { dryRun: true });
    expect(summary).toMatchObject({
      outcome: "imported",
      dryRun: true,
      errors: [],
      created: { agent_person: 2, agent_corporate_entity: 1, subject: 16, resource: 1 },
    });
    expect(await Promise.all(["resource", "agent_person", "subject"].map((type) => count(type)))).toEqual(before);
  });

  it("imports inclusive and bulk dates, notes, creator and subjects", async () => {
    const resource = await importedResource(await run(fileInput(join(DATA, "sula-benet.xml"))));
    expect(resource).toMatchObject({ title: "The Sula Benet Papers", id_0: "RISM RG  2" });
    expect(resource.dates).toEqual([
      expect.objectContaining({ date_type: "inclusive", expression: "1954-1982", begin: "1954", end: "1982" }),
      expect.objectContaining({ date_type: "bulk", expression: "1970 - 1982", begin: "1970", end: "1982" }),
    ]);
    expect(resource.extents).toEqual([expect.objectContaining({ number: "25.0", extent_type: "linear_feet" })]);
    expect(agentLinks(resource)).toEqual([
      ["Benet, Sula, 1903-1982", "creator", undefined],
      ["Rubin, Vera D.", "subject", undefined],
      ["Research Institute for the Study of Man", "subject", undefined],
    ]);
    expect(noteOf(resource, "physloc")).toEqual(["Cooper 17/C-D", "New York University Archives"]);
    expect(noteOf(resource, "relatedmaterial")).toEqual([
      "Vera D. Rubin Papers, RISM RG 1 (located at the Reed Foundation)",
    ]);
    expect(noteOf(resource, "userestrict")[0]).toMatch(
      /^Permission to publish materials must be obtained in writing from the:\n\nNew York University Archives Elmer Holmes Bobst Library/,
    );
    const terms = subjectTerms(resource);
    expect(terms).toHaveLength(16);
    expect(terms[0]).toEqual([
      ["Aging", "topical"],
      ["Russian S.F.S.R.", "geographic"],
    ]);
    expect(terms).toContainEqual([["Charts (graphic documents)", "genre_form"]]);
    expect(terms).toContainEqual([
      ["Education, Higher", "topical"],
      ["United States", "geographic"],
    ]);
  });
});

describe("at-tracer-marc-1.xml: ArchivesSpace's migration tracer", () => {
  let resource: Json;
  let summary: ImportSummary;

  beforeAll(async () => {
    summary = await run(fileInput(join(DATA, "at-tracer-marc-1.xml")));
    resource = await importedResource(summary);
  });

  it("reads every date statement and the 300 extent", () => {
    expect(resource).toMatchObject({ title: "Resource--Title-AT", id_0: "Resource.ID.AT" });
    expect(resource.dates.map((date: Json) => [date.label, date.date_type, date.begin, date.end])).toEqual([
      ["creation", "inclusive", "1960", "1970"],
      ["creation", "bulk", "1965", "1968"],
      ["publication", "inclusive", "1889", "1945"],
    ]);
    expect(resource.extents).toEqual([expect.objectContaining({ number: "5.0", extent_type: "linear_feet" })]);
  });

  it("reads ArchivesSpace's labelled 500s back as their note types", () => {
    expect(noteOf(resource, "dimensions")).toEqual(["Resource-Dimensions-AT"]);
    expect(noteOf(resource, "physdesc")).toEqual(["Resource-GeneralPhysicalDescription-AT"]);
    expect(noteOf(resource, "materialspec")).toEqual(["Resource-MaterialSpecificDetails-AT"]);
    expect(noteOf(resource, "physloc")).toEqual(["Resource-Location-AT"]);
    expect(noteOf(resource, "phystech")).toEqual(["Resource-PhysicalCharacteristicsTechnicalRequirements-AT"]);
    expect(noteOf(resource, "physfacet")).toEqual(["Resource-PhysicalFacet-AT"]);
    expect(noteOf(resource, "processinfo")[0]).toBe("Resource-ProcessingInformation-AT");
    expect(noteOf(resource, "separatedmaterial")).toEqual(["Resource-SeparatedMaterials-AT"]);
    expect(noteOf(resource, "odd")).toEqual([
      "Resource-GeneralNote-AT",
      "Resource-GeneralNoteMULTIPARTContent-AT",
      "CumulativeIndexFindingAidsNote-AT",
    ]);
  });

  it("maps the 5xx notes", () => {
    expect(noteOf(resource, "abstract")).toEqual(["Resource-Abstract-AT"]);
    expect(noteOf(resource, "accessrestrict")).toEqual(["Resource-ConditionsGoverningAccess-AT"]);
    expect(noteOf(resource, "userestrict")).toEqual(["Resource-ConditionsGoverningUse-AT", "Resource-LegalStatus-AT"]);
    expect(noteOf(resource, "acqinfo")).toEqual(["Resource-ImmediateSourceAcquisition"]);
    expect(noteOf(resource, "custodhist")).toEqual(["Resource--CustodialHistory-AT"]);
    expect(noteOf(resource, "relatedmaterial")).toEqual(["Resource-RelatedArchivalMaterials-AT"]);
    expect(noteOf(resource, "bioghist")).toEqual(["Resource-BiographicalHistorical-AT"]);
    expect(noteOf(resource, "originalsloc")).toEqual([
      "Resource-ExistenceLocationCopies-AT",
      "Resource-ExistenceLocationOriginals-AT",
    ]);
    expect(noteOf(resource, "prefercite")).toEqual(["Resource-PreferredCitation-AT"]);
    expect(noteOf(resource, "accruals")).toEqual(["Resource-Accruals-AT"]);
    expect(noteOf(resource, "processinfo")[1]).toMatch(/^condition reviewed; classification; 19980207; quinquennial/);
    expect(resource.lang_materials[1].notes[0]).toMatchObject({
      type: "langmaterial",
      content: ["Resource-LanguageMaterials-AT"],
    });
  });

  it("makes one agent per distinct name, linked in each role the record gives it", () => {
    const person =
      "PNames-Primary-AT, PNames-RestOfName-AT, PNames-Prefix-AT, PNames-Title-AT, PNames-Suffix-AT, PName-Number-AT (PNames-FullerForm-AT), PNames-Dates-AT (PNames-Qualifier-AT)";
    const family = "FNames-FamilyName-AT, FNames-Prefix-AT (FNames-Qualifier-AT)";
    const corporate =
      "CNames-PrimaryName-AT. CNames-Subordinate1-AT. CNames-Subordiate2-AT (CNames-Number-AT) (CNames-Qualifier-AT)";
    expect(agentLinks(resource)).toEqual([
      [corporate, "creator", "cre"],
      [family, "subject", undefined],
      [person, "subject", undefined],
      [corporate, "subject", undefined],
      ["Corp Name (Qualifier)", "creator", undefined],
      [family, "creator", "cre"],
      [family, "source", "dnr"],
      [person, "creator", "cre"],
      [person, "source", "dnr"],
      [corporate, "source", undefined],
      [
        "DNames-PrimaryName-AT. DNames-Subordinate1-AT. DNames-Subordiate2-AT (DNames-Number-AT) (DNames-Qualifier-AT)",
        "creator",
        undefined,
      ],
    ]);
    expect(summary.created).toMatchObject({ agent_person: 1, agent_family: 1, agent_corporate_entity: 3 });
    expect(resource.linked_agents[2]._resolved.names[0]).toMatchObject({
      primary_name: "PNames-Primary-AT",
      rest_of_name: "PNames-RestOfName-AT",
      number: "PName-Number-AT",
      fuller_form: "PNames-FullerForm-AT",
      qualifier: "PNames-Qualifier-AT",
    });
    expect(resource.linked_agents[4]._resolved.names[0]).toMatchObject({
      primary_name: "Corp Name",
      conference_meeting: true,
    });
  });

  it("makes a subject of each 6xx heading, with its term type", () => {
    expect(subjectTerms(resource)).toEqual([
      [["Subjects--Uniform Title--AT", "uniform_title"]],
      [["Subjects--Topical Term--AT", "topical"]],
      [["Subjects--Geographic Name--AT", "geographic"]],
      [["Subjects--GenreForm--AT", "genre_form"]],
      [["Subjects--Occupation--AT", "occupation"]],
      [["Subjects--Function-AT", "function"]],
    ]);
    expect(summary.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          message: expect.stringMatching(
            /^657: the source 'New York State Management Functions Index' is not in subject_source/,
          ),
        }),
      ]),
    );
  });
});

describe("authority records", () => {
  it("authority_john_davis.xml: an agent with its authorized and variant names, dates and biography", async () => {
    const summary = await run(fileInput(join(DATA, "authority_john_davis.xml")));
    expect(summary).toMatchObject({ outcome: "imported", errors: [], created: { agent_person: 1 } });
    const agent = await get(summary.uris[0] as string);
    expect(agent.names).toEqual([
      expect.objectContaining({
        primary_name: "Davis",
        rest_of_name: "John W.",
        number: "IV",
        title: "Dr.",
        fuller_form: "fuller_form",
        dates: "1873-1955",
        qualifier: "qualifier",
        authority_id: "n88218900",
        source: "naf",
        rules: "aacr",
        authorized: true,
        is_display_name: true,
      }),
      expect.objectContaining({
        primary_name: "Davis",
        rest_of_name: "John William",
        dates: "1873-1955",
        authorized: false,
      }),
    ]);
    expect(agent.dates_of_existence).toEqual([
      expect.objectContaining({
        date_label: "existence",
        date_type_structured: "range",
        structured_date_range: expect.objectContaining({
          begin_date_standardized: "1899-01-01",
          end_date_standardized: "1961-12-01",
        }),
      }),
    ]);
    expect(agent.notes[0].subnotes.map((subnote: Json) => subnote.content)).toEqual([
      "Biographical or historical data.\nExpansion ...\nUniform Resource Identifier",
      "Abstract\nContent\nUniform Resource Identifier",
    ]);
    expect(summary.warnings).toEqual([
      expect.objectContaining({
        path: "/record",
        message: "not imported, an agent has no field for them: 024, 035, 370, 372, 374, 375, 377, 378, 670",
      }),
    ]);
  });

  it("marcxml_collection_with_multiple_records.xml: one agent per record, and again without duplicates", async () => {
    const file = fileInput(join(DATA, "marcxml_collection_with_multiple_records.xml"));
    const summary = await run(file);
    expect(summary).toMatchObject({ outcome: "imported", errors: [], created: { agent_person: 3 } });
    const agents = await Promise.all(summary.uris.map(get));
    expect(agents.map((agent) => [agent.names[0].sort_name, agent.names[0].authority_id, agent.names.length])).toEqual([
      ["Roosevelt, Anna, 1906-1975", "n81147297", 5],
      ["Roosevelt, Eleanor, 1884-1962", "n79144645", 5],
      ["Roosevelt, Eleanor Butler, 1889-1960", "n97046493", 2],
    ]);
    expect(agents[1].names.map((name: Json) => name.sort_name)).toContain(
      "\u05E8\u05D5\u05D6\u05D1\u05DC\u05D8, \u05D0\u05DC\u05D9\u05E0\u05D5\u05E8",
    );
    expect(agents[1].dates_of_existence[0].structured_date_range).toMatchObject({
      begin_date_standardized: "1884-10-11",
      end_date_standardized: "1962-11-07",
    });
    // No 046: the heading's $d.
    expect(agents[2].dates_of_existence[0].structured_date_range).toMatchObject({
      begin_date_standardized: "1889",
      end_date_standardized: "1960",
    });

    const again = await run(file);
    expect(again).toMatchObject({ outcome: "imported", created: {}, reused: { agent_person: 3 } });
    expect(
      await count("agent_person", { "names.authority_id": { $in: ["n81147297", "n79144645", "n97046493"] } }),
    ).toBe(3);
  });
});

describe("fallbacks", () => {
  it("090 identifier, 008 dates, an unusable 300 kept as a note, relator codes and unknown terms", async () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<record xmlns="http://www.loc.gov/MARC21/slim">
  <leader>00000npc a2200000 u 4500</leader>
  <controlfield tag="001">ocm123</controlfield>
  <controlfield tag="003">OCoLC</controlfield>
  <controlfield tag="008">200101i19101925xx                  fre d</controlfield>
  <datafield tag="090" ind1=" " ind2=" "><subfield code="a">MS</subfield><subfield code="b">42</subfield></datafield>
  <datafield tag="245" ind1="0" ind2="0"><subfield code="a">Fallback papers /</subfield></datafield>
  <datafield tag="300" ind1=" " ind2=" "><subfield code="a">2</subfield><subfield code="f">cubic feet</subfield><subfield code="b">mixed media</subfield></datafield>
  <datafield tag="300" ind1=" " ind2=" "><subfield code="a">3 boxes</subfield></datafield>
  <datafield tag="700" ind1="0" ind2=" "><subfield code="a">Ada</subfield><subfield code="e">benefactor</subfield><subfield code="4">dnr</subfield></datafield>
  <datafield tag="650" ind1=" " ind2="7"><subfield code="a">Fallbacks</subfield><subfield code="y">20th century.</subfield><subfield code="2">lcsh</subfield></datafield>
</record>
`;
    const summary = await run(textInput("fallback.xml", text));
    const resource = await importedResource(summary);
    expect(resource).toMatchObject({
      title: "Fallback papers",
      id_0: "MS 42",
      finding_aid_language: "und",
      external_ids: [expect.objectContaining({ external_id: "ocm123", source: "OCoLC" })],
    });
    expect(resource.dates).toEqual([
      expect.objectContaining({ label: "creation", date_type: "inclusive", begin: "1910", end: "1925" }),
    ]);
    expect(resource.extents).toEqual([
      expect.objectContaining({ number: "2", extent_type: "cubic_feet", physical_details: "mixed media" }),
    ]);
    expect(noteOf(resource, "physdesc")).toEqual(["3 boxes"]);
    expect(resource.lang_materials).toEqual([
      expect.objectContaining({ language_and_script: expect.objectContaining({ language: "fre" }) }),
    ]);
    expect(agentLinks(resource)).toEqual([["Ada", "source", "dnr"]]);
    expect(resource.linked_agents[0]._resolved.names[0]).toMatchObject({ primary_name: "Ada", name_order: "direct" });
    expect(subjectTerms(resource)).toEqual([
      [
        ["Fallbacks", "topical"],
        ["20th century", "temporal"],
      ],
    ]);
    expect(summary.warnings.map((warning) => warning.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^300 '3 boxes' is not a number and an extent type of extent_extent_type/),
        "700: the relator 'benefactor' is neither a MARC relator code nor a known term; left out",
        "no language of cataloguing (040 $b): finding_aid_language set to und (undetermined)",
      ]),
    );
  });
});

describe("files that write nothing", () => {
  it("a record that cannot be imported fails the whole file, located by path and line", async () => {
    const before = await Promise.all(["resource", "agent_person", "subject"].map((type) => count(type)));
    const summary = await run(fileInput(join(FIXTURES, "marc-second-record-unusable-extent.xml")));
    expect(summary.outcome).toBe("failed");
    expect(summary.errors).toEqual([
      {
        file: "marc-second-record-unusable-extent.xml",
        line: 21,
        column: 5,
        path: "/collection/record[2]/datafield[4]",
        message:
          "no 300 field gives an extent as a number and a type of extent_extent_type (add the type to the list, or correct the 300)",
      },
    ]);
    expect(await Promise.all(["resource", "agent_person", "subject"].map((type) => count(type)))).toEqual(before);
  });

  it.each([
    [
      "truncated",
      '<?xml version="1.0"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n  <record>\n    <leader>00000npc a2200000 u 4500</leader>\n',
      "the file ends inside",
    ],
    [
      "the wrong root",
      '<?xml version="1.0"?>\n<ead><eadheader/></ead>\n',
      "wrong root element: expected <collection> or <record>, found <ead>",
    ],
    [
      "no records",
      '<?xml version="1.0"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim"/>\n',
      "the file holds no MARC record",
    ],
    [
      "a record without a leader",
      '<collection>\n<record><datafield tag="245" ind1=" " ind2=" "><subfield code="a">T</subfield></datafield></record>\n</collection>\n',
      "the record has no leader",
    ],
  ])("%s: a clear located error", async (_, text, message) => {
    const summary = await run(textInput("bad.xml", text));
    expect(summary.outcome).toBe("failed");
    expect(summary.errors).toEqual([
      expect.objectContaining({ file: "bad.xml", line: expect.any(Number), message: expect.stringContaining(message) }),
    ]);
  });
});
