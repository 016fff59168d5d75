// EAD 2002 and EAD3 finding aids as records: <archdesc> a resource, its components (<c>,
// <c01>..<c12>) archival objects in a tree under it, and the agents, subjects, top containers
// and digital objects they name. Both versions are read by one parser (the elements that
// differ are told apart by name: <eadheader>/<control>, <physdesc>/<physdescstructured>, ...).
//
// The file is read once, streaming. The header and <archdesc>'s description are held until the
// first <dsc> starts (EAD puts the <did>, with everything a resource must have, first), and the
// resource is handed on then, so components can link to it. The components are handed on as the
// reader reaches them: a component is complete when its first child component starts (EAD puts a
// component's own description before its children) or when it ends, and only the open
// components' own description is held. Every <dsc> of the <archdesc> is read, in document order.
// EAD 2002 also allows description after a <dsc> (wnyu.xml has a <relatedmaterial> there): it is
// held, and once <archdesc> ends the resource is handed on again, whole, re-stating the first
// (PendingRecord.restates), so the import replaces what it wrote. Components are handed on in
// windows of a few hundred, each preceded by the agents, subjects, containers and digital
// objects the window needs, so the import writes them in batches of one type. Whatever is wrong
// with the file (malformed XML, a resource without an extent) is found where the reader reaches
// it; the import undoes what was written before (committer.ts).
import { registry } from "../registry/index.js";
import type { EnumerationValues } from "../registry/enumerations.js";
import type { ArchivalObject, RecordTypeMap, Resource } from "../../generated/types/index.js";
import type { FidelityCounts } from "./fidelity.js";
import { SourceCensus } from "./ead/census.js";
import { at, EadContext } from "./ead/context.js";
import { componentRecord, resourceRecord, withLaterDescription, type DescribedUnit } from "./ead/description.js";
import { findingAidFields } from "./ead/header.js";
import {
  ImportError,
  type FormatParser,
  type ImportInput,
  type ParseContext,
  type PendingRecord,
  type SourceLocation,
} from "./pending.js";
import { untyped } from "./record-draft.js";
import { ElementBuilder, emptyElement } from "./xml/element-builder.js";
import type { XmlLimits } from "./xml/xml-limits.js";
import { xmlEventBatches, type XmlElement, type XmlEvent, type XmlOpenEvent } from "./xml/xml-reader.js";

export interface EadParserOptions {
  /** The vocabulary subjects go in (default `/vocabularies/1`). */
  vocabulary?: string;
  /**
   * The enumerations' current values (an import passes the store's: `ops.deps.enumerations`); default the schemas'
   * seeds.
   */
  enumerations?: EnumerationValues & { ready?(): Promise<void> };
  /** Components handed on together, after the records they need (default 250). */
  window?: number;
  /** Default: the settings' defaults. */
  limits?: XmlLimits;
}

const seedEnumerations: EnumerationValues = { valuesOf: (name) => registry.enumerations.get(name)?.values };

const COMPONENT = /^c(?:0[1-9]|1[0-2])?$/;

/** The order the records a window of components needs are handed on in (none links another). */
const NEEDED_ORDER = [
  "agent_person",
  "agent_family",
  "agent_corporate_entity",
  "subject",
  "top_container",
  "digital_object",
];

function grouped(records: PendingRecord[]): PendingRecord[] {
  const rank = (type: string): number => {
    const index = NEEDED_ORDER.indexOf(type);
    return index === -1 ? NEEDED_ORDER.length : index;
  };
  return records
    .map((record, i) => ({ record, i }))
    .sort((a, b) => rank(a.record.type) - rank(b.record.type) || a.i - b.i)
    .map(({ record }) => record);
}

interface Frame {
  unit: DescribedUnit;
  key: string;
  parentKey?: string;
  depth: number;
  /** Handed on (its first child component started): what follows belongs to its children. */
  done: boolean;
  /** The record as handed on, for a later statement (the import resolves its links in place: it holds uris then). */
  record?: ArchivalObject;
  /** Its description met after its child components, for that later statement. */
  later: XmlElement[];
}

/** What a resource or archival object brings into the archive, for the fidelity report. */
function unitBrings(ctx: EadContext, record: Resource | ArchivalObject, isComponent: boolean): FidelityCounts {
  return {
    components: isComponent ? 1 : 0,
    notes: ctx.fromSource(record.notes),
    dates: ctx.fromSource(record.dates),
    extents: ctx.fromSource(record.extents),
  };
}

/** What a later statement of a record brings beyond the first. */
function broughtMore(
  ctx: EadContext,
  before: Resource | ArchivalObject,
  after: Resource | ArchivalObject,
): FidelityCounts {
  const first = unitBrings(ctx, before, false);
  const second = unitBrings(ctx, after, false);
  return {
    notes: (second.notes ?? 0) - (first.notes ?? 0),
    dates: (second.dates ?? 0) - (first.dates ?? 0),
    extents: (second.extents ?? 0) - (first.extents ?? 0),
  };
}

/** The resource once handed on: what a later statement of it starts from. */
interface HandedOn {
  key: string;
  /** The record as handed on (the import resolves its links in place: they hold uris then). */
  record: Resource;
  source: SourceLocation;
}

const where = (event: XmlOpenEvent): SourceLocation => ({ line: event.line, column: event.column, path: event.path });

/**
 * One read of one file: takes the reader's events one by one and collects the records they complete, which the
 * parser hands on in windows (`take`, `due`, `window`).
 */
class FindingAidReading {
  private depth = 0;
  /** Depth of the element being skipped, 0 outside one. */
  private skipping = 0;
  /** The header and <archdesc>'s description. Never released: they are one record's worth. */
  private readonly description: ElementBuilder;
  /** The component being read; released as each is handed on. */
  private readonly component: ElementBuilder;
  private header?: XmlElement;
  /** The <archdesc>, with its description children until the resource is handed on. */
  private archdesc?: DescribedUnit;
  /** Between <archdesc>'s start and end tags. */
  private archdescOpen = false;
  private resource?: HandedOn;
  /** <archdesc> description after a <dsc>, for the resource's later statement. */
  private later: XmlElement[] = [];
  /** Depth of the <dsc> being read, 0 outside one. */
  private dscDepth = 0;
  private readonly frames: Frame[] = [];
  private needed: PendingRecord[] = [];
  private ready: PendingRecord[] = [];
  /** The resource is ready: it goes out at once, before any component is read. */
  private urgent = false;
  /** What the source holds, counted apart from the mapping (ead/census.ts). */
  private readonly census = new SourceCensus();

  constructor(
    private readonly ctx: EadContext,
    private readonly fileName: string,
    private readonly windowSize: number,
    limits: XmlLimits | undefined,
  ) {
    this.description = new ElementBuilder(limits);
    this.component = new ElementBuilder(limits);
  }

  /** Whether a window of records is ready to go out. */
  get due(): boolean {
    return this.urgent || this.ready.length >= this.windowSize;
  }

  /** The records ready, each after the records it needs. */
  window(): PendingRecord[] {
    const out = [...grouped(this.needed), ...this.ready];
    this.needed = [];
    this.ready = [];
    this.urgent = false;
    return out;
  }

  /** The end of the file: the last window. */
  finish(): PendingRecord[] {
    if (this.archdesc === undefined)
      throw new ImportError("the EAD has no <archdesc>: there is no collection to import", { path: "/ead" });
    return this.window();
  }

  take(event: XmlEvent): void {
    if (event.kind === "text") {
      if (this.skipping === 0) (this.component.building ? this.component : this.description).text(event.text);
    } else if (event.kind === "open") {
      this.depth += 1;
      if (this.skipping > 0) return;
      if (this.component.building) this.component.start(event);
      else if (this.description.building) this.description.start(event);
      else if (this.dscDepth > 0) this.inDsc(event);
      else if (this.depth === 2) this.besideHeader(event);
      else if (this.depth === 3 && this.archdescOpen) this.inArchdesc(event);
    } else {
      this.close();
      this.depth -= 1;
    }
  }

  /** A child of <ead>: the header, <archdesc>, or something not imported. */
  private besideHeader(event: XmlOpenEvent): void {
    const header = event.name === "eadheader" || event.name === "control";
    if (header && this.archdesc === undefined && this.header === undefined) this.description.start(event);
    else if (event.name === "archdesc" && this.archdesc === undefined) {
      this.archdesc = { element: emptyElement(event), children: [] };
      this.archdescOpen = true;
    } else {
      // <frontmatter> (a title page restating the header), and anything out of EAD's order.
      const expected = event.namespace.includes("ead3") ? "control" : "eadheader";
      const why =
        header || event.name === "archdesc"
          ? `only the first <${event.name}>, before <archdesc>, is`
          : `only <${expected}> and <archdesc> are`;
      this.ctx.warn(`<${event.name}> is not imported (${why})`, where(event));
      this.skipping = this.depth;
    }
  }

  /** A child of <archdesc>: a <dsc>, or description. */
  private inArchdesc(event: XmlOpenEvent): void {
    if (event.name !== "dsc") {
      this.description.start(event);
      return;
    }
    // The resource is whole but for any description after this <dsc>: components may now link to it.
    if (this.resource === undefined) this.handOnResource();
    this.dscDepth = this.depth;
  }

  /** An element in a <dsc>, outside the description being built. */
  private inDsc(event: XmlOpenEvent): void {
    const parent = this.frames.at(-1);
    const atFrameLevel = parent === undefined ? this.depth === this.dscDepth + 1 : this.depth === parent.depth + 1;
    if (!atFrameLevel) {
      this.skipping = this.depth;
    } else if (COMPONENT.test(event.name)) {
      if (parent !== undefined && !parent.done) this.handOn(parent);
      this.frames.push({
        unit: { element: emptyElement(event), children: [] },
        key: this.ctx.nextKey("archival_object"),
        parentKey: parent?.key,
        depth: this.depth,
        done: false,
        later: [],
      });
    } else if (event.name === "head" || event.name === "thead") {
      this.skipping = this.depth;
    } else if (parent === undefined) {
      this.ctx.warn(`<${event.name}> in <dsc> outside any component is not imported`, where(event));
      this.skipping = this.depth;
    } else if (parent.done) {
      // Description after the child components (EAD puts it before them; some exports do not): kept, and the
      // component re-stated with it when it ends.
      this.ctx.warn(
        `<${event.name}> after the child components of its component: imported, though EAD puts a component's description before its children`,
        where(event),
      );
      this.component.start(event);
    } else {
      this.component.start(event);
    }
  }

  private close(): void {
    if (this.skipping > 0) {
      if (this.skipping === this.depth) this.skipping = 0;
    } else if (this.component.building) {
      const element = this.component.end();
      const frame = this.frames.at(-1);
      if (element !== undefined && frame !== undefined) (frame.done ? frame.later : frame.unit.children).push(element);
    } else if (this.description.building) {
      const element = this.description.end();
      if (element === undefined) return;
      if (element.name === "eadheader" || element.name === "control") this.header = element;
      else if (this.resource === undefined) this.archdesc?.children.push(element);
      else this.later.push(element);
    } else if (this.frames.at(-1)?.depth === this.depth) {
      const frame = this.frames.pop() as Frame;
      if (!frame.done) this.handOn(frame);
      else if (frame.later.length > 0) {
        this.restate("archival_object", frame.key, frame.record as ArchivalObject, frame.later, at(frame.unit.element));
        frame.later = [];
        this.component.release();
      }
    } else if (this.depth === this.dscDepth) {
      this.dscDepth = 0;
    } else if (this.depth === 2 && this.archdescOpen) {
      this.archdescOpen = false;
      // An <archdesc> without a <dsc> is a resource without components.
      if (this.resource === undefined) this.handOnResource();
      else if (this.later.length > 0) {
        this.restate("resource", this.resource.key, this.resource.record, this.later, this.resource.source);
        this.later = [];
      }
    }
  }

  /** The resource, from the header and <archdesc>'s description so far, with the records it needs before it. */
  private handOnResource(): void {
    const archdesc = this.archdesc as DescribedUnit;
    const findingAid = findingAidFields(this.ctx, this.header);
    this.ctx.fileIdentity = findingAid.ead_id ?? this.fileName;
    this.ctx.found(this.census.unit(archdesc.children, false));
    const record = resourceRecord(this.ctx, archdesc, findingAid);
    this.needed.push(...this.ctx.takeNeeded());
    const key = this.ctx.nextKey("resource");
    const source = at(archdesc.element);
    this.resource = { key, record, source };
    this.ready.push(
      untyped({
        key,
        type: "resource",
        record,
        source,
        match: resourceMatch(record),
        onMatch: "skip-file",
        brings: unitBrings(this.ctx, record, false),
      }),
    );
    archdesc.children = [];
    this.urgent = true;
  }

  /**
   * A record again, whole, with the description met after its children (the resource's after its <dsc>, a
   * component's after its child components): the import replaces what it wrote. `first` is the record as handed on
   * (its links resolved by the import since: they hold uris, which a statement may).
   */
  private restate<K extends "resource" | "archival_object">(
    type: K,
    key: string,
    first: RecordTypeMap[K],
    later: readonly XmlElement[],
    source: SourceLocation,
  ): void {
    this.ctx.found(this.census.unit(later, false));
    const record = withLaterDescription(this.ctx, structuredClone(first), later);
    this.needed.push(...this.ctx.takeNeeded());
    this.ready.push(
      untyped({ key, type, record, source, restates: true, brings: broughtMore(this.ctx, first, record) }),
    );
  }

  /** A component, complete: its record after those it needs. */
  private handOn(frame: Frame): void {
    frame.done = true;
    this.ctx.found(this.census.unit(frame.unit.children, true));
    const record = componentRecord(this.ctx, frame.unit, (this.resource as HandedOn).key, frame.parentKey);
    frame.record = record;
    frame.unit.children = [];
    // Only the component being read holds parts (its parent was handed on when it started).
    this.component.release();
    this.needed.push(...this.ctx.takeNeeded());
    this.ready.push(
      untyped({
        key: frame.key,
        type: "archival_object",
        record,
        source: at(frame.unit.element),
        brings: unitBrings(this.ctx, record, true),
      }),
    );
  }
}

/** A resource imported before: the same EAD id, else the same identifier. */
function resourceMatch(resource: Resource): Record<string, string | null> {
  if (resource.ead_id !== undefined) return { ead_id: resource.ead_id };
  return {
    id_0: resource.id_0,
    id_1: resource.id_1 ?? null,
    id_2: resource.id_2 ?? null,
    id_3: resource.id_3 ?? null,
  };
}

export class EadParser implements FormatParser {
  constructor(
    readonly format: "ead" | "ead3",
    private readonly options: EadParserOptions = {},
  ) {}

  async *parse(input: ImportInput, context: ParseContext): AsyncGenerator<PendingRecord, void, undefined> {
    await this.options.enumerations?.ready?.();
    const ctx = new EadContext(
      context,
      this.options.enumerations ?? seedEnumerations,
      this.options.vocabulary ?? "/vocabularies/1",
    );
    const reading = new FindingAidReading(ctx, input.name, this.options.window ?? 250, this.options.limits);
    for await (const batch of xmlEventBatches(input, { roots: ["ead"], limits: this.options.limits }))
      for (const event of batch) {
        reading.take(event);
        if (reading.due) yield* reading.window();
      }
    yield* reading.finish();
  }
}

/** EAD 2002 (`--format ead`). */
export const eadParser = (options?: EadParserOptions): EadParser => new EadParser("ead", options);
/** EAD3 (`--format ead3`); the same reading. */
export const ead3Parser = (options?: EadParserOptions): EadParser => new EadParser("ead3", options);
