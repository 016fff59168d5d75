// An agent's <description>, in cpf.xsd's order: dates of existence, languages used, places,
// occupations, functions, topics and genders (a <localDescriptions localType="archivesspace">, as
// ArchivesSpace writes them), the context notes, then the biographies. Places, occupations,
// functions and topics name their subjects (resolved with the agent), one element per subject,
// each with its dates, its place subjects, its first citation and its text notes.
import type { AgentSubrecordNote, Ref, StructuredDateLabel, Subject } from "../../generated/types/index.js";
import type { JsonObject } from "../registry/index.js";
import { writeLanguage } from "./eac-control.js";
import { writeDates, writeDatesElement } from "./eac-dates.js";
import { writeBiographies, writeContextNotes, writeDescriptiveNote } from "./eac-notes.js";
import { anyUri, languageCode, scriptCode, text } from "./eac-terms.js";
import { asRecord, type LinkedAgentRecord } from "./export-records.js";
import type { XmlWriter } from "./xml-writer.js";

/** A subject link's target as resolved with the agent (undefined: not resolved, or gone). */
export function subjectOf(link: Ref): Subject | undefined {
  const resolved = link._resolved;
  return resolved === undefined ? undefined : asRecord("subject", resolved as JsonObject);
}

/** A subject's first term and its source, as ArchivesSpace names a subject in EAC-CPF. */
export function termOf(subject: Subject | undefined): { term: string; source?: string } | undefined {
  const term = text(subject?.terms[0]?.term);
  return term === undefined ? undefined : { term, source: anyUri(subject?.source) };
}

interface SubjectSubrecord {
  subjects?: Ref[];
  places?: Ref[];
  dates?: StructuredDateLabel[];
  notes?: AgentSubrecordNote[];
}

/** A subrecord's notes: its first citation as <citation>, the rest as <descriptiveNote> paragraphs. */
function writeSubrecordNotes(xml: XmlWriter, notes: readonly AgentSubrecordNote[] | undefined): void {
  const citation = (notes ?? []).find((note) => note.jsonmodel_type === "note_citation");
  if (citation !== undefined) xml.optional("citation", text(citation.content.join("--")));
  writeDescriptiveNote(
    xml,
    (notes ?? [])
      .filter((note) => note !== citation)
      .map((note) => (note.jsonmodel_type === "note_text" ? note.content : note.content.join("--"))),
  );
}

function writePlaceEntries(xml: XmlWriter, places: readonly Ref[] | undefined): void {
  for (const place of places ?? []) {
    const term = termOf(subjectOf(place));
    if (term !== undefined) xml.element("placeEntry", { vocabularySource: term.source }, term.term);
  }
}

/** One `<name>` (occupation, function, localDescription) per subject of the subrecords, in a `<group>`. */
function writeSubjectGroup(
  xml: XmlWriter,
  group: string,
  name: string,
  subrecords: readonly SubjectSubrecord[] | undefined,
): void {
  const entries = (subrecords ?? []).flatMap((subrecord) =>
    (subrecord.subjects ?? []).flatMap((link) => {
      const term = termOf(subjectOf(link));
      return term === undefined ? [] : [{ subrecord, term }];
    }),
  );
  if (entries.length === 0) return;
  xml.open(group);
  for (const { subrecord, term } of entries) {
    xml.open(name);
    xml.element("term", { vocabularySource: term.source }, term.term);
    writePlaceEntries(xml, subrecord.places);
    writeDates(xml, subrecord.dates);
    writeSubrecordNotes(xml, subrecord.notes);
    xml.close(name);
  }
  xml.close(group);
}

function writePlaces(xml: XmlWriter, agent: LinkedAgentRecord): void {
  const entries = (agent.record.agent_places ?? []).flatMap((place) =>
    (place.subjects ?? []).flatMap((link) => {
      const term = termOf(subjectOf(link));
      return term === undefined ? [] : [{ place, term }];
    }),
  );
  if (entries.length === 0) return;
  xml.open("places");
  for (const { place, term } of entries) {
    xml.open("place");
    xml.optional("placeRole", text(place.place_role));
    xml.element("placeEntry", { vocabularySource: term.source }, term.term);
    writeDates(xml, place.dates);
    writeSubrecordNotes(xml, place.notes);
    xml.close("place");
  }
  xml.close("places");
}

function writeLocalDescriptions(xml: XmlWriter, agent: LinkedAgentRecord): void {
  const topics = (agent.record.agent_topics ?? []).filter((topic) =>
    (topic.subjects ?? []).some((link) => termOf(subjectOf(link)) !== undefined),
  );
  const genders =
    agent.type === "agent_person"
      ? (agent.record.agent_genders ?? []).filter((gender) => text(gender.gender) !== undefined)
      : [];
  if (topics.length === 0 && genders.length === 0) return;
  xml.open("localDescriptions", { localType: "archivesspace" });
  for (const topic of topics)
    for (const link of topic.subjects ?? []) {
      const term = termOf(subjectOf(link));
      if (term === undefined) continue;
      xml.open("localDescription", { localType: "associatedSubject" });
      xml.element("term", { vocabularySource: term.source }, term.term);
      writePlaceEntries(xml, topic.places);
      writeDates(xml, topic.dates);
      writeSubrecordNotes(xml, topic.notes);
      xml.close("localDescription");
    }
  for (const gender of genders) {
    xml.open("localDescription", { localType: "gender" });
    xml.element("term", {}, text(gender.gender) ?? "");
    writeDates(xml, gender.dates);
    writeSubrecordNotes(xml, gender.notes);
    xml.close("localDescription");
  }
  xml.close("localDescriptions");
}

function writeLanguagesUsed(xml: XmlWriter, agent: LinkedAgentRecord): void {
  // cpf.xsd wants at least one <languageUsed> in the group: only languages with a code count.
  const used = (agent.record.used_languages ?? []).filter(
    (language) => languageCode(language.language) !== undefined || scriptCode(language.script) !== undefined,
  );
  if (used.length === 0) return;
  xml.open("languagesUsed");
  for (const language of used)
    writeLanguage(
      xml,
      "languageUsed",
      language.language,
      language.script,
      (language.notes ?? []).map((note) =>
        note.jsonmodel_type === "note_text" ? note.content : note.content.join("--"),
      ),
    );
  xml.close("languagesUsed");
}

export function writeDescription(xml: XmlWriter, agent: LinkedAgentRecord): void {
  const record = agent.record;
  xml.open("description");
  writeDatesElement(xml, "existDates", record.dates_of_existence);
  writeLanguagesUsed(xml, agent);
  writePlaces(xml, agent);
  writeSubjectGroup(xml, "occupations", "occupation", record.agent_occupations);
  writeSubjectGroup(xml, "functions", "function", record.agent_functions);
  writeLocalDescriptions(xml, agent);
  writeContextNotes(xml, record.notes);
  writeBiographies(xml, record.notes);
  xml.close("description");
}
