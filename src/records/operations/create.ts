// Create (docs/api.md §4): validate, check links, allocate ids, store with the server fields (a
// tree node placed in its tree), run the type's afterCreate hook. One record or many: an
// importer creates a batch at once (checked as a whole before any is written, links between
// its records allowed, one insert), HTTP creates a batch of one. When the type has an
// afterCreate hook, the insert and everything the hook writes are one transaction (a
// repository and its standard groups exist together or not at all).
import type { ClientSession } from "mongodb";
import { ApiError } from "../../errors/api-error.js";
import type { FieldErrors, JsonObject, RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { insertNodes } from "../trees/node-writes.js";
import { isTreeNodeType } from "../trees/tree-links.js";
import type { OperationDeps } from "../deps.js";
import { linkProblemsOfMany } from "./links.js";
import { permittedType, recordFilter, requireRepository } from "./locate.js";
import { assertMayFillGuarded } from "./field-access.js";
import { checkRecord, problemsOf, type PreparedRecord } from "./prepare.js";
import { hasReciprocalItems, writeMirrors } from "./reciprocal-links.js";
import { NO_PARAMETERS, onBehalfOf, type Actor, type Scope, type WriteOptions, type WriteResult } from "../types.js";
import { createStamp } from "./stamps.js";
import { asDuplicateIdentifier } from "./write-errors.js";

/** One record of a batch: its input and, when others in the batch link to it, the id it was given beforehand. */
export interface NewRecord {
  input: unknown;
  id?: number;
}

/** A batch record's problems: the 400 of that record, with its place in the batch. */
export class BatchRecordError extends ApiError {
  constructor(
    readonly index: number,
    errors: FieldErrors,
  ) {
    super(400, errors);
  }
}

function storedRecord(
  type: RecordType,
  scope: Scope,
  id: number,
  fields: JsonObject,
  actor: Actor,
  now: Date,
): StoredRecord {
  return {
    ...fields,
    id,
    ...(type.scope === "repository" ? { repo_id: scope.repoId } : {}),
    lock_version: 0,
    ...createStamp(actor, now),
  };
}

/**
 * The batch's records as they would be stored, or BatchRecordError (ApiError for a batch of
 * one) for the first with a problem. Reads the store (links), writes nothing: importers check a
 * whole file this way before writing any of it. A link to a record of the batch given an id
 * beforehand, or to one of `present`, counts as existing. `onValid` is called once every record
 * has passed its own checks, while the store is read for the rest.
 */
export async function checkRecords(
  deps: OperationDeps,
  type: RecordType,
  scope: Scope,
  items: readonly NewRecord[],
  present: ReadonlySet<string> = new Set(),
  session?: ClientSession,
  onValid?: () => void,
): Promise<PreparedRecord[]> {
  // The repository is read while the records are checked (and onValid's work runs): a missing one is still the
  // answer before any record's problems.
  const repository = requireRepository(deps, type, scope, session);
  repository.catch(() => undefined);
  // Enumerated fields are checked against the enumerations' values as they are now.
  await deps.enumerations.ready();
  const checked = items.map((item) => checkRecord(deps, type, item.input));
  if (checked.every((one) => one.ok)) onValid?.();
  await repository;
  const own = new Set<string>();
  for (const item of items) if (item.id !== undefined) own.add(deps.registry.uriFor(type.name, item.id, scope.repoId));
  // Not a copy of `present`: an import's check pass hands over every uri of the file so far.
  const batch = { has: (uri: string) => own.has(uri) || present.has(uri) };
  const links = await linkProblemsOfMany(
    deps,
    type.name,
    scope,
    checked.map((one) => (one.ok ? one.prepared.fields : (one.fields ?? {}))),
    batch,
    session,
  );
  return checked.map((one, index) => {
    const errors = problemsOf(one, links[index] ?? {});
    if (!one.ok || Object.keys(errors).length > 0)
      throw items.length === 1 ? new ApiError(400, errors) : new BatchRecordError(index, errors);
    return one.prepared;
  });
}

/**
 * Creates the records in order, all checked before any is written (see checkRecords), each as
 * the type's beforeWrite hooks would have it.
 */
export async function createRecords(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  items: readonly NewRecord[],
  actor: Actor,
  present: ReadonlySet<string> = new Set(),
  { session, parameters = NO_PARAMETERS }: WriteOptions = {},
): Promise<WriteResult[]> {
  const type = permittedType(deps, typeName, scope, actor, "create");
  const hooks = deps.hooks.of(type.name);
  const inputs: NewRecord[] = [];
  for (const item of items) {
    const pending = { type: type.name, operation: "create" as const, scope, actor, input: item.input, parameters };
    inputs.push(hooks?.beforeWrite ? { ...item, input: await hooks.beforeWrite(pending) } : item);
  }
  // Ids are allocated outside any transaction: a counter written inside one would make every
  // concurrent create of the type conflict. They are taken once the records pass their own checks,
  // while the repository and links are read (a round trip off every create), and given back if
  // those refuse the create.
  const unassigned = items.filter((item) => item.id === undefined).length;
  let allocation: Promise<number> | undefined;
  const allocate = () => {
    if (unassigned === 0) return;
    allocation = deps.store.nextIds(type.name, unassigned);
    allocation.catch(() => undefined);
  };
  let prepared: PreparedRecord[];
  try {
    prepared = await checkRecords(deps, type, scope, inputs, present, session, allocate);
    for (const one of prepared) assertMayFillGuarded(type, one.fields, actor, scope.repoId);
  } catch (error) {
    const taken = await allocation?.catch(() => undefined);
    if (taken !== undefined) await deps.store.releaseIds(type.name, taken, unassigned);
    throw error;
  }
  const first = allocation === undefined ? 0 : await allocation;
  let next = first;
  const ids = items.map((item) => item.id ?? next++);
  const now = deps.now();
  const docs = prepared.map((one, i) => storedRecord(type, scope, ids[i] as number, one.fields, actor, now));
  const afterCreate = hooks?.afterCreate;
  // Records stating reciprocal links (an agent's relationships) show them on the records they name, in the same
  // transaction.
  const mirrored = prepared.map((one) => hasReciprocalItems(type, one.fields));
  // Run again from the start if the driver retries the transaction: the inserts are undone,
  // and the _ids the driver gave the documents are free to use again.
  let inserted = false;
  const write = async (within: ClientSession | undefined) => {
    inserted = false;
    try {
      if (isTreeNodeType(type)) await insertNodes(deps, type, scope, { now, username: actor.username }, docs, within);
      else if (docs.length === 1)
        await deps.store.collection(type.name).insertOne(docs[0] as StoredRecord, { session: within });
      else await deps.store.collection(type.name).insertMany(docs, { session: within });
    } catch (error) {
      throw asDuplicateIdentifier(deps, type.name, error);
    }
    inserted = true;
    // A tree node's position may have moved as it was inserted: only a plain record is passed on as written.
    const asWritten = (i: number) => (isTreeNodeType(type) ? {} : { record: docs[i] as StoredRecord });
    await deps.changes.writtenAll(
      ids.map((id, i) => ({ type: type.name, operation: "create" as const, id: id as number, scope, ...asWritten(i) })),
      within,
    );
    if (within === undefined) return;
    for (const [i, id] of ids.entries()) {
      if (mirrored[i] !== true) continue;
      // As stored now: an earlier record of the batch may have shown its links on this one, which this one then
      // states back as they are (its own input alone would contradict what that record was just given).
      const stored = await deps.store.collection(type.name).findOne(recordFilter(type, id, scope), { session: within });
      const uri = deps.registry.uriFor(type.name, id, scope.repoId);
      if (stored) await writeMirrors(deps, type, uri, stored, undefined, { session: within, actor, now });
    }
    if (afterCreate === undefined) return;
    for (const [i, one] of prepared.entries())
      await afterCreate({
        type: type.name,
        id: ids[i] as number,
        scope,
        record: one.fields,
        actor: onBehalfOf(actor),
        caller: actor,
        parameters,
        session: within,
      });
  };
  const alone = afterCreate === undefined && !mirrored.includes(true) && !deps.changes.writtenWithin(type.name);
  try {
    if (session !== undefined || alone) await write(session);
    else await deps.store.transaction(write);
  } catch (error) {
    // Nothing was written: our own transaction rolled back, or the insert itself was refused (one insert, or any in a
    // transaction, which a write error aborts). The ids go back, so a refused create moves no counter. Not so for
    // several inserts outside a transaction (some may be written), nor for a failure after the insert within a
    // caller's transaction, whose caller alone knows whether it is undone.
    const ownTransaction = session === undefined && !alone;
    const insertRefused = !inserted && (session !== undefined || docs.length === 1);
    if ((ownTransaction || insertRefused) && unassigned > 0) await deps.store.releaseIds(type.name, first, unassigned);
    throw error;
  }
  const results: WriteResult[] = [];
  for (const [i, one] of prepared.entries()) {
    const id = ids[i] as number;
    // A tree node may land elsewhere than it asked (past the end: appended).
    const moved = isTreeNodeType(type) && docs[i]?.[type.tree.position] !== one.fields[type.tree.position];
    results.push({
      status: "Created",
      id,
      lock_version: 0,
      stale: one.stale || moved ? true : null,
      uri: deps.registry.uriFor(type.name, id, scope.repoId),
      warnings: one.warnings,
    });
  }
  return results;
}

export async function createRecord(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  input: unknown,
  actor: Actor,
  options: WriteOptions = {},
): Promise<WriteResult> {
  const [result] = await createRecords(deps, typeName, scope, [{ input }], actor, new Set(), options);
  if (result === undefined) throw new Error("a batch of one created nothing");
  return result;
}
