// EAD 2002 and EAD3 finding aids as records: <archdesc> a resource, its components (<c>,
// <c01>..<c12>) archival objects in a tree under it, and the agents, subjects, top containers
// and digital objects they name. Both versions are read by one parser (the elements that
// differ are told apart by name: <eadheader>/<control>, <physdesc>/<physdescstructured>, ...).
//
// The file is read twice, streaming both times. The first read takes the header and
// everything of <archdesc> but its <dsc> (EAD 2002 allows description after the <dsc>: wnyu.xml
// has a <relatedmaterial> there), so the resource is whole before any component, and a
// malformed file fails before anything is handed on. The second read hands on the components
// as it reaches them: a component is complete when its first child component starts (EAD puts
// a component's own description before its children) or when it ends, and only the open
// components' own description is held. Components are handed on in windows of a few hundred,
// each preceded by the agents, subjects, containers and digital objects the window needs, so
// the import writes them in batches of one type.
import { registry } from "../registry/index.js";
import type { EnumerationValues } from "../registry/enumerations.js";
import type { ArchivalObject, Resource } from "../../generated/types/index.js";
import type { FidelityCounts } from "./fidelity.js";
import { at, EadContext } from "./ead/context.js";
import { componentRecord, resourceRecord, type DescribedUnit } from "./ead/description.js";
import { findingAidFields } from "./ead/header.js";
import { ImportError, type FormatParser, type ImportInput, type ParseContext, type PendingRecord } from "./pending.js";
import { untyped } from "./record-draft.js";
import { ElementBuilder, emptyElement } from "./xml/element-builder.js";
import type { XmlLimits } from "./xml/xml-limits.js";
import { xmlEventBatches, type XmlElement } from "./xml/xml-reader.js";

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

/** What a resource or archival object brings into the archive, for the fidelity report. */
function unitBrings(ctx: EadContext, record: Resource | ArchivalObject, isComponent: boolean): FidelityCounts {
  return {
    components: isComponent ? 1 : 0,
    notes: ctx.fromSource(record.notes),
    dates: ctx.fromSource(record.dates),
    extents: ctx.fromSource(record.extents),
  };
}

interface Collection {
  header?: XmlElement;
  archdesc: DescribedUnit;
}

/** First read: the header and <archdesc> without its <dsc>. */
async function readCollection(input: ImportInput, ctx: EadContext, limits: XmlLimits | undefined): Promise<Collection> {
  // Never released: the header and the collection's description are one record's worth.
  const builder = new ElementBuilder(limits);
  let header: XmlElement | undefined;
  let archdesc: DescribedUnit | undefined;
  let depth = 0;
  /** Depth of the element being skipped (the <dsc>, <frontmatter>), 0 outside one. */
  let skipping = 0;
  for await (const batch of xmlEventBatches(input, { roots: ["ead"], limits }))
    for (const event of batch) {
      if (event.kind === "open") {
        depth += 1;
        if (skipping > 0) continue;
        if (builder.building) builder.start(event);
        else if (depth === 2 && (event.name === "eadheader" || event.name === "control")) builder.start(event);
        else if (depth === 2 && event.name === "archdesc") archdesc = { element: emptyElement(event), children: [] };
        else if (depth === 2) {
          // <frontmatter> (a title page restating the header) and anything else beside the header.
          ctx.warn(
            `<${event.name}> is not imported (only <${event.namespace.includes("ead3") ? "control" : "eadheader"}> and <archdesc> are)`,
            { line: event.line, column: event.column, path: event.path },
          );
          skipping = depth;
        } else if (depth === 3 && archdesc !== undefined && event.names[1] === "archdesc") {
          if (event.name === "dsc") skipping = depth;
          else builder.start(event);
        }
      } else if (event.kind === "text") {
        if (skipping === 0) builder.text(event.text);
      } else {
        if (skipping === depth) skipping = 0;
        else if (skipping === 0 && builder.building) {
          const element = builder.end();
          if (element !== undefined) {
            if (element.name === "eadheader" || element.name === "control") header = element;
            else archdesc?.children.push(element);
          }
        }
        depth -= 1;
      }
    }
  if (archdesc === undefined)
    throw new ImportError("the EAD has no <archdesc>: there is no collection to import", { path: "/ead" });
  return { header, archdesc };
}

interface Frame {
  unit: DescribedUnit;
  key: string;
  parentKey?: string;
  depth: number;
  /** Handed on (its first child component started): what follows belongs to its children. */
  done: boolean;
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
    const collection = await readCollection(input, ctx, this.options.limits);
    const findingAid = findingAidFields(ctx, collection.header);
    ctx.fileIdentity = findingAid.ead_id ?? input.name;
    ctx.found(ctx.census.unit(collection.archdesc, false));
    const resource = resourceRecord(ctx, collection.archdesc, findingAid);
    yield* grouped(ctx.takeNeeded());
    const resourceKey = ctx.nextKey("resource");
    yield untyped({
      key: resourceKey,
      type: "resource",
      record: resource,
      source: at(collection.archdesc.element),
      match: this.resourceMatch(resource),
      onMatch: "skip-file",
      brings: unitBrings(ctx, resource, false),
    });
    yield* this.components(input, ctx, resourceKey);
  }

  /** A resource imported before: the same EAD id, else the same identifier. */
  private resourceMatch(resource: Resource): Record<string, string | null> {
    if (resource.ead_id !== undefined) return { ead_id: resource.ead_id };
    return {
      id_0: resource.id_0,
      id_1: resource.id_1 ?? null,
      id_2: resource.id_2 ?? null,
      id_3: resource.id_3 ?? null,
    };
  }

  /** Second read: the components, in document order, parents before children. */
  private async *components(
    input: ImportInput,
    ctx: EadContext,
    resourceKey: string,
  ): AsyncGenerator<PendingRecord, void, undefined> {
    const windowSize = this.options.window ?? 250;
    const builder = new ElementBuilder(this.options.limits);
    const frames: Frame[] = [];
    let needed: PendingRecord[] = [];
    let ready: PendingRecord[] = [];
    let depth = 0;
    let dscDepth = 0;
    let skipping = 0;

    const handOn = (frame: Frame): void => {
      frame.done = true;
      ctx.found(ctx.census.unit(frame.unit, true));
      const record = componentRecord(ctx, frame.unit, resourceKey, frame.parentKey);
      frame.unit.children = [];
      // Only the component being read holds parts (its parent was handed on when it started).
      builder.release();
      needed.push(...ctx.takeNeeded());
      ready.push(
        untyped({
          key: frame.key,
          type: "archival_object",
          record,
          source: at(frame.unit.element),
          brings: unitBrings(ctx, record, true),
        }),
      );
    };
    const window = (): PendingRecord[] => {
      const out = [...grouped(needed), ...ready];
      needed = [];
      ready = [];
      return out;
    };

    for await (const batch of xmlEventBatches(input, { roots: ["ead"], limits: this.options.limits }))
      for (const event of batch) {
        if (event.kind === "text") {
          if (skipping === 0) builder.text(event.text);
          continue;
        }
        if (event.kind === "close") {
          if (skipping === depth) skipping = 0;
          else if (skipping === 0 && builder.building) {
            const element = builder.end();
            if (element !== undefined) frames.at(-1)?.unit.children.push(element);
          } else if (frames.at(-1)?.depth === depth) {
            const frame = frames.pop() as Frame;
            if (!frame.done) handOn(frame);
            if (ready.length >= windowSize) yield* window();
          } else if (depth === dscDepth) dscDepth = 0;
          depth -= 1;
          continue;
        }
        depth += 1;
        if (skipping > 0) continue;
        if (builder.building) {
          builder.start(event);
          continue;
        }
        if (dscDepth === 0) {
          if (depth === 3 && event.name === "dsc" && event.names[1] === "archdesc") dscDepth = depth;
          continue;
        }
        const parent = frames.at(-1);
        const atFrameLevel = parent === undefined ? depth === dscDepth + 1 : depth === parent.depth + 1;
        if (!atFrameLevel) {
          skipping = depth;
          continue;
        }
        if (COMPONENT.test(event.name)) {
          if (parent !== undefined && !parent.done) handOn(parent);
          frames.push({
            unit: { element: emptyElement(event), children: [] },
            key: ctx.nextKey("archival_object"),
            parentKey: parent?.key,
            depth,
            done: false,
          });
        } else if (event.name === "head" || event.name === "thead") {
          skipping = depth;
        } else if (parent === undefined) {
          ctx.warn(`<${event.name}> in <dsc> outside any component is not imported`, {
            line: event.line,
            column: event.column,
            path: event.path,
          });
          skipping = depth;
        } else if (parent.done) {
          ctx.warn(
            `<${event.name}> after the child components of its component is not imported (EAD puts a component's description before its children)`,
            {
              line: event.line,
              column: event.column,
              path: event.path,
            },
          );
          skipping = depth;
        } else {
          builder.start(event);
        }
        if (ready.length >= windowSize) yield* window();
      }
    yield* window();
  }
}

/** EAD 2002 (`--format ead`). */
export const eadParser = (options?: EadParserOptions): EadParser => new EadParser("ead", options);
/** EAD3 (`--format ead3`); the same reading. */
export const ead3Parser = (options?: EadParserOptions): EadParser => new EadParser("ead3", options);
