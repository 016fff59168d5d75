// The `eac` format: an EAC-CPF record (one `eac-cpf` document) as an agent: the entity type
// picks the agent type (person, corporateBody, family), the name entries become its names
// (authorized forms first), existDates its dates of existence, each biogHist a biographical
// note, and control/recordId the authorized name's authority id.
//
// Importing again creates nothing: the agent matches a stored agent of its type with the same
// sort name and authority id (agent-records.ts) and is reused as it is. Agents here have no
// relationships, places, occupations or sources: each cpfRelation is a warning of its own
// (whether or not its target exists, it cannot be linked), the rest is listed in one warning.
import { lookupTable } from "../registry/dictionary.js";
import type { EnumerationValues } from "../registry/enumerations.js";
import { EnumeratedValues } from "./csv/enumerated-values.js";
import { FileAgents, type AgentDraft, type AgentType } from "./agent-records.js";
import { biographicalNote } from "./eac/eac-biography.js";
import { structuredDates } from "./eac/eac-dates.js";
import { eacNames } from "./eac/eac-names.js";
import {
  ImportError,
  type FormatParser,
  type ImportInput,
  type ParseContext,
  type PendingRecord,
  type SourceLocation,
} from "./pending.js";
import { childElement, childElements, textOf } from "./xml/xml-element.js";
import type { XmlLimits } from "./xml/xml-limits.js";
import { xmlSubtrees, type XmlElement } from "./xml/xml-reader.js";

export interface EacImportOptions {
  /**
   * The enumerations' current values (the record operations' `deps.enumerations`, ready); default: the schemas' seed
   * values.
   */
  enumerations?: EnumerationValues;
  /** Default: the settings' defaults. */
  limits?: XmlLimits;
}

const ENTITY_TYPES: Readonly<Record<string, AgentType>> = lookupTable({
  person: "agent_person",
  corporatebody: "agent_corporate_entity",
  family: "agent_family",
});

/** Description elements an agent has a field for. */
const DESCRIBED = new Set(["existDates", "biogHist"]);

const located = (element: XmlElement): SourceLocation => ({
  line: element.line,
  column: element.column,
  path: element.path,
});

/** "sources (7 source)", "otherRecordId (6)": what a list of elements holds, for a message. */
function summarise(elements: XmlElement[]): string[] {
  const counts = new Map<string, number>();
  for (const element of elements) counts.set(element.name, (counts.get(element.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} (${n})` : name));
}

export class EacParser implements FormatParser {
  readonly format = "eac" as const;

  constructor(private readonly options: EacImportOptions = {}) {}

  async *parse(input: ImportInput, context: ParseContext): AsyncGenerator<PendingRecord, void, undefined> {
    const values = new EnumeratedValues(this.options.enumerations);
    const agents = new FileAgents("eac");
    for await (const root of xmlSubtrees(input, {
      roots: ["eac-cpf"],
      isRecord: (names) => names.length === 1,
      limits: this.options.limits,
    })) {
      const pending = this.agentOf(root, values, agents, context);
      if (pending !== undefined) yield pending;
    }
  }

  private agentOf(
    root: XmlElement,
    values: EnumeratedValues,
    agents: FileAgents,
    context: ParseContext,
  ): PendingRecord | undefined {
    const control = childElement(root, "control");
    const description =
      childElement(root, "cpfDescription") ?? fail("no cpfDescription: nothing describes an entity", located(root));
    const identity =
      childElement(description, "identity") ?? fail("cpfDescription has no identity", located(description));
    const entityType =
      childElement(identity, "entityType") ??
      fail("identity has no entityType (person, corporateBody or family)", located(identity));
    const type =
      ENTITY_TYPES[textOf(entityType).toLowerCase()] ??
      fail(`entityType '${textOf(entityType)}' is not person, corporateBody or family`, located(entityType));
    const notImported: string[] = [];

    const entries = [
      ...childElements(identity, "nameEntry"),
      ...childElements(identity, "nameEntryParallel").flatMap((parallel) => childElements(parallel, "nameEntry")),
    ];
    const { names, problems } = eacNames(type, entries, values);
    if (names.length === 0) fail("identity has no nameEntry with a name", located(identity));
    notImported.push(...problems);
    const recordId = control === undefined ? undefined : childElement(control, "recordId");
    const entityId = childElements(identity, "entityId")[0];
    const idElement = recordId ?? entityId;
    const authorityId = idElement === undefined ? undefined : textOf(idElement) || undefined;
    if (authorityId !== undefined && names[0] !== undefined) names[0].authority_id = authorityId;
    if (recordId !== undefined && entityId !== undefined) notImported.push("identity/entityId");

    const agent: AgentDraft = { names };
    const existDates = childElement(childElement(description, "description") ?? description, "existDates");
    if (existDates !== undefined) {
      const dates = structuredDates(existDates, "existence");
      if (dates.length > 0) agent.dates_of_existence = dates;
    }
    const describing = childElement(description, "description");
    const notes =
      describing === undefined
        ? []
        : childElements(describing, "biogHist")
            .map(biographicalNote)
            .filter((note) => note !== undefined);
    if (notes.length > 0) agent.notes = notes;

    if (control !== undefined)
      notImported.push(
        ...summarise(childElements(control).filter((element) => element.name !== "recordId")).map(
          (name) => `control/${name}`,
        ),
      );
    if (describing !== undefined)
      notImported.push(
        ...summarise(childElements(describing).filter((element) => !DESCRIBED.has(element.name))).map(
          (name) => `description/${name}`,
        ),
      );
    notImported.push(
      ...summarise(
        childElements(description).filter(
          (element) => !["identity", "description", "relations"].includes(element.name),
        ),
      ),
    );
    notImported.push(
      ...summarise(childElements(root).filter((element) => !["control", "cpfDescription"].includes(element.name))),
    );
    this.reportRelations(description, context, notImported);
    if (notImported.length > 0)
      context.warn(`not imported, an agent has no field for them: ${notImported.join(", ")}`, located(root));

    const claimed = agents.claim(type, agent, located(root));
    return claimed.pending;
  }

  /** Relations have no place in an agent: each cpfRelation is a warning; the others are counted. */
  private reportRelations(description: XmlElement, context: ParseContext, notImported: string[]): void {
    const relations = childElement(description, "relations");
    if (relations === undefined) return;
    for (const relation of childElements(relations, "cpfRelation")) {
      const entry = childElement(relation, "relationEntry");
      const target = entry === undefined ? (relation.attributes.href ?? "(unnamed)") : textOf(entry);
      const kind = relation.attributes.cpfRelationType ?? relation.attributes.arcrole;
      context.warn(
        `cpfRelation to '${target}'${kind === undefined ? "" : ` (${kind})`} not imported: agents have no relationships here`,
        located(relation),
      );
    }
    const others = childElements(relations).filter((element) => element.name !== "cpfRelation");
    if (others.length > 0) {
      const titles = others.slice(0, 3).map((element) => {
        const entry = childElement(element, "relationEntry");
        return `'${entry === undefined ? element.name : textOf(entry)}'`;
      });
      notImported.push(
        `relations/${summarise(others).join(", relations/")} (${titles.join(", ")}${others.length > 3 ? ", ..." : ""})`,
      );
    }
  }
}

function fail(message: string, source: SourceLocation): never {
  throw new ImportError(message, source);
}

/** The parser with the schemas' seed enumerations. */
export const eacParser = new EacParser();
