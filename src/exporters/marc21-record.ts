// A resource as one MARC 21 bibliographic record, following ArchivesSpace's MARC exporter
// (backend/app/exporters/models/marc21.rb): leader (07 m for an item, c for a collection), 008,
// 040 cataloguing source, 041 languages, 049, 099 identifier, 1xx main creator, 245 title with
// its inclusive ($f) and bulk ($g) dates, 300 extents, 351/5xx notes, 6xx subject agents and
// subjects, 7xx other creators and sources, 852 repository, 856 the finding aid's location.
// Each part is written so that Arca's MARCXML importer reads it back as the same value; where
// ArchivesSpace writes it otherwise, the comment at that part says so:
// - dates: the 245 holds ArchivesSpace's one inclusive (or single) and one bulk date; further
//   dates labelled publication or copyright go to 264 (second indicator 1 or 4), which the
//   importer reads back with that label (ArchivesSpace leaves them out);
// - 300: $a the number, $f the extent type, $b physical details, $c dimensions and $3 the
//   container summary (ArchivesSpace puts the summary in $f, in parentheses, which no reader can
//   tell from the type);
// - fields keep the record's order within each block (notes, subject entries, added entries).
import type { ArchivalDate, Extent, Repository, Resource } from "../../generated/types/index.js";
import { enumerationWords, str } from "./ead-terms.js";
import type { LinkedRecords } from "./linked-records.js";
import { marcCountry } from "./marc21-countries.js";
import { dataField, marcText, type MarcField, type SubfieldSpec } from "./marc21-fields.js";
import { nameField, type HeadingKind } from "./marc21-names.js";
import { languageNoteFields, noteFields, type Shown } from "./marc21-notes.js";
import { subjectField } from "./marc21-subjects.js";

export interface MarcRecord {
  leader: string;
  /** Control fields by tag, in order (008). */
  control: ReadonlyArray<readonly [tag: string, value: string]>;
  fields: MarcField[];
}

export interface MarcSource {
  resource: Resource;
  repository: Repository;
  /** The agents and subjects the resource links to, loaded. */
  linked: LinkedRecords;
  /** Whether a record, note or link is exported. */
  shown: Shown;
}

/** 264 second indicators for the date labels MARC has a statement for. */
const DATE_STATEMENTS: ReadonlyMap<string, string> = new Map([
  ["publication", "1"],
  ["copyright", "4"],
]);

/** How a date reads: its expression, else its begin and end as ArchivesSpace writes them. */
function dateText(date: ArchivalDate): string | undefined {
  const expression = marcText(date.expression);
  if (expression !== undefined) return expression;
  const begin = str(date.begin);
  const end = str(date.end);
  if (begin === undefined) return end;
  return end === undefined || end === begin ? begin : `${begin} - ${end}`;
}

/** The 245's dates (the first inclusive or single one, the first bulk one) and the others MARC has a place for. */
function splitDates(dates: readonly ArchivalDate[]): { title: ArchivalDate[]; statements: ArchivalDate[] } {
  const inclusive = dates.find((date) => date.date_type !== "bulk");
  const bulk = dates.find((date) => date.date_type === "bulk");
  const title = dates.filter((date) => date === inclusive || date === bulk);
  const statements = dates.filter((date) => !title.includes(date) && DATE_STATEMENTS.has(date.label));
  return { title, statements };
}

/** 008: entered (yymmdd, from the last change), date type, dates, place, language, cataloguing source. */
function fixedField(resource: Resource, repository: Repository): string {
  const changed = /^\d{2}(\d{2})-(\d{2})-(\d{2})/.exec(str(resource.system_mtime) ?? "");
  const entered = changed === null ? "000000" : `${changed[1]}${changed[2]}${changed[3]}`;
  const [date] = resource.dates ?? [];
  const year = (value: string | undefined) => (value ?? "").slice(0, 4).padEnd(4, " ");
  const languages = (resource.lang_materials ?? []).flatMap((material) =>
    material.language_and_script === undefined ? [] : [material.language_and_script.language],
  );
  // One language is named; several are "mul" (as ArchivesSpace writes them); none "und", MARC's undetermined.
  const language = languages.length === 1 ? (languages[0] as string) : languages.length > 1 ? "mul" : "und";
  const head = `${entered}${date?.date_type === "single" ? "s" : "i"}${year(str(date?.begin))}${year(str(date?.end))}`;
  return `${head}${marcCountry(str(repository.country))}`.padEnd(35, " ") + `${language.padEnd(3, " ")} d`;
}

function extentField(extent: Extent): MarcField | undefined {
  const type = str(extent.extent_type);
  return dataField("300", " ", " ", [
    ["3", extent.container_summary],
    ["a", extent.number],
    ["f", type === undefined ? undefined : enumerationWords(type)],
    ["b", extent.physical_details],
    ["c", extent.dimensions],
  ]);
}

/** 040 cataloguing source, 041 languages, 049 holding library, 099 identifier. */
function catalogueFields(resource: Resource, orgCode: string | undefined): Array<MarcField | undefined> {
  const languages = (resource.lang_materials ?? []).flatMap((material) =>
    material.language_and_script === undefined ? [] : [["a", material.language_and_script.language] as const],
  );
  const identifier = [resource.id_0, resource.id_1, resource.id_2, resource.id_3].map(str).filter(Boolean);
  return [
    dataField("040", " ", " ", [
      ["a", orgCode],
      ["b", resource.finding_aid_language],
      ["c", orgCode],
      ["e", resource.finding_aid_description_rules],
    ]),
    dataField("041", " ", " ", languages),
    dataField("049", " ", " ", [["a", orgCode]]),
    dataField("099", " ", " ", [["a", identifier.join(".")]]),
  ];
}

/** The agent headings, each shown link placed once: the main creator, the subject entries, the added entries. */
function agentHeadings(
  resource: Resource,
  linked: LinkedRecords,
  shown: Shown,
): { main?: MarcField; subjects: Array<MarcField | undefined>; added: Array<MarcField | undefined> } {
  const links = (resource.linked_agents ?? []).flatMap((link) => {
    const agent = linked.agent(link.ref);
    return agent !== undefined && shown(agent.record) ? [{ link, agent }] : [];
  });
  type Entry = (typeof links)[number];
  const heading = (kind: HeadingKind) => (entry: Entry) => nameField(entry.agent, entry.link, kind);
  const isMainCreator = (entry: Entry) => entry.link.role === "creator" && heading("main")(entry) !== undefined;
  // The creator marked primary, else the first (ArchivesSpace's choice), among those MARC can name.
  const primary =
    links.find((entry) => entry.link.is_primary === true && isMainCreator(entry)) ?? links.find(isMainCreator);
  return {
    main: primary === undefined ? undefined : heading("main")(primary),
    subjects: links.filter((entry) => entry.link.role === "subject").map(heading("subject")),
    added: links
      .filter((entry) => entry !== primary && (entry.link.role === "creator" || entry.link.role === "source"))
      .map(heading("added")),
  };
}

/** 245 title and its dates (ind1: whether there is a main entry), 264 the other dates MARC has a statement for. */
function titleFields(resource: Resource, hasMainEntry: boolean): Array<MarcField | undefined> {
  const { title: titleDates, statements } = splitDates(resource.dates ?? []);
  const dates: SubfieldSpec[] = titleDates.map((date) => [date.date_type === "bulk" ? "g" : "f", dateText(date)]);
  const title = marcText(resource.title) ?? "";
  // ArchivesSpace closes the title with a comma before its dates (ISBD); importers take it off.
  const withDates = dates.some(([, text]) => text !== undefined);
  return [
    dataField("245", hasMainEntry ? "1" : "0", "0", [["a", withDates ? `${title},` : title], ...dates]),
    ...statements.map((date) => dataField("264", " ", DATE_STATEMENTS.get(date.label) ?? "1", [["c", dateText(date)]])),
  ];
}

/** 852 the repository (its parent institution and name, or its code, or its name), 856 the finding aid online. */
function locationFields(resource: Resource, repository: Repository): Array<MarcField | undefined> {
  const parent = str(repository.parent_institution_name);
  const holder: SubfieldSpec[] =
    parent === undefined
      ? [["a", str(repository.org_code) ?? repository.name]]
      : [
          ["a", parent],
          ["b", repository.name],
        ];
  const findingAid = str(resource.ead_location);
  return [
    dataField("852", " ", " ", holder),
    findingAid === undefined
      ? undefined
      : dataField("856", "4", "2", [
          ["z", "Finding aid online:"],
          ["u", findingAid],
        ]),
  ];
}

export function marcRecord({ resource, repository, linked, shown }: MarcSource): MarcRecord {
  const agents = agentHeadings(resource, linked, shown);
  const subjects = (resource.subjects ?? []).flatMap((link) => {
    const subject = linked.subject(link.ref);
    return shown(subject) ? [subjectField(subject)] : [];
  });
  const fields = [
    ...catalogueFields(resource, str(repository.org_code)),
    agents.main,
    ...titleFields(resource, agents.main !== undefined),
    ...(resource.extents ?? []).map(extentField),
    ...noteFields(resource.notes, shown),
    ...languageNoteFields(resource.lang_materials, shown),
    ...agents.subjects,
    ...subjects,
    ...agents.added,
    ...locationFields(resource, repository),
  ];
  return {
    leader: `00000np${resource.level === "item" ? "m" : "c"}aa2200000 u 4500`,
    control: [["008", fixedField(resource, repository)]],
    fields: fields.filter((field): field is MarcField => field !== undefined),
  };
}
