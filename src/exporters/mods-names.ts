// A digital object's (or component's) linked agents and subjects in MODS, as ArchivesSpace's MODS
// exporter maps them (backend/app/exporters/models/mods.rb, serializers/mods.rb):
//   - a subject is `<subject authority="source">` holding one element named by its first term's
//     type (topic, geographic, temporal, genre, occupation, or titleInfo/title for a uniform
//     title) with its terms joined by ` -- `;
//   - an agent linked as creator or source is `<name type="personal|family|corporate">` (no type
//     for software) with @authority (the name's source) and @valueURI (its authority id), its
//     name parts typed as ArchivesSpace types them, and `<role>` holding the link's role as a
//     marcrelator text term (and its relator code, when it has one, as a code term);
//   - an agent linked as subject is that `<name>` inside a `<subject>`, followed by the link's
//     terms.
// ArchivesSpace writes one <name> per name record of the agent, so an agent's variant names read
// as further creators; here the agent's display name alone is written, with its sort name as
// <displayForm>. Unpublished agents and subjects are written, as ArchivesSpace writes them.
import type { LinkedAgent, Subject } from "../../generated/types/index.js";
import { agentName, displayName, preferred, str } from "./ead-terms.js";
import type { LinkedAgentRecord } from "./export-records.js";
import { uriReference, type DigitalRecord } from "./digital-object-text.js";
import type { LinkedRecords } from "./linked-records.js";
import type { XmlWriter } from "./xml-writer.js";

interface NamePart {
  type?: "family" | "given" | "termsOfAddress" | "date";
  value: string | undefined;
}

/** MODS name @type of an agent; software agents have none. */
function nameType(agent: LinkedAgentRecord): string | undefined {
  switch (agent.type) {
    case "agent_person":
      return "personal";
    case "agent_family":
      return "family";
    case "agent_corporate_entity":
      return "corporate";
    default:
      return undefined;
  }
}

/** The name's parts in ArchivesSpace's order and with its types (models/mods.rb name_parts). */
function nameParts(agent: LinkedAgentRecord): NamePart[] {
  switch (agent.type) {
    case "agent_person": {
      const name = preferred(agent.record.names);
      return [
        { type: "family", value: name?.primary_name },
        { type: "termsOfAddress", value: name?.title },
        { type: "termsOfAddress", value: name?.prefix },
        { type: "given", value: name?.rest_of_name },
        { value: name?.suffix },
        { value: name?.fuller_form },
        { value: name?.number },
      ];
    }
    case "agent_family": {
      const name = preferred(agent.record.names);
      return [
        { type: "family", value: name?.family_name },
        { type: "termsOfAddress", value: name?.prefix },
      ];
    }
    case "agent_corporate_entity": {
      const name = preferred(agent.record.names);
      return [
        { value: name?.primary_name },
        { value: name?.subordinate_name_1 },
        { value: name?.subordinate_name_2 },
        { value: name?.number },
      ];
    }
    case "agent_software": {
      const name = preferred(agent.record.names);
      return [{ value: name?.software_name }, { value: name?.version }, { value: name?.manufacturer }];
    }
  }
}

function writeName(xml: XmlWriter, agent: LinkedAgentRecord, link: LinkedAgent, withRole: boolean): void {
  const name = displayName(agent);
  const authorityId = str(name?.authority_id);
  xml.open("name", {
    type: nameType(agent),
    authority: str(name?.source),
    valueURI: authorityId === undefined ? undefined : uriReference(authorityId),
  });
  // The name's dates are a part of it in MODS (ArchivesSpace leaves them out).
  for (const part of [...nameParts(agent), { type: "date" as const, value: name?.dates }])
    xml.optional("namePart", str(part.value), { type: part.type });
  xml.optional("displayForm", agentName(agent));
  if (withRole) {
    xml.open("role");
    xml.element("roleTerm", { type: "text", authority: "marcrelator" }, link.role);
    xml.optional("roleTerm", str(link.relator), { type: "code", authority: "marcrelator" });
    xml.close("role");
  }
  xml.close("name");
}

/** The subject child element a term type becomes. */
function termElement(termType: string | undefined): string {
  switch (termType) {
    case "geographic":
    case "cultural_context":
      return "geographic";
    case "temporal":
      return "temporal";
    case "uniform_title":
      return "titleInfo";
    case "genre_form":
    case "style_period":
    case "technique":
    case "function":
      return "genre";
    case "occupation":
      return "occupation";
    default:
      return "topic";
  }
}

function writeTerm(xml: XmlWriter, termType: string | undefined, value: string): void {
  const element = termElement(termType);
  if (element === "titleInfo") {
    // A uniform title needs its <title> (ArchivesSpace writes the text straight into <titleInfo>).
    xml.open("titleInfo");
    xml.element("title", {}, value);
    xml.close("titleInfo");
  } else xml.element(element, {}, value);
}

function writeSubject(xml: XmlWriter, subject: Subject): void {
  const terms = subject.terms.map((term) => str(term.term)).filter((term): term is string => term !== undefined);
  if (terms.length === 0) return;
  xml.open("subject", { authority: str(subject.source) });
  writeTerm(xml, str(subject.terms[0]?.term_type), terms.join(" -- "));
  xml.close("subject");
}

/** The record's subjects, then its agents: creators and sources as <name>, subject agents in <subject>. */
export function writeNamesAndSubjects(xml: XmlWriter, linked: LinkedRecords, record: DigitalRecord): void {
  for (const link of record.subjects ?? []) {
    const subject = linked.subject(link.ref);
    if (subject !== undefined) writeSubject(xml, subject);
  }
  for (const link of record.linked_agents ?? []) {
    const agent = linked.agent(link.ref);
    if (agent === undefined) continue;
    if (link.role !== "subject") {
      writeName(xml, agent, link, true);
      continue;
    }
    xml.open("subject");
    writeName(xml, agent, link, false);
    for (const term of link.terms ?? []) {
      const value = str(term.term);
      if (value !== undefined) writeTerm(xml, str(term.term_type), value);
    }
    xml.close("subject");
  }
}
