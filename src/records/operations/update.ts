// Update (docs/api.md §4): a full replacement of the client-editable fields, conditional on
// the lock_version the client read, so of two concurrent updates exactly one wins.
import type { ClientSession } from "mongodb";
import { conflict } from "../../errors/api-error.js";
import { replaceNode } from "../trees/node-writes.js";
import { isTreeNodeType } from "../trees/tree-links.js";
import type { OperationDeps } from "../deps.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { keepGuardedFields } from "./field-access.js";
import { findStored, permittedType, recordFilter } from "./locate.js";
import { prepareRecord } from "./prepare.js";
import { hasReciprocalItems, writeMirrors } from "./reciprocal-links.js";
import { shapeRecord } from "./shape.js";
import { assertNotSuppressed } from "./suppression.js";
import { NO_PARAMETERS, onBehalfOf, type Actor, type Scope, type WriteOptions, type WriteResult } from "../types.js";
import { updateStamp } from "./stamps.js";
import { asDuplicateIdentifier } from "./write-errors.js";

export const LOCK_VERSION_MISSING = "You must provide a lock_version in your request";
export const LOCK_VERSION_STALE = "The record you tried to update has been modified since you fetched it.";

/** The client's `lock_version`: a whole number, or undefined. */
export function lockVersionOf(input: unknown): number | undefined {
  const value =
    input && typeof input === "object" && !Array.isArray(input)
      ? (input as Record<string, unknown>).lock_version
      : undefined;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export async function updateRecord(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  input: unknown,
  actor: Actor,
  { parameters = NO_PARAMETERS, session }: WriteOptions = {},
): Promise<WriteResult> {
  const type = permittedType(deps, typeName, scope, actor, "update");
  // A tree node's update is serialized per tree in a transaction of its own (replaceNode).
  if (session !== undefined && isTreeNodeType(type))
    throw new Error(`${type.name}: a tree node's update takes no session`);
  const lockVersion = lockVersionOf(input);
  if (lockVersion === undefined) throw conflict(LOCK_VERSION_MISSING);
  const existing = await findStored(deps, type, id, scope, session);
  assertNotSuppressed(type, existing, actor);
  const hooks = deps.hooks.of(type.name);
  const previous = hooks === undefined ? undefined : shapeRecord(deps.registry, type, existing, onBehalfOf(actor));
  const checkedInput = hooks?.beforeWrite
    ? await hooks.beforeWrite({
        type: type.name,
        operation: "update",
        scope,
        actor,
        existing: previous,
        input,
        parameters,
      })
    : input;
  const { fields, stale, warnings } = await prepareRecord(deps, type, scope, checkedInput, existing, session);
  keepGuardedFields(type, fields, actor, scope.repoId, existing);
  const now = deps.now();
  const replacement = {
    ...fields,
    ...recordFilter(type, id, scope),
    lock_version: lockVersion + 1,
    created_by: existing.created_by,
    create_time: existing.create_time,
    ...updateStamp(actor, now),
  };
  const afterUpdate = hooks?.afterUpdate;
  // Reciprocal links (an agent's relationships) shown on the records they name, now and before.
  const mirrored = hasReciprocalItems(type, fields, existing);
  const uri = deps.registry.uriFor(type.name, id, scope.repoId);
  // What the type's afterUpdate hook and the mirrors write is one transaction with the replacement.
  const after =
    afterUpdate === undefined && !mirrored
      ? undefined
      : async (session: ClientSession) => {
          if (mirrored) await writeMirrors(deps, type, uri, fields, existing, { session, actor, now });
          await afterUpdate?.({
            type: type.name,
            id,
            scope,
            record: fields,
            previous,
            actor: onBehalfOf(actor),
            caller: actor,
            parameters,
            session,
          });
        };
  const change = { type: type.name, operation: "update" as const, id, scope };
  // The change is told inside the transaction that writes it, so what is written with it (the search index)
  // commits with the replacement.
  const alongside = async (session: ClientSession, record?: StoredRecord) => {
    await after?.(session);
    await deps.changes.written(record === undefined ? change : { ...change, record }, session);
  };
  let written: boolean;
  let moved = false;
  try {
    // The lock_version in the filter makes this a compare-and-swap: a concurrent update that
    // got in first has already moved it on.
    if (isTreeNodeType(type)) {
      const position = await replaceNode(
        deps,
        type,
        scope,
        { now, username: actor.username },
        existing,
        lockVersion,
        replacement,
        alongside,
      );
      written = position !== undefined;
      moved = written && position !== fields[type.tree.position];
    } else {
      const replace = async (session?: ClientSession) => {
        const { matchedCount } = await deps.store
          .collection(type.name)
          .replaceOne({ ...recordFilter(type, id, scope), lock_version: lockVersion }, replacement, { session });
        if (matchedCount === 0) return false;
        if (session === undefined) await deps.changes.written(change);
        // As written, unless the mirrors may write it again (a record linking itself).
        else await alongside(session, mirrored ? undefined : (replacement as StoredRecord));
        return true;
      };
      // Inside the caller's transaction (a repository written with its agent), or one of its own when hooks,
      // mirrors or side effects of the change (the search index) write beside the replacement.
      const alone = after === undefined && !deps.changes.writtenWithin(type.name);
      if (session !== undefined) written = await replace(session);
      else written = alone ? await replace() : await deps.store.transaction(replace);
    }
  } catch (error) {
    throw asDuplicateIdentifier(deps, type.name, error);
  }
  if (!written) throw conflict(LOCK_VERSION_STALE);
  return {
    status: "Updated",
    id,
    lock_version: lockVersion + 1,
    stale: stale || moved ? true : null,
    uri,
    warnings,
  };
}
