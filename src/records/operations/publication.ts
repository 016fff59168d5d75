// Publish and unpublish (ArchivesSpace's `publish` routes, docs/api.md §14): the record's `publish` flag, the flag of
// every sub-record that has one (notes, subnotes, external documents, file versions ...) and the same for every
// tree node below it, in one transaction, as ArchivesSpace's publish! sets the flag across a record's object graph.
// Which types take the routes, and which sub-records have the flag, the schemas say (x-publish, `publish`).
import { notFound } from "../../errors/api-error.js";
import type { JsonObject, JsonValue, PublishRoute, RecordType } from "../../registry/index.js";
import { isJsonObject } from "../../registry/json.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { changeWithDescendants } from "./flag-writes.js";
import { findStored, permittedType } from "./locate.js";
import type { Actor, Scope, WriteResult } from "../types.js";

const PUBLISH = "publish";

/**
 * `value` with every sub-record of a kind in `kinds` given `publish: setting`, or undefined when none changes.
 * Sub-records name their kind in `jsonmodel_type`, at any depth (a note's subnotes).
 */
function withSubrecordFlags(value: JsonValue, kinds: ReadonlySet<string>, setting: boolean): JsonValue | undefined {
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const next = withSubrecordFlags(item, kinds, setting);
      if (next === undefined) return item;
      changed = true;
      return next;
    });
    return changed ? items : undefined;
  }
  if (!isJsonObject(value)) return undefined;
  let changed = false;
  const out: Record<string, JsonValue> = { ...value }; // keys: the stored record's own fields
  for (const [key, item] of Object.entries(value)) {
    const next = withSubrecordFlags(item, kinds, setting);
    if (next === undefined) continue;
    out[key] = next;
    changed = true;
  }
  const kind = value.jsonmodel_type;
  if (typeof kind === "string" && kinds.has(kind) && value[PUBLISH] !== setting) {
    out[PUBLISH] = setting;
    changed = true;
  }
  return changed ? out : undefined;
}

/** The fields publishing `record` at `setting` changes: its own flag and its sub-records' lists. */
function publishChange(type: RecordType, record: StoredRecord, setting: boolean): JsonObject | undefined {
  const publication = type.publication;
  if (publication === null) return undefined;
  const fields: Record<string, JsonValue> = {}; // keys: the type's top-level fields
  if (record[PUBLISH] !== setting) fields[PUBLISH] = setting;
  for (const [key, value] of Object.entries(record)) {
    if (key === "_id" || value === undefined) continue;
    const next = withSubrecordFlags(value as JsonValue, publication.subrecords, setting);
    if (next !== undefined) fields[key] = next;
  }
  return Object.keys(fields).length === 0 ? undefined : fields;
}

/**
 * POST <item>/publish or /unpublish: needs the type's update permission (as ArchivesSpace's routes do). Answers as
 * an update does, with the record's new lock_version; every record changed (sub-records are part of theirs) gets a
 * new lock_version, and one already as asked is left alone.
 */
export async function setPublished(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  route: PublishRoute,
  actor: Actor,
): Promise<WriteResult> {
  const type = permittedType(deps, typeName, scope, actor, "update");
  if (!(type.publication?.routes.includes(route) ?? false)) throw notFound(type.title);
  const setting = route === "publish";
  const lockVersion = await deps.store.transaction(async (session) => {
    // A suppressed record is published like any other by whoever sees it, as ArchivesSpace's publish! does.
    const record = await findStored(deps, type, id, scope, session, actor);
    return changeWithDescendants(deps, type, scope, record, actor, session, (of, stored) =>
      publishChange(of, stored, setting),
    );
  });
  return {
    status: "Updated",
    id,
    lock_version: lockVersion,
    stale: null,
    uri: deps.registry.uriFor(type.name, id, scope.repoId),
    warnings: [],
  };
}
