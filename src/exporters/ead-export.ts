// EAD export: a resource and its whole tree of archival objects as EAD 2002 or
// EAD3, written to a stream as the tree is walked, depth first in position order.
//
// The walk reads a node's children a batch at a time (tree-batches.ts) and loads what each batch
// links to, one query per target type: the store sees a handful of queries per batch, never one
// per component. The output is flushed as it grows, waiting while the client is slow.
// Unpublished records (and their subtrees), notes and links are left out unless
// `includeUnpublished`; suppressed ones always.
import type { ArchivalObject, Repository, Resource } from "../../generated/types/index.js";
import type { JsonObject } from "../registry/index.js";
import { onBehalfOf, type Actor, type RecordOperations, type Scope } from "../records/operations/index.js";
import { EadContext, type EadExportOptions } from "./ead-context.js";
import { writeDescription } from "./ead-description.js";
import { writeHeader } from "./ead-header.js";
import { str, xmlId } from "./ead-terms.js";
import { asRecord } from "./export-records.js";
import { LinkedRecords } from "./linked-records.js";
import { childBatches, type TreeReader } from "./tree-batches.js";
import { XmlWriter, type XmlSink } from "./xml-writer.js";

export { DEFAULT_EXPORT_OPTIONS, type EadExportOptions } from "./ead-context.js";

const EAD2002_ROOT = {
  xmlns: "urn:isbn:1-931666-22-9",
  "xmlns:xlink": "http://www.w3.org/1999/xlink",
  "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
  "xsi:schemaLocation": "urn:isbn:1-931666-22-9 https://www.loc.gov/ead/ead.xsd",
};
const EAD3_ROOT = { xmlns: "http://ead3.archivists.org/schema/" };

const RESOURCE = "resource";
const REPOSITORY = "repository";
// What the resources' trees are made of (the resource's x-tree node type).
const ARCHIVAL_OBJECT = "archival_object";

/** A resource found and ready to be written (what can fail with a 404 has been read). */
export interface PreparedEadExport {
  resource: Resource;
  /** Writes the whole document to `sink`. @throws SinkClosedError when the sink goes away first. */
  writeTo(sink: XmlSink): Promise<void>;
}

export class EadExporter {
  constructor(private readonly operations: RecordOperations) {}

  /**
   * Reads the resource and its repository: `Resource not found` / `Repository not found` (404) before anything is
   * written.
   */
  async prepare(
    repoId: number,
    resourceId: number,
    options: EadExportOptions,
    actor: Actor,
    /** The repository, when the caller has read it already. */
    known?: JsonObject,
  ): Promise<PreparedEadExport> {
    const scope: Scope = { repoId };
    const resource = asRecord(RESOURCE, await this.operations.read(RESOURCE, scope, resourceId, actor));
    // Whoever may read the resource may name its repository in the document.
    const repository = asRecord(
      REPOSITORY,
      known ?? (await this.operations.read(REPOSITORY, {}, repoId, onBehalfOf(actor))),
    );
    return {
      resource,
      writeTo: (sink) => new EadDocument(this.operations, scope, resource, repository, options, actor, sink).write(),
    };
  }
}

/** One export in progress. */
class EadDocument {
  private readonly xml: XmlWriter;
  private readonly ctx: EadContext;
  private readonly tree: TreeReader;
  private readonly linked: LinkedRecords;

  constructor(
    private readonly operations: RecordOperations,
    private readonly scope: Scope,
    private readonly resource: Resource,
    private readonly repository: Repository,
    private readonly options: EadExportOptions,
    /** Whom the document is written for: records are shown as they may see them. */
    private readonly viewer: Actor,
    sink: XmlSink,
  ) {
    this.xml = new XmlWriter(sink);
    this.linked = new LinkedRecords(operations.deps, viewer);
    this.ctx = new EadContext(this.xml, options, this.linked);
    this.tree = { deps: operations.deps, nodes: operations.treeViews.nodeTypeOf(RESOURCE), scope, viewer };
  }

  async write(): Promise<void> {
    const { xml, ctx, resource } = this;
    xml.declaration();
    xml.open("ead", { ...(this.options.ead3 ? EAD3_ROOT : EAD2002_ROOT), audience: ctx.audience(resource) });
    writeHeader(ctx, resource, this.repository, this.operations.deps.now());
    xml.open("archdesc", { level: str(resource.level), otherlevel: str(resource.other_level) });
    await this.linked.load([resource]);
    writeDescription(ctx, resource, "archdesc", str(this.repository.name));
    xml.open("dsc");
    await xml.yieldIfFull();
    await this.writeChildren(String(resource.uri), 1);
    xml.close("dsc");
    xml.close("archdesc");
    xml.close("ead");
    await xml.finish();
  }

  /** The components under `holder` (a node's uri, or the resource's), and theirs, depth first. */
  private async writeChildren(holder: string, depth: number): Promise<void> {
    for await (const { records, hasChildren } of childBatches(this.tree, holder)) {
      const batch = records
        .map((record) => asRecord(ARCHIVAL_OBJECT, record))
        .filter((record) => this.ctx.shown(record));
      for await (const record of this.linked.withLinks(batch))
        await this.writeComponent(record, depth, hasChildren(record.uri));
    }
  }

  private async writeComponent(record: ArchivalObject, depth: number, hasChildren: boolean): Promise<void> {
    const { xml, ctx } = this;
    const name = this.options.numberedCs ? `c${String(depth).padStart(2, "0")}` : "c";
    xml.open(name, {
      level: str(record.level),
      otherlevel: str(record.other_level),
      id: xmlId(str(record.ref_id)),
      audience: ctx.audience(record),
    });
    writeDescription(ctx, record, "component");
    await xml.yieldIfFull();
    if (hasChildren) await this.writeChildren(String(record.uri), depth + 1);
    xml.close(name);
  }
}
