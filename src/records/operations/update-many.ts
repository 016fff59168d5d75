// Updates of several records of one type as one write (docs/api.md §12: the container and location bulk routes).
// Each record is changed from what a client would read, then checked exactly as an update checks it (the type's
// beforeWrite hooks, its schema, its links, guarded fields kept), its lock_version moved on, and all of them are
// written in one transaction: a problem with any record leaves every record as it was.
import type { ClientSession } from "mongodb";
import { ApiError, conflict, notFound } from "../../errors/api-error.js";
import type { FieldErrors, JsonObject, RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { isTreeNodeType } from "../trees/tree-links.js";
import type { OperationDeps } from "../deps.js";
import { keepGuardedFields } from "./field-access.js";
import { linkProblemsOfMany } from "./links.js";
import { permittedType, recordFilter, requireRepository } from "./locate.js";
import { checkRecord, problemsOf, type PreparedRecord } from "./prepare.js";
import { hasReciprocalItems, writeMirrors } from "./reciprocal-links.js";
import { shapeRecord } from "./shape.js";
import { updateStamp } from "./stamps.js";
import { LOCK_VERSION_STALE } from "./update.js";
import { asDuplicateIdentifier } from "./write-errors.js";
import { NO_PARAMETERS, onBehalfOf, type Actor, type Scope, type WriteResult } from "../types.js";

/** One record of the batch: its id and the change to make to it. */
export interface RecordEdit {
  id: number;
  /** The record as its caller would read it (a copy) -> the record to store, as a client would send it. */
  edit(record: JsonObject): JsonObject;
}

/** A record of the batch once checked, before anything is written. */
export interface CheckedEdit {
  id: number;
  uri: string;
  /** The fields to store. */
  fields: JsonObject;
}

export interface UpdateManyOptions {
  /**
   * Fields taken off every record of the batch before any is written, so that a value may move from one record of
   * the batch to another (two containers swapping barcodes) without meeting a unique index half-way.
   */
  clearFirst?: readonly string[];
  /** A check of the whole batch, inside the transaction and before any write: throw an ApiError to refuse it. */
  check?(records: readonly CheckedEdit[], session: ClientSession): Promise<void>;
}

/** A record's 400, naming the record (`uri` beside `error`, as ArchivesSpace's bulk routes answer). */
function recordProblem(uri: string, errors: FieldErrors): ApiError {
  return new ApiError(400, errors, { uri });
}

/** The stored records of `ids`, in that order; a 404 naming the first that is not there. */
async function storedRecords(
  deps: OperationDeps,
  type: RecordType,
  scope: Scope,
  ids: readonly number[],
  session: ClientSession,
): Promise<StoredRecord[]> {
  const filter = { ...recordFilter(type, 0, scope), id: { $in: [...ids] } };
  const found = await deps.store.collection(type.name).find(filter, { session }).toArray();
  const byId = new Map(found.map((doc) => [doc.id, doc]));
  return ids.map((id) => {
    const doc = byId.get(id);
    if (doc !== undefined) return doc;
    throw new ApiError(404, notFound(type.title).detail, { uri: deps.registry.uriFor(type.name, id, scope.repoId) });
  });
}

/**
 * Applies every edit in one transaction, or none. Needs the type's update permission; a tree node type is not
 * taken (its positions are kept by the tree writes). Answers one update answer per record, in the edits' order.
 * @throws ApiError 403, 404 (with the missing record's `uri`), 400 (with the `uri` of the first record with a
 * problem), 409 (another write changed a record meanwhile), or whatever `options.check` throws
 */
export async function updateRecords(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  edits: readonly RecordEdit[],
  actor: Actor,
  options: UpdateManyOptions = {},
): Promise<WriteResult[]> {
  const type = permittedType(deps, typeName, scope, actor, "update");
  if (isTreeNodeType(type)) throw new Error(`updateRecords does not write tree nodes (${type.name})`);
  if (new Set(edits.map((one) => one.id)).size !== edits.length) throw new Error("updateRecords: an id twice");
  if (edits.length === 0) {
    await requireRepository(deps, type, scope);
    return [];
  }
  const hooks = deps.hooks.of(type.name);
  await deps.enumerations.ready();
  const now = deps.now();
  // Run again from the start if the driver retries the transaction: everything is read inside it.
  const work = async (session: ClientSession): Promise<WriteResult[]> => {
    const stored = await storedRecords(
      deps,
      type,
      scope,
      edits.map((one) => one.id),
      session,
    );
    const prepared: PreparedRecord[] = [];
    const uris: string[] = [];
    for (const [i, edit] of edits.entries()) {
      const existing = stored[i] as StoredRecord;
      const uri = deps.registry.uriFor(type.name, edit.id, scope.repoId);
      const previous = shapeRecord(deps.registry, type, existing, onBehalfOf(actor));
      let input: unknown = { ...edit.edit(structuredClone(previous)), lock_version: existing.lock_version };
      if (hooks?.beforeWrite)
        input = await hooks.beforeWrite({
          type: type.name,
          operation: "update",
          scope,
          actor,
          existing: previous,
          input,
          parameters: NO_PARAMETERS,
        });
      const checked = checkRecord(deps, type, input, existing);
      if (!checked.ok) throw recordProblem(uri, problemsOf(checked, {}));
      prepared.push(checked.prepared);
      uris.push(uri);
    }
    const links = await linkProblemsOfMany(
      deps,
      type.name,
      scope,
      prepared.map((one) => one.fields),
      undefined,
      session,
    );
    for (const [i, errors] of links.entries())
      if (Object.keys(errors).length > 0) throw recordProblem(uris[i] as string, errors);
    for (const [i, one] of prepared.entries())
      keepGuardedFields(type, one.fields, actor, scope.repoId, stored[i] as StoredRecord);
    await options.check?.(
      prepared.map((one, i) => ({ id: (edits[i] as RecordEdit).id, uri: uris[i] as string, fields: one.fields })),
      session,
    );
    const collection = deps.store.collection(type.name);
    if (options.clearFirst !== undefined && options.clearFirst.length > 0) {
      const unset = new Map(options.clearFirst.map((field) => [field, ""]));
      const ids = edits.map((one) => one.id);
      await collection.updateMany(
        { ...recordFilter(type, 0, scope), id: { $in: ids } },
        { $unset: Object.fromEntries(unset) },
        { session },
      );
    }
    const results: WriteResult[] = [];
    for (const [i, one] of prepared.entries()) {
      const existing = stored[i] as StoredRecord;
      const id = existing.id;
      const replacement = {
        ...one.fields,
        ...recordFilter(type, id, scope),
        lock_version: existing.lock_version + 1,
        created_by: existing.created_by,
        create_time: existing.create_time,
        ...updateStamp(actor, now),
      };
      const { matchedCount } = await collection.replaceOne(
        { ...recordFilter(type, id, scope), lock_version: existing.lock_version },
        replacement,
        { session },
      );
      if (matchedCount === 0) throw conflict(LOCK_VERSION_STALE);
      const uri = uris[i] as string;
      if (hasReciprocalItems(type, one.fields, existing))
        await writeMirrors(deps, type, uri, one.fields, existing, { session, actor, now });
      await hooks?.afterUpdate?.({
        type: type.name,
        id,
        scope,
        record: one.fields,
        previous: shapeRecord(deps.registry, type, existing, onBehalfOf(actor)),
        actor: onBehalfOf(actor),
        caller: actor,
        parameters: NO_PARAMETERS,
        session,
      });
      await deps.changes.written({ type: type.name, operation: "update", id, scope }, session);
      results.push({
        status: "Updated",
        id,
        lock_version: existing.lock_version + 1,
        stale: one.stale ? true : null,
        uri,
        warnings: one.warnings,
      });
    }
    return results;
  };
  try {
    return await deps.store.transaction(work);
  } catch (error) {
    throw asDuplicateIdentifier(deps, type.name, error);
  }
}
