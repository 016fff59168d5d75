// Container labels: one TSV row per top container a resource and its tree of archival objects
// use, as ArchivesSpace's labels model (backend/app/exporters/models/labels.rb) writes them:
//   Repository Name, Resource Title, Resource Identifier (id_0..id_3 joined by "-"),
//   Series Archival Object Title, Archival Object Title, Container Profile, Top Container
//   ("type: indicator"), Top Container Barcode, SubContainer 1 and 2 ("type:indicator"),
//   Current Location (the title of the location whose link's status is current).
// Each container once, on the row of the first record that uses it, the records taken in tree
// order (depth first, by position). Where ArchivesSpace differs: it names only the archival
// objects' containers, while these rows start with the resource's own (both title columns empty);
// its series column is the last series record walked, which a later sibling of a series keeps,
// while here it is the record's own series ancestor (or itself); a top container without a type
// shows its indicator alone rather than ": 1"; rows end in CRLF (ArchivesSpace: a bare CR).
// Unpublished records are labelled too (labels are for the stacks); suppressed ones, and what is
// under them, are not.
//
// The tree is read as the EAD export reads it, a batch of children at a time (tree-batches.ts),
// and the containers a batch uses
// loaded in one query (their profiles and locations in one more each, cached): never one query
// per record, and memory of one batch per level of depth.
import type { ArchivalObject, Repository, Resource, SubContainer, TopContainer } from "../../generated/types/index.js";
import type { OperationDeps } from "../records/deps.js";
import type { Actor, RecordOperations, Scope } from "../records/operations/index.js";
import { shapeRecord } from "../records/operations/shape.js";
import type { JsonObject } from "../registry/index.js";
import { str } from "./ead-terms.js";
import { asRecord } from "./export-records.js";
import { TsvWriter } from "./labels-tsv.js";
import { markupAsText } from "./mixed-content.js";
import { childBatches, type TreeReader } from "./tree-batches.js";
import type { XmlSink } from "./xml-writer.js";

export const LABEL_HEADERS = [
  "Repository Name",
  "Resource Title",
  "Resource Identifier",
  "Series Archival Object Title",
  "Archival Object Title",
  "Container Profile",
  "Top Container",
  "Top Container Barcode",
  "SubContainer 1",
  "SubContainer 2",
  "Current Location",
] as const;

/** Past this many cached profiles and locations the cache starts again. */
const CACHE_LIMIT = 10_000;

const RESOURCE = "resource";
const ARCHIVAL_OBJECT = "archival_object";

/** The records `uris` name, as `viewer` sees them, by uri: one query per type (and repository). */
async function loadByUri(deps: OperationDeps, viewer: Actor, uris: Iterable<string>): Promise<Map<string, JsonObject>> {
  const groups = new Map<string, { type: string; repoId?: number; ids: number[] }>();
  for (const uri of uris) {
    const parsed = deps.registry.parseUri(uri);
    if (parsed === undefined) continue;
    const key = `${parsed.type}:${parsed.repoId ?? ""}`;
    const group = groups.get(key) ?? { type: parsed.type, repoId: parsed.repoId, ids: [] };
    group.ids.push(parsed.id);
    groups.set(key, group);
  }
  const found = new Map<string, JsonObject>();
  for (const group of groups.values()) {
    const type = deps.registry.get(group.type);
    const filter: Record<string, unknown> = { id: { $in: group.ids } };
    if (group.repoId !== undefined) filter.repo_id = group.repoId;
    for (const stored of await deps.store.collection(type.name).find(filter).toArray()) {
      const shown = shapeRecord(deps.registry, type, stored, viewer);
      found.set(shown.uri as string, shown);
    }
  }
  return found;
}

/** A record whose containers are labelled, with its series' title and its own. */
interface LabelledRecord {
  record: Resource | ArchivalObject;
  series: string;
  title: string;
}

/** A described record's sub containers, in order. */
function subContainers(record: Resource | ArchivalObject): SubContainer[] {
  return (record.instances ?? []).flatMap((instance) =>
    instance.sub_container === undefined ? [] : [instance.sub_container],
  );
}

/** "type:indicator" of a sub container level, the parts it has. */
function level(type: string | undefined, indicator: string | undefined): string {
  return [str(type), str(indicator)].filter((part) => part !== undefined).join(":");
}

export class LabelsExport {
  private readonly writer: TsvWriter;
  private readonly tree: TreeReader;
  private readonly deps: OperationDeps;
  /** Top containers already labelled: each gets one row. */
  private readonly labelled = new Set<string>();
  /** Container profiles and locations, by uri. */
  private readonly places = new Map<string, JsonObject>();
  private readonly leading: string[];

  constructor(
    operations: RecordOperations,
    private readonly scope: Scope,
    private readonly resource: Resource,
    repository: Repository,
    private readonly viewer: Actor,
    sink: XmlSink,
  ) {
    this.writer = new TsvWriter(sink);
    this.deps = operations.deps;
    this.tree = { deps: operations.deps, nodes: operations.treeViews.nodeTypeOf(RESOURCE), scope, viewer };
    const identifier = [resource.id_0, resource.id_1, resource.id_2, resource.id_3].map(str).filter(Boolean);
    this.leading = [str(repository.name) ?? "", markupAsText(resource.title), identifier.join("-")];
  }

  async write(): Promise<void> {
    await this.writer.row(LABEL_HEADERS);
    const own: LabelledRecord = { record: this.resource, series: "", title: "" };
    await this.writeRows(own, await this.containersOf([own]));
    await this.writeChildren(String(this.resource.uri), "");
    await this.writer.flush();
  }

  /** The top containers `entries` use that have no row yet, with their profiles and locations: a query per type. */
  private async containersOf(entries: readonly LabelledRecord[]): Promise<Map<string, TopContainer>> {
    const wanted = new Set(entries.flatMap(({ record }) => subContainers(record).map((sub) => sub.top_container.ref)));
    for (const uri of this.labelled) wanted.delete(uri);
    if (wanted.size === 0) return new Map();
    const containers = new Map<string, TopContainer>();
    for (const [uri, json] of await loadByUri(this.deps, this.viewer, wanted))
      containers.set(uri, asRecord("top_container", json));
    await this.loadPlaces([...containers.values()]);
    return containers;
  }

  /** The rows of the containers `entry` uses that have none yet, in order. */
  private async writeRows({ record, series, title }: LabelledRecord, containers: Map<string, TopContainer>) {
    for (const sub of subContainers(record)) {
      const uri = sub.top_container.ref;
      const top = containers.get(uri);
      if (top === undefined || this.labelled.has(uri)) continue;
      this.labelled.add(uri);
      await this.writer.row(this.row(series, title, top, sub));
    }
  }

  private row(series: string, title: string, top: TopContainer, sub: SubContainer): string[] {
    const profileJson = top.container_profile === undefined ? undefined : this.places.get(top.container_profile.ref);
    const profile = profileJson === undefined ? undefined : asRecord("container_profile", profileJson);
    const current = (top.container_locations ?? []).find((link) => link.status === "current");
    const locationJson = current === undefined ? undefined : this.places.get(current.ref);
    const location = locationJson === undefined ? undefined : asRecord("location", locationJson);
    const type = str(top.type);
    return [
      ...this.leading,
      series,
      title,
      str(profile?.display_string) ?? "",
      type === undefined ? top.indicator : `${type}: ${top.indicator}`,
      str(top.barcode) ?? "",
      level(sub.type_2, sub.indicator_2),
      level(sub.type_3, sub.indicator_3),
      str(location?.title) ?? "",
    ];
  }

  /** The profiles and current locations of `containers` not cached yet: one query per type. */
  private async loadPlaces(containers: readonly TopContainer[]): Promise<void> {
    const wanted = new Set<string>();
    for (const top of containers) {
      const profile = top.container_profile?.ref;
      if (profile !== undefined) wanted.add(profile);
      for (const link of top.container_locations ?? []) if (link.status === "current") wanted.add(link.ref);
    }
    for (const uri of this.places.keys()) wanted.delete(uri);
    if (wanted.size === 0) return;
    if (this.places.size + wanted.size > CACHE_LIMIT) this.places.clear();
    for (const [uri, record] of await loadByUri(this.deps, this.viewer, wanted)) this.places.set(uri, record);
  }

  /** The rows of the records under `holder`, and of theirs, depth first. */
  private async writeChildren(holder: string, series: string): Promise<void> {
    for await (const { records, hasChildren } of childBatches(this.tree, holder)) {
      const batch = records
        .map((record) => asRecord(ARCHIVAL_OBJECT, record))
        .filter((record) => record.suppressed !== true)
        .map((record): LabelledRecord => {
          const title = markupAsText(str(record.display_string) ?? str(record.title) ?? "");
          return { record, title, series: record.level === "series" ? title : series };
        });
      const containers = await this.containersOf(batch);
      for (const entry of batch) {
        await this.writeRows(entry, containers);
        if (hasChildren(entry.record.uri)) await this.writeChildren(String(entry.record.uri), entry.series);
      }
    }
  }
}
