// Dublin Core as an export format (GET …/digital_objects/dublin_core/:id.xml, ArchivesSpace's
// backend/app/controllers/exports.rb, exporters/models/dc.rb and serializers/dc.rb): a digital
// object (not its components) as simple Dublin Core.
//
// ArchivesSpace writes a bare <dc> root in the elements' namespace, which no standard schema
// declares; here the root is the OAI-PMH container <oai_dc:dc>
// (http://www.openarchives.org/OAI/2.0/oai_dc/, oai_dc.xsd) holding dc:* elements
// (http://purl.org/dc/elements/1.1/), written in the DCMES order (the schema takes any). What is
// mapped, as ArchivesSpace maps it unless said otherwise:
//   title        title
//   creator      agents linked as creator (their display name; ArchivesSpace: every name's sort name)
//   subject      subjects (terms joined by `--`), agents linked as subject (with the link's terms)
//   description  summary (not in ArchivesSpace), bioghist and prefercite notes; "Digital object made
//                available by <repository> (<url>)"
//   contributor  agents linked as source (ArchivesSpace leaves them out)
//   date         each date: its expression, else begin, else `begin - end`
//   type         digital_object_type
//   format       extents as `number extent_type` (not in ArchivesSpace), dimensions and physdesc notes
//   identifier   digital_object_id and the record's uri (ArchivesSpace: the backend's url of the uri)
//   source       originalsloc notes
//   language     language and script codes, language notes
//   relation     relatedmaterial notes
//   rights       accessrestrict, userestrict and legalstatus notes, and each rights statement
//                (ArchivesSpace has a rights statement mapping that it never calls)
// Text only: inline EAD markup in titles and notes is dropped, its text kept. Unpublished notes
// and agents are exported, as ArchivesSpace's Dublin Core export does.
import type { DigitalObject, LinkedAgent, RightsStatement } from "../../generated/types/index.js";
import { readDigitalObject, xmlDocument, type DigitalObjectExport } from "./digital-object-export.js";
import { dateText, extentText, noteText, titleOf } from "./digital-object-text.js";
import { agentName, enumerationWords, str, termTexts } from "./ead-terms.js";
import type { ExportFormat } from "./export-format.js";
import type { XmlWriter } from "./xml-writer.js";

const OAI_DC_ROOT = {
  "xmlns:oai_dc": "http://www.openarchives.org/OAI/2.0/oai_dc/",
  "xmlns:dc": "http://purl.org/dc/elements/1.1/",
  "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
  "xsi:schemaLocation": "http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd",
};

/** The Dublin Core element each note type feeds. */
const NOTE_ELEMENTS: ReadonlyMap<string, string> = new Map([
  ["summary", "description"],
  ["bioghist", "description"],
  ["prefercite", "description"],
  ["dimensions", "format"],
  ["physdesc", "format"],
  ["originalsloc", "source"],
  ["relatedmaterial", "relation"],
  ["accessrestrict", "rights"],
  ["userestrict", "rights"],
  ["legalstatus", "rights"],
]);

/** The texts of the object's notes that feed `element`, in order. */
function notesFor(object: DigitalObject, element: string): string[] {
  return (object.notes ?? [])
    .filter((note) => NOTE_ELEMENTS.get(str(note.type) ?? "") === element)
    .map((note) => noteText(note));
}

function sentence(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** A rights statement in one line: its type, status, terms, dates, acts and notes. */
export function rightsStatementText(statement: RightsStatement): string {
  const words = (value: string | undefined) => (value === undefined ? undefined : enumerationWords(value));
  const start = str(statement.start_date);
  const end = str(statement.end_date);
  const segments = [
    sentence(words(str(statement.rights_type)) ?? "rights"),
    str(statement.identifier),
    words(str(statement.status)) && `Status: ${words(str(statement.status))}`,
    str(statement.jurisdiction) && `Jurisdiction: ${statement.jurisdiction}`,
    str(statement.license_terms) && `License terms: ${statement.license_terms}`,
    str(statement.statute_citation) && `Statute: ${statement.statute_citation}`,
    words(str(statement.other_rights_basis)) && `Basis: ${words(str(statement.other_rights_basis))}`,
    start === undefined
      ? end === undefined
        ? undefined
        : `Until ${end}`
      : `From ${start}${end === undefined ? "" : ` to ${end}`}`,
    ...(statement.acts ?? []).map((act) => `${sentence(words(act.act_type) ?? "")}: ${words(act.restriction) ?? ""}`),
    ...(statement.notes ?? []).map((note) => noteText(note)),
  ];
  return segments.filter((segment): segment is string => segment !== undefined && segment !== "").join(". ");
}

/** The agents linked in `role`, by name (with the link's terms for subject agents). */
function agentsIn(source: DigitalObjectExport, role: LinkedAgent["role"]): string[] {
  return (source.object.linked_agents ?? []).flatMap((link) => {
    if (link.role !== role) return [];
    const agent = source.linked.agent(link.ref);
    return agent === undefined ? [] : [[agentName(agent), ...termTexts(link)].join("--")];
  });
}

function subjects(source: DigitalObjectExport): string[] {
  const linked = (source.object.subjects ?? []).flatMap((link) => {
    const subject = source.linked.subject(link.ref);
    return subject === undefined ? [] : [termTexts(subject).join("--")];
  });
  return [...linked, ...agentsIn(source, "subject")];
}

function languages(object: DigitalObject): string[] {
  return (object.lang_materials ?? []).flatMap((material) => [
    ...[material.language_and_script?.language, material.language_and_script?.script].flatMap((code) =>
      str(code) === undefined ? [] : [code as string],
    ),
    ...(material.notes ?? []).map((note) => noteText(note)),
  ]);
}

async function writeDublinCore(xml: XmlWriter, source: DigitalObjectExport): Promise<void> {
  const { object, repository } = source;
  await source.linked.load([object]);
  const url = str(repository.url);
  const elements: Array<[string, Array<string | undefined>]> = [
    ["title", [titleOf(object)]],
    ["creator", agentsIn(source, "creator")],
    ["subject", subjects(source)],
    [
      "description",
      [
        ...notesFor(object, "description"),
        `Digital object made available by ${repository.name}${url === undefined ? "" : ` (${url})`}`,
      ],
    ],
    ["contributor", agentsIn(source, "source")],
    ["date", (object.dates ?? []).map(dateText)],
    ["type", [str(object.digital_object_type)]],
    ["format", [...(object.extents ?? []).map(extentText), ...notesFor(object, "format")]],
    ["identifier", [object.digital_object_id, str(object.uri)]],
    ["source", notesFor(object, "source")],
    ["language", languages(object)],
    ["relation", notesFor(object, "relation")],
    ["rights", [...notesFor(object, "rights"), ...(object.rights_statements ?? []).map(rightsStatementText)]],
  ];
  xml.open("oai_dc:dc", OAI_DC_ROOT);
  for (const [element, values] of elements) for (const value of values) xml.optional(`dc:${element}`, value);
  xml.close("oai_dc:dc");
}

export const DUBLIN_CORE_FORMAT: ExportFormat = {
  name: "dublin_core",
  extension: "xml",
  mediaType: "application/xml",
  fileSuffix: "dc",
  summary: "Dublin Core",
  description:
    "A digital object as simple Dublin Core, as ArchivesSpace's endpoint answers, but in the OAI-PMH container " +
    "`<oai_dc:dc>` (namespace `http://www.openarchives.org/OAI/2.0/oai_dc/`, schema oai_dc.xsd) holding `dc:*` " +
    "elements (`http://purl.org/dc/elements/1.1/`): ArchivesSpace's bare `<dc>` root is declared by no standard " +
    "schema. " +
    "title; creator (agents linked as creator); subject (subjects, terms joined by `--`, and subject agents); " +
    "description (summary, bioghist and prefercite notes, and the repository that makes the object available); " +
    "contributor (agents linked as source); date; type (digital_object_type); format (extents, dimensions and " +
    "physdesc notes); identifier (digital_object_id and the record's uri); source (originalsloc notes); language " +
    "(language and script codes, language notes); relation (relatedmaterial notes); rights (accessrestrict, " +
    "userestrict and legalstatus notes, and rights statements). " +
    "Components are not included (nor are they in ArchivesSpace's). Text only: inline markup in titles and notes " +
    "is dropped, its text kept. Unpublished notes and agents are exported, as ArchivesSpace's Dublin Core export " +
    "does.",
  parameters: [],
  async prepare(operations, request) {
    const source = await readDigitalObject(operations, request);
    return xmlDocument(source, (xml) => writeDublinCore(xml, source));
  },
};
