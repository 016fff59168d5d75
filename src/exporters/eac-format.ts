// EAC-CPF as an export format (GET /repositories/:repo_id/archival_contexts/people|families|
// corporate_entities|softwares/:id.xml, ArchivesSpace's backend/app/controllers/exports.rb). It
// has no parameters: ArchivesSpace's endpoints take none.
import { prepareEac } from "./eac-export.js";
import type { ExportFormat } from "./export-format.js";

export const EAC_CPF_FORMAT: ExportFormat = {
  name: "eac_cpf",
  extension: "xml",
  mediaType: "application/xml",
  fileSuffix: "eac",
  summary: "EAC-CPF",
  description: [
    "An agent as an EAC-CPF 2010 record (`urn:isbn:1-931666-33-4`), as ArchivesSpace's endpoint answers,",
    "valid against cpf.xsd.",
    "`<control>`: the record id (the display name's authority id when it is an XML name token, else the primary",
    "record identifier, else the agent's uri with `:` for `/`), the record control's status and agency (else the",
    "route's repository), conventions (and the names' rules), the maintenance history (else the agent's creation and",
    "last change), sources.",
    "`<identity>`: every name as a `<nameEntry>` of typed `<part>`s with its use dates and",
    "`<authorizedForm>`/`<alternativeForm>` (its source), a name with parallel names as a `<nameEntryParallel>`;",
    'software agents, which EAC-CPF has no type for, are `corporateBody` with `identity/@localType="software"`.',
    "`<description>`: dates of existence, languages, places, occupations, functions, topics, genders, then the notes",
    "(biographical/historical notes as `<biogHist>` with `<p>`, `<abstract>`, `<citation>`, `<chronList>`, `<list>`,",
    "`<outline>`).",
    "`<relations>`: related agents (`<cpfRelation>`), agent resources, and every resource, archival object, digital",
    "object and component linking to the agent that the caller may read (`<resourceRelation>`,",
    "creatorOf/subjectOf/other), streamed.",
    "As ArchivesSpace's exporter, unpublished notes and linking records are included (the agent's own GET shows them",
    "to the same callers); note text is written as text, its stored markup as characters.",
  ].join(" "),
  parameters: [],
  prepare: prepareEac,
};
