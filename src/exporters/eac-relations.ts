// An agent's <relations>, in cpf.xsd's order: a <cpfRelation> per related agent (its type from
// the relator, as ArchivesSpace maps it; the related agent's name, dates and description), then
// a <resourceRelation> per agent resource, then one per link to the agent from a resource,
// archival object, digital object or digital object component (the records ArchivesSpace's
// exporter lists, with the link's role). Those are read a batch at a time and written as they
// come, so an agent linked from any number of records is exported in bounded memory. A linking
// record is listed when the viewer may read its type in its repository and it is not hidden from
// them (suppressed); published or not, as ArchivesSpace lists them.
import { assertMay } from "../auth/operation-access.js";
import { ApiError } from "../errors/api-error.js";
import type { OperationDeps } from "../records/deps.js";
import { shapeRecord } from "../records/operations/shape.js";
import { hiddenFrom } from "../records/operations/suppression.js";
import type { Actor } from "../records/types.js";
import type { JsonObject, RecordType } from "../registry/index.js";
import { isJsonObject } from "../registry/json.js";
import { writeDates } from "./eac-dates.js";
import { subjectOf, termOf } from "./eac-description.js";
import { writeDescriptiveNote } from "./eac-notes.js";
import { anyUri, cpfRelationType, linkAttributes, resourceRelationType, text } from "./eac-terms.js";
import { agentName, isAgent } from "./ead-terms.js";
import { linkedRecord, type LinkedAgentRecord } from "./export-records.js";
import type { XmlWriter } from "./xml-writer.js";

/** The types whose linked_agents ArchivesSpace's EAC exporter lists as resource relations. */
const LINKING_TYPES = ["resource", "archival_object", "digital_object", "digital_object_component"] as const;
const LINKS = "linked_agents";

/** Linking records read per query. */
export const RELATION_BATCH_SIZE = 200;

function writeAgentRelations(xml: XmlWriter, deps: OperationDeps, agent: LinkedAgentRecord): void {
  const relations = agent.type === "agent_software" ? [] : (agent.record.related_agents ?? []);
  for (const relation of relations) {
    const parsed = deps.registry.parseUri(relation.ref);
    const resolved = relation._resolved;
    if (parsed === undefined || resolved === undefined) continue; // gone, or past resolve's bound
    const related = linkedRecord(parsed.type, resolved as JsonObject);
    const name = related !== undefined && isAgent(related) ? text(agentName(related)) : undefined;
    if (name === undefined) continue;
    xml.open("cpfRelation", {
      cpfRelationType: cpfRelationType(relation.relator),
      "xlink:type": "simple",
      "xlink:href": anyUri(relation.ref),
      "xlink:arcrole": anyUri(relation.relationship_uri),
    });
    xml.element("relationEntry", {}, name);
    writeDates(xml, relation.dates === undefined ? [] : [relation.dates]);
    writeDescriptiveNote(xml, [relation.description]);
    xml.close("cpfRelation");
  }
}

function writeAgentResources(xml: XmlWriter, agent: LinkedAgentRecord): void {
  for (const resource of agent.record.agent_resources ?? []) {
    const title = text(resource.linked_resource);
    if (title === undefined) continue;
    xml.open("resourceRelation", {
      resourceRelationType: resourceRelationType(resource.linked_agent_role),
      ...linkAttributes(resource),
    });
    xml.element("relationEntry", {}, title);
    writeDates(xml, resource.dates);
    // cpf.xsd gives a relation one place.
    const place = (resource.places ?? []).map((link) => termOf(subjectOf(link))).find((term) => term !== undefined);
    if (place !== undefined) xml.element("placeEntry", { vocabularySource: place.source }, place.term);
    writeDescriptiveNote(xml, [resource.linked_resource_description]);
    xml.close("resourceRelation");
  }
}

/** Whether `viewer` may read records of `type` in repository `repoId`. */
function mayRead(viewer: Actor, type: RecordType, repoId: number | undefined): boolean {
  try {
    assertMay(viewer, type, "read", repoId);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** The links to the agent from the records that list it, streamed a batch at a time. */
async function writeLinkingRecords(xml: XmlWriter, deps: OperationDeps, uri: string, viewer: Actor): Promise<void> {
  for (const typeName of LINKING_TYPES) {
    const type = deps.registry.get(typeName);
    const readable = new Map<number | undefined, boolean>();
    let after = 0;
    for (;;) {
      const batch = await deps.store
        .collection(type.name)
        .find({ [`${LINKS}.ref`]: uri, id: { $gt: after } })
        .sort({ id: 1 })
        .limit(RELATION_BATCH_SIZE)
        .toArray();
      for (const stored of batch) {
        after = stored.id;
        const repoId = typeof stored.repo_id === "number" ? stored.repo_id : undefined;
        let may = readable.get(repoId);
        if (may === undefined) readable.set(repoId, (may = mayRead(viewer, type, repoId)));
        if (!may || hiddenFrom(type, stored, viewer)) continue;
        const record = shapeRecord(deps.registry, type, stored, viewer);
        const title =
          text(typeof record.title === "string" ? record.title : undefined) ??
          text(typeof record.display_string === "string" ? record.display_string : undefined);
        const links = Array.isArray(record[LINKS]) ? record[LINKS] : [];
        for (const link of links) {
          if (!isJsonObject(link) || link.ref !== uri) continue;
          xml.open("resourceRelation", {
            resourceRelationType: resourceRelationType(typeof link.role === "string" ? link.role : undefined),
            "xlink:type": "simple",
            "xlink:href": typeof record.uri === "string" ? record.uri : undefined,
          });
          xml.element("relationEntry", {}, title ?? "");
          xml.close("resourceRelation");
        }
        await xml.yieldIfFull();
      }
      if (batch.length < RELATION_BATCH_SIZE) break;
    }
  }
}

export async function writeRelations(
  xml: XmlWriter,
  deps: OperationDeps,
  agent: LinkedAgentRecord,
  viewer: Actor,
): Promise<void> {
  xml.open("relations");
  writeAgentRelations(xml, deps, agent);
  writeAgentResources(xml, agent);
  await writeLinkingRecords(xml, deps, String(agent.record.uri), viewer);
  xml.close("relations");
}

/** <alternativeSet>: the agent's descriptions in other systems (its alternate sets). */
export function writeAlternativeSet(xml: XmlWriter, agent: LinkedAgentRecord): void {
  const sets = (agent.record.agent_alternate_sets ?? []).filter(
    (set) => text(set.set_component) !== undefined || text(set.descriptive_note) !== undefined,
  );
  if (sets.length === 0) return;
  xml.open("alternativeSet");
  for (const set of sets) {
    xml.open("setComponent", linkAttributes(set));
    xml.optional("componentEntry", text(set.set_component));
    writeDescriptiveNote(xml, [set.descriptive_note]);
    xml.close("setComponent");
  }
  xml.close("alternativeSet");
}
