// ArchivesSpace's top container bulk and batch edits (backend/app/model/top_container.rb; docs/api.md §13), each one
// write of every container it names: barcodes, indicators and current locations set per container, and a location,
// container profile or ILS holding id set on a list of ids. Every container goes through the update operation's
// checks (updateRecords), so a bulk edit stores nothing an update would refuse.
import type { ClientSession } from "mongodb";
import { accessDenied, badRequest, conflict } from "../errors/api-error.js";
import { hasPermission } from "../auth/permissions.js";
import { assertMay } from "../auth/operation-access.js";
import type { JsonObject, JsonValue } from "../registry/index.js";
import type { OperationDeps } from "../records/deps.js";
import type { Actor } from "../records/operations/index.js";
import { updateRecords, type CheckedEdit, type RecordEdit } from "../records/operations/update-many.js";
import { echo, idOfUri } from "./bulk-input.js";

export const TOP_CONTAINER = "top_container";
/** ArchivesSpace's bulk and batch container routes need this beside the container update permission. */
export const MANAGE_CONTAINERS = "manage_container_record";
/** The most barcodes a conflict names one by one. */
const MAX_NAMED = 50;

/**
 * The caller, once they may update top containers in the repository and hold `manage_container_record` there, as
 * ArchivesSpace's routes require. @throws ApiError 403
 */
export function assertMayManageContainers(deps: OperationDeps, actor: Actor, repoId: number): void {
  assertMay(actor, deps.registry.get(TOP_CONTAINER), "update", repoId);
  if (actor.kind === "user" && !hasPermission(actor.permissions, MANAGE_CONTAINERS, repoId)) throw accessDenied();
}

/** The record with `field` set to `value`, or without it for null. */
function withField(record: JsonObject, field: string, value: JsonValue | null): JsonObject {
  const { [field]: _old, ...rest } = record;
  return value === null ? rest : { ...rest, [field]: value };
}

/** A container's locations with the current ones replaced by `locationUri` from today (none for null). */
function withCurrentLocation(record: JsonObject, locationUri: string | null, today: string): JsonObject {
  const held = Array.isArray(record.container_locations) ? record.container_locations : [];
  const kept = held.filter(
    (stay) => !(stay && typeof stay === "object" && !Array.isArray(stay) && stay.status === "current"),
  );
  const current = locationUri === null ? [] : [{ ref: locationUri, status: "current", start_date: today }];
  return { ...record, container_locations: [...kept, ...current] };
}

/** `uri` once it names a stored record of `typeName` (a global type), else a 400 naming `name`. */
export async function existingTarget(
  deps: OperationDeps,
  typeName: string,
  uri: string,
  name: string,
): Promise<string> {
  const id = idOfUri(deps.registry, typeName, uri, name, undefined);
  const found = await deps.store.collection(typeName).findOne({ id }, { projection: { _id: 1 } });
  if (!found) throw badRequest({ [name]: [`${deps.registry.get(typeName).title} not found: ${echo(uri)}`] });
  return uri;
}

/**
 * 409 when a barcode of the batch is another container's in the repository, or given twice in the batch, naming
 * the barcodes (ArchivesSpace: "A barcode must be unique within a repository").
 */
async function assertBarcodesFree(
  deps: OperationDeps,
  repoId: number,
  records: readonly CheckedEdit[],
  session: ClientSession,
): Promise<void> {
  const seen = new Set<string>();
  const clashes = new Set<string>();
  for (const { fields } of records) {
    const barcode = fields.barcode;
    if (typeof barcode !== "string") continue;
    if (seen.has(barcode)) clashes.add(barcode);
    seen.add(barcode);
  }
  const others = await deps.store
    .collection(TOP_CONTAINER)
    .find(
      { repo_id: repoId, barcode: { $in: [...seen] }, id: { $nin: records.map((one) => one.id) } },
      { session, projection: { barcode: 1 }, limit: MAX_NAMED },
    )
    .toArray();
  for (const other of others) if (typeof other.barcode === "string") clashes.add(other.barcode);
  if (clashes.size === 0) return;
  const named = [...clashes].slice(0, MAX_NAMED).map(echo);
  const more = clashes.size > MAX_NAMED ? ` and ${clashes.size - MAX_NAMED} more` : "";
  throw conflict(`A barcode must be unique within a repository: ${named.join(", ")}${more}`);
}

/** The ids updated, in the order given. */
async function apply(
  deps: OperationDeps,
  repoId: number,
  edits: RecordEdit[],
  actor: Actor,
  options: Parameters<typeof updateRecords>[5] = {},
): Promise<number[]> {
  const results = await updateRecords(deps, TOP_CONTAINER, { repoId }, edits, actor, options);
  return results.map((result) => result.id);
}

/** bulk/barcodes: each container's barcode (null: none). Answers `{"updated": [ids]}`. */
export async function bulkBarcodes(
  deps: OperationDeps,
  repoId: number,
  barcodes: ReadonlyMap<number, string | null>,
  actor: Actor,
): Promise<{ updated: number[] }> {
  const edits = [...barcodes].map(([id, barcode]) => ({
    id,
    edit: (record: JsonObject) => withField(record, "barcode", barcode),
  }));
  const updated = await apply(deps, repoId, edits, actor, {
    // Barcodes may move between the batch's containers: each is free once the batch's own are taken off.
    clearFirst: ["barcode"],
    check: (records, session) => assertBarcodesFree(deps, repoId, records, session),
  });
  return { updated };
}

/** bulk/indicators: each container's indicator; a null one is left as it is (ArchivesSpace skips it). */
export async function bulkIndicators(
  deps: OperationDeps,
  repoId: number,
  indicators: ReadonlyMap<number, string | null>,
  actor: Actor,
): Promise<{ updated: number[] }> {
  const edits: RecordEdit[] = [];
  for (const [id, indicator] of indicators)
    if (indicator !== null) edits.push({ id, edit: (record) => withField(record, "indicator", indicator) });
  return { updated: await apply(deps, repoId, edits, actor) };
}

/** Today as a container location's start_date (YYYY-MM-DD, UTC). */
function today(deps: OperationDeps): string {
  return deps.now().toISOString().slice(0, 10);
}

/**
 * bulk/locations: each container's current location (null: none), its previous stays kept. Answers
 * ArchivesSpace's `{"records_ids_updated": [ids], "records_updated": n}`.
 */
export async function bulkLocations(
  deps: OperationDeps,
  repoId: number,
  locations: ReadonlyMap<number, string | null>,
  actor: Actor,
  name: string,
): Promise<{ records_ids_updated: number[]; records_updated: number }> {
  const targets = new Set([...locations.values()].filter((uri): uri is string => uri !== null));
  for (const uri of targets) await existingTarget(deps, "location", uri, name);
  const date = today(deps);
  const edits = [...locations].map(([id, uri]) => ({
    id,
    edit: (record: JsonObject) => withCurrentLocation(record, uri, date),
  }));
  const updated = await apply(deps, repoId, edits, actor);
  return { records_ids_updated: updated, records_updated: updated.length };
}

/** What a batch route sets on every container it names. */
export type BatchChange =
  | { kind: "location"; uri: string | null }
  | { kind: "container_profile"; uri: string | null }
  | { kind: "ils_holding_id"; value: string | null };

/** batch/location, batch/container_profile, batch/ils_holding_id: one value on every container of `ids`. */
export async function batchUpdate(
  deps: OperationDeps,
  repoId: number,
  ids: readonly number[],
  change: BatchChange,
  actor: Actor,
): Promise<{ records_updated: number }> {
  const date = today(deps);
  let edit: (record: JsonObject) => JsonObject;
  if (change.kind === "location") edit = (record) => withCurrentLocation(record, change.uri, date);
  else if (change.kind === "container_profile")
    edit = (record) => withField(record, "container_profile", change.uri === null ? null : { ref: change.uri });
  else edit = (record) => withField(record, "ils_holding_id", change.value);
  const updated = await apply(
    deps,
    repoId,
    ids.map((id) => ({ id, edit })),
    actor,
  );
  return { records_updated: updated.length };
}
