// EAC-CPF 2010 export: an agent (person, family, corporate entity, software) as an <eac-cpf>
// document, ArchivesSpace's GET …/archival_contexts/<type>/:id.xml (backend/app/lib/export.rb
// generate_eac, exporters/serializers/eac.rb). The agent is read with its related agents and
// subjects resolved, and the route's repository is its maintenance agency; the header, identity
// and description are written at once (an agent is one record), the records that link to the
// agent streamed after them (eac-relations.ts).
import type { Repository } from "../../generated/types/index.js";
import type { Actor, RecordOperations } from "../records/operations/index.js";
import { writeControl, recordIdOf } from "./eac-control.js";
import { writeDescription } from "./eac-description.js";
import { nameViews, writeIdentity } from "./eac-identity.js";
import { writeAlternativeSet, writeRelations } from "./eac-relations.js";
import { EAC_NAMESPACE, XLINK_NAMESPACE } from "./eac-terms.js";
import { isAgent } from "./ead-terms.js";
import type { ExportRequest, PreparedExport } from "./export-format.js";
import { asRecord, linkedRecord, type LinkedAgentRecord } from "./export-records.js";
import { XmlWriter, type XmlSink } from "./xml-writer.js";

const ROOT = {
  xmlns: EAC_NAMESPACE,
  "xmlns:xlink": XLINK_NAMESPACE,
  "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
  "xsi:schemaLocation": `${EAC_NAMESPACE} https://eac.staatsbibliothek-berlin.de/schema/cpf.xsd`,
  "xml:lang": "eng",
};

const REPOSITORY = "repository";

/** What the agent's refs resolve to in the export: related agents, subjects of places, occupations, ... */
const RESOLVE = ["related_agents", "subjects", "places"];

/** Reads the agent (404 `<Type> not found`) and the route's repository, before anything is written. */
export async function prepareEac(operations: RecordOperations, request: ExportRequest): Promise<PreparedExport> {
  const { type, scope, id, actor } = request;
  const json = await operations.read(type.name, scope, id, actor, { resolve: RESOLVE });
  const agent = linkedRecord(type.name, json);
  if (agent === undefined || !isAgent(agent))
    throw new Error(`eac_cpf exports agents; ${type.name} is not one (x-exports of its schema)`);
  // The repository of the route is the agent's maintenance agency.
  const repository = asRecord(REPOSITORY, request.repository);
  return { record: json, writeTo: (sink) => writeEac(operations, agent, repository, actor, sink) };
}

async function writeEac(
  operations: RecordOperations,
  agent: LinkedAgentRecord,
  repository: Repository,
  viewer: Actor,
  sink: XmlSink,
): Promise<void> {
  const xml = new XmlWriter(sink);
  const names = nameViews(agent);
  const recordId = recordIdOf(agent, names);
  xml.declaration();
  xml.open("eac-cpf", ROOT);
  writeControl(xml, agent, names, recordId, repository);
  xml.open("cpfDescription");
  writeIdentity(xml, agent, names, recordId);
  writeDescription(xml, agent);
  await xml.yieldIfFull();
  await writeRelations(xml, operations.deps, agent, viewer);
  writeAlternativeSet(xml, agent);
  xml.close("cpfDescription");
  xml.close("eac-cpf");
  await xml.finish();
}
