// What the digital object exports (MODS, METS, Dublin Core) read before writing a byte: the
// digital object (404 `Digital Object not found`), its repository, and the address of the agent
// standing for the repository (ArchivesSpace's "Digital object made available by" note), and
// what they read while writing: the records the object links to, and its tree of components.
import type { AgentContact, DigitalObject, Repository } from "../../generated/types/index.js";
import { ApiError } from "../errors/api-error.js";
import type { JsonObject } from "../registry/index.js";
import type { Actor, RecordOperations, Scope } from "../records/operations/index.js";
import { str } from "./ead-terms.js";
import type { ExportRequest, PreparedExport } from "./export-format.js";
import { asRecord } from "./export-records.js";
import { ComponentTree } from "./digital-object-tree.js";
import { LinkedRecords } from "./linked-records.js";
import { XmlWriter } from "./xml-writer.js";

const DIGITAL_OBJECT = "digital_object";
const REPOSITORY = "repository";
const REPOSITORY_AGENT = "agent_corporate_entity";

export interface DigitalObjectExport {
  readonly object: DigitalObject;
  readonly repository: Repository;
  /** The repository's name, its agent's first address and its url, as ArchivesSpace's note reads. */
  readonly madeAvailableBy: string;
  /** The records the object and its components link to (agents, subjects), loaded as needed. */
  readonly linked: LinkedRecords;
  readonly components: ComponentTree;
  readonly viewer: Actor;
}

/** The repository's address line: name, the first contact's address parts, then ` (url)`. */
function madeAvailableBy(repository: Repository, contact: AgentContact | undefined): string {
  const parts = [
    repository.name,
    contact?.address_1,
    contact?.address_2,
    contact?.address_3,
    contact?.city,
    contact?.region,
    contact?.post_code,
    contact?.country,
  ]
    .map(str)
    .filter((part): part is string => part !== undefined);
  const url = str(repository.url);
  return `${parts.join(", ")}${url === undefined ? "" : ` (${url})`}`;
}

/** The first contact of the repository's agent, as the caller may see it (none when they may not). */
async function repositoryContact(
  operations: RecordOperations,
  repository: Repository,
  actor: Actor,
): Promise<AgentContact | undefined> {
  const ref = repository.agent_representation?.ref;
  const parsed = ref === undefined ? undefined : operations.deps.registry.parseUri(ref);
  if (parsed === undefined || parsed.type !== REPOSITORY_AGENT) return undefined;
  try {
    // Contacts are shown to holders of view_agent_contact_record only: read as the caller.
    const agent = asRecord(REPOSITORY_AGENT, await operations.read(REPOSITORY_AGENT, {}, parsed.id, actor));
    return agent.agent_contacts?.[0];
  } catch (error) {
    // An agent the caller may not read, or one gone, leaves the note without an address.
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return undefined;
    throw error;
  }
}

/** Reads the digital object and its repository: `Digital Object not found` (404) before anything is written. */
export async function readDigitalObject(
  operations: RecordOperations,
  { scope, repoId, repository: shownRepository, id, actor }: ExportRequest,
): Promise<DigitalObjectExport> {
  const where: Scope = { repoId: scope.repoId ?? repoId };
  const object = asRecord(DIGITAL_OBJECT, await operations.read(DIGITAL_OBJECT, where, id, actor));
  const repository = asRecord(REPOSITORY, shownRepository);
  const contact = await repositoryContact(operations, repository, actor);
  return {
    object,
    repository,
    madeAvailableBy: madeAvailableBy(repository, contact),
    linked: new LinkedRecords(operations.deps, actor),
    components: new ComponentTree(operations, where, String(object.uri), actor),
    viewer: actor,
  };
}

/** The export of one XML document about the object: the declaration, what `write` writes, every element closed. */
export function xmlDocument(source: DigitalObjectExport, write: (xml: XmlWriter) => Promise<void>): PreparedExport {
  return {
    record: source.object as unknown as JsonObject,
    async writeTo(sink) {
      const xml = new XmlWriter(sink);
      xml.declaration();
      await write(xml);
      await xml.finish();
    },
  };
}
