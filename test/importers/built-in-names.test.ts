// Names from outside, in the importers: element names, attribute names and values, MARC tags and
// subfield codes, EAC entity types and CSV headers and cells that are Object.prototype's
// member names (`constructor`, `toString`, `__proto__`, `hasOwnProperty`, `valueOf`) are
// ordinary unknown names. Each file imports, or fails with an error that says where; none
// meets a lookup table's inherited members (a TypeError, a function stored as a value), and
// Object.prototype is the same afterwards.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import { AspaceJsonParser } from "../../src/importers/aspace-json.js";
import { importFile, type ImportOptions } from "../../src/importers/committer.js";
import { CsvParser } from "../../src/importers/csv.js";
import { EacParser } from "../../src/importers/eac.js";
import { MarcXmlParser } from "../../src/importers/marcxml.js";
import type { FormatParser, ImportSummary } from "../../src/importers/pending.js";
import { actor, startEadServer, textInput, type EadTestServer, type Json } from "./ead-server.js";

const BUILT_INS = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"];

let t: EadTestServer;
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  t = await startEadServer();
  await t.server.ops.deps.enumerations.ready();
}, 60_000);
afterAll(() => t.stop());

afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect(({} as Record<string, unknown>).zzprobe).toBeUndefined();
});

const run = (
  parser: FormatParser,
  name: string,
  text: string,
  options: Partial<ImportOptions> = {},
): Promise<ImportSummary> =>
  importFile(t.server.ops, parser, textInput(name, text), { repoId: t.repo, actor, ...options });

/** No message of the summary is a crash's: what went wrong is said about the file. */
function expectNoCrash(summary: ImportSummary): void {
  for (const message of [...summary.errors, ...summary.warnings].map((entry) => entry.message)) {
    expect(message).not.toMatch(
      /TypeError|is not a function|Cannot read prop|\[object Object\]|function Object\(\)|native code/,
    );
  }
}

/** Every string in a record, to show no inherited member was stored as a value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

async function read(uri: string): Promise<Json> {
  return t.get(uri);
}

describe("EAD with elements and attributes named after Object.prototype's members", () => {
  const builtInElements = BUILT_INS.map((name) => `<${name}>${name} text</${name}>`).join("");
  const builtInAttributes = BUILT_INS.map((name) => `${name}="${name}"`).join(" ");
  const xml = `<?xml version="1.0"?>
<ead xmlns="urn:isbn:1-931666-22-9"><eadheader><eadid>built-ins</eadid><filedesc><titlestmt><titleproper>Built-ins</titleproper></titlestmt></filedesc><profiledesc><descrules constructor="x">toString</descrules></profiledesc></eadheader>
<archdesc level="collection" ${builtInAttributes}>
<did ${builtInAttributes}>
<unittitle ${builtInAttributes}>Built-in names</unittitle><unitid>BUILTIN.1</unitid>
<unitdate normal="1900/1910" type="constructor" certainty="toString" ${builtInAttributes}>1900-1910</unitdate>
<unitdate normal="constructor">constructor 1901</unitdate>
<unitdate>toString 1905 - valueOf 1906</unitdate>
<physdesc><extent ${builtInAttributes}>1 linear feet</extent><extent>2 constructor</extent><extent>3 __proto__</extent></physdesc>
<langmaterial><language>constructor</language><language>__proto__</language><language>toString</language><language langcode="eng"/></langmaterial>
<container type="constructor">1</container><container type="__proto__">2</container>
${builtInElements}
</did>
<controlaccess ${builtInAttributes}>
${builtInElements}
<persname ${builtInAttributes} role="constructor" rules="constructor">Doe, Jane</persname>
<persname><part localtype="constructor">Smith</part><part localtype="__proto__">John</part><part localtype="toString">Jr.</part></persname>
<corpname source="__proto__"><part localtype="hasOwnProperty">Acme</part></corpname>
<subject source="constructor"><part localtype="constructor">Topic</part><part localtype="__proto__">Sub</part></subject>
<controlaccess>${builtInElements}<famname source="toString">Doe family</famname></controlaccess>
</controlaccess>
<scopecontent ${builtInAttributes}><p ${builtInAttributes}>Scope</p>${builtInElements}<list numeration="constructor"><item>one</item></list><list numeration="__proto__" type="toString"><item>two</item></list></scopecontent>
<odd type="constructor"><p>Odd</p></odd>
<index><indexentry><constructor>c</constructor><__proto__>p</__proto__><subject>An entry</subject></indexentry><indexentry><toString>only built-ins</toString></indexentry></index>
<dsc ${builtInAttributes}>
<c01 level="constructor" ${builtInAttributes}><did><unittitle>Child</unittitle><unitdate normal="toString">1905</unitdate><container type="constructor" label="__proto__">1</container>${builtInElements}</did>${builtInElements}
<c02 level="__proto__"><did><unittitle>Grandchild</unittitle><unitdate normal="valueOf/hasOwnProperty">1906</unitdate></did></c02>
</c01>
</dsc>
</archdesc></ead>
`;

  it("imports: unknown names are warned about or left out, never read as table entries", async () => {
    const summary = await t.importEad(textInput("built-ins.xml", xml));
    expectNoCrash(summary);
    expect([summary.outcome, summary.errors]).toEqual(["imported", []]);
    expect(summary.created).toMatchObject({ resource: 1, archival_object: 2 });
    const resource = await read(summary.uris.find((uri) => uri.includes("/resources/")) as string);
    expect(resource).toMatchObject({ title: "Built-in names", id_0: "BUILTIN.1", level: "collection" });
    // The language names the table does not hold are not languages.
    expect(
      (resource.lang_materials as Json[])
        .map((material) => (material.language_and_script as Json | undefined)?.language)
        .filter(Boolean),
    ).toEqual(["eng"]);
    const orderedLists = strings(resource.notes).filter((text) => text === "one" || text === "two");
    expect(orderedLists).toEqual(["one", "two"]);
    expect(JSON.stringify(resource.notes)).toContain('"enumeration":"null"');
    for (const text of strings(resource)) expect(text).not.toMatch(/function |native code|\[object Object\]/);
    // The index keeps its subject entry; the built-in-named entries are no index item types.
    const index = (resource.notes as Json[]).find((note) => note.jsonmodel_type === "note_index") as Json;
    expect((index.items as Json[]).map((item) => [item.type, item.value])).toEqual([["subject", "An entry"]]);
    // Agents and subjects: the names whose parts have built-in @localtype are joined as names.
    const agents = await Promise.all(
      ((resource.linked_agents as Json[]) ?? []).map((link) => read(link.ref as string)),
    );
    const sortNames = agents.map((agent) => (agent.names as Json[])[0]?.sort_name);
    expect(sortNames).toEqual(
      expect.arrayContaining([
        "Doe, Jane",
        expect.stringContaining("Smith"),
        expect.stringContaining("Acme"),
        expect.stringContaining("Doe family"),
      ]),
    );
    for (const agent of agents)
      for (const text of strings(agent)) expect(text).not.toMatch(/function |native code|\[object Object\]/);
    const children = await t.get<number[]>(`/repositories/${t.repo}/archival_objects?all_ids=true`);
    const records = await Promise.all(children.map((id) => read(`/repositories/${t.repo}/archival_objects/${id}`)));
    const child = records.find((record) => record.title === "Child") as Json;
    expect(child.level).toBe("otherlevel");
    expect(child.other_level).toBe("constructor");
    const grandchild = records.find((record) => record.title === "Grandchild") as Json;
    expect([grandchild.level, grandchild.other_level]).toEqual(["otherlevel", "__proto__"]);
    expect(summary.warnings.map((warning) => warning.message)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("<constructor> in <controlaccess> is not an agent or subject: not imported"),
        expect.stringContaining("<__proto__> in <controlaccess> is not an agent or subject"),
      ]),
    );
  });
});

describe("MARCXML with tags and subfield codes `constructor`", () => {
  let parser: MarcXmlParser;
  beforeAll(() => {
    parser = new MarcXmlParser({ enumerations: t.server.ops.deps.enumerations, vocabulary: t.vocabulary });
  });

  const record = (id: string, fields: string): string => `<?xml version="1.0"?>
<record xmlns="http://www.loc.gov/MARC21/slim">
  <leader>00000npc a2200000 u 4500</leader>
  <controlfield tag="001">${id}</controlfield>
  <controlfield tag="constructor">x</controlfield>
  <controlfield tag="008">200101i19101925xx                  eng d</controlfield>
  <datafield tag="090" ind1=" " ind2=" "><subfield code="a">BI</subfield><subfield code="b">${id}</subfield></datafield>
  <datafield tag="245" ind1="0" ind2="0"><subfield code="a">Built-in papers /</subfield><subfield code="constructor">c</subfield></datafield>
  <datafield tag="300" ind1=" " ind2=" "><subfield code="a">2 linear feet</subfield></datafield>
  <datafield tag="300" ind1=" " ind2=" "><subfield code="a">2 constructor</subfield></datafield>
  <datafield tag="300" ind1=" " ind2=" "><subfield code="a">1 __proto__</subfield></datafield>
  ${fields}
</record>
`;

  it("imports a bibliographic record: unknown tags, codes, relators and sources are warned about or left out", async () => {
    const fields = `
  <datafield tag="constructor" ind1="constructor" ind2="__proto__"><subfield code="constructor">x</subfield><subfield code="a">y</subfield></datafield>
  <datafield tag="__proto__" ind1=" " ind2=" "><subfield code="a">z</subfield></datafield>
  <datafield tag="100" ind1="1" ind2=" "><subfield code="a">Doe, Jane</subfield><subfield code="e">constructor</subfield><subfield code="e">toString</subfield><subfield code="constructor">q</subfield></datafield>
  <datafield tag="600" ind1="1" ind2="constructor"><subfield code="a">Roe, Richard</subfield><subfield code="constructor">Sub</subfield><subfield code="__proto__">p</subfield><subfield code="2">constructor</subfield></datafield>
  <datafield tag="650" ind1=" " ind2="constructor"><subfield code="a">Topics</subfield><subfield code="constructor">Sub</subfield><subfield code="toString">t</subfield></datafield>
  <datafield tag="650" ind1=" " ind2="7"><subfield code="a">More topics</subfield><subfield code="2">__proto__</subfield></datafield>
  <datafield tag="264" ind1=" " ind2="constructor"><subfield code="c">1920</subfield></datafield>
  <datafield tag="520" ind1="constructor" ind2=" "><subfield code="a">Summary</subfield></datafield>`;
    const summary = await run(parser, "built-ins.xml", record("bi1", fields));
    expectNoCrash(summary);
    expect([summary.outcome, summary.errors]).toEqual(["imported", []]);
    const resource = await t.get(
      `${summary.uris.find((uri) => uri.includes("/resources/")) as string}?resolve[]=linked_agents&resolve[]=subjects`,
    );
    expect(resource).toMatchObject({ title: "Built-in papers", level: "collection" });
    for (const text of strings(resource)) expect(text).not.toMatch(/function |native code|\[object Object\]/);
    const links = (resource.linked_agents as Json[]).map((link) => [
      ((link._resolved as Json).names as Json[])[0]?.sort_name,
      link.role,
      link.relator,
    ]);
    expect(links).toEqual([
      ["Doe, Jane", "creator", undefined],
      ["Roe, Richard", "subject", undefined],
    ]);
    // Only v, x, y, z are subdivisions: the `constructor` subfields are not terms.
    const terms = (resource.subjects as Json[]).map((link) =>
      ((link._resolved as Json).terms as Json[]).map((term) => term.term),
    );
    expect(terms).toEqual([["Topics"], ["More topics"]]);
    const dates = resource.dates as Json[];
    expect(dates).toContainEqual(expect.objectContaining({ expression: "1920", label: "other" }));
    expect(summary.warnings.map((warning) => warning.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^300 '2 constructor' is not a number and an extent type/),
        expect.stringMatching(/^300 '1 __proto__' is not a number and an extent type/),
      ]),
    );
  });
});

describe("EAC-CPF with entityType `constructor`", () => {
  let parser: EacParser;
  beforeAll(() => {
    parser = new EacParser({ enumerations: t.server.ops.deps.enumerations });
  });

  const eac = (entityType: string, nameEntry: string): string => `<?xml version="1.0"?>
<eac-cpf xmlns="urn:isbn:1-931666-33-4"><control><recordId>bi-${entityType}</recordId></control>
<cpfDescription><identity><entityType>${entityType}</entityType>${nameEntry}</identity></cpfDescription></eac-cpf>
`;

  for (const entityType of BUILT_INS) {
    it(`refuses entityType '${entityType}', saying where, writing nothing`, async () => {
      const before = await t.counts();
      const summary = await run(
        parser,
        `${entityType}.xml`,
        eac(entityType, "<nameEntry><part>Doe, Jane</part></nameEntry>"),
      );
      expectNoCrash(summary);
      expect(summary.outcome).toBe("failed");
      expect(summary.errors).toEqual([
        expect.objectContaining({
          line: 3,
          path: "/eac-cpf/cpfDescription/identity/entityType",
          message: `entityType '${entityType}' is not person, corporateBody or family`,
        }),
      ]);
      expect(await t.counts()).toEqual(before);
    });
  }

  it("imports a person whose name parts have built-in localTypes and a built-in authorizedForm", async () => {
    const parts = BUILT_INS.map((name) => `<part localType="${name}">${name}</part>`).join("");
    const summary = await run(
      parser,
      "parts.xml",
      eac(
        "person",
        `<nameEntry><part localType="surname">Doe</part>${parts}<authorizedForm>constructor</authorizedForm></nameEntry>`,
      ),
    );
    expectNoCrash(summary);
    expect([summary.outcome, summary.errors]).toEqual(["imported", []]);
    const agent = await read(summary.uris[0] as string);
    const name = (agent.names as Json[])[0] as Json;
    expect(name.primary_name).toBe(`Doe ${BUILT_INS.join(" ")}`);
    expect(name.source).toBeUndefined();
    for (const text of strings(agent)) expect(text).not.toMatch(/function |native code|\[object Object\]/);
  });
});

describe("CSV with built-in names as headers and cells", () => {
  let parser: CsvParser;
  beforeAll(() => {
    parser = new CsvParser({ enumerations: t.server.ops.deps.enumerations, vocabulary: t.vocabulary });
  });

  it("an accession template whose extra columns and enumerated cells are built-in names imports, warning about them", async () => {
    const header = [
      "accession_title",
      "accession_number_1",
      "accession_accession_date",
      "accession_resource_type",
      "accession_acquisition_type",
      "agent_name_primary_name",
      "agent_type",
      "agent_role",
      "agent_name_name_order",
      ...BUILT_INS,
    ];
    const row = [
      "Built-in accession",
      "BI-CSV-1",
      "2020-01-02",
      "constructor",
      "__proto__",
      '"Doe, Jane"',
      "constructor",
      "toString",
      "valueOf",
      ...BUILT_INS.map((name) => `${name} cell`),
    ];
    const summary = await run(parser, "accessions.csv", `${header.join(",")}\r\n${row.join(",")}\r\n`);
    expectNoCrash(summary);
    expect([summary.outcome, summary.errors]).toEqual(["imported", []]);
    const accession = await read(summary.uris.find((uri) => uri.includes("/accessions/")) as string);
    expect(accession).toMatchObject({ title: "Built-in accession", id_0: "BI-CSV-1" });
    expect(accession.resource_type).toBeUndefined();
    expect(accession.acquisition_type).toBeUndefined();
    for (const text of strings(accession)) expect(text).not.toMatch(/function |native code|\[object Object\]/);
    const messages = summary.warnings.map((warning) => warning.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^accession_resource_type: 'constructor' is not a value of accession_resource_type/),
        expect.stringMatching(/^accession_acquisition_type: '__proto__' is not a value of accession_acquisition_type/),
        expect.stringMatching(/^agent_type: 'constructor' is not agent_person/),
        expect.stringMatching(/^agent_role: 'toString' is not creator, source or subject/),
        expect.stringMatching(/^agent_name_name_order: 'valueOf' is not a value of name_person_name_order/),
        // Header names are read case-insensitively (lower case).
        `not imported, no field takes them: ${BUILT_INS.map((name) => name.toLowerCase()).join(", ")}`,
      ]),
    );
  });

  it("a location template with built-in names in its cells imports them as text", async () => {
    const header = ["location_building", "location_floor", "location_temporary", "constructor", "__proto__"];
    const row = ["constructor", "__proto__", "toString", "x", "y"];
    const summary = await run(parser, "locations.csv", `${header.join(",")}\r\n${row.join(",")}\r\n`);
    expectNoCrash(summary);
    expect([summary.outcome, summary.errors]).toEqual(["imported", []]);
    const location = await read(summary.uris[0] as string);
    expect(location).toMatchObject({ building: "constructor", floor: "__proto__" });
    expect(location.temporary).toBeUndefined();
    expect(summary.warnings.map((warning) => warning.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^location_temporary: 'toString' is not a value of location_temporary/),
        "not imported, no field takes them: constructor, __proto__",
      ]),
    );
  });
});

describe("an ArchivesSpace JSON batch naming a built-in jsonmodel_type", () => {
  for (const type of BUILT_INS) {
    it(`refuses jsonmodel_type '${type}', saying which record, writing nothing`, async () => {
      const before = await t.counts();
      const batch = [
        {
          jsonmodel_type: "subject",
          source: "local",
          vocabulary: t.vocabulary,
          terms: [{ jsonmodel_type: "term", term: "Fine", term_type: "topical", vocabulary: t.vocabulary }],
        },
        { jsonmodel_type: type, title: "x" },
      ];
      const summary = await run(new AspaceJsonParser(t.server.ops.deps.registry), "batch.json", JSON.stringify(batch));
      expectNoCrash(summary);
      expect(summary.outcome).toBe("failed");
      expect(summary.errors).toEqual([
        expect.objectContaining({ path: "[1]", message: `unknown jsonmodel_type ${JSON.stringify(type)}` }),
      ]);
      expect(await t.counts()).toEqual(before);
    });
  }
});
